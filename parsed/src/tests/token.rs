//! Agave's `parse_token.rs` tests (`test_parse_token`, `test_token_ix_not_enough_keys`,
//! `test_create_native_mint`), transcribed and run for both token program ids. Accounts
//! are in the builders' order; data is the `pack` layout.

use serde_json::{Value, json};

use crate::ids::{SPL_TOKEN, SPL_TOKEN_2022};
use crate::tests::{Data, info, key, parsed, s};

pub(crate) const PROGRAMS: [[u8; 32]; 2] = [SPL_TOKEN, SPL_TOKEN_2022];

/// Parsed as `kind` with `accounts` on both programs; not parsed with `drop` fewer.
pub(crate) fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: Value, drop: usize) {
    for program in &PROGRAMS {
        assert_eq!(info(program, accounts, data, kind), expected, "{kind}");
        let fewer = &accounts[..accounts.len() - drop];
        assert_eq!(parsed(program, fewer, data), None, "{kind} short by {drop}");
    }
}

pub(crate) fn amount_42_2() -> Value {
    json!({"uiAmount": 0.42, "decimals": 2, "amount": "42", "uiAmountString": "0.42"})
}

// Names for the keys of Agave's test.
pub(crate) fn mint() -> [u8; 32] {
    key(1)
}
pub(crate) fn mint_authority() -> [u8; 32] {
    key(2)
}
pub(crate) fn freeze_authority() -> [u8; 32] {
    key(3)
}
pub(crate) fn rent() -> [u8; 32] {
    key(4)
}
pub(crate) fn account() -> [u8; 32] {
    key(5)
}
pub(crate) fn owner() -> [u8; 32] {
    key(6)
}
pub(crate) fn multisig() -> [u8; 32] {
    key(7)
}
pub(crate) fn signers() -> [[u8; 32]; 3] {
    [key(8), key(9), key(10)]
}
pub(crate) fn recipient() -> [u8; 32] {
    key(11)
}

#[test]
fn initialize_mint_and_mint2() {
    let with_freeze = Data::new()
        .u8(0)
        .u8(2)
        .key(&mint_authority())
        .u8(1)
        .key(&freeze_authority())
        .0;
    check(
        &[mint(), rent()],
        &with_freeze,
        "initializeMint",
        json!({
            "mint": s(&mint()),
            "decimals": 2,
            "mintAuthority": s(&mint_authority()),
            "freezeAuthority": s(&freeze_authority()),
            "rentSysvar": s(&rent()),
        }),
        1,
    );
    let without = Data::new().u8(0).u8(2).key(&mint_authority()).u8(0).0;
    check(
        &[mint(), rent()],
        &without,
        "initializeMint",
        json!({
            "mint": s(&mint()),
            "decimals": 2,
            "mintAuthority": s(&mint_authority()),
            "rentSysvar": s(&rent()),
        }),
        1,
    );
    let mut v2 = with_freeze.clone();
    v2[0] = 20;
    check(
        &[mint()],
        &v2,
        "initializeMint2",
        json!({
            "mint": s(&mint()),
            "decimals": 2,
            "mintAuthority": s(&mint_authority()),
            "freezeAuthority": s(&freeze_authority()),
        }),
        1,
    );
    // A missing or bad COption tag fails the unpacking.
    for program in &PROGRAMS {
        assert_eq!(parsed(program, &[mint(), rent()], &without[..34]), None);
        let mut bad = without.clone();
        bad[34] = 2;
        assert_eq!(parsed(program, &[mint(), rent()], &bad), None);
    }
}

#[test]
fn initialize_account_1_2_3() {
    let base = json!({"account": s(&account()), "mint": s(&mint()), "owner": s(&owner())});
    let mut with_rent = base.clone();
    with_rent["rentSysvar"] = json!(s(&rent()));
    check(
        &[account(), mint(), owner(), rent()],
        &[1],
        "initializeAccount",
        with_rent.clone(),
        1,
    );
    let data = Data::new().u8(16).key(&owner()).0;
    check(
        &[account(), mint(), rent()],
        &data,
        "initializeAccount2",
        with_rent,
        1,
    );
    let data = Data::new().u8(18).key(&owner()).0;
    check(&[account(), mint()], &data, "initializeAccount3", base, 1);
}

