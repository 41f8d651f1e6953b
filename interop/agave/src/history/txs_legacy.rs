//! Slots 100 and 101: legacy messages only: system (transfer, createAccount, nonce),
//! spl-token, memo v1 and compute budget. Instruction data comes from the programs' own
//! instruction builders; nothing is executed, the metas say what happened.

use solana_compute_budget_interface::ComputeBudgetInstruction;
use solana_instruction_error::InstructionError;
use solana_signer::Signer;
use solana_system_interface::instruction as system;
use solana_transaction_error::TransactionError;
use spl_token_interface::instruction as token;

use super::ixs::{TOKEN_ACCOUNT_LAMPORTS, TOKEN_ACCOUNT_LEN, memo};
use super::keys::Keys;
use super::metas::{self, instruction_error, token_balance, without_ui_amount};
use super::plan::PlannedTx;
use crate::error::{Context, Result};

pub fn slot_100(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let ix = system::transfer(&keys.payer.pubkey(), &keys.wallet, 10);
    let mut tx = PlannedTx::legacy(&[&keys.payer], &[ix], keys.recent_blockhash)?;
    tx.meta = Some(metas::ok(&tx, 0));
    Ok(vec![tx])
}

pub fn slot_101(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh) = (keys.payer.pubkey(), keys.recent_blockhash);
    let tk = spl_token_interface::id();

    let mut t0 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            ComputeBudgetInstruction::set_compute_unit_limit(200_000),
            ComputeBudgetInstruction::set_compute_unit_price(10_000),
            system::transfer(&payer, &keys.wallet, 1_000_000),
            memo(
                spl_memo_interface::v1::id(),
                "hello \"memo\" ✓".as_bytes(),
                &[],
            ),
        ],
        bh,
    )?;
    t0.meta = Some(metas::ok(&t0, 1));

    let new_account = keys.new_account.pubkey();
    let mut t1 = PlannedTx::legacy(
        &[&keys.payer, &keys.new_account],
        &[
            system::create_account(
                &payer,
                &new_account,
                TOKEN_ACCOUNT_LAMPORTS,
                TOKEN_ACCOUNT_LEN,
                &tk,
            ),
            token::initialize_account3(&tk, &new_account, &keys.mint, &keys.wallet)
                .context("initializeAccount3")?,
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t1, 2);
    meta.post_token_balances = Some(vec![token_balance(
        t1.index_of(&new_account)?,
        &keys.mint,
        &keys.wallet,
        &tk,
        0,
        6,
    )]);
    t1.meta = Some(meta);

    let mut t2 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            token::transfer(&tk, &keys.token_a, &keys.token_b, &payer, &[], 500)
                .context("transfer")?,
            token::transfer_checked(
                &tk,
                &keys.token_a,
                &keys.mint,
                &keys.token_b,
                &payer,
                &[],
                250,
                6,
            )
            .context("transferChecked")?,
            token::approve(&tk, &keys.token_a, &keys.delegate, &payer, &[], 100)
                .context("approve")?,
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t2, 3);
    meta.status = instruction_error(1, InstructionError::Custom(1));
    meta.log_messages = meta.log_messages.map(|mut logs| {
        logs.truncate(3);
        logs.push(format!("Program {tk} invoke [1]"));
        logs.push("Program log: Error: insufficient funds".to_string());
        logs.push(format!("Program {tk} failed: custom program error: 0x1"));
        logs
    });
    let balances = vec![
        token_balance(t2.index_of(&keys.token_a)?, &keys.mint, &payer, &tk, 100, 6),
        without_ui_amount(token_balance(
            t2.index_of(&keys.token_b)?,
            &keys.mint,
            &keys.wallet,
            &tk,
            0,
            6,
        )),
    ];
    meta.pre_token_balances = Some(balances.clone());
    meta.post_token_balances = Some(balances);
    meta.cost_units = None;
    t2.meta = Some(meta);

    let mut t3 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            token::mint_to(&tk, &keys.mint, &keys.token_a, &payer, &[], 1_000_000)
                .context("mintTo")?,
            token::close_account(&tk, &keys.token_b, &payer, &payer, &[])
                .context("closeAccount")?,
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t3, 4);
    meta.rewards = None;
    meta.pre_token_balances = Some(vec![
        token_balance(t3.index_of(&keys.token_a)?, &keys.mint, &payer, &tk, 100, 6),
        token_balance(
            t3.index_of(&keys.token_b)?,
            &keys.mint,
            &keys.wallet,
            &tk,
            0,
            6,
        ),
    ]);
    meta.post_token_balances = Some(vec![token_balance(
        t3.index_of(&keys.token_a)?,
        &keys.mint,
        &payer,
        &tk,
        1_000_100,
        6,
    )]);
    t3.meta = Some(meta);

    let payer2 = keys.payer2.pubkey();
    let mut t4 = PlannedTx::legacy(
        &[&keys.payer2],
        &[
            system::advance_nonce_account(&keys.nonce, &payer2),
            system::transfer(&payer2, &keys.wallet, 5),
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t4, 5);
    meta.status = Err(TransactionError::InsufficientFundsForFee);
    meta.fee = 0;
    meta.post_balances = meta.pre_balances.clone();
    meta.log_messages = Some(Vec::new());
    meta.compute_units_consumed = Some(0);
    t4.meta = Some(meta);

    Ok(vec![t0, t1, t2, t3, t4])
}
