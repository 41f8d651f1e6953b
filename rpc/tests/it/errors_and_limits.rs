//! Bad inputs get clear JSON-RPC errors with the standard or Solana codes, and the server
//! keeps serving afterwards.

use crate::common;

use bstore_rpc::{Limits, RpcConfig};
use common::*;
use serde_json::{Value, json};

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

fn still_up(t: &TestServer) {
    assert_eq!(t.result("getHealth", json!([])), "ok");
}

#[test]
fn malformed_requests() {
    let t = TestServer::start(Default::default());
    let addr = t.addr();

    let (status, text) = post(addr, b"{\"jsonrpc\": \"2.0\", \"method\": ");
    assert_eq!(status, 200);
    let r = parse(&text);
    assert_eq!(r["error"]["code"], -32700);
    assert_eq!(r["error"]["message"], "Parse error");
    assert_eq!(r["id"], Value::Null);

    for (body, code) in [
        (json!(42), -32700),
        (
            json!({"jsonrpc": "1.0", "id": 3, "method": "getSlot"}),
            -32600,
        ),
        (json!({"jsonrpc": "2.0", "id": 3, "method": 7}), -32600),
        (
            json!({"jsonrpc": "2.0", "id": [1], "method": "getSlot"}),
            -32700,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getSlot", "params": "x"}),
            -32600,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlok", "params": [1]}),
            -32601,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": []}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": ["ten"]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [-1]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [1.5]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": {"slot": 10}}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [10, {"encoding": "hex"}]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [10, {"commitment": "processed"}]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [10, {}, 3]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlocks", "params": [0, 600000]}),
            -32602,
        ),
        (
            json!({"jsonrpc": "2.0", "id": 3, "method": "getBlocksWithLimit", "params": [0, 500001]}),
            -32602,
        ),
    ] {
        let (status, text) = post(addr, body.to_string().as_bytes());
        assert_eq!(status, 200, "{body}");
        let r = parse(&text);
        assert_eq!(r["error"]["code"], code, "{body} -> {r}");
        assert!(
            r["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
        assert_eq!(r["jsonrpc"], "2.0");
    }
    // A commitment Agave 4.x cannot read (another type, an unknown level, an old alias) is
    // no commitment: the default, finalized, as a 4.4.0 validator answers.
    let finalized = t.result("getSlot", json!([{"commitment": "finalized"}]));
    for commitment in [
        json!(5),
        json!("bogus"),
        json!("recent"),
        json!("singleGossip"),
    ] {
        let slot = t.result("getSlot", json!([{ "commitment": commitment }]));
        assert_eq!(slot, finalized, "{commitment}");
    }
    // Params and configs that do not parse, in a 4.4.0 validator's words.
    let wrapper =
        "Invalid params: data did not match any variant of untagged enum RpcEncodingConfigWrapper.";
    for params in [
        json!([10, {"encoding": "foo"}]),
        json!([10, "foo"]),
        json!([10, {"maxSupportedTransactionVersion": "x"}]),
        json!([10, {"transactionDetails": "bogus"}]),
    ] {
        assert_eq!(
            t.error("getBlock", params.clone())["message"],
            wrapper,
            "{params}"
        );
    }
    for params in [
        json!([10, "x"]),
        json!([10, -5]),
        json!([10, {"minContextSlot": "x"}]),
    ] {
        assert_eq!(
            t.error("getBlocks", params.clone())["message"],
            "Invalid params: data did not match any variant of untagged enum RpcBlocksConfigWrapper.",
            "{params}"
        );
    }
    let r = t.error("getSlot", json!(["finalized"]));
    assert_eq!(
        r["message"],
        "Invalid params: invalid type: string \"finalized\", expected struct RpcContextConfig."
    );
    for (method, params, message, data) in [
        (
            "getSlot",
            json!([1, 2]),
            "Invalid parameters: Expected from 0 to 1 parameters.",
            json!("\"Got: 2\""),
        ),
        (
            "getBlock",
            json!([22, 2, 3]),
            "Invalid parameters: Expected from 1 to 2 parameters.",
            json!("\"Got: 3\""),
        ),
        (
            "getBlock",
            json!([]),
            "`params` should have at least 1 argument(s)",
            Value::Null,
        ),
        (
            "getBlock",
            json!({"slot": 1}),
            "`params` should be an array",
            Value::Null,
        ),
        (
            "getHealth",
            json!([1]),
            "Invalid parameters: No parameters were expected",
            json!("Array([Number(1)])"),
        ),
        (
            "getVersion",
            json!([1]),
            "Invalid parameters: No parameters were expected",
            json!("Array([Number(1)])"),
        ),
        (
            "getBlockTime",
            json!([]),
            "Invalid params: invalid length 0, expected a tuple of size 1.",
            Value::Null,
        ),
        (
            "getBlockTime",
            json!([1, 2]),
            "Invalid params: invalid length 2, expected fewer elements in array.",
            Value::Null,
        ),
        (
            "getBlockTime",
            Value::Null,
            "Invalid params: invalid type: null, expected a tuple of size 1.",
            Value::Null,
        ),
    ] {
        let r = t.error(method, params.clone());
        assert_eq!(
            (r["code"].clone(), r["message"].clone(), r["data"].clone()),
            (json!(-32602), json!(message), data),
            "{method} {params}"
        );
    }
    let r = t.error("getBlock", json!([10, {"commitment": "processed"}]));
    assert_eq!(
        r["message"],
        "Method does not support commitment below `confirmed`"
    );
    let r = t.error("getBlock", json!(["ten"]));
    assert!(
        r["message"]
            .as_str()
            .expect("message")
            .starts_with("Invalid params: ")
    );
    still_up(&t);
}

/// Envelope errors exactly as a running Agave 4.4.0 validator's RPC answered the same
/// bodies (2026-12-07; its `jsonrpc-core`): no `data`, parse errors for anything that is
/// not a request object, the request's id kept, no `jsonrpc` member when the call had none.
#[test]
fn envelope_errors_are_agaves() {
    let t = TestServer::start(Default::default());
    let addr = t.addr();
    let parse_error =
        json!({"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null});
    let invalid = |id: Value| json!({"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid request"}, "id": id});
    let cases: [(&str, Value); 25] = [
        (r#"{"jsonrpc": "2.0", "method": "#, parse_error.clone()),
        ("", parse_error.clone()),
        ("[1]", parse_error.clone()),
        (r#""just a string""#, parse_error.clone()),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"getSlot"}"#,
            parse_error.clone(),
        ),
        (
            r#"{"jsonrpc":"2.0","id":-5,"method":"getHealth"}"#,
            parse_error.clone(),
        ),
        (
            r#"{"jsonrpc":"2.0","id":true,"method":"getHealth"}"#,
            parse_error.clone(),
        ),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"getSlot"},5,{"jsonrpc":"2.0","id":2,"method":"nope"}]"#,
            parse_error.clone(),
        ),
        // A repeated `id` fits no request form (serde derive sees every repetition)...
        (
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"getSlot"}"#,
            parse_error.clone(),
        ),
        (r#"{"jsonrpc":"2.0","id":1,"id":1}"#, parse_error.clone()),
        (
            r#"[{"jsonrpc":"2.0","id":1,"method":"getSlot"},{"jsonrpc":"2.0","id":2,"id":3,"method":"getSlot"}]"#,
            parse_error,
        ),
        // ... any other repeated member leaves only the invalid-request form.
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"getSlot","method":"getSlot"}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":"2.0","jsonrpc":"2.0","id":1,"method":"getSlot"}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"id":1,"method":"getSlot","method":"getSlot"}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":"2.0","method":"getSlot","method":"getSlot"}"#,
            invalid(Value::Null),
        ),
        (
            r#"[{"jsonrpc":"2.0","id":2,"method":"getSlot","params":[],"params":[]}]"#,
            json!([{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid request"}, "id": 2}]),
        ),
        (r#"{"jsonrpc":"2.0","id":1}"#, invalid(json!(1))),
        (
            r#"{"jsonrpc":"1.0","id":1,"method":"getSlot"}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":2.0,"id":1,"method":"getHealth"}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"getSlot","params":5}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":"2.0","id":1,"method":"getSlot","extra":true}"#,
            invalid(json!(1)),
        ),
        (
            r#"{"jsonrpc":"1.0","method":"getHealth"}"#,
            invalid(Value::Null),
        ),
        (
            r#"{"id":1,"method":"getSlot"}"#,
            json!({"error": {"code": -32600, "message": "Unsupported JSON-RPC protocol version"}, "id": 1}),
        ),
        (
            r#"[{"jsonrpc":"2.0","id":1}]"#,
            json!([{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid request"}, "id": 1}]),
        ),
        (
            r#"{"jsonrpc": "2.0", "id": 1, "method": "nope"}"#,
            json!({"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": 1}),
        ),
    ];
    for (body, expected) in cases {
        let (status, text) = post(addr, body.as_bytes());
        assert_eq!(status, 200, "{body}");
        assert_eq!(parse(&text), expected, "{body}");
        // Agave's answers end with a newline.
        assert!(
            text.ends_with("}\n") || text.ends_with("]\n"),
            "{body}: {text:?}"
        );
    }
    // A notification without a version is not answered either.
    let (status, text) = post(addr, br#"{"method":"getHealth"}"#);
    assert_eq!((status, text.as_str()), (200, ""));
    still_up(&t);
}

/// The HTTP rules around JSON-RPC, as a running 4.4.0 validator answered the same requests.
#[test]
fn http_rules_are_agaves() {
    let t = TestServer::start(Default::default());
    let addr = t.addr();
    let slot = json!({"jsonrpc": "2.0", "id": 1, "method": "getSlot"}).to_string();
    let json_type = "Content-Type: application/json";
    let answered = |(status, head, body): (u16, String, String), what: &str| {
        assert_eq!(status, 200, "{what}");
        assert!(
            head.contains("content-type: application/json; charset=utf-8"),
            "{what}: {head}"
        );
        assert!(parse(&body)["result"].is_u64(), "{what}: {body}");
    };

    // JSON-RPC on every path but `/health`, under exactly Agave's JSON content types.
    for path in ["/", "/rpc", "/health/", "//", "/?x=1"] {
        answered(
            send(addr, &format!("POST {path}"), &[json_type], slot.as_bytes()),
            path,
        );
    }
    for content_type in [
        "application/json; charset=utf-8",
        "APPLICATION/JSON; CHARSET=UTF-8",
        "application/json;charset=utf-8",
        "application/json ",
    ] {
        let header = format!("Content-Type: {content_type}");
        answered(
            send(addr, "POST /", &[&header], slot.as_bytes()),
            content_type,
        );
    }
    let not_json =
        "Supplied content type is not allowed. Content-Type: application/json is required\n";
    for headers in [
        &["Content-Type: text/plain"][..],
        &[],
        &["Content-Type: application/json; charset=iso-8859-1"],
        &["Content-Type: application/json;"],
        &["Content-Type: application/json-rpc"],
    ] {
        let (status, head, body) = send(addr, "POST /", headers, slot.as_bytes());
        assert_eq!((status, body.as_str()), (415, not_json), "{headers:?}");
        assert!(
            head.contains("content-type: text/plain; charset=utf-8"),
            "{head}"
        );
    }

    // `/health` by any method, nothing but its length in the head.
    for method in ["GET", "POST", "PUT", "OPTIONS", "HEAD"] {
        let (status, head, body) = send(addr, &format!("{method} /health?x=1"), &[], b"");
        let expected = if method == "HEAD" { "" } else { "ok" };
        assert_eq!((status, body.as_str()), (200, expected), "{method}");
        assert!(head.contains("content-length: 2"), "{method}: {head}");
        assert!(!head.contains("content-type"), "{method}: {head}");
    }

    // Other methods: 405 with Agave's words; OPTIONS: what is allowed.
    let not_post = "Used HTTP Method is not allowed. POST or OPTIONS is required\n";
    for line in ["GET /", "PUT /", "DELETE /x", "GET /genesis.tar.bz2"] {
        let (status, head, body) = send(addr, line, &[], b"");
        assert_eq!((status, body.as_str()), (405, not_post), "{line}");
        assert!(
            head.contains("content-type: text/plain; charset=utf-8"),
            "{line}: {head}"
        );
    }
    let (status, head, body) = send(addr, "HEAD /", &[], b"");
    assert_eq!((status, body.as_str()), (405, ""));
    assert!(head.contains("content-length: 61"), "{head}");
    let (status, head, body) = send(addr, "OPTIONS /", &[], b"");
    assert_eq!((status, body.as_str()), (200, ""));
    for line in [
        "allow: options, post",
        "accept: application/json",
        "content-type: application/json; charset=utf-8",
    ] {
        assert!(head.contains(line), "{line}: {head}");
    }
    assert!(!head.contains("access-control"), "{head}");

    // Cross-origin: a preflight, a call and a refusal each carry Agave's headers.
    let cors = [
        "vary: origin",
        "access-control-allow-methods: options, post",
        "access-control-allow-origin: https://app.example",
        "access-control-max-age: 86400",
    ];
    let (status, head, _) = send(
        addr,
        "OPTIONS /",
        &[
            "Origin: https://App.Example/page",
            "Access-Control-Request-Method: POST",
            "Access-Control-Request-Headers: content-type, solana-client",
        ],
        b"",
    );
    assert_eq!(status, 200);
    for line in cors
        .iter()
        .chain(&["access-control-allow-headers: content-type, solana-client"])
    {
        assert!(head.contains(line), "{line}: {head}");
    }
    let origin = "Origin: https://app.example";
    let reply = send(addr, "POST /", &[json_type, origin], slot.as_bytes());
    for line in cors {
        assert!(reply.1.contains(line), "{line}: {}", reply.1);
    }
    assert!(
        !reply.1.contains("access-control-allow-headers"),
        "{}",
        reply.1
    );
    answered(reply, "cross-origin call");
    let (status, head, _) = send(addr, "GET /", &[origin], b"");
    assert_eq!(status, 405);
    assert!(head.contains(cors[2]), "{head}");
    // The request's own host is no cross-origin request.
    let own = format!("Origin: http://{addr}");
    let (_, head, _) = send(addr, "POST /", &[json_type, &own], slot.as_bytes());
    assert!(!head.contains("access-control"), "{head}");
    let (status, head, body) = send(
        addr,
        "POST /",
        &[json_type, "Origin: null"],
        slot.as_bytes(),
    );
    assert_eq!(status, 403);
    assert!(
        body.starts_with("Origin of the request is not whitelisted."),
        "{body}"
    );
    assert!(!head.contains("access-control"), "{head}");
    still_up(&t);
}

#[test]
fn missing_skipped_cleaned_up_dead_and_beyond() {
    let t = TestServer::start(Default::default());
    let cases = [
        (
            5,
            -32001,
            "Block 5 cleaned up, does not exist on node. First available block: 11".to_string(),
        ),
        (
            13,
            -32007,
            "Slot 13 was skipped, or missing due to ledger jump to recent snapshot".to_string(),
        ),
        (
            SYNTH_DEAD,
            -32004,
            format!("Block not available for slot {SYNTH_DEAD}"),
        ),
        (
            SYNTH_FIRST + 100,
            -32004,
            format!("Block not available for slot {}", SYNTH_FIRST + 100),
        ),
        (
            u64::MAX,
            -32004,
            format!("Block not available for slot {}", u64::MAX),
        ),
    ];
    for (slot, code, message) in cases {
        for commitment in ["finalized", "confirmed"] {
            let cfg = json!({"commitment": commitment, "maxSupportedTransactionVersion": 0});
            let e = t.error("getBlock", json!([slot, cfg]));
            assert_eq!(e["code"], code, "slot {slot} {commitment}");
            assert_eq!(e["message"], message.as_str(), "slot {slot} {commitment}");
        }
    }
    let e = t.error("getBlockTime", json!([13]));
    assert_eq!(e["code"], -32007);
    still_up(&t);
}

/// Agave counts no batch's items (its 50 KiB body limit bounds them): neither does bstore by
/// default, and a long batch is answered whole, in order.
#[test]
fn a_batch_has_no_count_limit_by_default() {
    let t = TestServer::start(Default::default());
    let batch: Vec<Value> = (0..900)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "getHealth"}))
        .collect();
    let body = Value::Array(batch).to_string();
    assert!(body.len() < 50 * 1024, "{}", body.len());
    let (status, text) = post(t.addr(), body.as_bytes());
    assert_eq!(status, 200);
    let answers = parse(&text);
    let answers = answers.as_array().expect("a batch answer");
    assert_eq!(answers.len(), 900);
    for (i, a) in answers.iter().enumerate() {
        assert_eq!(a, &json!({"jsonrpc": "2.0", "result": "ok", "id": i}));
    }
    still_up(&t);
}

#[test]
fn batches_notifications_and_size_limits() {
    let limits = Limits {
        max_batch_len: 5,
        max_request_bytes: 4096,
        ..Limits::default()
    };
    let t = TestServer::start(RpcConfig {
        limits,
        ..RpcConfig::default()
    });
    let addr = t.addr();

    // A batch: answers in order, errors in place, notifications (no id) unanswered.
    let batch = json!([
        {"jsonrpc": "2.0", "id": "a", "method": "getSlot"},
        {"jsonrpc": "2.0", "method": "getSlot"},
        {"jsonrpc": "2.0", "id": 2, "method": "nope"},
        {"jsonrpc": "2.0", "id": 3, "method": "getBlock", "params": [11, {"transactionDetails": "none"}]},
        {"jsonrpc": "2.0", "id": 4}
    ]);
    let (status, text) = post(addr, batch.to_string().as_bytes());
    assert_eq!(status, 200);
    let r = parse(&text);
    let items = r.as_array().expect("batch response");
    assert_eq!(items.len(), 4);
    assert_eq!(items[0]["id"], "a");
    assert_eq!(items[0]["result"], SYNTH_FIRST + 2);
    assert_eq!(items[1]["error"]["code"], -32601);
    assert_eq!(items[2]["id"], 3);
    assert_eq!(items[2]["result"]["parentSlot"], 10);
    assert_eq!(items[3]["error"]["code"], -32600);
    assert_eq!(items[3]["id"], 4);

    // Only notifications, or an empty batch: nothing to answer (200, an empty body, as
    // Agave's RPC).
    for body in [
        &br#"{"jsonrpc":"2.0","method":"getSlot"}"#[..],
        br#"[{"jsonrpc":"2.0","method":"getSlot"}]"#,
        b"[]",
    ] {
        let (status, text) = post(addr, body);
        assert_eq!(status, 200);
        assert!(text.is_empty(), "{text}");
    }

    // Too long a batch.
    let big: Vec<Value> = (0..6)
        .map(|i| json!({"jsonrpc": "2.0", "id": i, "method": "getSlot"}))
        .collect();
    let (status, text) = post(addr, Value::Array(big).to_string().as_bytes());
    assert_eq!(status, 200);
    let r = parse(&text);
    assert_eq!(r["error"]["code"], -32600);
    assert_eq!(
        r["error"]["data"],
        "batch of 6 requests exceeds the limit of 5"
    );

    // Too large a body: Agave's 413 and words; the rest of the body is not read.
    let huge = format!(
        "{{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"getSlot\",\"pad\":\"{}\"}}",
        "x".repeat(10_000)
    );
    let (status, head, text) = request(addr, "POST", "/", huge.as_bytes());
    assert_eq!(
        (status, text.as_str()),
        (413, "request body size exceeds allowed maximum")
    );
    assert!(
        head.contains("content-type: text/plain; charset=utf-8"),
        "{head}"
    );

    // A chunked body is read as any other; one whose chunk size is not hex cannot be read:
    // 400 saying so (not "too large"), and the connection closes (nothing after it on the
    // stream can be parsed).
    let chunked = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
    );
    let slot = json!({"jsonrpc": "2.0", "id": 1, "method": "getSlot"}).to_string();
    let good = format!("{:x}\r\n{slot}\r\n0\r\n\r\n", slot.len());
    let head = format!("{chunked}Connection: close\r\n\r\n");
    let (status, _, text) = exchange(addr, head.as_bytes(), good.as_bytes());
    assert_eq!(status, 200);
    assert!(parse(&text)["result"].is_u64(), "{text}");
    let head = format!("{chunked}\r\n");
    let (status, head, text) = exchange(addr, head.as_bytes(), b"zz\r\n{}\r\n0\r\n\r\n");
    assert_eq!(status, 400);
    assert!(head.contains("connection: close"), "{head}");
    let r = parse(&text);
    assert_eq!(r["error"]["code"], -32600);
    assert!(
        r["error"]["data"]
            .as_str()
            .is_some_and(|d| d.starts_with("request body could not be read: ")),
        "{text}"
    );
    still_up(&t);
}

#[test]
fn purged_rooted_blocks_are_cleaned_up_with_the_new_first_available_block() {
    let t = TestServer::start(Default::default());
    let cfg = json!({"maxSupportedTransactionVersion": 0});
    assert!(t.call("getBlock", json!([11, cfg]))["result"].is_object());
    let stats = t
        .ledger
        .store
        .purge_slots(bstore_ledger::Slot(0), bstore_ledger::Slot(11))
        .expect("purge");
    // 10, 11 and the placeholder meta of 10's parent.
    assert_eq!(stats.slots_with_meta, 3);
    let first = t.result("getFirstAvailableBlock", json!([]));
    // 12 is now the first root, whose block can never be complete: the next root.
    assert_eq!(first, json!(TESTNET_SLOT));
    for slot in [10u64, 11, 12] {
        let e = t.error("getBlock", json!([slot, cfg]));
        assert_eq!(e["code"], -32001, "{e}");
        assert_eq!(
            e["message"],
            format!(
                "Block {slot} cleaned up, does not exist on node. First available block: {TESTNET_SLOT}"
            )
        );
    }
    assert!(t.call("getBlock", json!([TESTNET_SLOT, cfg]))["result"].is_object());
    still_up(&t);
}
