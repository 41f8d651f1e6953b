//! One transaction as Agave's `EncodedTransactionWithStatusMeta`: `{transaction, meta,
//! version?}`. `meta` is the transaction's status from the ledger (`meta.rs`), or `null`
//! when the ledger has no history for the block (a ledger bstore ingested from shreds:
//! nothing executed it).

use bstore_ledger::entry::{MessageView, TransactionConfig, TransactionView, TxVersion};
use bstore_ledger::history::StatusMeta;

use super::accounts::{ParsedKey, parsed_keys};
use super::instruction::{write_compiled_instruction, write_parsed_instruction};
use super::json::JsonOut;
use super::meta::{MetaStyle, write_meta};
use crate::error::RpcError;
use crate::params::{BlockConfig, Encoding, TransactionDetails};

/// Agave's `TRANSACTION_LEVEL_STACK_HEIGHT`: top-level instructions report stack height 1.
const TOP_LEVEL_STACK_HEIGHT: u32 = 1;

/// The `version` member Agave adds: absent unless the client said which versions it
/// supports. A versioned transaction above the client's `maxSupportedTransactionVersion`
/// (v0 or v1 when it named none, v1 when it named 0) is an error for the whole block, as in
/// Agave's `validate_version`.
fn version_member(
    tx: &TransactionView<'_>,
    max_supported_version: Option<u8>,
) -> Result<Option<&'static str>, RpcError> {
    match (max_supported_version, tx.version().number()) {
        (None, None) => Ok(None),
        (Some(_), None) => Ok(Some("\"legacy\"")),
        (Some(max), Some(v)) if v <= max => Ok(Some(version_literal(v))),
        (_, Some(v)) => Err(RpcError::UnsupportedTransactionVersion(v)),
    }
}

/// The JSON number of a transaction version (only 0 and 1 exist).
fn version_literal(v: u8) -> &'static str {
    match v {
        0 => "0",
        _ => "1",
    }
}

/// Writes `{"transaction":…,"meta":…[,"version":…]}` for `Full` and `Accounts` detail.
pub(super) fn write_transaction_with_meta(
    out: &mut JsonOut,
    tx: &TransactionView<'_>,
    meta: Option<&StatusMeta<'_>>,
    cfg: &BlockConfig,
) -> Result<(), RpcError> {
    out.raw("{");
    write_transaction_members(out, tx, meta, cfg)?;
    out.raw("}");
    Ok(())
}

/// The members of [`write_transaction_with_meta`] without the braces (`getTransaction`
/// flattens them into its own object).
pub(crate) fn write_transaction_members(
    out: &mut JsonOut,
    tx: &TransactionView<'_>,
    meta: Option<&StatusMeta<'_>>,
    cfg: &BlockConfig,
) -> Result<(), RpcError> {
    let version = version_member(tx, cfg.max_supported_version)?;
    let message = tx.message();
    let (loaded_w, loaded_r): (&[&[u8; 32]], &[&[u8; 32]]) = match meta {
        Some(m) => (&m.loaded_writable, &m.loaded_readonly),
        None => (&[], &[]),
    };
    out.raw("\"transaction\":");
    let mut style = MetaStyle::Full;
    let all_keys: Vec<&[u8; 32]>;
    if cfg.details == TransactionDetails::Accounts {
        write_accounts(out, tx, &parsed_keys(&message, loaded_w, loaded_r));
        style = MetaStyle::Accounts;
    } else {
        match cfg.encoding {
            Encoding::Json => write_json(out, tx),
            Encoding::JsonParsed => {
                all_keys = message
                    .account_keys()
                    .chain(loaded_w.iter().copied())
                    .chain(loaded_r.iter().copied())
                    .collect();
                write_json_parsed(out, tx, &all_keys, loaded_w, loaded_r, meta.is_some());
                style = MetaStyle::Parsed(&all_keys);
            }
            Encoding::Base58 => {
                out.raw("[");
                out.b58(tx.bytes());
                out.raw(",\"base58\"]");
            }
            Encoding::Base64 => {
                out.raw("[");
                out.b64(tx.bytes());
                out.raw(",\"base64\"]");
            }
            Encoding::Binary => out.b58(tx.bytes()),
        }
    }
    out.raw(",\"meta\":");
    match meta {
        Some(m) => write_meta(out, m, style, cfg.rewards),
        None => out.raw("null"),
    }
    if let Some(v) = version {
        out.raw(",\"version\":");
        out.raw(v);
    }
    Ok(())
}

fn write_signatures(out: &mut JsonOut, tx: &TransactionView<'_>) {
    out.array(tx.signatures(), |out, sig| out.b58(sig));
}

/// `UiTransaction` with a raw message (Agave's `json` encoding).
fn write_json(out: &mut JsonOut, tx: &TransactionView<'_>) {
    out.raw("{\"signatures\":");
    write_signatures(out, tx);
    out.raw(",\"message\":");
    write_raw_message(out, &tx.message());
    out.raw("}");
}

