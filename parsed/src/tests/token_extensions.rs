//! Token-2022 extension instructions. Transcribed from Agave's tests where it has them
//! (mint close authority, permanent delegate, reallocate, default account state, memo
//! transfer, transfer fee, transfer hook, the pointers); interest-bearing, scaled UI
//! amount, pausable and CPI guard have none in Agave and are checked against its parser's
//! code instead (names, fields, null rules).

use serde_json::{Value, json};

use crate::ids::{SPL_TOKEN_2022 as T22, SYSTEM};
use crate::tests::{Data, info, key, parsed, s};

pub(crate) fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: Value) {
    assert_eq!(info(&T22, accounts, data, kind), expected, "{kind}");
}

pub(crate) fn none(accounts: &[[u8; 32]], data: &[u8]) {
    assert_eq!(parsed(&T22, accounts, data), None, "{data:?}");
}

pub(crate) fn mint() -> [u8; 32] {
    key(1)
}
pub(crate) fn multisig() -> [u8; 32] {
    key(2)
}
pub(crate) fn signer0() -> [u8; 32] {
    key(3)
}
pub(crate) fn signer1() -> [u8; 32] {
    key(4)
}
pub(crate) fn authority() -> [u8; 32] {
    key(5)
}

/// `{"multisig<Name>": multisig, "signers": [signer0, signer1]}` merged into `base`.
pub(crate) fn with_multisig(mut base: Value, name: &str) -> Value {
    base[name] = json!(s(&multisig()));
    base["signers"] = json!([s(&signer0()), s(&signer1())]);
    base
}

#[test]
fn mint_close_authority_and_permanent_delegate() {
    let data = Data::new().u8(25).u8(1).key(&authority()).0;
    check(
        &[mint()],
        &data,
        "initializeMintCloseAuthority",
        json!({"mint": s(&mint()), "newAuthority": s(&authority())}),
    );
    check(
        &[mint()],
        &[25, 0],
        "initializeMintCloseAuthority",
        json!({"mint": s(&mint()), "newAuthority": null}),
    );
    let data = Data::new().u8(35).key(&authority()).0;
    check(
        &[mint()],
        &data,
        "initializePermanentDelegate",
        json!({"mint": s(&mint()), "delegate": s(&authority())}),
    );
    none(&[mint()], &data[..20]);
}

#[test]
fn reallocate() {
    let (account, payer) = (key(6), key(7));
    // TransferFeeAmount (2) and MemoTransfer (8).
    let data = [29, 2, 0, 8, 0];
    let base = json!({
        "account": s(&account),
        "payer": s(&payer),
        "systemProgram": s(&SYSTEM),
        "extensionTypes": ["transferFeeAmount", "memoTransfer"],
    });
    let mut single = base.clone();
    single["owner"] = json!(s(&authority()));
    check(
        &[account, payer, SYSTEM, authority()],
        &data,
        "reallocate",
        single,
    );
    check(
        &[account, payer, SYSTEM, multisig(), signer0(), signer1()],
        &data,
        "reallocate",
        with_multisig(base, "multisigOwner"),
    );
    none(&[account, payer, SYSTEM], &data);
}

#[test]
fn default_account_state() {
    check(
        &[mint()],
        &[28, 0, 2],
        "initializeDefaultAccountState",
        json!({"mint": s(&mint()), "accountState": "frozen"}),
    );
    let base = json!({"mint": s(&mint()), "accountState": "initialized"});
    let mut single = base.clone();
    single["freezeAuthority"] = json!(s(&authority()));
    check(
        &[mint(), authority()],
        &[28, 1, 1],
        "updateDefaultAccountState",
        single,
    );
    check(
        &[mint(), multisig(), signer0(), signer1()],
        &[28, 1, 1],
        "updateDefaultAccountState",
        with_multisig(base, "multisigFreezeAuthority"),
    );
    // Exactly a type and a state: shorter, longer, bad state, bad type.
    for data in [&[28, 0][..], &[28, 0, 2, 0], &[28, 0, 3], &[28, 2, 1]] {
        none(&[mint(), authority()], data);
    }
    none(&[mint()], &[28, 1, 1]);
}

