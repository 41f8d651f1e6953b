//! Owned entries and transactions, mirroring the bincode layout of Agave's `Entry` and
//! `VersionedTransaction` (`docs/formats-entries.md#data-set-layout`,
//! `docs/formats-entries.md#transactions`) field for field.
//!
//! These are what `decode_entries` returns and `encode_entries` takes. Consumers that only
//! read should prefer the borrowed views in `view` (no allocation per transaction).

use crate::types::{Hash, Pubkey, Signature};

/// One PoH entry: `num_hashes` hashes since the previous entry, then `hash`, with the
/// transactions mixed into the last hash (none for a tick).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    pub num_hashes: u64,
    pub hash: Hash,
    pub transactions: Vec<VersionedTransaction>,
}

impl Entry {
    /// A tick is an entry without transactions.
    pub fn is_tick(&self) -> bool {
        self.transactions.is_empty()
    }

    /// Number of signatures over all transactions.
    pub fn num_signatures(&self) -> usize {
        self.transactions.iter().map(|t| t.signatures.len()).sum()
    }
}

/// A signed transaction: signatures then a legacy or v0 message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionedTransaction {
    pub signatures: Vec<Signature>,
    pub message: VersionedMessage,
}

/// Message format of a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxVersion {
    Legacy,
    V0,
}

impl VersionedTransaction {
    pub fn version(&self) -> TxVersion {
        self.message.version()
    }

    /// The first signature, which identifies the transaction.
    pub fn first_signature(&self) -> Option<&Signature> {
        self.signatures.first()
    }
}

/// The message: legacy (first byte is `num_required_signatures`, high bit clear) or v0
/// (first byte `0x80`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionedMessage {
    Legacy(LegacyMessage),
    V0(V0Message),
}

impl VersionedMessage {
    pub fn version(&self) -> TxVersion {
        match self {
            Self::Legacy(_) => TxVersion::Legacy,
            Self::V0(_) => TxVersion::V0,
        }
    }

    pub fn header(&self) -> &MessageHeader {
        match self {
            Self::Legacy(m) => &m.header,
            Self::V0(m) => &m.header,
        }
    }

    /// The static account keys (for v0, not including keys loaded from lookup tables).
    pub fn account_keys(&self) -> &[Pubkey] {
        match self {
            Self::Legacy(m) => &m.account_keys,
            Self::V0(m) => &m.account_keys,
        }
    }

    pub fn recent_blockhash(&self) -> &Hash {
        match self {
            Self::Legacy(m) => &m.recent_blockhash,
            Self::V0(m) => &m.recent_blockhash,
        }
    }

    pub fn instructions(&self) -> &[CompiledInstruction] {
        match self {
            Self::Legacy(m) => &m.instructions,
            Self::V0(m) => &m.instructions,
        }
    }

    /// Address table lookups; always empty for a legacy message.
    pub fn address_table_lookups(&self) -> &[AddressTableLookup] {
        match self {
            Self::Legacy(_) => &[],
            Self::V0(m) => &m.address_table_lookups,
        }
    }

    /// The program id of instruction `ix` when it is a static key (it always is for a
    /// message the runtime accepts).
    pub fn program_id(&self, ix: &CompiledInstruction) -> Option<&Pubkey> {
        self.account_keys().get(usize::from(ix.program_id_index))
    }
}

/// The 3-byte message header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MessageHeader {
    pub num_required_signatures: u8,
    pub num_readonly_signed_accounts: u8,
    pub num_readonly_unsigned_accounts: u8,
}

/// A legacy message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LegacyMessage {
    pub header: MessageHeader,
    pub account_keys: Vec<Pubkey>,
    pub recent_blockhash: Hash,
    pub instructions: Vec<CompiledInstruction>,
}

/// A v0 message: a legacy message plus address table lookups.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct V0Message {
    pub header: MessageHeader,
    pub account_keys: Vec<Pubkey>,
    pub recent_blockhash: Hash,
    pub instructions: Vec<CompiledInstruction>,
    pub address_table_lookups: Vec<AddressTableLookup>,
}

/// An instruction with accounts given as indexes into the message's account list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompiledInstruction {
    pub program_id_index: u8,
    pub accounts: Vec<u8>,
    pub data: Vec<u8>,
}

/// Accounts loaded from an on-chain address lookup table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AddressTableLookup {
    pub account_key: Pubkey,
    pub writable_indexes: Vec<u8>,
    pub readonly_indexes: Vec<u8>,
}
