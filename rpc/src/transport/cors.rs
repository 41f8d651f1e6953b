//! Cross-origin requests, answered as Agave's RPC answers them (its HTTP server allows
//! every origin; checked against a running 4.4.0 validator), so that a browser page can
//! use bstore wherever it uses the validator:
//!
//! - no `Origin`, one that is not visible ASCII, or one naming the request's own `Host`
//!   (`<scheme>://<Host>`, any scheme, nothing after it): no CORS headers;
//! - `Origin: null`: 403 and a text saying the origin is not allowed (the only origin
//!   refused);
//! - any other origin: every answer (not `/health`'s) carries
//!   `Access-Control-Allow-Origin` with the origin as Agave rewrites it ([`normalized`]),
//!   `Access-Control-Allow-Methods: OPTIONS, POST`, `Access-Control-Max-Age: 86400`,
//!   `Vary: origin`, and `Access-Control-Allow-Headers` repeating the request's
//!   `Access-Control-Request-Headers` when it has one.

use hyper::header::{self, HeaderMap, HeaderValue};

/// What the request's `Origin` asks of the answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Cors {
    /// No cross-origin request: no CORS headers.
    NotRequired,
    /// An allowed origin: the headers to add.
    Allowed {
        /// `Access-Control-Allow-Origin`.
        origin: HeaderValue,
        /// `Access-Control-Allow-Headers`: the request's `Access-Control-Request-Headers`.
        headers: Option<HeaderValue>,
    },
    /// `Origin: null`: refused with 403.
    Forbidden,
}

/// The 403 body for a refused origin (Agave's words).
pub(crate) const FORBIDDEN_TEXT: &str = "Origin of the request is not whitelisted. CORS \
    headers would not be sent and any side-effects were cancelled as well.\n";

/// The methods a cross-origin page may use.
const METHODS: HeaderValue = HeaderValue::from_static("OPTIONS, POST");

/// How long a browser may keep a preflight's answer, in seconds.
const MAX_AGE: HeaderValue = HeaderValue::from_static("86400");

/// Sorts a request by its headers.
pub(crate) fn of(request: &HeaderMap) -> Cors {
    // A value that is not visible ASCII is no origin at all.
    let Some(origin) = request.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return Cors::NotRequired;
    };
    if origin == "null" {
        return Cors::Forbidden;
    }
    let sent = origin;
    let origin = normalized(sent);
    // The request's own host: the origin as sent ends with it and names it exactly.
    let host = request.get(header::HOST).and_then(|v| v.to_str().ok());
    let own =
        |host: &str| sent.ends_with(host) && origin.split_once("://").map(|(_, h)| h) == Some(host);
    if host.is_some_and(own) {
        return Cors::NotRequired;
    }
    match HeaderValue::from_str(&origin) {
        Ok(origin) => Cors::Allowed {
            origin,
            headers: request.get(header::ACCESS_CONTROL_REQUEST_HEADERS).cloned(),
        },
        // Unreachable: a visible-ASCII origin stays visible ASCII.
        Err(_) => Cors::NotRequired,
    }
}

/// An origin as Agave's RPC writes it back: `<scheme>://<host>[:<port>]`. The scheme is
/// what comes before the first `://` (`http` without one), lowercased; the host part is
/// what follows, up to the next `://`, lowercased and cut at its first `/`; the port is
/// what follows its first `:` up to the next one, written as a number when it reads as
/// a u16, as sent otherwise.
pub(crate) fn normalized(origin: &str) -> String {
    let mut parts = origin.split("://");
    let first = parts.next().unwrap_or_default();
    let (scheme, rest) = match parts.next() {
        Some(rest) => (first.to_ascii_lowercase(), rest),
        None => ("http".to_string(), first),
    };
    let rest = rest.to_ascii_lowercase();
    let authority = rest.split('/').next().unwrap_or_default();
    let mut host_port = authority.split(':');
    let host = host_port.next().unwrap_or_default();
    match host_port.next() {
        None => format!("{scheme}://{host}"),
        Some(port) => match port.parse::<u16>() {
            Ok(number) => format!("{scheme}://{host}:{number}"),
            Err(_) => format!("{scheme}://{host}:{port}"),
        },
    }
}

