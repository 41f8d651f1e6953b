//! Encoding owned entries to the bincode layout Agave writes
//! (`docs/formats-entries.md#data-set-layout`, `docs/formats-entries.md#transactions`): the exact
//! inverse of `decode`. Used by the shredder and by tests.
//!
//! # Panics
//! A `short_vec` length above 65,535 (signatures, keys, instructions, account indexes, data,
//! lookups, lookup indexes) has no encoding, nor has a legacy or v0 transaction with more
//! than 127 signatures (its count must fit the one byte Agave 4 reads), a v1 message with
//! more than 255 keys,
//! instructions or accounts in an instruction, instruction data over 65,535 bytes, or a
//! signature count other than its header's `num_required_signatures` (v1 writes no count).
//! No decoder produces such a value, so meeting one here is a caller bug and the encoder
//! panics rather than write bytes that would decode differently.

use super::layout::{
    ENTRY_HEADER_BYTES, KEY_BYTES, SIGNATURE_BYTES, V0_PREFIX, V1_FIXED_BYTES,
    V1_INSTRUCTION_HEADER_BYTES, V1_PREFIX,
};
use super::model::{
    CompiledInstruction, Entry, MessageHeader, V1Message, VersionedMessage, VersionedTransaction,
};
use super::short_vec;

/// Encodes a data set into a new buffer of exactly the encoded size.
pub fn encode_entries(entries: &[Entry]) -> Vec<u8> {
    let mut out = Vec::with_capacity(encoded_entries_len(entries));
    encode_entries_into(entries, &mut out);
    out
}

/// Appends the encoded data set to `out`.
pub fn encode_entries_into(entries: &[Entry], out: &mut Vec<u8>) {
    out.extend_from_slice(&(entries.len() as u64).to_le_bytes());
    for entry in entries {
        out.extend_from_slice(&entry.num_hashes.to_le_bytes());
        out.extend_from_slice(entry.hash.as_bytes());
        out.extend_from_slice(&(entry.transactions.len() as u64).to_le_bytes());
        for tx in &entry.transactions {
            encode_transaction_into(tx, out);
        }
    }
}

/// Appends one encoded transaction to `out`.
pub fn encode_transaction_into(tx: &VersionedTransaction, out: &mut Vec<u8>) {
    if let VersionedMessage::V1(m) = &tx.message {
        put_v1_message(m, out);
        assert_eq!(
            tx.signatures.len(),
            usize::from(m.header.num_required_signatures),
            "a v1 transaction carries exactly num_required_signatures signatures"
        );
        for sig in &tx.signatures {
            out.extend_from_slice(sig.as_bytes());
        }
        return;
    }
    assert!(
        tx.signatures.len() < 0x80,
        "a legacy or v0 transaction carries at most 127 signatures (a one-byte count)"
    );
    put_len(tx.signatures.len(), out);
    for sig in &tx.signatures {
        out.extend_from_slice(sig.as_bytes());
    }
    let msg = &tx.message;
    if let VersionedMessage::V0(_) = msg {
        out.push(V0_PREFIX);
    }
    put_header(msg.header(), out);
    put_len(msg.account_keys().len(), out);
    for key in msg.account_keys() {
        out.extend_from_slice(key.as_bytes());
    }
    out.extend_from_slice(msg.recent_blockhash().as_bytes());
    put_len(msg.instructions().len(), out);
    for ix in msg.instructions() {
        put_instruction(ix, out);
    }
    if let VersionedMessage::V0(m) = msg {
        put_len(m.address_table_lookups.len(), out);
        for lookup in &m.address_table_lookups {
            out.extend_from_slice(lookup.account_key.as_bytes());
            put_bytes(&lookup.writable_indexes, out);
            put_bytes(&lookup.readonly_indexes, out);
        }
    }
}

/// Encoded size of a data set.
pub fn encoded_entries_len(entries: &[Entry]) -> usize {
    8 + entries
        .iter()
        .map(|e| {
            ENTRY_HEADER_BYTES
                + e.transactions
                    .iter()
                    .map(encoded_transaction_len)
                    .sum::<usize>()
        })
        .sum::<usize>()
}

