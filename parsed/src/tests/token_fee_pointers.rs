//! Token-2022's transfer-fee extension and the transfer hook and pointer extensions,
//! transcribed from Agave's tests.

use serde_json::json;

use crate::tests::{Data, key, s};
use crate::token::extensions::tests::{
    authority, check, mint, multisig, none, signer0, signer1, with_multisig,
};

#[test]
fn transfer_fee() {
    let (config_authority, withheld_authority) = (key(8), key(9));
    let data = Data::new()
        .u8(26)
        .u8(0)
        .u8(1)
        .key(&config_authority)
        .u8(1)
        .key(&withheld_authority)
        .u16(42)
        .u64(2121)
        .0;
    check(
        &[mint()],
        &data,
        "initializeTransferFeeConfig",
        json!({
            "mint": s(&mint()),
            "transferFeeConfigAuthority": s(&config_authority),
            "withdrawWithheldAuthority": s(&withheld_authority),
            "transferFeeBasisPoints": 42,
            "maximumFee": 2121,
        }),
    );
    let data = Data::new().u8(26).u8(0).u8(0).u8(0).u16(42).u64(2121).0;
    check(
        &[mint()],
        &data,
        "initializeTransferFeeConfig",
        json!({"mint": s(&mint()), "transferFeeBasisPoints": 42, "maximumFee": 2121}),
    );

    let (account, recipient) = (key(6), key(7));
    let data = Data::new().u8(26).u8(1).u64(55).u8(2).u64(5).0;
    let base = json!({
        "source": s(&account),
        "mint": s(&mint()),
        "destination": s(&recipient),
        "tokenAmount": {"uiAmount": 0.55, "decimals": 2, "amount": "55", "uiAmountString": "0.55"},
        "feeAmount": {"uiAmount": 0.05, "decimals": 2, "amount": "5", "uiAmountString": "0.05"},
    });
    let mut single = base.clone();
    single["authority"] = json!(s(&authority()));
    let accounts = [account, mint(), recipient];
    check(
        &[account, mint(), recipient, authority()],
        &data,
        "transferCheckedWithFee",
        single,
    );
    check(
        &[account, mint(), recipient, multisig(), signer0(), signer1()],
        &data,
        "transferCheckedWithFee",
        with_multisig(base, "multisigAuthority"),
    );
    none(&accounts, &data);

    let base = json!({"mint": s(&mint()), "feeRecipient": s(&recipient)});
    let mut single = base.clone();
    single["withdrawWithheldAuthority"] = json!(s(&withheld_authority));
    check(
        &[mint(), recipient, withheld_authority],
        &[26, 2],
        "withdrawWithheldTokensFromMint",
        single.clone(),
    );
    check(
        &[mint(), recipient, multisig(), signer0(), signer1()],
        &[26, 2],
        "withdrawWithheldTokensFromMint",
        with_multisig(base.clone(), "multisigWithdrawWithheldAuthority"),
    );

    let (fee0, fee1) = (key(10), key(11));
    let sources = json!([s(&fee0), s(&fee1)]);
    let mut expected = single;
    expected["sourceAccounts"] = sources.clone();
    check(
        &[mint(), recipient, withheld_authority, fee0, fee1],
        &[26, 3, 2],
        "withdrawWithheldTokensFromAccounts",
        expected,
    );
    let mut expected = with_multisig(base, "multisigWithdrawWithheldAuthority");
    expected["sourceAccounts"] = sources.clone();
    check(
        &[
            mint(),
            recipient,
            multisig(),
            signer0(),
            signer1(),
            fee0,
            fee1,
        ],
        &[26, 3, 2],
        "withdrawWithheldTokensFromAccounts",
        expected,
    );
    none(&[mint(), recipient, withheld_authority, fee0], &[26, 3, 2]);

    check(
        &[mint(), fee0, fee1],
        &[26, 4],
        "harvestWithheldTokensToMint",
        json!({"mint": s(&mint()), "sourceAccounts": sources}),
    );
    check(
        &[mint()],
        &[26, 4],
        "harvestWithheldTokensToMint",
        json!({"mint": s(&mint()), "sourceAccounts": []}),
    );

    let data = Data::new().u8(26).u8(5).u16(42).u64(2121).0;
    let base = json!({"mint": s(&mint()), "transferFeeBasisPoints": 42, "maximumFee": 2121});
    let mut single = base.clone();
    single["transferFeeConfigAuthority"] = json!(s(&config_authority));
    check(&[mint(), config_authority], &data, "setTransferFee", single);
    check(
        &[mint(), multisig(), signer0(), signer1()],
        &data,
        "setTransferFee",
        with_multisig(base, "multisigtransferFeeConfigAuthority"),
    );
    none(&[mint()], &data);
    none(&[mint(), authority()], &[26, 6]);
}

#[test]
fn transfer_hook_and_pointers() {
    let program = key(12);
    let zero = [0u8; 32];
    let cases = [
        (
            36,
            "programId",
            "initializeTransferHook",
            "updateTransferHook",
        ),
        (
            39,
            "metadataAddress",
            "initializeMetadataPointer",
            "updateMetadataPointer",
        ),
        (
            40,
            "groupAddress",
            "initializeGroupPointer",
            "updateGroupPointer",
        ),
        (
            41,
            "memberAddress",
            "initializeGroupMemberPointer",
            "updateGroupMemberPointer",
        ),
    ];
    for (tag, address, init, update) in cases {
        let data = Data::new().u8(tag).u8(0).key(&authority()).key(&program).0;
        let mut expected = json!({"mint": s(&mint()), "authority": s(&authority())});
        expected[address] = json!(s(&program));
        check(&[mint()], &data, init, expected);
        // Unset (all-zero) keys are left out.
        let data = Data::new().u8(tag).u8(0).key(&zero).key(&zero).0;
        check(&[mint()], &data, init, json!({"mint": s(&mint())}));
        none(&[mint()], &data[..40]);

        let data = Data::new().u8(tag).u8(1).key(&program).0;
        let mut base = json!({"mint": s(&mint())});
        base[address] = json!(s(&program));
        let mut single = base.clone();
        single["authority"] = json!(s(&authority()));
        check(&[mint(), authority()], &data, update, single);
        check(
            &[mint(), multisig(), signer0(), signer1()],
            &data,
            update,
            with_multisig(base, "multisigAuthority"),
        );
        none(&[mint()], &data);
        none(&[mint(), authority()], &[tag, 2]);
    }
}
