//! A keep-alive HTTP/1.1 client of a JSON-RPC server, for the benchmarks and load tools
//! (`bstore bench rpc-load` among them): one connection, one request at a time, little CPU
//! per request, so a load generator on the same cores as the servers it measures takes as
//! little from them as it can.
//!
//! Only what JSON-RPC servers send is read: a status line, headers, and a body sized by
//! `Content-Length`, by chunked transfer coding, or by the connection's close. Every size
//! the peer states is bounded before anything is read or allocated for it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use crate::TestkitError;

/// Longest header section read.
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Largest body read (a getBlock answer of a full mainnet block is a few MB).
pub const MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

/// A status code and a body.
#[derive(Debug)]
pub struct Response {
    /// The HTTP status code.
    pub status: u16,
    /// The whole body.
    pub body: Vec<u8>,
}

/// One keep-alive connection to a JSON-RPC server, reopened when the server closes it.
#[derive(Debug)]
pub struct KeepAlive {
    addr: SocketAddr,
    /// The request target (`/` unless [`Self::with_path`] set another).
    path: String,
    stream: Option<TcpStream>,
    /// Bytes read past the end of the last answer (none with a well-behaved server).
    buf: Vec<u8>,
    /// Connect, read and write timeout (`None`: wait as long as it takes).
    timeout: Option<Duration>,
    /// Whether any byte of the current answer has been read.
    received: bool,
}

fn http(what: &'static str) -> impl FnOnce(std::io::Error) -> TestkitError {
    move |source| TestkitError::Http { what, source }
}

fn answer(why: impl Into<String>) -> TestkitError {
    TestkitError::HttpAnswer(why.into())
}

impl KeepAlive {
    /// Connects to `addr` (no Nagle delay: requests are small and one at a time).
    pub fn connect(addr: SocketAddr) -> Result<Self, TestkitError> {
        Self::open(addr, None)
    }

    /// [`Self::connect`], with `timeout` on connecting and on every read and write.
    pub fn connect_with_timeout(addr: SocketAddr, timeout: Duration) -> Result<Self, TestkitError> {
        Self::open(addr, Some(timeout))
    }

    fn open(addr: SocketAddr, timeout: Option<Duration>) -> Result<Self, TestkitError> {
        let mut this = Self {
            addr,
            path: "/".into(),
            stream: None,
            buf: Vec::with_capacity(16 * 1024),
            timeout,
            received: false,
        };
        this.stream = Some(this.new_stream()?);
        Ok(this)
    }

    /// Posts to `path` instead of `/`.
    #[must_use]
    pub fn with_path(mut self, path: &str) -> Self {
        self.path = path.into();
        self
    }

    fn new_stream(&self) -> Result<TcpStream, TestkitError> {
        let stream = match self.timeout {
            Some(t) => TcpStream::connect_timeout(&self.addr, t),
            None => TcpStream::connect(self.addr),
        }
        .map_err(http("connect"))?;
        stream.set_nodelay(true).map_err(http("set nodelay"))?;
        stream
            .set_read_timeout(self.timeout)
            .map_err(http("set a read timeout"))?;
        stream
            .set_write_timeout(self.timeout)
            .map_err(http("set a write timeout"))?;
        Ok(stream)
    }

    /// Posts `body` and puts the response body in `sink` (its old contents replaced).
    pub fn post_into(&mut self, body: &str, sink: &mut Vec<u8>) -> Result<(), TestkitError> {
        *sink = self.post_answer(body.as_bytes())?.body;
        Ok(())
    }

    /// Posts `body` and returns the response body as text.
    pub fn post(&mut self, body: &str) -> Result<String, TestkitError> {
        let answer = self.post_answer(body.as_bytes())?;
        Ok(String::from_utf8_lossy(&answer.body).into_owned())
    }

    /// POSTs `body` (JSON) and reads the whole answer. When a kept-alive connection fails
    /// before any byte of the answer came (the server closed it while idle), the request
    /// is sent once more on a new connection.
    pub fn post_answer(&mut self, body: &[u8]) -> Result<Response, TestkitError> {
        let reused = self.stream.is_some();
        self.received = false;
        match self.exchange(body) {
            Err(_) if reused && !self.received => self.exchange(body),
            other => other,
        }
    }

    fn exchange(&mut self, body: &[u8]) -> Result<Response, TestkitError> {
        let result = self.exchange_once(body);
        if result.is_err() {
            self.stream = None;
            self.buf.clear();
        }
        result
    }

    fn exchange_once(&mut self, body: &[u8]) -> Result<Response, TestkitError> {
        if self.stream.is_none() {
            self.buf.clear();
            self.stream = Some(self.new_stream()?);
        }
        let Some(stream) = self.stream.as_mut() else {
            return Err(answer("no connection"));
        };
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.path,
            self.addr,
            body.len()
        );
        let mut request = Vec::with_capacity(head.len() + body.len());
        request.extend_from_slice(head.as_bytes());
        request.extend_from_slice(body);
        stream
            .write_all(&request)
            .map_err(http("write the request"))?;
        let mut reader = Reader {
            stream,
            buf: &mut self.buf,
            received: &mut self.received,
        };
        let header_len = reader.fill_until_headers()?;
        let head = Head::parse(reader.buf.get(..header_len).unwrap_or_default())?;
        reader.buf.drain(..header_len);
        let body = match head.framing {
            Framing::Length(n) => reader.take_exact(n)?,
            Framing::Chunked => reader.take_chunked()?,
            Framing::UntilClose => reader.take_to_close()?,
        };
        if head.close || head.framing == Framing::UntilClose {
            self.stream = None;
        }
        Ok(Response {
            status: head.status,
            body,
        })
    }
}

