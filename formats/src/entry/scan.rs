//! Allocation-free validation walks over the transaction layout
//! (`docs/formats-entries.md#transactions`), shared by the
//! views: `skip_transaction` checks a whole transaction exactly as strictly as the owned
//! decoder (same checks in the same order with the same `what` texts, so both report the
//! same error at the same offset), and `message_layout` records where a validated message's
//! parts begin. A transaction's first byte picks its framing (`framing`): legacy and v0
//! start with their signature count, v1 with its message; the v1 walk itself is in `v1`.

use super::EntryDefect;
use super::layout::{
    KEY_BYTES, MIN_INSTRUCTION_BYTES, MIN_LOOKUP_BYTES, SIGNATURE_BYTES, V0_PREFIX, V1_PREFIX,
};
use super::model::TxVersion;
use super::reader::{Fault, Reader, Step};
use super::v1::{self, TransactionConfig, V1Layout};

/// How a transaction is laid out, told by its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Legacy or v0: a one-byte signature count, the signatures, then the message.
    SignaturesFirst,
    /// v1: the message (first byte `0x81`), then `num_required_signatures` signatures.
    V1,
}

/// Reads (without consuming) the first byte of the transaction at the reader's position.
/// Agave 4 reads a first byte below `0x80` as the whole signature count, `0x81` as a v1
/// message, and refuses anything else.
#[inline]
pub(crate) fn framing(r: &Reader<'_>) -> Step<Framing> {
    match r.peek("transaction")? {
        b if b & 0x80 == 0 => Ok(Framing::SignaturesFirst),
        V1_PREFIX => Ok(Framing::V1),
        b => Err(Fault {
            offset: r.pos(),
            defect: EntryDefect::TransactionPrefix(b),
        }),
    }
}

/// Validates the v1 transaction at the reader's position (message, then its signatures)
/// and moves past it; returns the message layout and the signature count.
pub(crate) fn skip_v1_transaction(r: &mut Reader<'_>) -> Step<(V1Layout, usize)> {
    // The header's first byte (num_required_signatures) follows the version byte.
    let count_at = r.pos() + 1;
    let layout = v1::walk_message(r)?;
    let n = v1::signature_count(r, &layout, count_at)?;
    r.skip(n * SIGNATURE_BYTES, "signatures")?;
    Ok((layout, n))
}

/// Validates the transaction at the reader's position and moves past it.
#[inline]
pub(crate) fn skip_transaction(r: &mut Reader<'_>) -> Step<()> {
    if framing(r)? == Framing::V1 {
        return skip_v1_transaction(r).map(|_| ());
    }
    let n = r.short_count("signature count", SIGNATURE_BYTES)?;
    r.skip(n * SIGNATURE_BYTES, "signatures")?;
    let version = read_version(r)?;
    r.skip(3, "message header")?;
    skip_body(r)?;
    if version == TxVersion::V0 {
        skip_lookups(r)?;
    }
    Ok(())
}

/// Reads the version prefix of a message that follows a signature count; consumes it only
/// for v0 (a legacy message's first byte is its header's first field). Any other prefix,
/// v1's included, is refused there.
#[inline]
pub(crate) fn read_version(r: &mut Reader<'_>) -> Step<TxVersion> {
    let prefix = r.peek("message")?;
    if prefix & 0x80 == 0 {
        return Ok(TxVersion::Legacy);
    }
    if prefix != V0_PREFIX {
        return Err(Fault {
            offset: r.pos(),
            defect: EntryDefect::UnsupportedMessageVersion(prefix),
        });
    }
    r.skip(1, "message version")?;
    Ok(TxVersion::V0)
}

#[inline]
fn skip_body(r: &mut Reader<'_>) -> Step<()> {
    let n = r.short_count("account key count", KEY_BYTES)?;
    r.skip(n * KEY_BYTES, "account keys")?;
    r.skip(32, "recent blockhash")?;
    let n = r.short_count("instruction count", MIN_INSTRUCTION_BYTES)?;
    skip_instructions(r, n)
}

#[inline]
fn skip_instructions(r: &mut Reader<'_>, n: usize) -> Step<()> {
    for _ in 0..n {
        r.skip(1, "program id index")?;
        skip_bytes(r, "instruction account count", "instruction accounts")?;
        skip_bytes(r, "instruction data length", "instruction data")?;
    }
    Ok(())
}

