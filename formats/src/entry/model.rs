//! Owned entries and transactions, mirroring the bincode layout of Agave's `Entry` and
//! `VersionedTransaction` (`docs/formats-entries.md#data-set-layout`,
//! `docs/formats-entries.md#transactions`) field for field.
//!
//! These are what `decode_entries` returns and `encode_entries` takes. Consumers that only
//! read should prefer the borrowed views in `view` (no allocation per transaction).

use super::layout::{MAX_LEGACY_TRANSACTION_BYTES, MAX_V1_TRANSACTION_BYTES};
use super::v1::TransactionConfig;
use crate::types::{Hash, Pubkey, Signature};

/// One PoH entry: `num_hashes` hashes since the previous entry, then `hash`, with the
/// transactions mixed into the last hash (none for a tick).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    /// Hashes since the previous entry; the last one mixes in the transactions, if any.
    pub num_hashes: u64,
    /// The PoH hash after those hashes (the entry's id; the slot's last one is its blockhash).
    pub hash: Hash,
    /// The transactions recorded at this point of the PoH chain; empty for a tick.
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

/// A signed transaction: a legacy, v0 or v1 message and its signatures. On the wire, legacy
/// and v0 put a compact-u16 signature count and the signatures first; v1 puts the message
/// first and then exactly `num_required_signatures` signatures, with no count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionedTransaction {
    /// One signature per required signer, in account-key order; the first identifies the
    /// transaction.
    pub signatures: Vec<Signature>,
    /// The signed message.
    pub message: VersionedMessage,
}

/// Message format of a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TxVersion {
    /// The original format, without a version prefix.
    Legacy,
    /// Versioned format 0: adds address table lookups.
    V0,
    /// SIMD-0385: message first, inline compute budget config, no lookup tables.
    V1,
}

impl TxVersion {
    /// The version number RPC reports (`None` for legacy).
    pub fn number(self) -> Option<u8> {
        match self {
            Self::Legacy => None,
            Self::V0 => Some(0),
            Self::V1 => Some(1),
        }
    }

    /// The largest serialized transaction of this version Agave executes (a sanitization
    /// limit: decoding does not apply it).
    pub fn max_transaction_bytes(self) -> usize {
        match self {
            Self::Legacy | Self::V0 => MAX_LEGACY_TRANSACTION_BYTES,
            Self::V1 => MAX_V1_TRANSACTION_BYTES,
        }
    }
}

impl VersionedTransaction {
    /// The message format of this transaction.
    pub fn version(&self) -> TxVersion {
        self.message.version()
    }

    /// The first signature, which identifies the transaction.
    pub fn first_signature(&self) -> Option<&Signature> {
        self.signatures.first()
    }
}

/// The message: legacy (first byte is `num_required_signatures`, high bit clear), v0
/// (first byte `0x80`) or v1 (first byte `0x81`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionedMessage {
    /// A message without a version prefix.
    Legacy(LegacyMessage),
    /// A v0 message (prefix `0x80`), which may load accounts from lookup tables.
    V0(V0Message),
    /// A v1 message (prefix `0x81`), with an inline compute budget config.
    V1(V1Message),
}

impl VersionedMessage {
    /// Which of the three formats this message is.
    pub fn version(&self) -> TxVersion {
        match self {
            Self::Legacy(_) => TxVersion::Legacy,
            Self::V0(_) => TxVersion::V0,
            Self::V1(_) => TxVersion::V1,
        }
    }

    /// The header: how many of the account keys sign and how many are read-only.
    pub fn header(&self) -> &MessageHeader {
        match self {
            Self::Legacy(m) => &m.header,
            Self::V0(m) => &m.header,
            Self::V1(m) => &m.header,
        }
    }

    /// The static account keys (for v0, not including keys loaded from lookup tables).
    pub fn account_keys(&self) -> &[Pubkey] {
        match self {
            Self::Legacy(m) => &m.account_keys,
            Self::V0(m) => &m.account_keys,
            Self::V1(m) => &m.account_keys,
        }
    }

