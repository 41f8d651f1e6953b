"""A small JSON-RPC 2.0 client over one keep-alive HTTP connection (standard library only).

Shared by the live scripts (workload, compare, freshness, load). Every call returns the
whole response object (`result` or `error`), so callers can compare errors too; `call`
raises only for transport failures and for answers that are not JSON-RPC.
"""

import http.client
import json
import time
import urllib.parse


class RpcTransportError(Exception):
    """The server could not be reached or did not answer with JSON-RPC."""


class RpcError(Exception):
    """The server answered with a JSON-RPC error object where a result was required."""

    def __init__(self, method, params, error):
        super().__init__(f"{method} {json.dumps(params)[:200]}: {error}")
        self.error = error


class Client:
    """One keep-alive connection to `url`; not shared between threads."""

    def __init__(self, url, timeout=30.0):
        parts = urllib.parse.urlsplit(url)
        if parts.scheme != "http" or not parts.hostname:
            raise ValueError(f"only http://HOST:PORT URLs are supported, got {url!r}")
        self.url = url
        self.host = parts.hostname
        self.port = parts.port or 80
        self.path = parts.path or "/"
        self.timeout = timeout
        self.conn = None
        self.next_id = 1

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def _post(self, body):
        # One retry on a fresh connection: a keep-alive connection the server closed
        # (idle timeout) fails on first use without the request having been handled.
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            try:
                self.conn.request(
                    "POST", self.path, body=body, headers={"Content-Type": "application/json"}
                )
                response = self.conn.getresponse()
                data = response.read()
                return response.status, data
            except (OSError, http.client.HTTPException) as e:
                self.close()
                if attempt == 1:
                    raise RpcTransportError(f"{self.url}: {e}") from e
        raise RpcTransportError(f"{self.url}: unreachable")

    def post(self, body):
        """One raw body (bytes) as sent; the HTTP status and the body bytes."""
        return self._post(body)

    def exchange(self, method, path, headers, body=b""):
        """One request exactly as given, on a connection of its own: the HTTP status, the
        answer's headers (names lowercased) and its body bytes."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            headers = {name.lower(): value for name, value in response.getheaders()}
            return response.status, headers, response.read()
        except (OSError, http.client.HTTPException) as e:
            raise RpcTransportError(f"{self.url} {method} {path}: {e}") from e
        finally:
            conn.close()

    def raw(self, method, params=None):
        """One request; the HTTP status and the body bytes, not parsed (for load runs)."""
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self.next_id += 1
        return self._post(json.dumps(request).encode())

    def call(self, method, params=None):
        """The response object of one request: a dict with `result` or `error`."""
        request = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            request["params"] = params
        self.next_id += 1
        status, data = self._post(json.dumps(request).encode())
        try:
            answer = json.loads(data)
        except ValueError as e:
            raise RpcTransportError(
                f"{self.url} {method}: HTTP {status}, not JSON: {data[:200]!r}"
            ) from e
        if not isinstance(answer, dict) or ("result" not in answer and "error" not in answer):
            raise RpcTransportError(f"{self.url} {method}: not a JSON-RPC answer: {data[:200]!r}")
        return answer

    def result(self, method, params=None):
        """The `result` of one request; a JSON-RPC error raises `RpcError`."""
        answer = self.call(method, params)
        if "error" in answer:
            raise RpcError(method, params, answer["error"])
        return answer["result"]


def wait_until_serving(client, seconds):
    """Polls getSlot until the server answers it, at most `seconds`; returns the slot."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        try:
            return client.result("getSlot", [{"commitment": "finalized"}])
        except (RpcTransportError, RpcError) as e:
            last = e
            time.sleep(0.2)
    raise RpcTransportError(f"{client.url} did not serve getSlot within {seconds} s: {last}")


def percentile(sorted_values, fraction):
    """Nearest-rank percentile of an already sorted list (None when it is empty)."""
    if not sorted_values:
        return None
    rank = max(1, -(-int(fraction * 1000) * len(sorted_values) // 1000))
    return sorted_values[min(rank, len(sorted_values)) - 1]
