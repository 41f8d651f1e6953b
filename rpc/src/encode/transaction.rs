//! One transaction as Agave's `EncodedTransactionWithStatusMeta`: `{transaction, meta,
//! version?}`. `meta` is always `null`: bstore keeps no transaction status (it does not
//! execute), which is how Agave itself answers for a transaction stored without one.

use bstore_ledger::entry::{MessageView, TransactionView, TxVersion};

use super::accounts::account_flags;
use super::json::JsonOut;
use crate::error::RpcError;
use crate::params::{BlockConfig, Encoding, TransactionDetails};

/// Agave's `TRANSACTION_LEVEL_STACK_HEIGHT`: top-level instructions report stack height 1.
const TOP_LEVEL_STACK_HEIGHT: &str = "1";

/// The `version` member Agave adds: absent unless the client said which versions it
/// supports; a v0 transaction for a client that did not is an error for the whole block.
fn version_member(
    tx: &TransactionView<'_>,
    cfg: &BlockConfig,
) -> Result<Option<&'static str>, RpcError> {
    match (cfg.max_supported_version, tx.version()) {
        (None, TxVersion::Legacy) => Ok(None),
        (None, TxVersion::V0) => Err(RpcError::UnsupportedTransactionVersion(0)),
        (Some(_), TxVersion::Legacy) => Ok(Some("\"legacy\"")),
        // Every u8 is >= 0: a client that names any version accepts v0.
        (Some(_), TxVersion::V0) => Ok(Some("0")),
    }
}

/// Writes `{"transaction":…,"meta":null[,"version":…]}` for `Full` and `Accounts` detail.
pub fn write_transaction_with_meta(
    out: &mut JsonOut,
    tx: &TransactionView<'_>,
    cfg: &BlockConfig,
) -> Result<(), RpcError> {
    let version = version_member(tx, cfg)?;
    out.raw("{\"transaction\":");
    if cfg.details == TransactionDetails::Accounts {
        write_accounts(out, tx);
    } else {
        match cfg.encoding {
            // `JsonParsed` is refused when the config is read; json is the safe fallback.
            Encoding::Json | Encoding::JsonParsed => write_json(out, tx),
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
    out.raw(",\"meta\":null");
    if let Some(v) = version {
        out.raw(",\"version\":");
        out.raw(v);
    }
    out.raw("}");
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
        out.raw("{\"programIdIndex\":");
        out.u64(u64::from(ix.program_id_index));
        out.raw(",\"accounts\":");
        out.u8_array(ix.accounts);
        out.raw(",\"data\":");
        out.b58(ix.data);
        out.raw(",\"stackHeight\":");
        out.raw(TOP_LEVEL_STACK_HEIGHT);
        out.raw("}");
    });
    // Agave writes `addressTableLookups` for v0 messages only.
    if m.version() == TxVersion::V0 {
        out.raw(",\"addressTableLookups\":");
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
    out.raw("}");
}

/// `UiAccountsList`: signatures and the static keys with their flags.
fn write_accounts(out: &mut JsonOut, tx: &TransactionView<'_>) {
    out.raw("{\"signatures\":");
    write_signatures(out, tx);
    out.raw(",\"accountKeys\":");
    out.array(account_flags(&tx.message()).iter(), |out, a| {
        out.raw("{\"pubkey\":");
        out.b58(a.key);
        out.raw(",\"writable\":");
        out.bool(a.writable);
        out.raw(",\"signer\":");
        out.bool(a.signer);
        out.raw(",\"source\":\"transaction\"}");
    });
    out.raw("}");
}