    /// The blockhash the message was signed against (it expires with it).
    pub fn recent_blockhash(&self) -> &Hash {
        match self {
            Self::Legacy(m) => &m.recent_blockhash,
            Self::V0(m) => &m.recent_blockhash,
            Self::V1(m) => &m.recent_blockhash,
        }
    }

    /// The instructions, in execution order.
    pub fn instructions(&self) -> &[CompiledInstruction] {
        match self {
            Self::Legacy(m) => &m.instructions,
            Self::V0(m) => &m.instructions,
            Self::V1(m) => &m.instructions,
        }
    }

    /// Address table lookups; always empty for legacy and v1 messages.
    pub fn address_table_lookups(&self) -> &[AddressTableLookup] {
        match self {
            Self::Legacy(_) | Self::V1(_) => &[],
            Self::V0(m) => &m.address_table_lookups,
        }
    }

    /// The inline compute budget config of a v1 message.
    pub fn config(&self) -> Option<&TransactionConfig> {
        match self {
            Self::Legacy(_) | Self::V0(_) => None,
            Self::V1(m) => Some(&m.config),
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
    /// Signatures the transaction needs: the first this many account keys are signers.
    pub num_required_signatures: u8,
    /// How many of the signers are read-only (the last of the signer keys).
    pub num_readonly_signed_accounts: u8,
    /// How many of the non-signer keys are read-only (the last of the static keys).
    pub num_readonly_unsigned_accounts: u8,
}

/// A legacy message.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LegacyMessage {
    /// Signer and read-only counts of the account keys.
    pub header: MessageHeader,
    /// The account keys: signers first (writable, then read-only), then non-signers (writable, then
    /// read-only).
    pub account_keys: Vec<Pubkey>,
    /// The blockhash the message was signed against.
    pub recent_blockhash: Hash,
    /// The instructions, in execution order.
    pub instructions: Vec<CompiledInstruction>,
}

/// A v0 message: a legacy message plus address table lookups.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct V0Message {
    /// Signer and read-only counts of the static account keys.
    pub header: MessageHeader,
    /// The static account keys, ordered as in a legacy message; lookup-table keys come after them.
    pub account_keys: Vec<Pubkey>,
    /// The blockhash the message was signed against.
    pub recent_blockhash: Hash,
    /// The instructions, in execution order; their indexes also count lookup-table keys.
    pub instructions: Vec<CompiledInstruction>,
    /// Lookup tables to load more accounts from, writable ones first in the combined key list.
    pub address_table_lookups: Vec<AddressTableLookup>,
}

/// A v1 message (SIMD-0385): like legacy, plus an inline compute budget config; no lookup
/// tables. On the wire its counts are u8 (instructions, keys, accounts per instruction) and
/// data lengths u16 LE, laid out as header, config mask, blockhash, counts, keys, config
/// values, instruction headers, instruction payloads.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct V1Message {
    /// Signer and read-only counts of the account keys.
    pub header: MessageHeader,
    /// The compute budget values the message sets inline (limit, price, heap, data size).
    pub config: TransactionConfig,
    /// Agave's "lifetime specifier"; RPC shows it as `recentBlockhash`.
    pub recent_blockhash: Hash,
    /// The account keys, ordered as in a legacy message.
    pub account_keys: Vec<Pubkey>,
    /// The instructions, in execution order.
    pub instructions: Vec<CompiledInstruction>,
}

/// An instruction with accounts given as indexes into the message's account list.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CompiledInstruction {
    /// Index of the program to invoke in the message's account keys.
    pub program_id_index: u8,
    /// The accounts passed to the program, as indexes into the message's account keys.
    pub accounts: Vec<u8>,
    /// The instruction data, opaque to the runtime.
    pub data: Vec<u8>,
}

/// Accounts loaded from an on-chain address lookup table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AddressTableLookup {
    /// Address of the lookup table account.
    pub account_key: Pubkey,
    /// Indexes into the table of the addresses loaded writable.
    pub writable_indexes: Vec<u8>,
    /// Indexes into the table of the addresses loaded read-only.
    pub readonly_indexes: Vec<u8>,
}
