//! Owned decode of a data set (bincode `Vec<Entry>`, `docs/formats-entries.md#data-set-layout`) and
//! of single transactions
//! (`docs/formats-entries.md#transactions`).
//!
//! Strictness equals Agave's bincode + `short_vec` deserializers: structure only (no check
//! that signature counts match the header, indexes are in range, and so on; that is
//! sanitization, a later step). Every `Vec` is allocated once at its declared length, which
//! the reader has already checked the remaining bytes can hold.

use super::EntryDefect;
use super::layout::{
    ENTRY_HEADER_BYTES, KEY_BYTES, MAX_DATA_SET_BYTES, MIN_INSTRUCTION_BYTES, MIN_LOOKUP_BYTES,
    MIN_TRANSACTION_BYTES, SIGNATURE_BYTES, V0_PREFIX,
};
use super::model::{
    AddressTableLookup, CompiledInstruction, Entry, LegacyMessage, MessageHeader, V0Message,
    V1Message, VersionedMessage, VersionedTransaction,
};
use super::reader::{Fault, Reader, Step};
use super::scan::{Framing, framing, skip_v1_transaction};
use crate::types::{Hash, Pubkey, Signature};

/// Decodes one data set. Bytes after the encoded vector (zero padding) are ignored.
pub fn decode_entries(bytes: &[u8]) -> crate::Result<Vec<Entry>> {
    let mut r = Reader::new(bytes);
    let entries = read_entries(&mut r)?;
    check_data_set_size(r.pos())?;
    Ok(entries)
}

/// Decodes one transaction at the start of `bytes`; returns it and the bytes it used.
pub fn decode_transaction(bytes: &[u8]) -> crate::Result<(VersionedTransaction, usize)> {
    let mut r = Reader::new(bytes);
    let tx = read_transaction(&mut r)?;
    Ok((tx, r.pos()))
}

/// Agave reads at most `MAX_DATA_SET_BYTES` of a data set; a longer one is an error there
/// and here.
pub(crate) fn check_data_set_size(consumed: usize) -> Step<()> {
    if consumed <= MAX_DATA_SET_BYTES {
        return Ok(());
    }
    Err(Fault {
        offset: MAX_DATA_SET_BYTES,
        defect: EntryDefect::LengthTooLarge {
            what: "data set",
            declared: consumed as u64,
            max: MAX_DATA_SET_BYTES as u64,
        },
    })
}

fn read_entries(r: &mut Reader<'_>) -> Step<Vec<Entry>> {
    let n = r.u64_count("entry count", ENTRY_HEADER_BYTES)?;
    let mut entries = Vec::with_capacity(n);
    for _ in 0..n {
        entries.push(read_entry(r)?);
    }
    Ok(entries)
}

fn read_entry(r: &mut Reader<'_>) -> Step<Entry> {
    let num_hashes = r.u64("entry num_hashes")?;
    let hash = Hash(*r.array::<32>("entry hash")?);
    let n = r.u64_count("transaction count", MIN_TRANSACTION_BYTES)?;
    let mut transactions = Vec::with_capacity(n);
    for _ in 0..n {
        transactions.push(read_transaction(r)?);
    }
    Ok(Entry {
        num_hashes,
        hash,
        transactions,
    })
}

pub(crate) fn read_transaction(r: &mut Reader<'_>) -> Step<VersionedTransaction> {
    if framing(r)? == Framing::V1 {
        return read_v1_transaction(r);
    }
    let n = r.short_count("signature count", SIGNATURE_BYTES)?;
    // `n * 64 <= remaining` was checked by `short_count`.
    let raw = r.take(n * SIGNATURE_BYTES, "signatures")?;
    let message = read_message(r)?;
    Ok(VersionedTransaction {
        signatures: signatures(raw),
        message,
    })
}

fn signatures(raw: &[u8]) -> Vec<Signature> {
    raw.as_chunks::<SIGNATURE_BYTES>()
        .0
        .iter()
        .map(|s| Signature(*s))
        .collect()
}

/// A v1 transaction: validated by the shared walk first (so every allocation below is
/// sized from checked counts), then copied out of the validated bytes.
fn read_v1_transaction(r: &mut Reader<'_>) -> Step<VersionedTransaction> {
    let start = r.pos();
    let (layout, n) = skip_v1_transaction(r)?;
    let tx = r.bytes().get(start..r.pos()).unwrap_or(&[]);
    let msg = tx.get(..layout.message_len).unwrap_or(&[]);
    let raw = tx.get(layout.message_len..).unwrap_or(&[]);
    debug_assert_eq!(raw.len(), n * SIGNATURE_BYTES);
    let [a, b, c] = layout.header;
    let mut instructions = Vec::with_capacity(layout.num_instructions);
    for (program_id_index, accounts, data) in layout.instructions(msg) {
        instructions.push(CompiledInstruction {
            program_id_index,
            accounts: accounts.to_vec(),
            data: data.to_vec(),
        });
    }
    let message = V1Message {
        header: MessageHeader {
            num_required_signatures: a,
            num_readonly_signed_accounts: b,
            num_readonly_unsigned_accounts: c,
        },
        config: layout.config(msg),
        recent_blockhash: Hash(
            msg.get(layout.blockhash_start..)
                .and_then(|h| h.first_chunk::<32>())
                .copied()
                .unwrap_or_default(),
        ),
        account_keys: layout.keys(msg).iter().map(|k| Pubkey(*k)).collect(),
        instructions,
    };
    Ok(VersionedTransaction {
        signatures: signatures(raw),
        message: VersionedMessage::V1(message),
    })
}