#[test]
fn initialize_multisig_1_and_2() {
    let [s0, s1, s2] = signers();
    let signer_keys = json!([s(&s0), s(&s1), s(&s2)]);
    check(
        &[multisig(), rent(), s0, s1, s2],
        &[2, 2],
        "initializeMultisig",
        json!({
            "multisig": s(&multisig()),
            "m": 2,
            "rentSysvar": s(&rent()),
            "signers": signer_keys,
        }),
        3,
    );
    check(
        &[multisig(), s0, s1, s2],
        &[19, 2],
        "initializeMultisig2",
        json!({"multisig": s(&multisig()), "m": 2, "signers": signer_keys}),
        3,
    );
}

#[test]
fn transfer_and_approve_single_and_multisig() {
    let [s0, s1, _] = signers();
    let data = Data::new().u8(3).u64(42).0;
    check(
        &[account(), recipient(), owner()],
        &data,
        "transfer",
        json!({
            "source": s(&account()),
            "destination": s(&recipient()),
            "authority": s(&owner()),
            "amount": "42",
        }),
        1,
    );
    check(
        &[account(), recipient(), multisig(), s0, s1],
        &data,
        "transfer",
        json!({
            "source": s(&account()),
            "destination": s(&recipient()),
            "multisigAuthority": s(&multisig()),
            "signers": [s(&s0), s(&s1)],
            "amount": "42",
        }),
        3,
    );
    let data = Data::new().u8(4).u64(42).0;
    check(
        &[account(), recipient(), owner()],
        &data,
        "approve",
        json!({
            "source": s(&account()),
            "delegate": s(&recipient()),
            "owner": s(&owner()),
            "amount": "42",
        }),
        1,
    );
    check(
        &[account(), recipient(), multisig(), s0, s1],
        &data,
        "approve",
        json!({
            "source": s(&account()),
            "delegate": s(&recipient()),
            "multisigOwner": s(&multisig()),
            "signers": [s(&s0), s(&s1)],
            "amount": "42",
        }),
        3,
    );
}

#[test]
fn revoke_set_authority_mint_burn_close_freeze_thaw() {
    check(
        &[account(), owner()],
        &[5],
        "revoke",
        json!({"source": s(&account()), "owner": s(&owner())}),
        1,
    );
    let new_freeze = key(12);
    let data = Data::new().u8(6).u8(1).u8(1).key(&new_freeze).0;
    check(
        &[mint(), freeze_authority()],
        &data,
        "setAuthority",
        json!({
            "mint": s(&mint()),
            "newAuthority": s(&new_freeze),
            "authority": s(&freeze_authority()),
            "authorityType": "freezeAccount",
        }),
        1,
    );
    check(
        &[account(), owner()],
        &[6, 3, 0],
        "setAuthority",
        json!({
            "account": s(&account()),
            "newAuthority": null,
            "authority": s(&owner()),
            "authorityType": "closeAccount",
        }),
        1,
    );
    check(
        &[mint(), account(), mint_authority()],
        &Data::new().u8(7).u64(42).0,
        "mintTo",
        json!({
            "mint": s(&mint()),
            "account": s(&account()),
            "mintAuthority": s(&mint_authority()),
            "amount": "42",
        }),
        1,
    );
    check(
        &[account(), mint(), owner()],
        &Data::new().u8(8).u64(42).0,
        "burn",
        json!({
            "account": s(&account()),
            "mint": s(&mint()),
            "authority": s(&owner()),
            "amount": "42",
        }),
        1,
    );
    check(
        &[account(), recipient(), owner()],
        &[9],
        "closeAccount",
        json!({
            "account": s(&account()),
            "destination": s(&recipient()),
            "owner": s(&owner()),
        }),
        1,
    );
    let frozen = json!({
        "account": s(&account()),
        "mint": s(&mint()),
        "freezeAuthority": s(&freeze_authority()),
    });
    let accounts = [account(), mint(), freeze_authority()];
    check(&accounts, &[10], "freezeAccount", frozen.clone(), 1);
    check(&accounts, &[11], "thawAccount", frozen, 1);
}
