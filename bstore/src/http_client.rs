//! A blocking HTTP/1.1 client for JSON-RPC POSTs over one keep-alive connection, for
//! `bstore bench rpc-load`: little CPU per request, so a load generator on the same cores
//! as the servers it measures takes as little from them as it can.
//!
//! Only what the two servers it is pointed at send is read: a status line, headers, and a
//! body sized by `Content-Length`, by chunked transfer coding, or by the connection's close.
//! Every size the peer states is bounded before anything is read or allocated for it.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Longest header section read.
const MAX_HEADER_BYTES: usize = 64 * 1024;
/// Largest body read (a getBlock answer of a full mainnet block is a few MB).
pub(crate) const MAX_BODY_BYTES: usize = 256 * 1024 * 1024;

/// One `http://host:port[/path]` endpoint.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    addr: SocketAddr,
    host: String,
    path: String,
}

impl Endpoint {
    /// Parses `url` (plain `http://` only) and resolves its host.
    pub(crate) fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("{url}: only http:// URLs are served here"))?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let addr = host
            .to_socket_addrs()
            .map_err(|e| format!("{url}: {e}"))?
            .next()
            .ok_or_else(|| format!("{url}: the host resolves to no address"))?;
        Ok(Self {
            addr,
            host: host.to_string(),
            path: path.to_string(),
        })
    }
}

/// A status code and a body.
#[derive(Debug)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) body: Vec<u8>,
}

/// One keep-alive connection, reopened when the server closes it.
#[derive(Debug)]
pub(crate) struct Connection {
    endpoint: Endpoint,
    stream: Option<TcpStream>,
    /// Bytes read past the end of the last response (none with a well-behaved server).
    buf: Vec<u8>,
    timeout: Duration,
    /// Whether any byte of the current answer has been read.
    received: bool,
}

impl Connection {
    pub(crate) fn new(endpoint: Endpoint, timeout: Duration) -> Self {
        Self {
            endpoint,
            stream: None,
            buf: Vec::with_capacity(16 * 1024),
            timeout,
            received: false,
        }
    }

    /// POSTs `body` (JSON) and reads the whole answer. When a kept-alive connection fails
    /// before any byte of the answer came (the server closed it while idle), the request
    /// is sent once more on a new connection.
    pub(crate) fn post(&mut self, body: &[u8]) -> Result<Response, String> {
        let reused = self.stream.is_some();
        self.received = false;
        match self.exchange(body) {
            Err(_) if reused && !self.received => self.exchange(body),
            other => other,
        }
    }

    fn exchange(&mut self, body: &[u8]) -> Result<Response, String> {
        let result = self.exchange_once(body);
        if result.is_err() {
            self.stream = None;
            self.buf.clear();
        }
        result
    }

    fn exchange_once(&mut self, body: &[u8]) -> Result<Response, String> {
        let stream = match &mut self.stream {
            Some(s) => s,
            None => {
                let s = TcpStream::connect_timeout(&self.endpoint.addr, self.timeout)
                    .map_err(|e| format!("connect {}: {e}", self.endpoint.addr))?;
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                s.set_read_timeout(Some(self.timeout))
                    .map_err(|e| e.to_string())?;
                s.set_write_timeout(Some(self.timeout))
                    .map_err(|e| e.to_string())?;
                self.buf.clear();
                self.stream.insert(s)
            }
        };
        let head = format!(
            "POST {} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n",
            self.endpoint.path,
            self.endpoint.host,
            body.len()
        );
        let mut request = Vec::with_capacity(head.len() + body.len());
        request.extend_from_slice(head.as_bytes());
        request.extend_from_slice(body);
        stream
            .write_all(&request)
            .map_err(|e| format!("write: {e}"))?;
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
    fn parse(bytes: &[u8]) -> Result<Self, String> {
        let text = std::str::from_utf8(bytes).map_err(|_| "response head is not UTF-8")?;
        let mut lines = text.split("\r\n");
        let status_line = lines.next().unwrap_or_default();
        let mut parts = status_line.splitn(3, ' ');
        let version = parts.next().unwrap_or_default();
        if !version.starts_with("HTTP/1.") {
            return Err(format!("not an HTTP/1.x status line: {status_line:?}"));
        }
        let status = parts
            .next()
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or_else(|| format!("no status code in {status_line:?}"))?;
        let mut framing = if version == "HTTP/1.0" {
            Framing::UntilClose
        } else {
            Framing::Length(0)
        };
        let mut close = version == "HTTP/1.0";
        let mut has_length = false;
        for line in lines.filter(|l| !l.is_empty()) {
            let Some((name, value)) = line.split_once(':') else {
                return Err(format!("header line without a colon: {line:?}"));
            };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                let n: usize = value
                    .parse()
                    .map_err(|_| format!("bad Content-Length {value:?}"))?;
                if n > MAX_BODY_BYTES {
                    return Err(format!("Content-Length {n} over {MAX_BODY_BYTES}"));
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
    fn fill(&mut self) -> Result<bool, String> {
        let mut chunk = [0u8; 64 * 1024];
        let n = self
            .stream
            .read(&mut chunk)
            .map_err(|e| format!("read: {e}"))?;
        self.buf
            .extend_from_slice(chunk.get(..n).unwrap_or_default());
        *self.received |= n > 0;
        Ok(n > 0)
    }

    /// The length of the head (through its blank line), reading until it is whole.
    fn fill_until_headers(&mut self) -> Result<usize, String> {
        let mut searched = 0;
        loop {
            if let Some(i) = find(self.buf, b"\r\n\r\n", searched) {
                return Ok(i + 4);
            }
            if self.buf.len() > MAX_HEADER_BYTES {
                return Err(format!("response head over {MAX_HEADER_BYTES} bytes"));
            }
            searched = self.buf.len().saturating_sub(3);
            if !self.fill()? {
                return Err("connection closed before a response head".into());
            }
        }
    }

    /// The next `n` bytes (the caller bounded `n`).
    fn take_exact(&mut self, n: usize) -> Result<Vec<u8>, String> {
        while self.buf.len() < n {
            if !self.fill()? {
                return Err(format!(
                    "connection closed {} bytes into a {n}-byte body",
                    self.buf.len()
                ));
            }
        }
        Ok(self.buf.drain(..n).collect())
    }

    /// A chunked body, joined.
    fn take_chunked(&mut self) -> Result<Vec<u8>, String> {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(i) = find(self.buf, b"\r\n", 0) {
                    break i;
                }
                if self.buf.len() > 1024 {
                    return Err("chunk size line over 1 KiB".into());
                }
                if !self.fill()? {
                    return Err("connection closed inside a chunk size line".into());
                }
            };
            let line = std::str::from_utf8(self.buf.get(..line_end).unwrap_or_default())
                .map_err(|_| "chunk size line is not UTF-8")?;
            let hex = line.split(';').next().unwrap_or_default().trim();
            let size =
                usize::from_str_radix(hex, 16).map_err(|_| format!("bad chunk size {hex:?}"))?;
            if size > MAX_BODY_BYTES - body.len() {
                return Err(format!("chunked body over {MAX_BODY_BYTES} bytes"));
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
    fn take_to_close(&mut self) -> Result<Vec<u8>, String> {
        while self.fill()? {
            if self.buf.len() > MAX_BODY_BYTES {
                return Err(format!("body over {MAX_BODY_BYTES} bytes"));
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
#[path = "http_client_tests.rs"]
mod tests;
