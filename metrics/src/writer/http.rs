//! The InfluxDB 1.x HTTP writer: `POST {host}/write?db=&u=&p=&precision=n` with the batch as
//! body, over a blocking client that keeps connections alive between writes.

use std::time::Duration;

use crate::MetricsError;
use crate::config::InfluxConfig;
use crate::writer::MetricsWriter;

/// Timeouts of the HTTP client. The agent thread waits at most `connect + request` per write,
/// so these bound how stale a flush can be, never how long a producer waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HttpOptions {
    /// Time allowed to open a connection.
    pub connect_timeout: Duration,
    /// Time allowed for a whole request, from sending to the end of the response.
    pub request_timeout: Duration,
}

impl Default for HttpOptions {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(2),
            request_timeout: Duration::from_secs(5),
        }
    }
}

/// Builds the client shared by the writer and [`crate::query::InfluxClient`]. ureq keeps
/// idle connections in a pool, so consecutive writes reuse one TCP connection.
pub(crate) fn http_agent(options: HttpOptions) -> ureq::Agent {
    ureq::AgentBuilder::new()
        .timeout_connect(options.connect_timeout)
        .timeout(options.request_timeout)
        .max_idle_connections_per_host(2)
        .build()
}

/// Adds `u`/`p` to a request when configured. Credentials go in the query string as
/// InfluxDB 1.x expects; ureq percent-encodes them.
pub(crate) fn with_credentials(request: ureq::Request, config: &InfluxConfig) -> ureq::Request {
    let request = if config.username.is_empty() {
        request
    } else {
        request.query("u", &config.username)
    };
    if config.password.is_empty() {
        request
    } else {
        request.query("p", &config.password)
    }
}

/// Turns a ureq result into ours: 2xx is success (body returned), 4xx is a rejection, 5xx and
/// transport failures are retryable. `url` is shown in errors and carries no credentials.
pub(crate) fn finish(
    result: Result<ureq::Response, ureq::Error>,
    url: &str,
) -> Result<String, MetricsError> {
    const MAX_BODY_IN_ERROR: usize = 512;
    match result {
        Ok(response) => response.into_string().map_err(|e| MetricsError::Transport {
            url: url.to_string(),
            reason: format!("reading the response: {e}"),
        }),
        Err(ureq::Error::Status(status, response)) => {
            let mut body = response.into_string().unwrap_or_default();
            if let Some((cut, _)) = body.char_indices().nth(MAX_BODY_IN_ERROR) {
                body.truncate(cut);
            }
            let body = body.trim().to_string();
            let url = url.to_string();
            if status >= 500 {
                Err(MetricsError::ServerFailed { url, status, body })
            } else {
                Err(MetricsError::Rejected { url, status, body })
            }
        }
        Err(ureq::Error::Transport(t)) => {
            // Built from the parts, not `t.to_string()`, which would print the URL with `p=`.
            let mut reason = t.kind().to_string();
            if let Some(message) = t.message() {
                reason = format!("{reason}: {message}");
            }
            if let Some(source) = std::error::Error::source(&t) {
                reason = format!("{reason}: {source}");
            }
            Err(MetricsError::Transport {
                url: url.to_string(),
                reason,
            })
        }
    }
}

/// Writes batches to InfluxDB.
#[derive(Debug)]
pub struct HttpWriter {
    agent: ureq::Agent,
    config: InfluxConfig,
    /// `{host}/write`, the URL without its query.
    write_url: String,
    /// The URL shown in errors: `{host}/write?db={db}`.
    display_url: String,
}

impl HttpWriter {
    /// A writer for `config`; no connection is made until the first write.
    pub fn new(config: InfluxConfig, options: HttpOptions) -> Self {
        let write_url = format!("{}/write", config.host);
        let display_url = format!("{write_url}?db={}", config.db);
        Self {
            agent: http_agent(options),
            config,
            write_url,
            display_url,
        }
    }
}

impl MetricsWriter for HttpWriter {
    fn write(&self, body: &str, _lines: usize) -> Result<(), MetricsError> {
        let request = self
            .agent
            .post(&self.write_url)
            .query("db", &self.config.db)
            .query("precision", "n");
        let request = with_credentials(request, &self.config);
        finish(request.send_string(body), &self.display_url).map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::TcpListener;

    /// Serves `responses` in order on one listener, returning each request's head and body.
    fn serve(responses: Vec<&'static str>) -> (String, std::thread::JoinHandle<Vec<String>>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let addr = format!("http://{}", listener.local_addr().expect("addr"));
        let handle = std::thread::spawn(move || {
            let mut seen = Vec::new();
            let (stream, _) = listener.accept().expect("accept");
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            for response in responses {
                let mut head = String::new();
                let mut length = 0usize;
                loop {
                    let mut line = String::new();
                    reader.read_line(&mut line).expect("read");
                    if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                        length = v.trim().parse().expect("length");
                    }
                    if line == "\r\n" {
                        break;
                    }
                    head.push_str(&line);
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).expect("body");
                seen.push(format!("{head}\n{}", String::from_utf8_lossy(&body)));
                (&stream).write_all(response.as_bytes()).expect("respond");
            }
            seen
        });
        (addr, handle)
    }

    #[test]
    fn posts_with_query_and_reuses_the_connection() {
        let (addr, server) = serve(vec![
            "HTTP/1.1 204 No Content\r\n\r\n",
            "HTTP/1.1 400 Bad Request\r\nContent-Length: 22\r\n\r\n{\"error\":\"bad line x\"}",
            "HTTP/1.1 503 Unavailable\r\nContent-Length: 0\r\n\r\n",
        ]);
        let mut config = InfluxConfig::new(addr, "db 1");
        config.username = "me".into();
        config.password = "s&cret".into();
        let w = HttpWriter::new(config, HttpOptions::default());
        w.write("m v=1i 1\n", 1).expect("204 is success");
        let rejected = w.write("bad\n", 1).expect_err("400");
        assert!(
            matches!(rejected, MetricsError::Rejected { status: 400, .. }),
            "{rejected}"
        );
        assert!(rejected.to_string().contains("bad line x") && !rejected.is_retryable());
        let failed = w.write("m v=1i 2\n", 1).expect_err("503");
        assert!(
            failed.is_retryable() && !failed.to_string().contains("s&cret"),
            "{failed}"
        );
        // All three requests arrived on the one accepted connection.
        let seen = server.join().expect("server thread");
        assert_eq!(seen.len(), 3);
        assert!(
            seen[0].starts_with("POST /write?db=db+1&precision=n&u=me&p=s%26cret HTTP/1.1"),
            "{}",
            seen[0]
        );
        assert!(seen[0].ends_with("\nm v=1i 1\n"), "{}", seen[0]);
    }

    #[test]
    fn unreachable_server_is_retryable_and_hides_the_password() {
        let port = TcpListener::bind("127.0.0.1:0")
            .expect("bind")
            .local_addr()
            .expect("addr")
            .port();
        let mut config = InfluxConfig::new(format!("http://127.0.0.1:{port}"), "x");
        config.password = "hunter2".into();
        let err = HttpWriter::new(config, HttpOptions::default())
            .write("m v=1i 1\n", 1)
            .expect_err("nothing listens");
        assert!(err.is_retryable(), "{err}");
        assert!(!err.to_string().contains("hunter2"), "{err}");
    }
}
