//! Shared test helpers (a byte builder, fixed keys, the `parsed` member of an answer) and
//! the tests of [`parse_ui_instruction`]'s two shapes, the memo program and the fallback.
//! Expected values are transcribed from Agave's own tests in `solana-transaction-status`.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::ids::*;
use super::parse_ui_instruction;

/// A distinct, non-zero key per `n`.
pub(crate) fn key(n: u8) -> [u8; 32] {
    let mut k = [n; 32];
    k[0] = 0xa5;
    k
}

/// `n` distinct keys.
pub(crate) fn keys(n: u8) -> Vec<[u8; 32]> {
    (1..=n).map(key).collect()
}

/// Base58 of a key.
pub(crate) fn s(k: &[u8; 32]) -> String {
    bs58::encode(k).into_string()
}

/// Instruction data, built the way the programs' encoders write it.
#[derive(Debug, Default, Clone)]
pub(crate) struct Data(pub Vec<u8>);

impl Data {
    pub(crate) fn new() -> Self {
        Self::default()
    }
    pub(crate) fn u8(mut self, v: u8) -> Self {
        self.0.push(v);
        self
    }
    pub(crate) fn u16(mut self, v: u16) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn u32(mut self, v: u32) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn u64(mut self, v: u64) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn i64(mut self, v: i64) -> Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    pub(crate) fn bytes(mut self, v: &[u8]) -> Self {
        self.0.extend_from_slice(v);
        self
    }
    pub(crate) fn key(self, k: &[u8; 32]) -> Self {
        self.bytes(k)
    }
    /// bincode `String` / `Vec<u8>`: `u64` length, then the bytes.
    pub(crate) fn bincode_bytes(self, v: &[u8]) -> Self {
        self.u64(v.len() as u64).bytes(v)
    }
    /// borsh `String`: `u32` length, then the bytes.
    pub(crate) fn borsh_str(self, v: &str) -> Self {
        self.u32(v.len() as u32).bytes(v.as_bytes())
    }
}

/// The `"parsed"` member when `program` parses the instruction, `None` when it falls back
/// (after checking that the fallback has its exact shape).
pub(crate) fn parsed(program: &[u8; 32], accounts: &[[u8; 32]], data: &[u8]) -> Option<Value> {
    let out = parse_ui_instruction(program, accounts, data, None);
    let map = out.as_object().expect("an object");
    if map.contains_key("parsed") {
        return map.get("parsed").cloned();
    }
    assert_eq!(
        out,
        json!({
            "programId": s(program),
            "accounts": accounts.iter().map(s).collect::<Vec<_>>(),
            "data": bs58::encode(data).into_string(),
            "stackHeight": null,
        })
    );
    None
}

/// The `"info"` of a parsed instruction of type `kind` (panics otherwise).
pub(crate) fn info(program: &[u8; 32], accounts: &[[u8; 32]], data: &[u8], kind: &str) -> Value {
    let parsed = parsed(program, accounts, data).expect("parsed");
    assert_eq!(parsed.get("type"), Some(&json!(kind)), "{parsed}");
    parsed.get("info").cloned().unwrap_or(Value::Null)
}

#[test]
fn memo_v1_and_v3_parse_to_the_text_with_stack_height() {
    // Agave's test_parse: 🦖 on both memo ids, stack height passed through.
    let data = [240, 159, 166, 150];
    assert_eq!(
        parse_ui_instruction(&SPL_MEMO_V1, &[], &data, None),
        json!({
            "program": "spl-memo",
            "programId": "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo",
            "parsed": "🦖",
            "stackHeight": null,
        })
    );
    assert_eq!(
        parse_ui_instruction(&SPL_MEMO_V3, &[], &data, Some(1)),
        json!({
            "program": "spl-memo",
            "programId": "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
            "parsed": "🦖",
            "stackHeight": 1,
        })
    );
    assert_eq!(
        parsed(&SPL_MEMO_V1, &keys(2), b"good memo"),
        Some(json!("good memo"))
    );
}

#[test]
fn invalid_utf8_memo_falls_back() {
    assert_eq!(parsed(&SPL_MEMO_V1, &[], &[128]), None);
    assert_eq!(parsed(&SPL_MEMO_V3, &keys(1), &[0xff, 0xfe]), None);
}

