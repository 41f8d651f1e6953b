//! Agave's `parse_system.rs` tests, transcribed: each instruction's accounts in the order
//! its builder lays them out, its bincode data, the expected `info`, and the failures
//! with one account too few.

use serde_json::json;

use crate::ids::SYSTEM;
use crate::tests::{Data, info, key, parsed, s};

/// Sysvar ids the nonce builders put among the accounts.
fn sysvar(name: &str) -> [u8; 32] {
    let mut k = [0u8; 32];
    bs58::decode(name).onto(&mut k[..]).expect("sysvar id");
    k
}

fn recent_blockhashes() -> [u8; 32] {
    sysvar("SysvarRecentB1ockHashes11111111111111111111")
}

fn rent() -> [u8; 32] {
    sysvar("SysvarRent111111111111111111111111111111111")
}

/// Parsed with all `accounts`, not parsed with one fewer.
fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: serde_json::Value) {
    assert_eq!(info(&SYSTEM, accounts, data, kind), expected);
    let fewer = accounts.get(..accounts.len() - 1).expect("non-empty");
    assert_eq!(
        parsed(&SYSTEM, fewer, data),
        None,
        "{kind} with one account less"
    );
}

#[test]
fn create_account() {
    let (from, to, owner) = (key(1), key(2), key(3));
    let data = Data::new().u32(0).u64(55).u64(128).key(&owner).0;
    check(
        &[from, to],
        &data,
        "createAccount",
        json!({
            "source": s(&from),
            "newAccount": s(&to),
            "lamports": 55,
            "owner": s(&owner),
            "space": 128,
        }),
    );
}

#[test]
fn assign() {
    let (account, owner) = (key(1), key(2));
    let data = Data::new().u32(1).key(&owner).0;
    check(
        &[account],
        &data,
        "assign",
        json!({"account": s(&account), "owner": s(&owner)}),
    );
}

#[test]
fn transfer() {
    let (from, to) = (key(1), key(2));
    let data = Data::new().u32(2).u64(55).0;
    check(
        &[from, to],
        &data,
        "transfer",
        json!({"source": s(&from), "destination": s(&to), "lamports": 55}),
    );
}

#[test]
fn create_account_with_seed() {
    let (from, to, base, owner) = (key(1), key(2), key(3), key(4));
    let data = Data::new()
        .u32(3)
        .key(&base)
        .bincode_bytes(b"test_seed")
        .u64(55)
        .u64(128)
        .key(&owner)
        .0;
    let expected = json!({
        "source": s(&from),
        "newAccount": s(&to),
        "lamports": 55,
        "base": s(&base),
        "seed": "test_seed",
        "owner": s(&owner),
        "space": 128,
    });
    // The builder also passes the base as a third account.
    assert_eq!(
        info(&SYSTEM, &[from, to, base], &data, "createAccountWithSeed"),
        expected
    );
    check(&[from, to], &data, "createAccountWithSeed", expected);
}

#[test]
fn allocate() {
    let account = key(1);
    let data = Data::new().u32(8).u64(128).0;
    check(
        &[account],
        &data,
        "allocate",
        json!({"account": s(&account), "space": 128}),
    );
}

#[test]
fn allocate_with_seed() {
    let (account, base, owner) = (key(1), key(2), key(3));
    let data = Data::new()
        .u32(9)
        .key(&base)
        .bincode_bytes(b"test_seed")
        .u64(128)
        .key(&owner)
        .0;
    check(
        &[account, base],
        &data,
        "allocateWithSeed",
        json!({
            "account": s(&account),
            "base": s(&base),
            "seed": "test_seed",
            "owner": s(&owner),
            "space": 128,
        }),
    );
}

#[test]
fn assign_with_seed() {
    let (account, base, owner) = (key(1), key(2), key(3));
    let data = Data::new()
        .u32(10)
        .key(&base)
        .bincode_bytes(b"test_seed")
        .key(&owner)
        .0;
    check(
        &[account, base],
        &data,
        "assignWithSeed",
        json!({
            "account": s(&account),
            "base": s(&base),
            "seed": "test_seed",
            "owner": s(&owner),
        }),
    );
}

