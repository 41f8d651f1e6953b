//! jsonParsed instruction parsing (`bstore_parsed`) on hostile instruction data: the
//! first byte picks one of the programs Agave parses (or none), the second how many account
//! keys; the rest is the instruction data. The answer is always one of Agave's two shapes,
//! and nothing panics or allocates beyond the input.
#![no_main]

use bstore_parsed::{ids, parse_ui_instruction};
use libfuzzer_sys::fuzz_target;

const PROGRAMS: [[u8; 32]; 12] = [
    ids::SYSTEM,
    ids::VOTE,
    ids::STAKE,
    ids::ADDRESS_LOOKUP_TABLE,
    ids::BPF_LOADER,
    ids::BPF_UPGRADEABLE_LOADER,
    ids::SPL_TOKEN,
    ids::SPL_TOKEN_2022,
    ids::SPL_ASSOCIATED_TOKEN,
    ids::SPL_MEMO_V1,
    ids::SPL_MEMO_V3,
    [7; 32],
];

fuzz_target!(|data: &[u8]| {
    let [pick, n, rest @ ..] = data else {
        return;
    };
    let program = PROGRAMS[usize::from(*pick) % PROGRAMS.len()];
    let accounts: Vec<[u8; 32]> = (0..*n % 24).map(|i| [i.wrapping_mul(37); 32]).collect();
    let v = parse_ui_instruction(&program, &accounts, rest, Some(1));
    let parsed = v.get("parsed").is_some() && v.get("program").is_some();
    let fallback = v.get("accounts").is_some() && v.get("data").is_some();
    assert!(parsed != fallback, "exactly one of Agave's shapes: {v}");
    assert!(v.get("programId").is_some() && v.get("stackHeight").is_some());
});
