//! Borrowed views of one serialized transaction (`docs/formats-entries.md#transactions`,
//! `docs/fetch-pipeline.md#views-and-owned-entries`): signatures and message as
//! slices of the original bytes, nothing copied or allocated.
//!
//! A `TransactionView` only exists over bytes that passed the full validation walk (through
//! `TransactionView::parse` or `EntriesView::parse`), so its accessors are infallible; they
//! are still written with checked access and fall back to "empty" instead of panicking.

use super::decode::decode_transaction;
use super::layout::{SIGNATURE_BYTES, V1_PREFIX};
use super::model::{MessageHeader, TxVersion, VersionedTransaction};
use super::reader::Reader;
use super::scan::{MessageLayout, message_layout, read_instruction, read_lookup, skip_transaction};
use super::short_vec;
use super::v1::{self, TransactionConfig};

/// One serialized transaction inside a larger buffer.
///
/// Legacy and v0: `[count][signatures][message]`; v1: `[message][signatures]`, the count
/// being the header's `num_required_signatures` (the message's second byte). Either way the
/// signatures are `num_signatures` × 64 bytes from `sigs_start`, and the message (what they
/// sign) is `bytes[message_start..message_end]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TransactionView<'a> {
    bytes: &'a [u8],
    num_signatures: usize,
    sigs_start: usize,
    message_start: usize,
    message_end: usize,
}

impl<'a> TransactionView<'a> {
    /// Validates the transaction at the start of `bytes` (same strictness as
    /// `decode_transaction`); returns the view and the bytes it spans.
    pub fn parse(bytes: &'a [u8]) -> crate::Result<(Self, usize)> {
        let mut r = Reader::new(bytes);
        skip_transaction(&mut r)?;
        let used = r.pos();
        Ok((Self::from_validated(bytes.get(..used).unwrap_or(&[])), used))
    }

    /// `bytes` must be exactly one validated transaction: then v1's signatures are its
    /// last `num_required_signatures` × 64 bytes, found without walking the message.
    #[inline]
    pub(crate) fn from_validated(bytes: &'a [u8]) -> Self {
        if bytes.first() == Some(&V1_PREFIX) {
            let n = bytes.get(1).map_or(0, |&b| usize::from(b));
            let sigs_start = bytes.len().saturating_sub(n * SIGNATURE_BYTES);
            return Self {
                bytes,
                num_signatures: n,
                sigs_start,
                message_start: 0,
                message_end: sigs_start,
            };
        }
        let (n, sigs_start) = short_vec::decode(bytes).unwrap_or((0, 0));
        let n = usize::from(n);
        Self {
            bytes,
            num_signatures: n,
            sigs_start,
            message_start: sigs_start + n * SIGNATURE_BYTES,
            message_end: bytes.len(),
        }
    }

    /// The whole serialized transaction.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Number of signatures (for v1, the message's `num_required_signatures`).
    pub fn num_signatures(&self) -> usize {
        self.num_signatures
    }

    /// All signatures, in order.
    pub fn signatures(&self) -> impl ExactSizeIterator<Item = &'a [u8; 64]> + use<'a> {
        self.signature_region()
            .as_chunks::<SIGNATURE_BYTES>()
            .0
            .iter()
    }

    /// Signature `i` (0-based), or `None` past the last one.
    pub fn signature(&self, i: usize) -> Option<&'a [u8; 64]> {
        self.signature_region()
            .as_chunks::<SIGNATURE_BYTES>()
            .0
            .get(i)
    }

    /// The first signature, which identifies the transaction.
    pub fn first_signature(&self) -> Option<&'a [u8; 64]> {
        self.signature(0)
    }

    /// The serialized message (what the signatures sign).
    pub fn message_bytes(&self) -> &'a [u8] {
        self.bytes
            .get(self.message_start..self.message_end)
            .unwrap_or(&[])
    }

    /// Offset of the message within [`Self::bytes`] (0 for v1).
    pub fn message_offset(&self) -> usize {
        self.message_start
    }

    /// Offset of the first signature within [`Self::bytes`] (after the message for v1).
    pub fn signatures_offset(&self) -> usize {
        self.sigs_start
    }

    /// The message format, from the message's first byte.
    pub fn version(&self) -> TxVersion {
        match self.message_bytes().first() {
            Some(&V1_PREFIX) => TxVersion::V1,
            Some(&b) if b & 0x80 != 0 => TxVersion::V0,
            _ => TxVersion::Legacy,
        }
    }

    /// Walks the message once to find its parts; keep the result when reading several.
    pub fn message(&self) -> MessageView<'a> {
        MessageView::new(self.message_bytes())
    }

    /// Number of static account keys.
    pub fn num_account_keys(&self) -> usize {
        self.message().num_account_keys()
    }

    /// Static account key `i` (0-based), or `None` past the last one. Walks the message each call:
    /// use [`Self::message`] to read several.
    pub fn account_key(&self, i: usize) -> Option<&'a [u8; 32]> {
        self.message().account_key(i)
    }

    /// Number of address table lookups (0 for legacy).
    pub fn num_lookups(&self) -> usize {
        self.message().num_lookups()
    }

    /// An owned copy.
    pub fn to_owned_transaction(&self) -> crate::Result<VersionedTransaction> {
        decode_transaction(self.bytes).map(|(tx, _)| tx)
    }

    fn signature_region(&self) -> &'a [u8] {
        self.bytes
            .get(self.sigs_start..self.sigs_start + self.num_signatures * SIGNATURE_BYTES)
            .unwrap_or(&[])
    }
}