fn write_raw_message(out: &mut JsonOut, m: &MessageView<'_>) {
    let h = m.header();
    out.raw("{\"header\":{\"numRequiredSignatures\":");
    out.u64(u64::from(h.num_required_signatures));
    out.raw(",\"numReadonlySignedAccounts\":");
    out.u64(u64::from(h.num_readonly_signed_accounts));
    out.raw(",\"numReadonlyUnsignedAccounts\":");
    out.u64(u64::from(h.num_readonly_unsigned_accounts));
    out.raw("},\"accountKeys\":");
    out.array(m.account_keys(), |out, key| out.b58(key));
    out.raw(",\"recentBlockhash\":");
    out.b58(m.recent_blockhash());
    out.raw(",\"instructions\":");
    out.array(m.instructions(), |out, ix| {
        write_compiled_instruction(
            out,
            ix.program_id_index,
            ix.accounts,
            ix.data,
            Some(TOP_LEVEL_STACK_HEIGHT),
        )
    });
    // Agave writes `addressTableLookups` for v0 messages only, `transactionConfig` for v1
    // only.
    if m.version() == TxVersion::V0 {
        out.raw(",\"addressTableLookups\":");
        write_lookups(out, m);
    }
    if let Some(config) = m.config() {
        write_config(out, &config);
    }
    out.raw("}");
}

/// `,"transactionConfig":{…}`: Agave's `UiTransactionConfig`, every field present and
/// `null` when the message's config mask leaves it out.
fn write_config(out: &mut JsonOut, c: &TransactionConfig) {
    out.raw(",\"transactionConfig\":{\"priorityFee\":");
    out.opt_u64(c.priority_fee);
    out.raw(",\"computeUnitLimit\":");
    out.opt_u64(c.compute_unit_limit.map(u64::from));
    out.raw(",\"loadedAccountsDataSizeLimit\":");
    out.opt_u64(c.loaded_accounts_data_size_limit.map(u64::from));
    out.raw(",\"heapSize\":");
    out.opt_u64(c.heap_size.map(u64::from));
    out.raw("}");
}

fn write_lookups(out: &mut JsonOut, m: &MessageView<'_>) {
    out.array(m.address_table_lookups(), |out, l| {
        out.raw("{\"accountKey\":");
        out.b58(l.account_key);
        out.raw(",\"writableIndexes\":");
        out.u8_array(l.writable_indexes);
        out.raw(",\"readonlyIndexes\":");
        out.u8_array(l.readonly_indexes);
        out.raw("}");
    });
}

/// `UiTransaction` with a parsed message (jsonParsed): flagged keys, parsed instructions,
/// and, for a v0 message with its status, the lookups (Agave's `encode_with_meta`).
fn write_json_parsed(
    out: &mut JsonOut,
    tx: &TransactionView<'_>,
    all_keys: &[&[u8; 32]],
    loaded_w: &[&[u8; 32]],
    loaded_r: &[&[u8; 32]],
    has_meta: bool,
) {
    let m = tx.message();
    out.raw("{\"signatures\":");
    write_signatures(out, tx);
    out.raw(",\"message\":{\"accountKeys\":");
    write_parsed_keys(out, &parsed_keys(&m, loaded_w, loaded_r));
    out.raw(",\"recentBlockhash\":");
    out.b58(m.recent_blockhash());
    out.raw(",\"instructions\":");
    out.array(m.instructions(), |out, ix| {
        write_parsed_instruction(
            out,
            all_keys,
            ix.program_id_index,
            ix.accounts,
            ix.data,
            Some(TOP_LEVEL_STACK_HEIGHT),
        )
    });
    if m.version() == TxVersion::V0 && has_meta {
        out.raw(",\"addressTableLookups\":");
        write_lookups(out, &m);
    }
    if let Some(config) = m.config() {
        write_config(out, &config);
    }
    out.raw("}}");
}

fn write_parsed_keys(out: &mut JsonOut, keys: &[ParsedKey<'_>]) {
    out.array(keys, |out, a| {
        out.raw("{\"pubkey\":");
        out.b58(a.key);
        out.raw(",\"writable\":");
        out.bool(a.writable);
        out.raw(",\"signer\":");
        out.bool(a.signer);
        out.raw(",\"source\":\"");
        out.raw(a.source.name());
        out.raw("\"}");
    });
}

/// `UiAccountsList`: signatures and the keys with their flags.
fn write_accounts(out: &mut JsonOut, tx: &TransactionView<'_>, keys: &[ParsedKey<'_>]) {
    out.raw("{\"signatures\":");
    write_signatures(out, tx);
    out.raw(",\"accountKeys\":");
    write_parsed_keys(out, keys);
    out.raw("}");
}
