//! A keep-alive HTTP/1.1 client of a JSON-RPC server, for the benchmarks and load tools:
//! one connection, one request at a time, the response body read by its `Content-Length`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};

use crate::TestkitError;

/// One keep-alive connection to a JSON-RPC server.
#[derive(Debug)]
pub struct KeepAlive {
    addr: SocketAddr,
    reader: BufReader<TcpStream>,
    writer: TcpStream,
}

fn http(what: &'static str) -> impl FnOnce(std::io::Error) -> TestkitError {
    move |source| TestkitError::Http { what, source }
}

impl KeepAlive {
    /// Connects to `addr` (no Nagle delay: requests are small and one at a time).
    pub fn connect(addr: SocketAddr) -> Result<Self, TestkitError> {
        let writer = TcpStream::connect(addr).map_err(http("connect"))?;
        writer.set_nodelay(true).map_err(http("set nodelay"))?;
        let reader = BufReader::new(writer.try_clone().map_err(http("clone the socket"))?);
        Ok(Self {
            addr,
            reader,
            writer,
        })
    }

    /// Posts `body` and reads the response body into `sink` (cleared first, reused).
    pub fn post_into(&mut self, body: &str, sink: &mut Vec<u8>) -> Result<(), TestkitError> {
        let head = format!(
            "POST / HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        self.writer
            .write_all(head.as_bytes())
            .and_then(|()| self.writer.write_all(body.as_bytes()))
            .map_err(http("write the request"))?;
        let mut length = None;
        let mut line = String::new();
        loop {
            line.clear();
            self.reader
                .read_line(&mut line)
                .map_err(http("read a header"))?;
            let header = line.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((name, value)) = header.split_once(':')
                && name.eq_ignore_ascii_case("content-length")
            {
                length = value.trim().parse::<usize>().ok();
            }
        }
        let length = length.ok_or_else(|| TestkitError::Http {
            what: "read the Content-Length header",
            source: std::io::Error::new(std::io::ErrorKind::InvalidData, "missing or not a number"),
        })?;
        sink.clear();
        sink.resize(length, 0);
        self.reader.read_exact(sink).map_err(http("read the body"))
    }

    /// Posts `body` and returns the response body as text.
    pub fn post(&mut self, body: &str) -> Result<String, TestkitError> {
        let mut sink = Vec::new();
        self.post_into(body, &mut sink)?;
        Ok(String::from_utf8_lossy(&sink).into_owned())
    }
}
