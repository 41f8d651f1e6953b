//! Agave's `parse_token.rs` tests, continued: the checked instructions, the one-account
//! instructions, `createNativeMint`, and malformed data.

use serde_json::json;

use crate::tests::{Data, key, parsed, s};
use crate::token::tests::{
    PROGRAMS, account, amount_42_2, check, mint, mint_authority, multisig, owner, recipient,
    signers,
};

#[test]
fn checked_instructions_carry_token_amounts() {
    let [s0, s1, _] = signers();
    let data = Data::new().u8(12).u64(42).u8(2).0;
    check(
        &[account(), mint(), recipient(), owner()],
        &data,
        "transferChecked",
        json!({
            "source": s(&account()),
            "destination": s(&recipient()),
            "mint": s(&mint()),
            "authority": s(&owner()),
            "tokenAmount": amount_42_2(),
        }),
        1,
    );
    check(
        &[account(), mint(), recipient(), multisig(), s0, s1],
        &data,
        "transferChecked",
        json!({
            "source": s(&account()),
            "destination": s(&recipient()),
            "mint": s(&mint()),
            "multisigAuthority": s(&multisig()),
            "signers": [s(&s0), s(&s1)],
            "tokenAmount": amount_42_2(),
        }),
        3,
    );
    let data = Data::new().u8(13).u64(42).u8(2).0;
    check(
        &[account(), mint(), recipient(), owner()],
        &data,
        "approveChecked",
        json!({
            "source": s(&account()),
            "mint": s(&mint()),
            "delegate": s(&recipient()),
            "owner": s(&owner()),
            "tokenAmount": amount_42_2(),
        }),
        1,
    );
    check(
        &[account(), mint(), recipient(), multisig(), s0, s1],
        &data,
        "approveChecked",
        json!({
            "source": s(&account()),
            "mint": s(&mint()),
            "delegate": s(&recipient()),
            "multisigOwner": s(&multisig()),
            "signers": [s(&s0), s(&s1)],
            "tokenAmount": amount_42_2(),
        }),
        3,
    );
    check(
        &[mint(), account(), mint_authority()],
        &Data::new().u8(14).u64(42).u8(2).0,
        "mintToChecked",
        json!({
            "mint": s(&mint()),
            "account": s(&account()),
            "mintAuthority": s(&mint_authority()),
            "tokenAmount": amount_42_2(),
        }),
        1,
    );
    check(
        &[account(), mint(), owner()],
        &Data::new().u8(15).u64(42).u8(2).0,
        "burnChecked",
        json!({
            "account": s(&account()),
            "mint": s(&mint()),
            "authority": s(&owner()),
            "tokenAmount": amount_42_2(),
        }),
        1,
    );
}

#[test]
fn single_account_instructions() {
    let one = [account()];
    check(
        &one,
        &[17],
        "syncNative",
        json!({"account": s(&account())}),
        1,
    );
    check(
        &one,
        &[22],
        "initializeImmutableOwner",
        json!({"account": s(&account())}),
        1,
    );
    let m = [mint()];
    check(
        &m,
        &[21],
        "getAccountDataSize",
        json!({"mint": s(&mint())}),
        1,
    );
    check(
        &m,
        &[21, 7, 0, 8, 0],
        "getAccountDataSize",
        json!({"mint": s(&mint()), "extensionTypes": ["immutableOwner", "memoTransfer"]}),
        1,
    );
    check(
        &m,
        &Data::new().u8(23).u64(4242).0,
        "amountToUiAmount",
        json!({"mint": s(&mint()), "amount": "4242"}),
        1,
    );
    check(
        &m,
        &Data::new().u8(24).bytes(b"42.42").0,
        "uiAmountToAmount",
        json!({"mint": s(&mint()), "uiAmount": "42.42"}),
        1,
    );
    check(
        &m,
        &[32],
        "initializeNonTransferableMint",
        json!({"mint": s(&mint())}),
        1,
    );
}

#[test]
fn create_native_mint_and_withdraw_excess_lamports() {
    let (payer, native_mint, system) = (key(1), key(2), key(3));
    check(
        &[payer, native_mint, system],
        &[31],
        "createNativeMint",
        json!({"payer": s(&payer), "nativeMint": s(&native_mint), "systemProgram": s(&system)}),
        1,
    );
    check(
        &[account(), recipient(), owner()],
        &[38],
        "withdrawExcessLamports",
        json!({
            "source": s(&account()),
            "destination": s(&recipient()),
            "authority": s(&owner()),
        }),
        1,
    );
}

#[test]
fn malformed_token_data_falls_back() {
    for program in &PROGRAMS {
        let accounts = [account(), recipient(), owner()];
        // Empty data, an unknown tag, a short amount, a bad authority type, invalid UTF-8.
        for data in [
            &[][..],
            &[45],
            &[3, 1, 2, 3],
            &[6, 17, 0],
            &[24, 0xff],
            &[21, 7],
        ] {
            assert_eq!(parsed(program, &accounts, data), None, "{data:?}");
        }
        // Trailing bytes after a fixed layout are ignored.
        let data = Data::new().u8(3).u64(42).u8(0xee).0;
        assert!(parsed(program, &accounts, &data).is_some());
        // No accounts at all.
        assert_eq!(parsed(program, &[], &[17]), None);
    }
}
