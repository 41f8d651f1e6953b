use bstore_ledger::history::{
    InnerInstruction, InnerInstructions, IxError, ReturnData, Reward, RewardType, StatusMeta,
    TokenBalance, TxError,
};
use serde_json::{Value, json};

use super::*;

fn sample<'a>() -> StatusMeta<'a> {
    StatusMeta {
        err: Some(TxError::Instruction {
            index: 1,
            error: IxError::Custom(7),
        }),
        fee: 5000,
        pre_balances: vec![10, 20],
        post_balances: vec![5, 20],
        inner_instructions: Some(vec![InnerInstructions {
            index: 0,
            instructions: vec![
                InnerInstruction {
                    program_id_index: 1,
                    accounts: &[0],
                    data: &[1, 2],
                    stack_height: Some(2),
                },
                InnerInstruction {
                    program_id_index: 1,
                    accounts: &[],
                    data: &[],
                    stack_height: None,
                },
            ],
        }]),
        log_messages: Some(vec!["Program log: \"q\" \\ \u{1}"]),
        pre_token_balances: vec![TokenBalance {
            account_index: 1,
            mint: "Mint",
            ui_amount: Some(0.5),
            decimals: 1,
            amount: "5",
            stored_ui_amount_string: None,
            owner: "",
            program_id: "Prog",
        }],
        post_token_balances: vec![],
        rewards: vec![Reward {
            pubkey: "Pk",
            lamports: -3,
            post_balance: 9,
            reward_type: Some(RewardType::Rent),
            commission: None,
            commission_bps: None,
        }],
        loaded_writable: vec![&[1; 32]],
        loaded_readonly: vec![],
        return_data: Some(ReturnData {
            program_id: &[0; 32],
            data: b"hi",
        }),
        compute_units_consumed: Some(150),
        cost_units: None,
    }
}

fn json_of(meta: &StatusMeta<'_>, style: MetaStyle<'_>, rewards: bool) -> Value {
    let mut out = JsonOut::default();
    write_meta(&mut out, meta, style, rewards);
    serde_json::from_str(&out.into_string().expect("text")).expect("valid JSON")
}

fn full_expected() -> Value {
    let err = json!({"InstructionError": [1, {"Custom": 7}]});
    json!({
        "err": err,
        "status": {"Err": err},
        "fee": 5000,
        "preBalances": [10, 20],
        "postBalances": [5, 20],
        "innerInstructions": [{"index": 0, "instructions": [
            {"programIdIndex": 1, "accounts": [0], "data": bs58::encode([1, 2]).into_string(), "stackHeight": 2},
            {"programIdIndex": 1, "accounts": [], "data": "", "stackHeight": null},
        ]}],
        "logMessages": ["Program log: \"q\" \\ \u{1}"],
        "preTokenBalances": [{"accountIndex": 1, "mint": "Mint",
            "uiTokenAmount": {"uiAmount": 0.5, "decimals": 1, "amount": "5", "uiAmountString": "0.5"},
            "programId": "Prog"}],
        "postTokenBalances": [],
        "rewards": [{"pubkey": "Pk", "lamports": -3, "postBalance": 9, "rewardType": "Rent", "commission": null}],
        "loadedAddresses": {"writable": [bs58::encode([1u8; 32]).into_string()], "readonly": []},
        "returnData": {"programId": "11111111111111111111111111111111", "data": ["aGk=", "base64"]},
        "computeUnitsConsumed": 150,
    })
}

#[test]
fn full_style_writes_every_member_by_agaves_rules() {
    assert_eq!(json_of(&sample(), MetaStyle::Full, true), full_expected());
    let mut no_rewards = full_expected();
    no_rewards["rewards"] = Value::Null;
    assert_eq!(json_of(&sample(), MetaStyle::Full, false), no_rewards);
}

#[test]
fn absent_lists_are_null_and_absent_options_are_left_out() {
    let meta = StatusMeta {
        inner_instructions: None,
        log_messages: None,
        ..StatusMeta::default()
    };
    let v = json_of(&meta, MetaStyle::Full, true);
    assert_eq!(v["err"], Value::Null);
    assert_eq!(v["status"], json!({"Ok": null}));
    assert_eq!(v["innerInstructions"], Value::Null);
    assert_eq!(v["logMessages"], Value::Null);
    let obj = v.as_object().expect("object");
    for absent in ["returnData", "computeUnitsConsumed", "costUnits"] {
        assert!(!obj.contains_key(absent), "{absent}");
    }
    assert_eq!(
        v["loadedAddresses"],
        json!({"writable": [], "readonly": []})
    );
}

#[test]
fn accounts_style_keeps_balances_and_status_only() {
    let v = json_of(&sample(), MetaStyle::Accounts, true);
    let keys: Vec<&str> = v
        .as_object()
        .expect("object")
        .keys()
        .map(String::as_str)
        .collect();
    let mut keys = keys;
    keys.sort_unstable();
    assert_eq!(
        keys,
        [
            "err",
            "fee",
            "postBalances",
            "postTokenBalances",
            "preBalances",
            "preTokenBalances",
            "rewards",
            "status"
        ]
    );
    let v = json_of(&sample(), MetaStyle::Accounts, false);
    assert!(!v.as_object().expect("object").contains_key("rewards"));
}

#[test]
fn parsed_style_leaves_out_loaded_addresses_and_resolves_inner_keys() {
    let keys: Vec<&[u8; 32]> = vec![&[9; 32], &[8; 32]];
    let v = json_of(&sample(), MetaStyle::Parsed(&keys), true);
    assert!(
        !v.as_object()
            .expect("object")
            .contains_key("loadedAddresses")
    );
    // [8;32] is no program Agave parses: the partially decoded form.
    assert_eq!(
        v["innerInstructions"][0]["instructions"][0],
        json!({"programId": bs58::encode([8u8; 32]).into_string(),
               "accounts": [bs58::encode([9u8; 32]).into_string()],
               "data": bs58::encode([1, 2]).into_string(), "stackHeight": 2})
    );
}
