//! Coverage-guided fuzzing of JSON-RPC request parsing: the envelope (single requests and
//! batches) and every method's params, exactly as the server parses them, without a
//! ledger. Parsing must never panic, a batch is never over the limit, every error
//! carries one of the request-error codes, and every response text is valid JSON.
#![no_main]

use bstore_rpc::args::Call;
use bstore_rpc::params::Commitment;
use bstore_rpc::request::{
    Envelope, RESULT_PREFIX, Request, error_response, error_text, parse_body, result_suffix,
    unversioned_error_text,
};
use bstore_rpc::{RpcError, code};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

const MAX_BATCH: usize = 100;

/// The codes parsing alone may produce.
const REQUEST_CODES: [i64; 4] = [
    code::PARSE_ERROR,
    code::INVALID_REQUEST,
    code::METHOD_NOT_FOUND,
    code::INVALID_PARAMS,
];

fn check_error_text(text: &str, error: &RpcError) {
    let v: Value = serde_json::from_str(text).expect("an error response is JSON");
    assert_eq!(v["error"]["code"], error.code());
    assert!(REQUEST_CODES.contains(&error.code()), "{error:?}");
}

/// What a parsed `getBlock` may never hold: `processed` is refused while parsing, as Agave
/// refuses it (`jsonParsed` is served: blocks are parsed).
fn check_call(call: &Call) {
    if let Call::GetBlock { config, .. } = call {
        assert_ne!(config.commitment, Commitment::Processed);
    }
}

fuzz_target!(|data: &[u8]| {
    let requests = match parse_body(data, MAX_BATCH) {
        Envelope::Refused(e) => {
            check_error_text(&error_response(&e), &e);
            return;
        }
        Envelope::Single(r) => vec![r],
        Envelope::Batch(rs) => {
            assert!(rs.len() <= MAX_BATCH);
            rs
        }
    };
    for r in requests {
        match r {
            Request::Notification => {}
            Request::Invalid { id } => {
                let e = RpcError::InvalidRequest;
                check_error_text(&error_text(&id, &e), &e);
            }
            Request::Unversioned { id } => {
                let text = unversioned_error_text(&id);
                check_error_text(&text, &RpcError::UnsupportedVersion);
                let v: Value = serde_json::from_str(&text).expect("a response is JSON");
                assert_eq!(v["id"], id);
            }
            Request::Call { id, method, params } => {
                match Call::parse(&method, params) {
                    Ok(call) => check_call(&call),
                    Err(e) => check_error_text(&error_text(&Value::Null, &e), &e),
                }
                let text = format!("{RESULT_PREFIX}null{}", result_suffix(&id));
                let v: Value = serde_json::from_str(&text).expect("a response is JSON");
                assert_eq!(v["id"], id);
            }
        }
    }
});
