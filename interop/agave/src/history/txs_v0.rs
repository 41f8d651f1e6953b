//! Slot 102: v0 messages loading writable and read-only addresses through the lookup
//! table, beside legacy ones: associated token accounts (create, createIdempotent),
//! spl-token and token-2022 (transferChecked, the memo-transfer extension), memos v1 and
//! v3 (one not UTF-8), inner instructions at stack heights 2, 3 and none, return data.

use solana_compute_budget_interface::ComputeBudgetInstruction;
use solana_instruction_error::InstructionError;
use solana_signer::Signer;
use solana_system_interface::instruction as system;
use solana_transaction_context::transaction::TransactionReturnData;
use solana_transaction_error::TransactionError;
use spl_associated_token_account_interface::instruction as ata;
use spl_token_2022_interface::extension::memo_transfer::instruction as memo_transfer;
use spl_token_interface::instruction as token;

use super::ixs::{TOKEN_ACCOUNT_LAMPORTS, TOKEN_ACCOUNT_LEN, created_account, memo, unknown};
use super::keys::Keys;
use super::metas::{self, inner, instruction_error, token_balance, tricky_logs, without_ui_amount};
use super::plan::PlannedTx;
use crate::error::{Context, Result};

pub fn slot_102(keys: &Keys) -> Result<Vec<PlannedTx>> {
    let (payer, bh, table) = (keys.payer.pubkey(), keys.recent_blockhash, &keys.table);
    let (tk, tk22) = (spl_token_interface::id(), spl_token_2022_interface::id());
    let (t0_addr, t1_addr, t2_addr) = (
        keys.table_address(0),
        keys.table_address(1),
        keys.table_address(2),
    );

    let create = ata::create_associated_token_account(&payer, &keys.wallet, &keys.mint, &tk);
    let ata_mint = created_account(&create)?;
    let mut t0 = PlannedTx::v0(
        &[&keys.payer],
        &[
            create,
            token::transfer(&tk, &keys.token_a, &t0_addr, &payer, &[], 42).context("transfer")?,
            unknown(
                keys,
                &[keys.table_address(3), keys.table_address(4)],
                &[1, 2, 3],
            ),
        ],
        table,
        bh,
    )?;
    let mut meta = metas::ok(&t0, 6);
    meta.inner_instructions = Some(vec![
        inner(
            0,
            vec![
                (
                    t0.compile(&system::create_account(
                        &payer,
                        &ata_mint,
                        TOKEN_ACCOUNT_LAMPORTS,
                        TOKEN_ACCOUNT_LEN,
                        &tk,
                    ))?,
                    Some(2),
                ),
                (
                    t0.compile(
                        &token::initialize_immutable_owner(&tk, &ata_mint)
                            .context("immutable owner")?,
                    )?,
                    Some(2),
                ),
                (
                    t0.compile(
                        &token::initialize_account3(&tk, &ata_mint, &keys.mint, &keys.wallet)
                            .context("init")?,
                    )?,
                    Some(2),
                ),
            ],
        ),
        inner(
            2,
            vec![
                (
                    t0.compile(
                        &token::transfer(&tk, &keys.token_a, &t0_addr, &payer, &[], 1)
                            .context("transfer")?,
                    )?,
                    Some(2),
                ),
                (t0.compile(&system::transfer(&payer, &t0_addr, 1))?, Some(3)),
            ],
        ),
    ]);
    meta.pre_token_balances = Some(vec![
        token_balance(
            t0.index_of(&keys.token_a)?,
            &keys.mint,
            &payer,
            &tk,
            1_000_100,
            6,
        ),
        token_balance(t0.index_of(&t0_addr)?, &keys.mint, &keys.wallet, &tk, 0, 6),
    ]);
    meta.post_token_balances = Some(vec![
        token_balance(
            t0.index_of(&keys.token_a)?,
            &keys.mint,
            &payer,
            &tk,
            1_000_057,
            6,
        ),
        token_balance(t0.index_of(&t0_addr)?, &keys.mint, &keys.wallet, &tk, 43, 6),
        token_balance(t0.index_of(&ata_mint)?, &keys.mint, &keys.wallet, &tk, 0, 6),
    ]);
    meta.return_data = Some(TransactionReturnData {
        program_id: keys.unknown_program,
        data: vec![1, 2, 3, 4, 0, 255],
    });
    if let Some(logs) = meta.log_messages.as_mut() {
        logs.extend(tricky_logs());
    }
    t0.meta = Some(meta);

    let mut t1 = PlannedTx::v0(
        &[&keys.payer],
        &[
            spl_token_2022_interface::instruction::transfer_checked(
                &tk22,
                &keys.token22_a,
                &keys.mint22,
                &t2_addr,
                &payer,
                &[],
                7,
                2,
            )
            .context("token-2022 transferChecked")?,
            memo_transfer::enable_required_transfer_memos(&tk22, &keys.token22_a, &payer, &[])
                .context("enableRequiredTransferMemos")?,
            memo(
                spl_memo_interface::v3::id(),
                "ünïcödé memo ✓ \"q\"".as_bytes(),
                &[payer],
            ),
        ],
        table,
        bh,
    )?;
    let mut meta = metas::ok(&t1, 7);
    meta.status = Err(TransactionError::InsufficientFundsForFee);
    meta.log_messages = None;
    meta.inner_instructions = None;
    let balances = vec![
        token_balance(
            t1.index_of(&keys.token22_a)?,
            &keys.mint22,
            &payer,
            &tk22,
            700,
            2,
        ),
        without_ui_amount(token_balance(
            t1.index_of(&t2_addr)?,
            &keys.mint22,
            &keys.wallet,
            &tk22,
            12_345,
            2,
        )),
    ];
    meta.pre_token_balances = Some(balances.clone());
    meta.post_token_balances = Some(balances);
    t1.meta = Some(meta);

    let create22 =
        ata::create_associated_token_account_idempotent(&payer, &keys.wallet, &keys.mint22, &tk22);
    let ata_mint22 = created_account(&create22)?;
    let mut t2 = PlannedTx::legacy(
        &[&keys.payer],
        &[
            create22,
            memo(
                spl_memo_interface::v1::id(),
                &[0xf0, 0x28, 0x8c, 0x28, 0x41],
                &[],
            ),
        ],
        bh,
    )?;
    let mut meta = metas::ok(&t2, 8);
    meta.inner_instructions = Some(vec![inner(
        0,
        vec![
            (
                t2.compile(&system::create_account(
                    &payer,
                    &ata_mint22,
                    TOKEN_ACCOUNT_LAMPORTS,
                    170,
                    &tk22,
                ))?,
                None,
            ),
            (
                t2.compile(
                    &spl_token_2022_interface::instruction::initialize_account3(
                        &tk22,
                        &ata_mint22,
                        &keys.mint22,
                        &keys.wallet,
                    )
                    .context("token-2022 initializeAccount3")?,
                )?,
                None,
            ),
        ],
    )]);
    meta.log_messages = Some(tricky_logs());
    meta.post_token_balances = Some(vec![token_balance(
        t2.index_of(&ata_mint22)?,
        &keys.mint22,
        &keys.wallet,
        &tk22,
        0,
        2,
    )]);
    t2.meta = Some(meta);

    let mut t3 = PlannedTx::v0(
        &[&keys.payer],
        &[
            ComputeBudgetInstruction::set_compute_unit_price(1),
            system::transfer(&payer, &t1_addr, 99),
            unknown(keys, &[keys.table_address(5)], &[]),
        ],
        table,
        bh,
    )?;
    let mut meta = metas::ok(&t3, 9);
    meta.status = instruction_error(1, InstructionError::InvalidAccountData);
    t3.meta = Some(meta);

    Ok(vec![t0, t1, t2, t3])
}
