"""Requests whose answers come from the HTTP layer around JSON-RPC rather than from a method:
which methods, paths and content types reach JSON-RPC, `/health`, `OPTIONS`, and the
cross-origin (CORS) headers a browser page needs. Each is sent on a connection of its own
to both servers; the status, the headers below and the body must be equal.
"""

# The answer's headers compared (length, date and connection are the HTTP library's own).
COMPARED = (
    "content-type",
    "allow",
    "accept",
    "vary",
    "access-control-allow-origin",
    "access-control-allow-methods",
    "access-control-allow-headers",
    "access-control-max-age",
)

HEALTH = b'{"jsonrpc":"2.0","id":1,"method":"getHealth"}'
JSON = {"Content-Type": "application/json"}
ORIGIN = {"Origin": "https://App.Example:0443/page"}


def requests():
    """(method, path, headers, body) tuples."""
    big = b'{"jsonrpc":"2.0","id":1,"method":"getHealth","params":["' + b"a" * 60_000 + b'"]}'
    preflight = {
        **ORIGIN,
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, solana-client",
    }
    out = [("POST", path, JSON, HEALTH) for path in ("/", "/rpc", "/health/", "//", "/?x=1")]
    for content_type in (
        None,
        "text/plain",
        "application/json; charset=UTF-8",
        "application/json;charset=utf-8",
        "application/json; charset=iso-8859-1",
        "application/json;",
        "application/json-rpc",
    ):
        headers = {} if content_type is None else {"Content-Type": content_type}
        out.append(("POST", "/", headers, HEALTH))
    for method in ("GET", "POST", "HEAD", "PUT", "OPTIONS"):
        out.append((method, "/health?x=1", {}, b""))
    for method, path in (("GET", "/"), ("HEAD", "/"), ("PUT", "/"), ("DELETE", "/x")):
        out.append((method, path, {}, b""))
    out += [
        ("OPTIONS", "/", {}, b""),
        ("OPTIONS", "/", preflight, b""),
        ("POST", "/", {**JSON, **ORIGIN}, HEALTH),
        ("POST", "/", {**JSON, "Origin": "null"}, HEALTH),
        ("POST", "/", {**JSON, "Origin": "a://b://c"}, HEALTH),
        ("POST", "/", {"Content-Type": "text/plain", **ORIGIN}, HEALTH),
        ("GET", "/", ORIGIN, b""),
        ("GET", "/health", ORIGIN, b""),
        ("POST", "/", {**JSON, **ORIGIN}, b"{"),
        ("POST", "/", {**JSON, **ORIGIN}, big),
    ]
    return out


def answer(client, request):
    """One server's status, compared headers and body text for one request."""
    status, headers, body = client.exchange(*request)
    shown = {name: headers[name] for name in COMPARED if name in headers}
    return [status, shown, body.decode("utf-8", "replace")]


def describe(request):
    method, path, headers, body = request
    sent = " ".join(f"{k}: {v}" for k, v in headers.items())
    return f"{method} {path} [{sent}] {body[:60].decode('utf-8', 'replace')}"