#[test]
fn memo_transfer_and_cpi_guard_toggles() {
    let account = key(6);
    let cases = [
        (30, 0, "enableRequiredMemoTransfers"),
        (30, 1, "disableRequiredMemoTransfers"),
        (34, 0, "enableCpiGuard"),
        (34, 1, "disableCpiGuard"),
    ];
    for (tag, toggle, kind) in cases {
        check(
            &[account, authority()],
            &[tag, toggle],
            kind,
            json!({"account": s(&account), "owner": s(&authority())}),
        );
        check(
            &[account, multisig(), signer0(), signer1()],
            &[tag, toggle],
            kind,
            with_multisig(json!({"account": s(&account)}), "multisigOwner"),
        );
        none(&[account], &[tag, toggle]);
        none(&[account, authority()], &[tag, 2]);
        none(&[account, authority()], &[tag]);
    }
}

#[test]
fn interest_bearing_mint() {
    let data = Data::new()
        .u8(33)
        .u8(0)
        .key(&authority())
        .bytes(&(-5i16).to_le_bytes());
    check(
        &[mint()],
        &data.0,
        "initializeInterestBearingConfig",
        json!({"mint": s(&mint()), "rateAuthority": s(&authority()), "rate": -5}),
    );
    let data = Data::new().u8(33).u8(0).key(&[0; 32]).u16(7).0;
    check(
        &[mint()],
        &data,
        "initializeInterestBearingConfig",
        json!({"mint": s(&mint()), "rateAuthority": null, "rate": 7}),
    );
    let data = Data::new().u8(33).u8(1).u16(300).0;
    check(
        &[mint(), authority()],
        &data,
        "updateInterestBearingConfigRate",
        json!({"mint": s(&mint()), "newRate": 300, "rateAuthority": s(&authority())}),
    );
    check(
        &[mint(), multisig(), signer0(), signer1()],
        &data,
        "updateInterestBearingConfigRate",
        with_multisig(
            json!({"mint": s(&mint()), "newRate": 300}),
            "multisigRateAuthority",
        ),
    );
    // Exact payload sizes only.
    none(
        &[mint(), authority()],
        &Data::new().u8(33).u8(1).u16(3).u8(0).0,
    );
    none(&[mint()], &[33]);
}

#[test]
fn scaled_ui_amount() {
    let data = Data::new()
        .u8(43)
        .u8(0)
        .key(&authority())
        .bytes(&1.5f64.to_le_bytes());
    check(
        &[mint()],
        &data.0,
        "initializeScaledUiAmountConfig",
        json!({"mint": s(&mint()), "authority": s(&authority()), "multiplier": "1.5"}),
    );
    // `f64` `Display`: no exponent, no trailing ".0".
    let data = Data::new()
        .u8(43)
        .u8(0)
        .key(&[0; 32])
        .bytes(&1e20f64.to_le_bytes());
    check(
        &[mint()],
        &data.0,
        "initializeScaledUiAmountConfig",
        json!({"mint": s(&mint()), "authority": null, "multiplier": "100000000000000000000"}),
    );
    let data = Data::new()
        .u8(43)
        .u8(1)
        .bytes(&2f64.to_le_bytes())
        .i64(1_700_000_000);
    check(
        &[mint(), authority()],
        &data.0,
        "updateMultiplier",
        json!({
            "mint": s(&mint()),
            "newMultiplier": "2",
            "newMultiplierTimestamp": 1_700_000_000,
            "authority": s(&authority()),
        }),
    );
    none(&[mint()], &data.0);
}

#[test]
fn pausable() {
    let data = Data::new().u8(44).u8(0).key(&authority()).0;
    check(
        &[mint()],
        &data,
        "initializePausableConfig",
        json!({"mint": s(&mint()), "authority": s(&authority())}),
    );
    // A plain key here: all zeros is still printed.
    let data = Data::new().u8(44).u8(0).key(&[0; 32]).0;
    check(
        &[mint()],
        &data,
        "initializePausableConfig",
        json!({"mint": s(&mint()), "authority": "11111111111111111111111111111111"}),
    );
    for (toggle, kind) in [(1, "pause"), (2, "resume")] {
        check(
            &[mint(), authority()],
            &[44, toggle],
            kind,
            json!({"mint": s(&mint()), "authority": s(&authority())}),
        );
        check(
            &[mint(), multisig(), signer0(), signer1()],
            &[44, toggle],
            kind,
            with_multisig(json!({"mint": s(&mint())}), "multisigAuthority"),
        );
        none(&[mint()], &[44, toggle]);
    }
    none(&[mint(), authority()], &[44, 3]);
}