fn read_message(r: &mut Reader<'_>) -> Step<VersionedMessage> {
    let prefix = r.peek("message")?;
    if prefix & 0x80 == 0 {
        let header = read_header(r)?;
        let (account_keys, recent_blockhash, instructions) = read_body(r)?;
        return Ok(VersionedMessage::Legacy(LegacyMessage {
            header,
            account_keys,
            recent_blockhash,
            instructions,
        }));
    }
    if prefix != V0_PREFIX {
        return Err(Fault {
            offset: r.pos(),
            defect: EntryDefect::UnsupportedMessageVersion(prefix),
        });
    }
    r.skip(1, "message version")?;
    let header = read_header(r)?;
    let (account_keys, recent_blockhash, instructions) = read_body(r)?;
    let address_table_lookups = read_lookups(r)?;
    Ok(VersionedMessage::V0(V0Message {
        header,
        account_keys,
        recent_blockhash,
        instructions,
        address_table_lookups,
    }))
}

fn read_header(r: &mut Reader<'_>) -> Step<MessageHeader> {
    let [a, b, c] = *r.array::<3>("message header")?;
    Ok(MessageHeader {
        num_required_signatures: a,
        num_readonly_signed_accounts: b,
        num_readonly_unsigned_accounts: c,
    })
}

type Body = (Vec<Pubkey>, Hash, Vec<CompiledInstruction>);

/// The part shared by legacy and v0: keys, blockhash, instructions.
fn read_body(r: &mut Reader<'_>) -> Step<Body> {
    let n = r.short_count("account key count", KEY_BYTES)?;
    let raw = r.take(n * KEY_BYTES, "account keys")?;
    let keys = raw
        .as_chunks::<KEY_BYTES>()
        .0
        .iter()
        .map(|k| Pubkey(*k))
        .collect();
    let blockhash = Hash(*r.array::<32>("recent blockhash")?);
    let n = r.short_count("instruction count", MIN_INSTRUCTION_BYTES)?;
    let mut instructions = Vec::with_capacity(n);
    for _ in 0..n {
        let program_id_index = r.u8("program id index")?;
        let accounts = read_bytes(r, "instruction account count", "instruction accounts")?;
        let data = read_bytes(r, "instruction data length", "instruction data")?;
        instructions.push(CompiledInstruction {
            program_id_index,
            accounts,
            data,
        });
    }
    Ok((keys, blockhash, instructions))
}

fn read_lookups(r: &mut Reader<'_>) -> Step<Vec<AddressTableLookup>> {
    let n = r.short_count("address table lookup count", MIN_LOOKUP_BYTES)?;
    let mut lookups = Vec::with_capacity(n);
    for _ in 0..n {
        let account_key = Pubkey(*r.array::<32>("lookup table key")?);
        let writable_indexes = read_bytes(r, "writable index count", "writable indexes")?;
        let readonly_indexes = read_bytes(r, "readonly index count", "readonly indexes")?;
        lookups.push(AddressTableLookup {
            account_key,
            writable_indexes,
            readonly_indexes,
        });
    }
    Ok(lookups)
}

/// A compact-u16 length followed by that many bytes, copied out.
#[inline]
fn read_bytes(r: &mut Reader<'_>, len_what: &'static str, what: &'static str) -> Step<Vec<u8>> {
    let n = r.short_count(len_what, 1)?;
    r.take(n, what).map(<[u8]>::to_vec)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::FormatError;

    #[test]
    fn empty_vec_and_trailing_padding() {
        let mut bytes = 0u64.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 100]);
        assert_eq!(decode_entries(&bytes).expect("empty vec decodes"), vec![]);
    }

    #[test]
    fn unsupported_version_reports_its_offset() {
        // 0 signatures, then a message starting with 0x81 (a v1 message, which is only
        // valid in v1 framing, where it comes first).
        let bytes = [0u8, 0x81, 1, 0, 0];
        match decode_transaction(&bytes) {
            Err(FormatError::InvalidEntries { offset, defect }) => {
                assert_eq!(offset, 1);
                assert_eq!(defect, EntryDefect::UnsupportedMessageVersion(0x81));
            }
            other => panic!("expected a version error, got {other:?}"),
        }
    }
}
