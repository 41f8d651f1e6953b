//! The HTTP connection bounds, seen by raw TCP clients on 127.0.0.1 with short configured
//! timeouts: a half-sent header is cut at the header timeout, a slow body at the body
//! timeout, an idle keep-alive connection at the idle timeout, and connections beyond the
//! cap are closed as soon as they are accepted.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use bstore_rpc::{ConnLimits, RpcConfig};
use common::*;
use serde_json::{Value, json};

/// Generous for a loaded 2-core machine, far below "never".
const SLACK: Duration = Duration::from_secs(3);

fn server(conn: ConnLimits) -> TestServer {
    TestServer::start(RpcConfig {
        conn,
        ..RpcConfig::default()
    })
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .expect("read timeout");
    s
}

/// Reads until the server closes; how long that took and what was read. A read timeout
/// (the server never closed) fails the test.
fn until_closed(s: &mut TcpStream) -> (Duration, Vec<u8>) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return (start.elapsed(), got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => return (start.elapsed(), got),
            Err(e) => panic!("the server kept the connection open ({e}) after {got:?}"),
        }
    }
}

/// `raw` is the refusal: HTTP 503 with a JSON-RPC -32005 error, and nothing else.
fn assert_refused(raw: &[u8]) {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    let json: Value = serde_json::from_str(body).expect("a JSON body");
    assert_eq!(json["error"]["code"], -32005, "{json}");
}

/// One keep-alive request on `s`; returns the response body.
fn keep_alive_call(s: &mut TcpStream, body: &str) -> Value {
    let head = format!(
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("head");
    s.write_all(body.as_bytes()).expect("body");
    let mut raw = Vec::new();
    let mut buf = [0u8; 4096];
    // Bounded: a response is read until its Content-Length is complete.
    loop {
        let n = s.read(&mut buf).expect("response");
        assert!(n > 0, "closed before the response");
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw).to_string();
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let len: usize = head
                .lines()
                .find_map(|l| {
                    let (k, v) = l.split_once(':')?;
                    k.eq_ignore_ascii_case("content-length")
                        .then(|| v.trim().parse().ok())?
                })
                .expect("content-length");
            if rest.len() >= len {
                return serde_json::from_str(&rest[..len]).expect("JSON body");
            }
        }
    }
}

const HEALTH: &str = r#"{"jsonrpc":"2.0","id":1,"method":"getHealth"}"#;

#[test]
fn half_sent_headers_are_cut_at_the_header_timeout() {
    let timeout = Duration::from_millis(500);
    let t = server(ConnLimits {
        header_read_timeout: timeout,
        idle_timeout: Duration::from_secs(60),
        ..ConnLimits::default()
    });
    let mut clients: Vec<TcpStream> = (0..50)
        .map(|_| {
            let mut s = connect(t.addr());
            s.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Le")
                .expect("half a header");
            s
        })
        .collect();
    for s in &mut clients {
        let (after, _) = until_closed(s);
        assert!(after < timeout + SLACK, "closed only after {after:?}");
    }
    // A slow drip of header bytes does not extend it either.
    let mut s = connect(t.addr());
    let start = Instant::now();
    for b in b"POST / HTTP/1.1\r\nHost: x\r\n".iter().cycle().take(40) {
        if s.write_all(&[*b]).is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    until_closed(&mut s);
    assert!(start.elapsed() < timeout + SLACK, "{:?}", start.elapsed());
    assert_eq!(t.result("getHealth", json!([])), "ok");
}

#[test]
fn a_slow_body_is_cut_at_the_body_timeout() {
    let timeout = Duration::from_millis(500);
    let t = server(ConnLimits {
        body_read_timeout: timeout,
        idle_timeout: Duration::from_secs(60),
        ..ConnLimits::default()
    });
    let mut s = connect(t.addr());
    s.write_all(b"POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"")
        .expect("header and some body");
    let start = Instant::now();
    // Bytes keep coming, but too slowly: the body is never complete in time.
    for _ in 0..10 {
        if s.write_all(b" ").is_err() {
            break;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let (_, raw) = until_closed(&mut s);
    assert!(start.elapsed() < timeout + SLACK, "{:?}", start.elapsed());
    let text = String::from_utf8_lossy(&raw);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"code\":-32600"), "{text}");
}

#[test]
fn idle_keep_alive_connections_are_closed() {
    let idle = Duration::from_millis(400);
    let t = server(ConnLimits {
        idle_timeout: idle,
        header_read_timeout: Duration::from_secs(30),
        ..ConnLimits::default()
    });
    let mut s = connect(t.addr());
    // Keep-alive works while the client is active...
    for _ in 0..3 {
        assert_eq!(keep_alive_call(&mut s, HEALTH)["result"], "ok");
    }
    // ...and a silent client is closed after the idle timeout (not the 30 s header one).
    let (after, rest) = until_closed(&mut s);
    assert!(rest.is_empty(), "{rest:?}");
    assert!(after < idle + SLACK, "closed only after {after:?}");
    // A connection that never sends anything is closed too.
    let mut silent = connect(t.addr());
    let (after, _) = until_closed(&mut silent);
    assert!(after < idle + SLACK, "{after:?}");
}

#[test]
fn connections_beyond_the_cap_are_answered_503_at_once() {
    let cap = 8;
    let t = server(ConnLimits {
        max_connections: cap,
        idle_timeout: Duration::from_secs(60),
        header_read_timeout: Duration::from_secs(60),
        ..ConnLimits::default()
    });
    // `cap` connections, each proven accepted by a request, held open.
    let mut held: Vec<TcpStream> = (0..cap)
        .map(|_| {
            let mut s = connect(t.addr());
            assert_eq!(keep_alive_call(&mut s, HEALTH)["result"], "ok");
            s
        })
        .collect();
    for _ in 0..20 {
        let mut extra = connect(t.addr());
        let _ = extra.write_all(HEALTH.as_bytes());
        let (after, raw) = until_closed(&mut extra);
        assert_refused(&raw);
        assert!(after < SLACK, "closed only after {after:?}");
    }
    // A burst of 200 at once beyond the cap: every one gets the 503 answer, none is served
    // and none is dropped without one.
    let addr = t.addr();
    let burst: Vec<_> = (0..200)
        .map(|_| {
            std::thread::spawn(move || {
                let mut s = connect(addr);
                let head = format!(
                    "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{HEALTH}",
                    HEALTH.len()
                );
                let _ = s.write_all(head.as_bytes());
                until_closed(&mut s).1
            })
        })
        .collect();
    for answer in burst {
        assert_refused(&answer.join().expect("client thread"));
    }
    // The held ones still work; closing one frees its place.
    assert_eq!(keep_alive_call(&mut held[0], HEALTH)["result"], "ok");
    drop(held.pop());
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut s = connect(t.addr());
        let head = format!(
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{HEALTH}",
            HEALTH.len()
        );
        let _ = s.write_all(head.as_bytes());
        let mut buf = [0u8; 12];
        // Until the server has seen the close, the place is still taken: a 503 then is
        // right, and the test asks again.
        if s.read_exact(&mut buf).is_ok() && &buf != b"HTTP/1.1 503" {
            assert_eq!(&buf, b"HTTP/1.1 200");
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the freed place was never reused"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
