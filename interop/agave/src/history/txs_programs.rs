//! Slots 103–107: vote, stake, address lookup table, upgradeable loader, an unknown
//! program and known programs fed garbage (103); then the payer's plain history across
//! the skipped slot (105), a transaction left without a status (106) and the highest
//! root (107).

use solana_hash::Hash;
use solana_instruction::{AccountMeta, Instruction};
use solana_instruction_error::InstructionError;
use solana_signer::Signer;
use solana_stake_interface::instruction as stake;
use solana_stake_interface::state::StakeAuthorize;
use solana_system_interface::instruction as system;
use solana_transaction_context::transaction::TransactionReturnData;
use solana_transaction_error::TransactionError;
use solana_transaction_status::RewardType;
use solana_vote_interface::state::TowerSync;

use super::ixs::{memo, unknown};
use super::keys::Keys;
use super::metas::{self, inner, instruction_error};
use super::plan::PlannedTx;
use crate::error::Result;

pub fn slot_103(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh) = (keys.payer.pubkey(), keys.recent_blockhash);

    let tower =
        TowerSync::new_from_slots(vec![100, 101, 102], Hash::new_from_array([7; 32]), Some(99));
    let vote = solana_vote_interface::instruction::tower_sync(&keys.vote, &payer, tower);
    let mut t0 = PlannedTx::legacy(&[&keys.payer], &[vote], bh)?;
    // What an old validator stored: no logs, inner instructions, token balances,
    // rewards, compute units or cost.
    let mut meta = metas::ok(&t0, 10);
    meta.log_messages = None;
    meta.inner_instructions = None;
    meta.pre_token_balances = None;
    meta.post_token_balances = None;
    meta.rewards = None;
    meta.compute_units_consumed = None;
    meta.cost_units = None;
    t0.meta = Some(meta);

    let mut t1 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            stake::delegate_stake(&keys.stake, &payer, &keys.vote),
            stake::authorize(
                &keys.stake,
                &payer,
                &keys.new_staker,
                StakeAuthorize::Staker,
                None,
            ),
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t1, 11);
    meta.status = Err(TransactionError::InsufficientFundsForRent { account_index: 2 });
    t1.meta = Some(meta);

    let extend = solana_address_lookup_table_interface::instruction::extend_lookup_table(
        keys.table.key,
        payer,
        Some(payer),
        vec![keys.new_staker, keys.spill],
    );
    let mut t2 = PlannedTx::legacy(&[&keys.payer], &[extend], bh)?;
    let mut meta = metas::ok(&t2, 12);
    meta.inner_instructions = Some(vec![inner(
        0,
        vec![(
            t2.compile(&system::transfer(&payer, &keys.table.key, 1_000_000))?,
            Some(2),
        )],
    )]);
    t2.meta = Some(meta);

    let upgrade = solana_loader_v3_interface::instruction::upgrade(
        &keys.program,
        &keys.buffer,
        &payer,
        &keys.spill,
    );
    let mut t3 = PlannedTx::legacy(
        &[&keys.payer],
        &[system::transfer(&payer, &keys.spill, 1), upgrade],
        bh,
    )?;
    let mut meta = metas::ok(&t3, 13);
    meta.inner_instructions = Some(vec![inner(
        1,
        vec![
            (
                t3.compile(&system::transfer(&keys.buffer, &keys.spill, 5))?,
                Some(2),
            ),
            (
                t3.compile(&system::transfer(&keys.spill, &payer, 1))?,
                Some(3),
            ),
        ],
    )]);
    meta.return_data = Some(TransactionReturnData {
        program_id: keys.program,
        data: b"ok".to_vec(),
    });
    t3.meta = Some(meta);

    // Known programs with data their parsers reject, beside an unknown program.
    let token_garbage = Instruction::new_with_bytes(
        spl_token_interface::id(),
        &[0xee, 1, 2],
        vec![AccountMeta::new(keys.token_a, false)],
    );
    let system_garbage = Instruction::new_with_bytes(
        solana_system_interface::program::ID,
        &[0xff, 0xff, 0xff, 0xff, 9],
        vec![AccountMeta::new(payer, true)],
    );
    let mut t4 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            unknown(keys, &[keys.wallet], &[0xde, 0xad]),
            token_garbage,
            system_garbage,
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t4, 14);
    meta.status = instruction_error(1, InstructionError::BorshIoError);
    t4.meta = Some(meta);

    Ok(vec![t0, t1, t2, t3, t4])
}

pub fn slot_105(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh) = (keys.payer.pubkey(), keys.recent_blockhash);
    let mut t0 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            system::transfer(&payer, &keys.wallet, 1),
            memo(spl_memo_interface::v3::id(), b"first", &[]),
        ],
        bh,
    )?;
    t0.meta = Some(metas::ok(&t0, 20));

    let mut t1 = PlannedTx::legacy(
        &[&keys.payer],
        &[system::transfer(&payer, &keys.delegate, 2)],
        bh,
    )?;
    let mut meta = metas::ok(&t1, 21);
    meta.status = instruction_error(0, InstructionError::Custom(0));
    t1.meta = Some(meta);

    let mut t2 = PlannedTx::v0(
        &[&keys.payer],
        &[system::transfer(&payer, &keys.table_address(0), 3)],
        &keys.table,
        bh,
    )?;
    t2.meta = Some(metas::ok(&t2, 22));

    let mut t3 = PlannedTx::legacy(
        &[&keys.payer2],
        &[system::transfer(&keys.payer2.pubkey(), &payer, 4)],
        bh,
    )?;
    // One of the few transactions with rewards of its own.
    let mut meta = metas::ok(&t3, 23);
    meta.rewards = Some(vec![metas::reward(
        &keys.leader_identity(),
        2_500,
        9_000_002_500,
        Some(RewardType::Fee),
        None,
    )]);
    t3.meta = Some(meta);

    Ok(vec![t0, t1, t2, t3])
}

pub fn slot_106(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh) = (keys.payer.pubkey(), keys.recent_blockhash);
    let mut t0 = PlannedTx::legacy(
        &[&keys.payer],
        &[system::transfer(&payer, &keys.wallet, 5)],
        bh,
    )?;
    t0.meta = Some(metas::ok(&t0, 30));

    // No status: the block cannot be built, the transaction is not found.
    let t1 = PlannedTx::legacy(
        &[&keys.payer2],
        &[system::transfer(&keys.payer2.pubkey(), &keys.wallet, 6)],
        bh,
    )?;

    let mut t2 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            system::transfer(&payer, &keys.delegate, 7),
            memo(spl_memo_interface::v1::id(), b"after the gap", &[]),
        ],
        bh,
    )?;
    t2.meta = Some(metas::ok(&t2, 32));
    Ok(vec![t0, t1, t2])
}

pub fn slot_107(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh) = (keys.payer.pubkey(), keys.recent_blockhash);
    let mut t0 = PlannedTx::v0(
        &[&keys.payer],
        &[
            system::transfer(&payer, &keys.table_address(1), 8),
            memo(spl_memo_interface::v1::id(), b"v0 memo", &[]),
        ],
        &keys.table,
        bh,
    )?;
    t0.meta = Some(metas::ok(&t0, 40));

    let mut t1 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            memo(spl_memo_interface::v3::id(), b"one", &[payer]),
            memo(spl_memo_interface::v1::id(), b"two", &[]),
        ],
        bh,
    )?;
    t1.meta = Some(metas::ok(&t1, 41));
    Ok(vec![t0, t1])
}