/// Adds the CORS headers `cors` calls for to an answer's headers.
pub(crate) fn add(cors: &Cors, answer: &mut HeaderMap) {
    let Cors::Allowed { origin, headers } = cors else {
        return;
    };
    answer.insert(header::VARY, HeaderValue::from_static("origin"));
    answer.insert(header::ACCESS_CONTROL_ALLOW_METHODS, METHODS);
    answer.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
    answer.insert(header::ACCESS_CONTROL_MAX_AGE, MAX_AGE);
    if let Some(headers) = headers {
        answer.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, headers.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each pair was sent to a 4.4.0 validator; the right side is the
    /// `Access-Control-Allow-Origin` it answered.
    #[test]
    fn origins_are_rewritten_as_agaves() {
        for (sent, answered) in [
            ("https://a.b", "https://a.b"),
            ("https://A.B:443/path", "https://a.b:443"),
            ("a://b://c", "a://b"),
            ("HTTPS://x:notaport:9", "https://x:notaport"),
            ("http://x:0080", "http://x:80"),
            ("*", "http://*"),
            ("https://a.b?q#f", "https://a.b?q#f"),
            ("http://[::1]:8080", "http://[:"),
            ("https://a.b/p:1", "https://a.b"),
            ("https://a.b:1/x:2", "https://a.b:1"),
            ("a.b/c", "http://a.b"),
            ("https://a.b:1?x/y", "https://a.b:1?x"),
            ("https://", "https://"),
            ("://a", "://a"),
            ("https://a.b:65536", "https://a.b:65536"),
            ("https://a.b:+80", "https://a.b:80"),
            ("https://a.b:", "https://a.b:"),
            ("https://user@a.b", "https://user@a.b"),
            ("http://a.b//c", "http://a.b"),
            ("https://a.b:80:90/z", "https://a.b:80"),
            ("", "http://"),
            ("NULL", "http://null"),
            ("file://", "file://"),
        ] {
            assert_eq!(normalized(sent), answered, "{sent}");
        }
    }

    fn request(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn requests_are_sorted_by_origin_and_host() {
        let allowed = |origin: &'static str| Cors::Allowed {
            origin: HeaderValue::from_static(origin),
            headers: None,
        };
        assert_eq!(of(&request(&[])), Cors::NotRequired);
        assert_eq!(of(&request(&[("origin", "null")])), Cors::Forbidden);
        assert_eq!(
            of(&request(&[
                ("origin", "https://a.b"),
                ("origin", "https://c.d")
            ])),
            allowed("https://a.b")
        );
        // The request's own host, by any scheme; the comparison is exact.
        for (host, origin, expected) in [
            ("127.0.0.1:8899", "http://127.0.0.1:8899", Cors::NotRequired),
            (
                "127.0.0.1:8899",
                "https://127.0.0.1:8899",
                Cors::NotRequired,
            ),
            ("a.b", "http://a.b", Cors::NotRequired),
            ("a.b", "http://a.b/", allowed("http://a.b")),
            ("a.b:80", "http://a.b:80", Cors::NotRequired),
            ("a.b", "http://xa.b", allowed("http://xa.b")),
            ("A.B", "http://a.b", allowed("http://a.b")),
        ] {
            assert_eq!(
                of(&request(&[("host", host), ("origin", origin)])),
                expected,
                "{host} {origin}"
            );
        }
        let mut not_ascii = HeaderMap::new();
        let value = HeaderValue::from_bytes("https://ä.b".as_bytes()).expect("header bytes");
        not_ascii.insert(header::ORIGIN, value);
        assert_eq!(of(&not_ascii), Cors::NotRequired);

        let preflight = request(&[
            ("origin", "https://a.b"),
            ("access-control-request-headers", "Content-Type, X-Foo"),
        ]);
        let cors = of(&preflight);
        let mut answer = HeaderMap::new();
        add(&cors, &mut answer);
        let shown: Vec<_> = [
            "vary",
            "access-control-allow-methods",
            "access-control-allow-origin",
            "access-control-max-age",
            "access-control-allow-headers",
        ]
        .iter()
        .map(|name| answer.get(*name).and_then(|v| v.to_str().ok()))
        .collect();
        assert_eq!(
            shown,
            [
                Some("origin"),
                Some("OPTIONS, POST"),
                Some("https://a.b"),
                Some("86400"),
                Some("Content-Type, X-Foo")
            ]
        );
        let mut untouched = HeaderMap::new();
        add(&Cors::NotRequired, &mut untouched);
        assert!(untouched.is_empty());
    }
}