/// Encoded size of one transaction.
pub fn encoded_transaction_len(tx: &VersionedTransaction) -> usize {
    let msg = &tx.message;
    if let VersionedMessage::V1(m) = msg {
        return v1_message_len(m) + tx.signatures.len() * SIGNATURE_BYTES;
    }
    let mut n = len_len(tx.signatures.len()) + tx.signatures.len() * SIGNATURE_BYTES;
    n += 3 + len_len(msg.account_keys().len()) + msg.account_keys().len() * KEY_BYTES;
    n += 32 + len_len(msg.instructions().len());
    for ix in msg.instructions() {
        n += 1 + bytes_len(&ix.accounts) + bytes_len(&ix.data);
    }
    if let VersionedMessage::V0(m) = msg {
        n += 1 + len_len(m.address_table_lookups.len());
        for l in &m.address_table_lookups {
            n += KEY_BYTES + bytes_len(&l.writable_indexes) + bytes_len(&l.readonly_indexes);
        }
    }
    n
}

/// The v1 message: version, header, mask, blockhash, u8 counts, keys, config values,
/// instruction headers, then every instruction's account indexes and data.
fn put_v1_message(m: &V1Message, out: &mut Vec<u8>) {
    out.push(V1_PREFIX);
    put_header(&m.header, out);
    out.extend_from_slice(&m.config.mask().to_le_bytes());
    out.extend_from_slice(m.recent_blockhash.as_bytes());
    out.push(v1_count(m.instructions.len(), "instructions"));
    out.push(v1_count(m.account_keys.len(), "account keys"));
    for key in &m.account_keys {
        out.extend_from_slice(key.as_bytes());
    }
    m.config.write(out);
    for ix in &m.instructions {
        out.push(ix.program_id_index);
        out.push(v1_count(ix.accounts.len(), "instruction accounts"));
        let data_len = u16::try_from(ix.data.len()).unwrap_or_else(|_| {
            // See the module's "Panics": no decoded v1 instruction has more data.
            panic!(
                "a v1 instruction cannot encode {} data bytes (at most 65535)",
                ix.data.len()
            )
        });
        out.extend_from_slice(&data_len.to_le_bytes());
    }
    for ix in &m.instructions {
        out.extend_from_slice(&ix.accounts);
        out.extend_from_slice(&ix.data);
    }
}

fn v1_message_len(m: &V1Message) -> usize {
    V1_FIXED_BYTES
        + m.account_keys.len() * KEY_BYTES
        + m.config.values_len()
        + m.instructions
            .iter()
            .map(|ix| V1_INSTRUCTION_HEADER_BYTES + ix.accounts.len() + ix.data.len())
            .sum::<usize>()
}

fn v1_count(len: usize, what: &str) -> u8 {
    // See the module's "Panics": no decoded v1 message has more than 255 of these.
    u8::try_from(len)
        .unwrap_or_else(|_| panic!("a v1 message cannot encode {len} {what} (at most 255)"))
}

fn put_header(h: &MessageHeader, out: &mut Vec<u8>) {
    out.extend_from_slice(&[
        h.num_required_signatures,
        h.num_readonly_signed_accounts,
        h.num_readonly_unsigned_accounts,
    ]);
}

fn put_instruction(ix: &CompiledInstruction, out: &mut Vec<u8>) {
    out.push(ix.program_id_index);
    put_bytes(&ix.accounts, out);
    put_bytes(&ix.data, out);
}

fn put_bytes(bytes: &[u8], out: &mut Vec<u8>) {
    put_len(bytes.len(), out);
    out.extend_from_slice(bytes);
}

fn short_len(len: usize) -> u16 {
    // See the module's "Panics": no decoded value can exceed the compact-u16 range.
    u16::try_from(len)
        .unwrap_or_else(|_| panic!("short_vec length {len} exceeds 65535 and cannot be encoded"))
}

fn put_len(len: usize, out: &mut Vec<u8>) {
    short_vec::encode(short_len(len), out);
}

fn len_len(len: usize) -> usize {
    short_vec::encoded_len(short_len(len))
}

fn bytes_len(bytes: &[u8]) -> usize {
    len_len(bytes.len()) + bytes.len()
}
