//! Status metas as Agave's transaction status service stores them (`rewards: Some([])`,
//! token balances present, compute units and cost set), and the pieces the scenario
//! varies them with.

use solana_account_decoder::parse_account_data::SplTokenAdditionalDataV2;
use solana_account_decoder::parse_token::token_amount_to_ui_amount_v3;
use solana_instruction_error::InstructionError;
use solana_message::compiled_instruction::CompiledInstruction;
use solana_pubkey::Pubkey;
use solana_transaction_error::TransactionError;
use solana_transaction_status::{
    InnerInstruction, InnerInstructions, Reward, RewardType, TransactionStatusMeta,
    TransactionTokenBalance,
};

use super::plan::PlannedTx;

/// Lamports per signature in every fee.
const FEE_PER_SIGNATURE: u64 = 5_000;

/// Log lines a JSON encoder must escape: quotes, backslashes, non-ASCII, control
/// characters.
pub fn tricky_logs() -> Vec<String> {
    vec![
        "Program log: say \"hi\" to C:\\ledger\\rocksdb".to_string(),
        "Program log: ünïcödé ✓ — 日本語 🚀".to_string(),
        "Program log: bell \u{7} tab \t newline \n nul \u{0} escape \u{1b} del \u{7f}".to_string(),
        "Program log: solidus / and U+2028 \u{2028} and U+FFFF \u{ffff}".to_string(),
        String::new(),
    ]
}

/// The meta of a successful execution of `tx`: fee per signature, balances for every
/// account key (the payer pays the fee), the usual invoke / consumed / success log lines
/// per instruction, no inner instructions, empty token balances and rewards.
/// `seq` varies the numbers between transactions.
pub fn ok(tx: &PlannedTx, seq: u64) -> TransactionStatusMeta {
    let keys = tx.account_keys();
    let fee = FEE_PER_SIGNATURE * tx.tx.signatures.len() as u64;
    let pre_balances: Vec<u64> = (0..keys.len() as u64)
        .map(|i| 1_000_000_000 + seq * 1_000_003 + i * 7_919)
        .collect();
    let mut post_balances = pre_balances.clone();
    if let Some(payer) = post_balances.first_mut() {
        *payer -= fee;
    }
    let units_per_ix = 150 + seq * 10;
    let mut log_messages = Vec::new();
    for ix in tx.tx.message.instructions() {
        let program = keys
            .get(usize::from(ix.program_id_index))
            .copied()
            .unwrap_or_default();
        log_messages.push(format!("Program {program} invoke [1]"));
        log_messages.push(format!(
            "Program {program} consumed {units_per_ix} of 200000 compute units"
        ));
        log_messages.push(format!("Program {program} success"));
    }
    let units = units_per_ix * tx.tx.message.instructions().len() as u64;
    TransactionStatusMeta {
        status: Ok(()),
        fee,
        pre_balances,
        post_balances,
        inner_instructions: Some(Vec::new()),
        log_messages: Some(log_messages),
        pre_token_balances: Some(Vec::new()),
        post_token_balances: Some(Vec::new()),
        rewards: Some(Vec::new()),
        loaded_addresses: tx.loaded.clone(),
        return_data: None,
        compute_units_consumed: Some(units),
        cost_units: Some(units + 1_440 * tx.tx.signatures.len() as u64),
    }
}

pub fn instruction_error(index: u8, error: InstructionError) -> Result<(), TransactionError> {
    Err(TransactionError::InstructionError(index, error))
}

/// A token balance as Agave collects it: the UI amount from the raw amount and decimals.
pub fn token_balance(
    account_index: u8,
    mint: &Pubkey,
    owner: &Pubkey,
    program_id: &Pubkey,
    amount: u64,
    decimals: u8,
) -> TransactionTokenBalance {
    TransactionTokenBalance {
        account_index,
        mint: mint.to_string(),
        ui_token_amount: token_amount_to_ui_amount_v3(
            amount,
            &SplTokenAdditionalDataV2::with_decimals(decimals),
        ),
        owner: owner.to_string(),
        program_id: program_id.to_string(),
    }
}

/// `balance` without its deprecated floating-point UI amount (as very large amounts and
/// older validators store it).
pub fn without_ui_amount(mut balance: TransactionTokenBalance) -> TransactionTokenBalance {
    balance.ui_token_amount.ui_amount = None;
    balance
}

pub fn reward(
    pubkey: &Pubkey,
    lamports: i64,
    post_balance: u64,
    reward_type: Option<RewardType>,
    commission: Option<u8>,
) -> Reward {
    Reward {
        pubkey: pubkey.to_string(),
        lamports,
        post_balance,
        reward_type,
        commission,
        commission_bps: None,
    }
}

/// `reward` with its vote account's commission in basis points (SIMD-0291).
pub fn with_commission_bps(mut reward: Reward, bps: u16) -> Reward {
    reward.commission_bps = Some(bps);
    reward
}

/// The inner instructions of top-level instruction `index`.
pub fn inner(
    index: u8,
    instructions: Vec<(CompiledInstruction, Option<u32>)>,
) -> InnerInstructions {
    InnerInstructions {
        index,
        instructions: instructions
            .into_iter()
            .map(|(instruction, stack_height)| InnerInstruction {
                instruction,
                stack_height,
            })
            .collect(),
    }
}
