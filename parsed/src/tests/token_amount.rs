//! `UiTokenAmount` against `solana-account-decoder`'s own test values, and the name tables.

use serde_json::json;

use super::{
    account_state, authority_type, extension_type, extension_types, token_amount, ui_amount_string,
};

#[test]
fn ui_amount_strings() {
    let cases: [(u64, u8, &str); 9] = [
        (1, 0, "1"),
        (10, 0, "10"),
        (1, 9, "0.000000001"),
        (1_000_000_000, 9, "1"),
        (1_234_567_890, 3, "1234567.89"),
        (0, 0, "0"),
        (0, 9, "0"),
        (0, 25, "0"),
        (1_234_567_890, 25, "0.000000000000000123456789"),
    ];
    for (amount, decimals, expected) in cases {
        assert_eq!(ui_amount_string(amount, decimals), expected);
    }
    // 255 decimals: a leading "0." then 235 zeros and the 20 digits of u64::MAX.
    let long = ui_amount_string(u64::MAX, 255);
    assert!(long.starts_with("0.000"));
    assert!(long.ends_with("18446744073709551615"));
    assert_eq!(long.len(), 2 + 255);
}

#[test]
fn token_amounts() {
    assert_eq!(
        token_amount(42, 2),
        json!({"uiAmount": 0.42, "decimals": 2, "amount": "42", "uiAmountString": "0.42"})
    );
    assert_eq!(token_amount(1, 0)["uiAmount"], json!(1.0));
    assert_eq!(token_amount(1, 9)["uiAmount"], json!(0.000000001));
    assert_eq!(token_amount(1_000_000_000, 9)["uiAmount"], json!(1.0));
    assert_eq!(
        token_amount(1_234_567_890, 3)["uiAmount"],
        json!(1234567.89)
    );
    // 10^19 still fits 64 bits, 10^20 does not: `uiAmount` becomes null.
    assert_eq!(token_amount(0, 19)["uiAmount"], json!(0.0));
    assert_eq!(
        token_amount(0, 20),
        json!({"uiAmount": null, "decimals": 20, "amount": "0", "uiAmountString": "0"})
    );
}

#[test]
fn names() {
    assert_eq!(authority_type(0), Some(("mintTokens", "mint")));
    assert_eq!(authority_type(2), Some(("accountOwner", "account")));
    assert_eq!(authority_type(3), Some(("closeAccount", "account")));
    assert_eq!(authority_type(16), Some(("pause", "mint")));
    assert_eq!(authority_type(17), None);
    assert_eq!(extension_type(7), Some("immutableOwner"));
    assert_eq!(extension_type(27), Some("pausableAccount"));
    assert_eq!(extension_type(28), None);
    assert_eq!(
        extension_types(&[7, 0, 8, 0]),
        Some(vec!["immutableOwner", "memoTransfer"])
    );
    assert_eq!(extension_types(&[7, 0, 8]), None);
    assert_eq!(extension_types(&[99, 0]), None);
    assert_eq!(extension_types(&[]), Some(vec![]));
    assert_eq!(account_state(2), Some("frozen"));
    assert_eq!(account_state(3), None);
}
