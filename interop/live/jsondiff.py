"""Value-for-value comparison of two JSON-RPC answers, and a short readable diff.

Two answers are equal when their `result` (or their `error`) are equal as parsed JSON:
the same keys, the same values, the same list order; 1 and 1.0 are different values (Agave
never writes a float where an integer belongs, so a change of type is a difference).
"""

import json


def comparable(answer):
    """The part of a response object that must match: `result` or `error`, and for
    RpcResponse results (`context` + `value`) the value and the context's keys only (the
    context's slot is the server's own bank or tip at the moment of the call)."""
    if "error" in answer:
        return {"error": answer["error"]}
    result = answer.get("result")
    if isinstance(result, dict) and set(result) == {"context", "value"}:
        context = result["context"]
        keys = sorted(context) if isinstance(context, dict) else context
        return {"result": {"context_keys": keys, "value": result["value"]}}
    return {"result": result}


def _same(a, b):
    # bool is an int in Python, and 1 == 1.0: compare types as JSON would spell them.
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def same(a, b):
    return _same(a, b)


def _short(value, width=120):
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= width else text[: width - 3] + "..."


def differences(a, b, path="$", limit=12):
    """Up to `limit` lines `path: left != right`, the first places where a and b differ."""
    out = []
    _walk(a, b, path, out, limit)
    return out


def _walk(a, b, path, out, limit):
    if len(out) >= limit or _same(a, b):
        return
    if isinstance(a, dict) and isinstance(b, dict):
        for key in sorted(set(a) | set(b)):
            if key not in a:
                out.append(f"{path}.{key}: missing on the left, right has {_short(b[key])}")
            elif key not in b:
                out.append(f"{path}.{key}: left has {_short(a[key])}, missing on the right")
            else:
                _walk(a[key], b[key], f"{path}.{key}", out, limit)
            if len(out) >= limit:
                return
        return
    if isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: {len(a)} items on the left, {len(b)} on the right")
        for i, (x, y) in enumerate(zip(a, b)):
            _walk(x, y, f"{path}[{i}]", out, limit)
            if len(out) >= limit:
                return
        return
    out.append(f"{path}: {_short(a)} != {_short(b)}")
