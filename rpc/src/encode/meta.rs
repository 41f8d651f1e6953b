//! A transaction's status as Agave's JSON writes it (`UiTransactionStatusMeta`), in the
//! three shapes Agave's encoder makes (`solana-transaction-status`):
//!
//! - [`MetaStyle::Full`] (json, base58, base64; `UiTransactionStatusMeta::from`): every
//!   member; `innerInstructions` / `logMessages` are `null` when the validator stored none;
//!   `loadedAddresses` always; `returnData`, `computeUnitsConsumed`, `costUnits` only when
//!   stored; `rewards` is `null` when the client turned rewards off.
//! - [`MetaStyle::Accounts`] (`transactionDetails: "accounts"`): status, fee, balances and
//!   token balances only; `rewards` only when asked for.
//! - [`MetaStyle::Parsed`] (jsonParsed): as `Full`, but inner instructions are parsed
//!   against all account keys (static, then loaded writable, then loaded readonly) and
//!   `loadedAddresses` is left out.

use bstore_ledger::history::{InnerInstruction, Reward, StatusMeta, TokenBalance};

use super::instruction::{write_compiled_instruction, write_parsed_instruction};
use super::json::JsonOut;
use super::tx_error::write_err_and_status;

/// Which of Agave's meta shapes to write.
#[derive(Debug, Clone, Copy)]
pub(super) enum MetaStyle<'k> {
    Full,
    Accounts,
    /// jsonParsed, with the transaction's account keys (static then loaded).
    Parsed(&'k [&'k [u8; 32]]),
}

/// Writes the meta object.
pub(super) fn write_meta(
    out: &mut JsonOut,
    meta: &StatusMeta<'_>,
    style: MetaStyle<'_>,
    show_rewards: bool,
) {
    out.raw("{");
    write_err_and_status(out, meta.err.as_ref());
    out.raw(",\"fee\":");
    out.u64(meta.fee);
    out.raw(",\"preBalances\":");
    out.array(&meta.pre_balances, |out, &v| out.u64(v));
    out.raw(",\"postBalances\":");
    out.array(&meta.post_balances, |out, &v| out.u64(v));
    if !matches!(style, MetaStyle::Accounts) {
        out.raw(",\"innerInstructions\":");
        match &meta.inner_instructions {
            None => out.raw("null"),
            Some(list) => out.array(list, |out, inner| {
                out.raw("{\"index\":");
                out.u64(u64::from(inner.index));
                out.raw(",\"instructions\":");
                out.array(&inner.instructions, |out, ix| write_inner(out, ix, style));
                out.raw("}");
            }),
        }
        out.raw(",\"logMessages\":");
        match &meta.log_messages {
            None => out.raw("null"),
            Some(logs) => out.array(logs, |out, line| out.str(line)),
        }
    }
    out.raw(",\"preTokenBalances\":");
    out.array(&meta.pre_token_balances, write_token_balance);
    out.raw(",\"postTokenBalances\":");
    out.array(&meta.post_token_balances, write_token_balance);
    match (style, show_rewards) {
        (_, true) => {
            out.raw(",\"rewards\":");
            write_rewards(out, &meta.rewards);
        }
        (MetaStyle::Accounts, false) => {}
        (_, false) => out.raw(",\"rewards\":null"),
    }
    if matches!(style, MetaStyle::Accounts) {
        out.raw("}");
        return;
    }
    if matches!(style, MetaStyle::Full) {
        out.raw(",\"loadedAddresses\":{\"writable\":");
        out.array(&meta.loaded_writable, |out, key| out.b58(*key));
        out.raw(",\"readonly\":");
        out.array(&meta.loaded_readonly, |out, key| out.b58(*key));
        out.raw("}");
    }
    if let Some(ret) = &meta.return_data {
        out.raw(",\"returnData\":{\"programId\":");
        out.b58(ret.program_id);
        out.raw(",\"data\":[");
        out.b64(ret.data);
        out.raw(",\"base64\"]}");
    }
    if let Some(cu) = meta.compute_units_consumed {
        out.raw(",\"computeUnitsConsumed\":");
        out.u64(cu);
    }
    if let Some(cost) = meta.cost_units {
        out.raw(",\"costUnits\":");
        out.u64(cost);
    }
    out.raw("}");
}

/// One inner instruction: compiled (`UiCompiledInstruction`), or parsed for jsonParsed.
fn write_inner(out: &mut JsonOut, ix: &InnerInstruction<'_>, style: MetaStyle<'_>) {
    if let MetaStyle::Parsed(keys) = style {
        write_parsed_instruction(
            out,
            keys,
            ix.program_id_index,
            ix.accounts,
            ix.data,
            ix.stack_height,
        );
        return;
    }
    write_compiled_instruction(
        out,
        ix.program_id_index,
        ix.accounts,
        ix.data,
        ix.stack_height,
    );
}

fn write_token_balance(out: &mut JsonOut, b: &TokenBalance<'_>) {
    out.raw("{\"accountIndex\":");
    out.u64(u64::from(b.account_index));
    out.raw(",\"mint\":");
    out.str(b.mint);
    out.raw(",\"uiTokenAmount\":{\"uiAmount\":");
    match b.ui_amount {
        Some(v) => out.f64(v),
        None => out.raw("null"),
    }
    out.raw(",\"decimals\":");
    out.u64(u64::from(b.decimals));
    out.raw(",\"amount\":");
    out.str(b.amount);
    out.raw(",\"uiAmountString\":");
    out.str(&b.ui_amount_string());
    out.raw("}");
    // Agave leaves out an owner or program id the validator stored empty.
    if !b.owner.is_empty() {
        out.raw(",\"owner\":");
        out.str(b.owner);
    }
    if !b.program_id.is_empty() {
        out.raw(",\"programId\":");
        out.str(b.program_id);
    }
    out.raw("}");
}

/// A rewards list (`Rewards`), per transaction or per block.
pub(super) fn write_rewards(out: &mut JsonOut, rewards: &[Reward<'_>]) {
    out.array(rewards, |out, r| {
        out.raw("{\"pubkey\":");
        out.str(r.pubkey);
        out.raw(",\"lamports\":");
        out.i64(r.lamports);
        out.raw(",\"postBalance\":");
        out.u64(r.post_balance);
        out.raw(",\"rewardType\":");
        match r.reward_type {
            Some(t) => out.str(t.name()),
            None => out.raw("null"),
        }
        out.raw(",\"commission\":");
        out.opt_u64(r.commission.map(u64::from));
        // Agave 4.x writes `commissionBps` only when the reward carries one.
        if let Some(bps) = r.commission_bps {
            out.raw(",\"commissionBps\":");
            out.u64(u64::from(bps));
        }
        out.raw("}");
    });
}

#[cfg(test)]
#[path = "meta_tests.rs"]
mod tests;