#[test]
fn transfer_with_seed() {
    let (from, from_base, from_owner, to) = (key(1), key(2), key(3), key(4));
    let data = Data::new()
        .u32(11)
        .u64(55)
        .bincode_bytes(b"test_seed")
        .key(&from_owner)
        .0;
    check(
        &[from, from_base, to],
        &data,
        "transferWithSeed",
        json!({
            "source": s(&from),
            "sourceBase": s(&from_base),
            "sourceSeed": "test_seed",
            "sourceOwner": s(&from_owner),
            "lamports": 55,
            "destination": s(&to),
        }),
    );
}

#[test]
fn advance_nonce_account() {
    let (nonce, authority) = (key(1), key(2));
    let data = Data::new().u32(4).0;
    check(
        &[nonce, recent_blockhashes(), authority],
        &data,
        "advanceNonce",
        json!({
            "nonceAccount": s(&nonce),
            "recentBlockhashesSysvar": "SysvarRecentB1ockHashes11111111111111111111",
            "nonceAuthority": s(&authority),
        }),
    );
}

#[test]
fn withdraw_nonce_account() {
    let (nonce, authority, to) = (key(1), key(2), key(3));
    let data = Data::new().u32(5).u64(55).0;
    check(
        &[nonce, to, recent_blockhashes(), rent(), authority],
        &data,
        "withdrawFromNonce",
        json!({
            "nonceAccount": s(&nonce),
            "destination": s(&to),
            "recentBlockhashesSysvar": s(&recent_blockhashes()),
            "rentSysvar": "SysvarRent111111111111111111111111111111111",
            "nonceAuthority": s(&authority),
            "lamports": 55,
        }),
    );
}

#[test]
fn initialize_nonce_account() {
    let (nonce, authority) = (key(1), key(2));
    let data = Data::new().u32(6).key(&authority).0;
    check(
        &[nonce, recent_blockhashes(), rent()],
        &data,
        "initializeNonce",
        json!({
            "nonceAccount": s(&nonce),
            "recentBlockhashesSysvar": s(&recent_blockhashes()),
            "rentSysvar": s(&rent()),
            "nonceAuthority": s(&authority),
        }),
    );
}

#[test]
fn authorize_nonce_account() {
    let (nonce, authority, new_authority) = (key(1), key(2), key(3));
    let data = Data::new().u32(7).key(&new_authority).0;
    check(
        &[nonce, authority],
        &data,
        "authorizeNonce",
        json!({
            "nonceAccount": s(&nonce),
            "newAuthorized": s(&new_authority),
            "nonceAuthority": s(&authority),
        }),
    );
}

#[test]
fn upgrade_nonce_account() {
    let nonce = key(1);
    check(
        &[nonce],
        &Data::new().u32(12).0,
        "upgradeNonce",
        json!({"nonceAccount": s(&nonce)}),
    );
}

#[test]
fn bincode_rules_decide_what_parses() {
    let accounts = [key(1), key(2)];
    // Trailing bytes are allowed (bincode's default), a short field is not.
    let data = Data::new().u32(2).u64(9).u8(0xee).0;
    assert!(parsed(&SYSTEM, &accounts, &data).is_some());
    assert_eq!(
        parsed(&SYSTEM, &accounts, &Data::new().u32(2).u32(9).0),
        None
    );
    // Unknown variant, invalid UTF-8 seed, seed longer than the data.
    assert_eq!(parsed(&SYSTEM, &accounts, &Data::new().u32(13).0), None);
    let bad_seed = Data::new()
        .u32(10)
        .key(&key(3))
        .bincode_bytes(&[0xff])
        .key(&key(4));
    assert_eq!(parsed(&SYSTEM, &accounts, &bad_seed.0), None);
    let long_seed = Data::new().u32(10).key(&key(3)).u64(1 << 20).key(&key(4));
    assert_eq!(parsed(&SYSTEM, &accounts, &long_seed.0), None);
    // No accounts at all fails Agave's index guard, even for a variant needing none.
    assert_eq!(parsed(&SYSTEM, &[], &Data::new().u32(4).0), None);
}