/// How the body's end is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    Length(usize),
    Chunked,
    UntilClose,
}

/// The parts of a response head the client needs.
#[derive(Debug)]
struct Head {
    status: u16,
    framing: Framing,
    close: bool,
}

impl Head {
    /// Parses a status line and headers ending with the blank line.
    fn parse(bytes: &[u8]) -> Result<Self, TestkitError> {
        let text = std::str::from_utf8(bytes).map_err(|_| answer("response head is not UTF-8"))?;
        let mut lines = text.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().unwrap_or_default();
        if !version.starts_with("HTTP/1.") {
            return Err(answer(format!(
                "not an HTTP/1.x status line: {status_line:?}"
            )));
        }
        let status = parts
            .next()
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or_else(|| answer(format!("no status code in {status_line:?}")))?;
        let mut framing = if version == "HTTP/1.0" {
            Framing::UntilClose
        } else {
            Framing::Length(0)
        };
        let mut close = version == "HTTP/1.0";
        let mut has_length = false;
        for line in lines.filter(|l| !l.is_empty()) {
            let Some((name, value)) = line.split_once(':') else {
                return Err(answer(format!("header line without a colon: {line:?}")));
            };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                let n: usize = value
                    .parse()
                    .map_err(|_| answer(format!("bad Content-Length {value:?}")))?;
                if n > MAX_BODY_BYTES {
                    return Err(answer(format!("Content-Length {n} over {MAX_BODY_BYTES}")));
                }
                if framing != Framing::Chunked {
                    framing = Framing::Length(n);
                }
                has_length = true;
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                if value.to_ascii_lowercase().ends_with("chunked") {
                    framing = Framing::Chunked;
                }
            } else if name.eq_ignore_ascii_case("connection") {
                close = value.eq_ignore_ascii_case("close");
            }
        }
        if framing == Framing::Length(0) && !has_length && close {
            framing = Framing::UntilClose;
        }
        Ok(Self {
            status,
            framing,
            close,
        })
    }
}

/// Reads from the stream through the connection's buffer.
struct Reader<'a> {
    stream: &'a mut TcpStream,
    buf: &'a mut Vec<u8>,
    received: &'a mut bool,
}

impl Reader<'_> {
    /// Reads more bytes into the buffer; `false` at the end of the stream.
    fn fill(&mut self) -> Result<bool, TestkitError> {
        let mut chunk = [0u8; 64 * 1024];
        let n = self
            .stream
            .read(&mut chunk)
            .map_err(http("read the answer"))?;
        self.buf
            .extend_from_slice(chunk.get(..n).unwrap_or_default());
        *self.received |= n > 0;
        Ok(n > 0)
    }

    /// The length of the head (through its blank line), reading until it is whole.
    fn fill_until_headers(&mut self) -> Result<usize, TestkitError> {
        let mut searched = 0;
        loop {
            if let Some(i) = find(self.buf, b"\r\n\r\n", searched) {
                return Ok(i + 4);
            }
            if self.buf.len() > MAX_HEADER_BYTES {
                return Err(answer(format!(
                    "response head over {MAX_HEADER_BYTES} bytes"
                )));
            }
            searched = self.buf.len().saturating_sub(3);
            if !self.fill()? {
                return Err(answer("connection closed before a response head"));
            }
        }
    }

    /// The next `n` bytes (the caller bounded `n`).
    fn take_exact(&mut self, n: usize) -> Result<Vec<u8>, TestkitError> {
        while self.buf.len() < n {
            if !self.fill()? {
                return Err(answer(format!(
                    "connection closed {} bytes into a {n}-byte body",
                    self.buf.len()
                )));
            }
        }
        Ok(self.buf.drain(..n).collect())
    }

    /// A chunked body, joined.
    fn take_chunked(&mut self) -> Result<Vec<u8>, TestkitError> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(self.buf, b"\r\n", 0) {
                    break i;
                }
                if self.buf.len() > 1024 {
                    return Err(answer("chunk size line over 1 KiB"));
                }
                if !self.fill()? {
                    return Err(answer("connection closed inside a chunk size line"));
                }
            };
            let line = std::str::from_utf8(self.buf.get(..line_end).unwrap_or_default())
                .map_err(|_| answer("chunk size line is not UTF-8"))?;
            let hex = line.split(';').next().unwrap_or_default().trim();
            let size = usize::from_str_radix(hex, 16)
                .map_err(|_| answer(format!("bad chunk size {hex:?}")))?;
            if size > MAX_BODY_BYTES - body.len() {
                return Err(answer(format!("chunked body over {MAX_BODY_BYTES} bytes")));
            }
            self.buf.drain(..line_end + 2);
            if size == 0 {
                // Trailers are not sent by these servers: only the final blank line.
                self.take_exact(2)?;
                return Ok(body);
            }
            let chunk = self.take_exact(size + 2)?;
            body.extend_from_slice(chunk.get(..size).unwrap_or_default());
        }
    }

    /// Everything until the server closes the connection.
    fn take_to_close(&mut self) -> Result<Vec<u8>, TestkitError> {
        while self.fill()? {
            if self.buf.len() > MAX_BODY_BYTES {
                return Err(answer(format!("body over {MAX_BODY_BYTES} bytes")));
            }
        }
        Ok(std::mem::take(self.buf))
    }
}

/// The first position at or after `from` where `needle` starts in `hay`.
fn find(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
