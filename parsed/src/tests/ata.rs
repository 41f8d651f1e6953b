//! Agave's `parse_associated_token.rs` tests, transcribed: the builders lay the accounts
//! out as funder, associated account, wallet, mint, system program, token program.

use serde_json::json;

use crate::ids::{SPL_ASSOCIATED_TOKEN as ATA, SPL_TOKEN, SYSTEM};
use crate::tests::{info, key, parsed, s};

fn create_accounts() -> [[u8; 32]; 6] {
    [key(1), key(2), key(3), key(4), SYSTEM, SPL_TOKEN]
}

fn create_info() -> serde_json::Value {
    json!({
        "source": s(&key(1)),
        "account": s(&key(2)),
        "wallet": s(&key(3)),
        "mint": s(&key(4)),
        "systemProgram": "11111111111111111111111111111111",
        "tokenProgram": "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    })
}

#[test]
fn create_deprecated_with_empty_data() {
    let mut accounts = create_accounts().to_vec();
    // The deprecated form also passed the rent sysvar; parsing ignores it.
    accounts.push(key(9));
    assert_eq!(info(&ATA, &accounts, &[], "create"), create_info());
    accounts.pop();
    assert_eq!(info(&ATA, &accounts, &[], "create"), create_info());
    accounts.pop();
    assert_eq!(parsed(&ATA, &accounts, &[]), None);
}

#[test]
fn create_and_create_idempotent() {
    let accounts = create_accounts();
    assert_eq!(info(&ATA, &accounts, &[0], "create"), create_info());
    assert_eq!(
        info(&ATA, &accounts, &[1], "createIdempotent"),
        create_info()
    );
    assert_eq!(parsed(&ATA, &accounts[..5], &[0]), None);
    assert_eq!(parsed(&ATA, &accounts[..5], &[1]), None);
}

#[test]
fn recover_nested() {
    let accounts: Vec<[u8; 32]> = (1..=7).map(key).collect();
    assert_eq!(
        info(&ATA, &accounts, &[2], "recoverNested"),
        json!({
            "nestedSource": s(&key(1)),
            "nestedMint": s(&key(2)),
            "destination": s(&key(3)),
            "nestedOwner": s(&key(4)),
            "ownerMint": s(&key(5)),
            "wallet": s(&key(6)),
            "tokenProgram": s(&key(7)),
        })
    );
    assert_eq!(parsed(&ATA, &accounts[..6], &[2]), None);
}

#[test]
fn borsh_refuses_unknown_variants_and_trailing_bytes() {
    let accounts = create_accounts();
    assert_eq!(parsed(&ATA, &accounts, &[3]), None);
    assert_eq!(parsed(&ATA, &accounts, &[0, 0]), None);
}
