//! A `jsonParsed` message's `accountKeys` (`parse_accounts.rs`): every static key with
//! source `"transaction"`, then the addresses loaded from lookup tables (writable ones,
//! then readonly ones) with source `"lookupTable"`.
//!
//! Static keys take their flags from [`account_flags`], with one correction: Agave looks
//! for the upgradeable loader among *all* the keys, loaded ones included, before demoting
//! a writable key that is invoked as a program; `account_flags` sees only static keys. A
//! loaded writable address is writable unless it is a reserved key (or, in a malformed
//! message, invoked as a program with no upgradeable loader present); a loaded readonly
//! address never is; neither signs.

use bstore_ledger::entry::MessageView;
use serde_json::{Value, json};

use super::b58;
use super::ids::BPF_UPGRADEABLE_LOADER;
use crate::encode::accounts::{account_flags, is_reserved};

/// The `accountKeys` list of a message: `writable` and `readonly` are the addresses its
/// lookups loaded (from the transaction status), empty for a legacy message.
pub fn parsed_account_keys(
    message: &MessageView<'_>,
    writable: &[[u8; 32]],
    readonly: &[[u8; 32]],
) -> Value {
    let statics = account_flags(message);
    let header = message.header();
    let signed = usize::from(header.num_required_signatures);
    let mut called = [false; 256];
    for ix in message.instructions() {
        called[usize::from(ix.program_id_index)] = true;
    }
    let is_called = |i: usize| called.get(i).copied().unwrap_or(false);
    let loader_static = statics.iter().any(|f| f.key == &BPF_UPGRADEABLE_LOADER);
    let loader_loaded = writable
        .iter()
        .chain(readonly)
        .any(|key| key == &BPF_UPGRADEABLE_LOADER);
    let loader_present = loader_static || loader_loaded;

    let mut out = Vec::with_capacity(statics.len() + writable.len() + readonly.len());
    for (i, flags) in statics.iter().enumerate() {
        let mut is_writable = flags.writable;
        if loader_loaded && !loader_static && is_called(i) {
            // `account_flags` demoted this invoked key for want of a loader the lookup
            // tables supply: Agave keeps its header position's writability.
            is_writable = writable_position(message, i) && !is_reserved(flags.key);
        }
        out.push(entry(flags.key, is_writable, flags.signer, "transaction"));
    }
    let n = statics.len();
    for (j, key) in writable.iter().enumerate() {
        let i = n + j;
        let demoted = is_called(i) && !loader_present;
        out.push(entry(
            key,
            !is_reserved(key) && !demoted,
            i < signed,
            "lookupTable",
        ));
    }
    for (j, key) in readonly.iter().enumerate() {
        let signer = n + writable.len() + j < signed;
        out.push(entry(key, false, signer, "lookupTable"));
    }
    Value::Array(out)
}

/// Whether static key `i` is writable by its position in the header (Agave's
/// `is_writable_index`), before any demotion.
fn writable_position(message: &MessageView<'_>, i: usize) -> bool {
    let header = message.header();
    let signed = usize::from(header.num_required_signatures);
    let n = message.num_account_keys();
    i < signed.saturating_sub(usize::from(header.num_readonly_signed_accounts))
        || (i >= signed && i < n.saturating_sub(usize::from(header.num_readonly_unsigned_accounts)))
}

fn entry(key: &[u8; 32], writable: bool, signer: bool, source: &str) -> Value {
    json!({"pubkey": b58(key), "writable": writable, "signer": signer, "source": source})
}

#[cfg(test)]
#[path = "tests/account_keys.rs"]
mod tests;