/// The parts of a validated message, located by one walk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MessageView<'a> {
    bytes: &'a [u8],
    layout: MessageLayout,
}

impl<'a> MessageView<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            layout: message_layout(bytes).unwrap_or(MessageLayout::EMPTY),
        }
    }

    /// The message format.
    pub fn version(&self) -> TxVersion {
        self.layout.version
    }

    /// The header: how many of the account keys sign and how many are read-only.
    pub fn header(&self) -> MessageHeader {
        let [a, b, c] = self.layout.header;
        MessageHeader {
            num_required_signatures: a,
            num_readonly_signed_accounts: b,
            num_readonly_unsigned_accounts: c,
        }
    }

    /// Number of static account keys (lookup-table keys not included).
    pub fn num_account_keys(&self) -> usize {
        self.layout.num_keys
    }

    /// The static account keys, in order.
    pub fn account_keys(&self) -> impl ExactSizeIterator<Item = &'a [u8; 32]> + use<'a> {
        self.keys().iter()
    }

    /// Static account key `i` (0-based), or `None` past the last one.
    pub fn account_key(&self, i: usize) -> Option<&'a [u8; 32]> {
        self.keys().get(i)
    }

    /// The blockhash the message was signed against.
    pub fn recent_blockhash(&self) -> &'a [u8; 32] {
        const ZERO: [u8; 32] = [0; 32];
        self.bytes
            .get(self.layout.blockhash_start..)
            .and_then(|b| b.first_chunk::<32>())
            .unwrap_or(&ZERO)
    }

    /// Number of instructions.
    pub fn num_instructions(&self) -> usize {
        self.layout.num_instructions
    }

    /// The v1 config values (`None` for legacy and v0).
    pub fn config(&self) -> Option<TransactionConfig> {
        self.layout.config
    }

    /// The instructions, in execution order, borrowing the message bytes.
    pub fn instructions(&self) -> impl Iterator<Item = InstructionView<'a>> + use<'a> {
        let l = &self.layout;
        let is_v1 = l.version == TxVersion::V1;
        // v1 keeps the 4-byte instruction headers apart from the payloads; legacy and v0
        // interleave them, so `heads` stays empty and `body` reads everything.
        let (heads, body) = if is_v1 {
            (
                self.bytes.get(l.instructions_start..l.payloads_start),
                self.bytes.get(l.payloads_start..),
            )
        } else {
            (Some(&[][..]), self.bytes.get(l.instructions_start..))
        };
        let mut heads = Reader::new(heads.unwrap_or(&[]));
        let mut body = Reader::new(body.unwrap_or(&[]));
        (0..l.num_instructions).map_while(move |_| {
            let (program_id_index, accounts, data) = if is_v1 {
                v1::read_instruction(&mut heads, &mut body).ok()?
            } else {
                read_instruction(&mut body).ok()?
            };
            Some(InstructionView {
                program_id_index,
                accounts,
                data,
            })
        })
    }

    /// The program id of each instruction, when it names a static key.
    pub fn program_ids(&self) -> impl Iterator<Item = Option<&'a [u8; 32]>> + use<'a> {
        let keys = self.keys();
        self.instructions()
            .map(move |ix| keys.get(usize::from(ix.program_id_index)))
    }

    /// Number of address table lookups (0 for legacy and v1).
    pub fn num_lookups(&self) -> usize {
        self.layout.num_lookups
    }

    /// The address table lookups of a v0 message, in order (none for legacy and v1).
    pub fn address_table_lookups(&self) -> impl Iterator<Item = LookupView<'a>> + use<'a> {
        let rest = self.bytes.get(self.layout.lookups_start..).unwrap_or(&[]);
        let mut r = Reader::new(rest);
        (0..self.layout.num_lookups).map_while(move |_| {
            let (account_key, writable_indexes, readonly_indexes) = read_lookup(&mut r).ok()?;
            Some(LookupView {
                account_key,
                writable_indexes,
                readonly_indexes,
            })
        })
    }

    fn keys(&self) -> &'a [[u8; 32]] {
        let start = self.layout.keys_start;
        let end = start + self.layout.num_keys * 32;
        self.bytes
            .get(start..end)
            .map_or(&[], |k| k.as_chunks::<32>().0)
    }
}

/// One instruction, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstructionView<'a> {
    /// Index of the program to invoke in the message's account keys.
    pub program_id_index: u8,
    /// The accounts passed to the program, one byte each: an index into the account keys.
    pub accounts: &'a [u8],
    /// The instruction data, opaque to the runtime.
    pub data: &'a [u8],
}

/// One address table lookup, borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LookupView<'a> {
    /// Address of the lookup table account.
    pub account_key: &'a [u8; 32],
    /// Indexes into the table of the addresses loaded writable.
    pub writable_indexes: &'a [u8],
    /// Indexes into the table of the addresses loaded read-only.
    pub readonly_indexes: &'a [u8],
}
