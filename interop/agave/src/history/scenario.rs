//! The scenario's chain of slots and the rows beside them. Every slot is rooted; the
//! first one is the parent of the second, so the second's `previousBlockhash` is real,
//! and, being the lowest root, it lies below Agave's first available block.
//!
//! ```text
//! 100 ─ 101 ─ 102 ─ 103 ─┬─ (104 skipped: no shreds, not rooted)
//!                        └─ 105 ─ 106 ─ 107          108: past the highest root
//! ```

use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_signer::Signer;
use solana_transaction_status::{RewardType, RewardsAndNumPartitions};

use super::keys::Keys;
use super::metas::{reward, with_commission_bps};
use super::plan::PlannedSlot;
use super::queries::unknown_signature;
use super::rpc::SignaturesConfig;
use super::{txs_legacy, txs_programs, txs_v0};
use crate::error::{Error, Result};

/// The lowest root: Agave's first available block is the next root.
pub const FIRST_SLOT: u64 = 100;
/// Between two roots, with no shreds and no root mark.
pub const SKIPPED_SLOT: u64 = 104;
/// Past the highest root.
pub const LATE_SLOT: u64 = 108;
/// Unix time of `FIRST_SLOT`; each later slot adds 3 s, so no two slots share a time.
const FIRST_TIME: i64 = 1_700_000_000;

pub fn plan(keys: &Keys) -> Result<Vec<PlannedSlot>> {
    let time = |slot: u64| Some(FIRST_TIME + (slot - FIRST_SLOT) as i64 * 3);
    let height = |slot: u64| Some(slot - FIRST_SLOT + 90);
    let leader = keys.leader_identity();
    Ok(vec![
        PlannedSlot {
            slot: 100,
            parent: 99,
            txs: txs_legacy::slot_100(keys)?,
            block_time: time(100),
            block_height: height(100),
            rewards: None,
            note: "lowest root: below the first available block, parent 99 absent",
        },
        PlannedSlot {
            slot: 101,
            parent: 100,
            txs: txs_legacy::slot_101(keys)?,
            block_time: time(101),
            block_height: height(101),
            rewards: Some(RewardsAndNumPartitions {
                rewards: vec![reward(
                    &leader,
                    27_500,
                    9_000_027_500,
                    Some(RewardType::Fee),
                    None,
                )],
                num_partitions: None,
            }),
            note: "legacy messages only: system, spl-token, memo, compute budget, nonce",
        },
        PlannedSlot {
            slot: 102,
            parent: 101,
            txs: txs_v0::slot_102(keys)?,
            block_time: time(102),
            block_height: height(102),
            rewards: Some(RewardsAndNumPartitions {
                rewards: Vec::new(),
                num_partitions: None,
            }),
            note: "v0 messages with lookups, token-2022, associated token accounts, memos",
        },
        PlannedSlot {
            slot: 103,
            parent: 102,
            txs: txs_programs::slot_103(keys)?,
            block_time: None,
            block_height: height(103),
            rewards: Some(RewardsAndNumPartitions {
                rewards: vec![
                    reward(
                        &keys.vote,
                        1_000_000,
                        51_000_000,
                        Some(RewardType::Voting),
                        Some(10),
                    ),
                    reward(
                        &keys.stake,
                        4_000_000,
                        2_004_000_000,
                        Some(RewardType::Staking),
                        Some(5),
                    ),
                    reward(&keys.wallet, -1_234, 998_766, Some(RewardType::Rent), None),
                    reward(&keys.delegate, 17, 17, None, None),
                ],
                num_partitions: None,
            }),
            note: "vote, stake, lookup table, upgradeable loader, unknown program, garbage data; \
                   no block time",
        },
        PlannedSlot {
            slot: 105,
            parent: 103,
            txs: txs_programs::slot_105(keys)?,
            block_time: time(105),
            block_height: None,
            rewards: Some(RewardsAndNumPartitions {
                rewards: vec![
                    reward(&leader, 40_000, 9_000_067_500, Some(RewardType::Fee), None),
                    reward(
                        &keys.stake,
                        3_000,
                        2_004_003_000,
                        Some(RewardType::Staking),
                        None,
                    ),
                    with_commission_bps(
                        reward(
                            &keys.vote,
                            0,
                            51_000_000,
                            Some(RewardType::Voting),
                            Some(100),
                        ),
                        10_000,
                    ),
                    reward(
                        &keys.delegate,
                        -2_000,
                        0,
                        Some(RewardType::DeactivatedStake),
                        None,
                    ),
                    reward(&keys.new_staker, -5_000, 0, Some(RewardType::Fee), Some(0)),
                ],
                num_partitions: Some(4),
            }),
            note: "child of 103 across the skipped 104; payer history; no block height",
        },
        PlannedSlot {
            slot: 106,
            parent: 105,
            txs: txs_programs::slot_106(keys)?,
            block_time: time(106),
            block_height: height(106),
            rewards: None,
            note: "one transaction without a status",
        },
        PlannedSlot {
            slot: 107,
            parent: 106,
            txs: txs_programs::slot_107(keys)?,
            block_time: time(107),
            block_height: height(107),
            rewards: None,
            note: "highest root; no rewards row",
        },
    ])
}

/// The addresses whose history is asked for: the payer (many transactions), the second
/// payer (one of them without status), a read-only key, a lookup-table address loaded
/// writable and one loaded read-only, and a key with no history.
pub fn addresses(keys: &Keys) -> Vec<Pubkey> {
    vec![
        keys.payer.pubkey(),
        keys.payer2.pubkey(),
        keys.mint22,
        keys.table_address(0),
        keys.table_address(3),
        keys.nobody,
    ]
}

/// `before` / `until` at the edges, for the payer: a signature in the block that cannot
/// be built (an error), the one without status and one below the first available block
/// (empty answers), an unknown `until` (ignored), a narrow window, and invalid limits.
pub fn payer_edge_cases(
    keys: &Keys,
    slots: &[PlannedSlot],
) -> Result<Vec<(Pubkey, SignaturesConfig)>> {
    let sig = |slot: u64, index: usize| -> Result<Option<Signature>> {
        slots
            .iter()
            .find(|s| s.slot == slot)
            .and_then(|s| s.txs.get(index))
            .map(|t| Some(t.signature()))
            .ok_or_else(|| {
                Error::new(format!(
                    "the scenario has no transaction {index} in slot {slot}"
                ))
            })
    };
    let config = |before, until, limit| SignaturesConfig {
        before,
        until,
        limit,
    };
    let payer = keys.payer.pubkey();
    Ok(vec![
        (payer, config(sig(106, 0)?, None, None)),
        (payer, config(None, sig(106, 2)?, None)),
        (payer, config(sig(106, 1)?, None, None)),
        (payer, config(sig(100, 0)?, None, None)),
        (payer, config(None, Some(unknown_signature(keys)), None)),
        (payer, config(sig(105, 1)?, sig(101, 1)?, Some(3))),
        (payer, config(None, None, Some(0))),
        (payer, config(None, None, Some(1001))),
    ])
}