#[test]
fn unknown_programs_fall_back_with_base58_data_and_stack_height() {
    let program = key(1);
    let accounts = keys(3);
    let out = parse_ui_instruction(&program, &accounts, &[1, 2, 3], Some(2));
    assert_eq!(
        out,
        json!({
            "programId": s(&program),
            "accounts": accounts.iter().map(s).collect::<Vec<_>>(),
            "data": "Ldp",
            "stackHeight": 2,
        })
    );
}

#[test]
fn compute_budget_is_not_parsed() {
    let mut program = [0u8; 32];
    bs58::decode("ComputeBudget111111111111111111111111111111")
        .onto(&mut program[..])
        .expect("id");
    // SetComputeUnitLimit(200_000).
    let data = Data::new().u8(2).u32(200_000).0;
    assert_eq!(parsed(&program, &[], &data), None);
}

#[test]
fn parsed_form_names_the_program() {
    // A system transfer: `program`, `programId`, `parsed` with `type` and `info`.
    let accounts = keys(2);
    let data = Data::new().u32(2).u64(7).0;
    assert_eq!(
        parse_ui_instruction(&SYSTEM, &accounts, &data, Some(1)),
        json!({
            "program": "system",
            "programId": "11111111111111111111111111111111",
            "parsed": {
                "type": "transfer",
                "info": {"source": s(&accounts[0]), "destination": s(&accounts[1]), "lamports": 7},
            },
            "stackHeight": 1,
        })
    );
}

const ALL_PROGRAMS: [[u8; 32]; 11] = [
    SYSTEM,
    VOTE,
    STAKE,
    ADDRESS_LOOKUP_TABLE,
    BPF_LOADER,
    BPF_UPGRADEABLE_LOADER,
    SPL_TOKEN,
    SPL_TOKEN_2022,
    SPL_ASSOCIATED_TOKEN,
    SPL_MEMO_V1,
    SPL_MEMO_V3,
];

/// One of the two shapes, exactly: the parsed form names a known program and carries a
/// `parsed` member; the fallback is checked member for member by [`parsed`].
fn check_shape(program: &[u8; 32], accounts: &[[u8; 32]], data: &[u8]) {
    let out = parse_ui_instruction(program, accounts, data, Some(3));
    let map = out.as_object().expect("an object");
    assert_eq!(map.get("stackHeight"), Some(&json!(3)));
    if let Some(parsed) = map.get("parsed") {
        assert_eq!(map.len(), 4);
        assert!(ALL_PROGRAMS.contains(program));
        assert_eq!(map.get("programId"), Some(&json!(s(program))));
        let name = map.get("program").and_then(Value::as_str).expect("name");
        assert!(!name.is_empty());
        if let Some(obj) = parsed.as_object() {
            assert!(obj.get("type").is_some_and(Value::is_string), "{parsed}");
        } else {
            assert!(parsed.is_string());
        }
    } else {
        parsed(program, accounts, data);
    }
}

/// Data that starts like real instructions of the program more often than random bytes.
fn data_strategy() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..300),
        (0u8..45, proptest::collection::vec(any::<u8>(), 0..200)).prop_map(|(tag, rest)| {
            let mut d = vec![tag];
            d.extend(rest);
            d
        }),
        (0u32..20, proptest::collection::vec(any::<u8>(), 0..200)).prop_map(|(tag, rest)| {
            let mut d = tag.to_le_bytes().to_vec();
            d.extend(rest);
            d
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn random_instructions_never_panic_and_keep_a_shape(
        program in prop_oneof![
            proptest::sample::select(ALL_PROGRAMS.to_vec()),
            any::<[u8; 32]>(),
        ],
        n in 0usize..12,
        data in data_strategy(),
    ) {
        let accounts: Vec<[u8; 32]> = (0..n).map(|i| key(i as u8 + 1)).collect();
        check_shape(&program, &accounts, &data);
    }

    #[test]
    fn huge_length_fields_are_refused_without_allocating(
        program in proptest::sample::select(ALL_PROGRAMS.to_vec()),
        variant in 0u32..20,
        len in (1u64 << 40)..u64::MAX,
    ) {
        // A variant index then an enormous bincode length, as in `ExtendLookupTable`,
        // loader writes, seeds and vote slot lists: must not be trusted.
        let data = Data::new().u32(variant).u64(len).u64(len).0;
        check_shape(&program, &keys(8), &data);
    }
}
