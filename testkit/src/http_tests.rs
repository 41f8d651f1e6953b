use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::thread;

use std::net::SocketAddr;

use super::*;

/// A server on 127.0.0.1 that answers each connection's requests with `answers` in turn
/// (raw bytes), closing the connection after the answers given for it run out.
fn serve(
    per_connection: Vec<Vec<&'static [u8]>>,
) -> (SocketAddr, thread::JoinHandle<Vec<Vec<u8>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("test plumbing");
    let addr = listener.local_addr().expect("test plumbing");
    let handle = thread::spawn(move || {
        let mut bodies = Vec::new();
        for answers in per_connection {
            let (stream, _) = listener.accept().expect("test plumbing");
            let mut reader = BufReader::new(stream.try_clone().expect("test plumbing"));
            let mut writer = stream;
            for answer in answers {
                let mut length = 0;
                let mut first = String::new();
                reader.read_line(&mut first).expect("test plumbing");
                assert!(first.starts_with("POST /rpc HTTP/1.1"), "{first}");
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).expect("test plumbing");
                    if line == "\r\n" {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length: ") {
                        length = v.trim().parse().expect("test plumbing");
                    }
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).expect("test plumbing");
                bodies.push(body);
                writer.write_all(answer).expect("test plumbing");
            }
        }
        bodies
    });
    (addr, handle)
}

fn connection(addr: SocketAddr) -> KeepAlive {
    KeepAlive::connect_with_timeout(addr, Duration::from_secs(10))
        .expect("test plumbing")
        .with_path("/rpc")
}

#[test]
fn reads_length_chunked_and_close_delimited_bodies_on_one_connection() {
    let (addr, server) = serve(vec![vec![
        b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
        b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n",
        b"HTTP/1.1 500 Internal\r\nconnection: close\r\n\r\nbye",
    ]]);
    let mut c = connection(addr);
    let r = c.post_answer(b"{\"a\":1}").expect("test plumbing");
    assert_eq!((r.status, &r.body[..]), (200, &b"hello"[..]));
    let r = c.post_answer(b"{}").expect("test plumbing");
    assert_eq!((r.status, &r.body[..]), (200, &b"abcde"[..]));
    let r = c.post_answer(b"[]").expect("test plumbing");
    assert_eq!((r.status, &r.body[..]), (500, &b"bye"[..]));
    assert!(c.stream.is_none(), "a closing answer ends the connection");
    let bodies = server.join().expect("test plumbing");
    assert_eq!(
        bodies,
        vec![b"{\"a\":1}".to_vec(), b"{}".to_vec(), b"[]".to_vec()]
    );
}

#[test]
fn a_connection_closed_by_the_server_is_reopened_once() {
    // The first connection answers once and closes without saying so.
    let (addr, server) = serve(vec![
        vec![b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n1"],
        vec![b"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n2"],
    ]);
    let mut c = connection(addr);
    assert_eq!(c.post_answer(b"x").expect("test plumbing").body, b"1");
    assert_eq!(c.post_answer(b"y").expect("test plumbing").body, b"2");
    assert_eq!(server.join().expect("test plumbing").len(), 2);
}

#[test]
fn stated_sizes_and_bad_heads_are_errors_not_allocations() {
    let cases: [(&'static [u8], &str); 5] = [
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: 999999999999\r\n\r\n",
            "over",
        ),
        (
            b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n",
            "bad Content-Length",
        ),
        (b"SMTP 220 hi\r\n\r\n", "not an HTTP/1.x status line"),
        (b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "without a colon"),
        (
            b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nffffffffff\r\n",
            "over",
        ),
    ];
    for (answer, expected) in cases {
        let (addr, server) = serve(vec![vec![answer]]);
        let err = connection(addr).post_answer(b"{}").expect_err("an error");
        assert!(err.to_string().contains(expected), "{answer:?}: {err}");
        server.join().expect("test plumbing");
    }
}

#[test]
fn a_body_cut_short_names_how_far_it_got() {
    let (addr, server) = serve(vec![vec![
        b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc",
    ]]);
    let err = connection(addr).post_answer(b"{}").expect_err("an error");
    assert!(
        err.to_string().contains("3 bytes into a 10-byte body"),
        "{err}"
    );
    server.join().expect("test plumbing");
}
