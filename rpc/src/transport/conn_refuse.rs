//! The answer a connection beyond the cap gets: HTTP 503 with a JSON-RPC -32005 body and
//! `Connection: close`, then the socket is closed. No request is parsed or served.
//!
//! Bounds: at most [`MAX_REFUSING`] refusals are in progress at once (each holds one small
//! task and its socket for at most [`LINGER`]); beyond that a connection is closed with no
//! answer, so a flood can never make refusing itself grow without bound.

use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::Semaphore;

/// Refusals in progress at once.
pub(crate) const MAX_REFUSING: usize = 4096;

/// How long a refused socket is kept: the time to write the answer and drain what the
/// client already sent (closing with unread bytes would reset the connection, and the
/// client could lose the answer before reading it).
pub(crate) const LINGER: Duration = Duration::from_secs(2);

/// The most a refused connection's unread request bytes are drained.
const DRAIN_BYTES: usize = 64 * 1024;

const BODY: &str = concat!(
    r#"{"jsonrpc":"2.0","error":{"code":-32005,"#,
    r#""message":"Node is busy: connection limit reached","#,
    r#""data":{"numSlotsBehind":null}},"id":null}"#
);

/// The whole HTTP response.
fn response() -> String {
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\nconnection: close\r\n\r\n{BODY}",
        BODY.len()
    )
}

/// Answers `stream` with 503 / -32005 on a task of its own, if fewer than
/// [`MAX_REFUSING`] refusals are in progress; else closes it at once. Returns whether it
/// was answered.
pub(crate) fn refuse(stream: TcpStream, refusing: &Arc<Semaphore>) -> bool {
    let Ok(permit) = Arc::clone(refusing).try_acquire_owned() else {
        drop(stream);
        return false;
    };
    tokio::spawn(async move {
        let _ = tokio::time::timeout(LINGER, answer(stream)).await;
        drop(permit);
    });
    true
}

async fn answer(mut stream: TcpStream) {
    if stream.write_all(response().as_bytes()).await.is_err() {
        return;
    }
    let _ = stream.shutdown().await;
    // Drain (bounded) until the client closes, so the close is not a reset.
    let mut buf = [0u8; 4096];
    let mut drained = 0;
    while drained < DRAIN_BYTES {
        match stream.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_a_complete_http_response_with_a_json_rpc_error() {
        let text = response();
        let (head, body) = text.split_once("\r\n\r\n").expect("head and body");
        assert!(head.starts_with("HTTP/1.1 503 "));
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(json["error"]["code"], -32005);
        assert!(json["id"].is_null());
    }
}