#[inline]
fn skip_lookups(r: &mut Reader<'_>) -> Step<()> {
    let n = r.short_count("address table lookup count", MIN_LOOKUP_BYTES)?;
    for _ in 0..n {
        r.skip(32, "lookup table key")?;
        skip_bytes(r, "writable index count", "writable indexes")?;
        skip_bytes(r, "readonly index count", "readonly indexes")?;
    }
    Ok(())
}

#[inline]
fn skip_bytes(r: &mut Reader<'_>, len_what: &'static str, what: &'static str) -> Step<()> {
    let n = r.short_count(len_what, 1)?;
    r.skip(n, what)
}

/// Where the parts of a message begin, as offsets into the message bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MessageLayout {
    pub version: TxVersion,
    pub header: [u8; 3],
    pub num_keys: usize,
    pub keys_start: usize,
    pub blockhash_start: usize,
    pub num_instructions: usize,
    pub instructions_start: usize,
    pub num_lookups: usize,
    pub lookups_start: usize,
    /// v1 only: the config values, and where the instruction payloads begin (the
    /// instruction headers begin at `instructions_start`).
    pub config: Option<TransactionConfig>,
    pub payloads_start: usize,
}

impl MessageLayout {
    /// The layout of an empty legacy message; stands in for a layout that failed to parse,
    /// which cannot happen for bytes a view validated.
    pub(crate) const EMPTY: Self = Self {
        version: TxVersion::Legacy,
        header: [0; 3],
        num_keys: 0,
        keys_start: 0,
        blockhash_start: 0,
        num_instructions: 0,
        instructions_start: 0,
        num_lookups: 0,
        lookups_start: 0,
        config: None,
        payloads_start: 0,
    };
}

/// Walks a message (starting at its first byte) and records its layout.
pub(crate) fn message_layout(msg: &[u8]) -> Step<MessageLayout> {
    let mut r = Reader::new(msg);
    if msg.first() == Some(&V1_PREFIX) {
        let l = v1::walk_message(&mut r)?;
        return Ok(MessageLayout {
            version: TxVersion::V1,
            header: l.header,
            num_keys: l.num_keys,
            keys_start: l.keys_start,
            blockhash_start: l.blockhash_start,
            num_instructions: l.num_instructions,
            instructions_start: l.instructions_start,
            num_lookups: 0,
            lookups_start: 0,
            config: Some(l.config(msg)),
            payloads_start: l.payloads_start,
        });
    }
    let version = read_version(&mut r)?;
    let header = *r.array::<3>("message header")?;
    let num_keys = r.short_count("account key count", KEY_BYTES)?;
    let keys_start = r.pos();
    r.skip(num_keys * KEY_BYTES, "account keys")?;
    let blockhash_start = r.pos();
    r.skip(32, "recent blockhash")?;
    let num_instructions = r.short_count("instruction count", MIN_INSTRUCTION_BYTES)?;
    let instructions_start = r.pos();
    skip_instructions(&mut r, num_instructions)?;
    let (num_lookups, lookups_start) = if version == TxVersion::V0 {
        let n = r.short_count("address table lookup count", MIN_LOOKUP_BYTES)?;
        (n, r.pos())
    } else {
        (0, r.pos())
    };
    Ok(MessageLayout {
        version,
        header,
        num_keys,
        keys_start,
        blockhash_start,
        num_instructions,
        instructions_start,
        num_lookups,
        lookups_start,
        config: None,
        payloads_start: 0,
    })
}

/// Reads one instruction at the reader's position: program id index, accounts, data.
pub(crate) fn read_instruction<'a>(r: &mut Reader<'a>) -> Step<(u8, &'a [u8], &'a [u8])> {
    let program_id_index = r.u8("program id index")?;
    let n = r.short_count("instruction account count", 1)?;
    let accounts = r.take(n, "instruction accounts")?;
    let n = r.short_count("instruction data length", 1)?;
    let data = r.take(n, "instruction data")?;
    Ok((program_id_index, accounts, data))
}

/// Reads one address table lookup: table key, writable indexes, readonly indexes.
pub(crate) fn read_lookup<'a>(r: &mut Reader<'a>) -> Step<(&'a [u8; 32], &'a [u8], &'a [u8])> {
    let key = r.array::<32>("lookup table key")?;
    let n = r.short_count("writable index count", 1)?;
    let writable = r.take(n, "writable indexes")?;
    let n = r.short_count("readonly index count", 1)?;
    let readonly = r.take(n, "readonly indexes")?;
    Ok((key, writable, readonly))
}
