use proptest::prelude::*;

use super::*;
use crate::history::status::ReturnData;

const KEYS: [[u8; 32]; 3] = [[1; 32], [2; 32], [3; 32]];

fn token(index: u8, ui: Option<f64>, stored: Option<&'static str>) -> TokenBalance<'static> {
    TokenBalance {
        account_index: index,
        mint: "So11111111111111111111111111111111111111112",
        ui_amount: ui,
        decimals: 9,
        amount: "1500000000",
        stored_ui_amount_string: stored,
        owner: "",
        program_id: "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
    }
}

fn tx_error() -> impl Strategy<Value = Option<TxError>> {
    prop_oneof![
        Just(None),
        (0usize..TX_UNIT.len()).prop_filter_map("unit variants", |i| TX_UNIT[i]
            .map(|n| Some(TxError::Unit(n)))),
        (any::<u8>(), any::<u32>()).prop_map(|(index, code)| Some(TxError::Instruction {
            index,
            error: IxError::Custom(code)
        })),
        (any::<u8>(), 0usize..IX_UNIT.len()).prop_filter_map("unit variants", |(index, i)| {
            IX_UNIT[i].map(|n| {
                Some(TxError::Instruction {
                    index,
                    error: IxError::Unit(n),
                })
            })
        }),
        any::<u8>().prop_map(|i| Some(TxError::DuplicateInstruction(i))),
        any::<u8>().prop_map(|i| Some(TxError::InsufficientFundsForRent { account_index: i })),
    ]
}

proptest! {
    #[test]
    fn statuses_round_trip(
        err in tx_error(),
        fee in any::<u64>(),
        pre in proptest::collection::vec(any::<u64>(), 0..5),
        inner_none in any::<bool>(),
        logs_none in any::<bool>(),
        stack in proptest::option::of(any::<u32>()),
        cu in proptest::option::of(any::<u64>()),
        cost in proptest::option::of(any::<u64>()),
        lamports in any::<i64>(),
        commission in proptest::option::of(any::<u8>()),
        with_return in any::<bool>(),
    ) {
        let data = [7u8, 8];
        let meta = StatusMeta {
            err,
            fee,
            pre_balances: pre.clone(),
            post_balances: pre.iter().map(|b| b / 2).collect(),
            inner_instructions: (!inner_none).then(|| vec![InnerInstructions {
                index: 3,
                instructions: vec![InnerInstruction { program_id_index: 2, accounts: &[0, 1], data: &data, stack_height: stack }],
            }]),
            log_messages: (!logs_none).then(|| vec!["Program log: é \"x\"", ""]),
            pre_token_balances: vec![token(1, Some(1.5), None), token(2, None, Some("3.25"))],
            post_token_balances: vec![token(1, Some(2.0), None)],
            rewards: vec![Reward { pubkey: "Pk", lamports, post_balance: 4, reward_type: Some(RewardType::Staking), commission, commission_bps: None }],
            loaded_writable: vec![&KEYS[0]],
            loaded_readonly: vec![&KEYS[1], &KEYS[2]],
            return_data: with_return.then_some(ReturnData { program_id: &KEYS[2], data: &data }),
            compute_units_consumed: cu,
            cost_units: cost,
        };
        let bytes = meta.encode();
        prop_assert_eq!(StatusMeta::decode(&bytes).expect("decodes"), meta);
    }

    #[test]
    fn rewards_round_trip(n in 0usize..4, partitions in proptest::option::of(any::<u64>()), lamports in any::<i64>()) {
        let rewards = SlotRewards {
            rewards: (0..n).map(|i| Reward {
                pubkey: "Vote111111111111111111111111111111111111111",
                lamports: lamports.wrapping_add(i as i64),
                post_balance: i as u64,
                reward_type: [
                    None,
                    Some(RewardType::Fee),
                    Some(RewardType::Voting),
                    Some(RewardType::Rent),
                    Some(RewardType::DeactivatedStake),
                    Some(RewardType::VatDebit),
                ][i % 6],
                commission: (i % 2 == 0).then_some(i as u8),
                commission_bps: (i % 3 == 0).then_some(i as u16 * 100),
            }).collect(),
            num_partitions: partitions,
        };
        let bytes = rewards.encode();
        prop_assert_eq!(SlotRewards::decode(&bytes).expect("decodes"), rewards);
    }
}

#[test]
fn errors_and_memos_round_trip() {
    for err in [
        TxError::Unit("AccountInUse"),
        TxError::Unit("CommitCancelled"),
        TxError::Instruction {
            index: 4,
            error: IxError::Unit("BuiltinProgramsMustConsumeComputeUnits"),
        },
        TxError::ProgramExecutionTemporarilyRestricted { account_index: 9 },
    ] {
        assert_eq!(TxError::decode(&err.encode()), Ok(err));
    }
    assert_eq!(
        crate::history::decode_memo(&encode_memo("[12] hi")),
        Ok("[12] hi")
    );
}
