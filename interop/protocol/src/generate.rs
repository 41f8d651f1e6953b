//! `gen`: Agave-shredded slots written to a shred stream file.

use serde::{Deserialize, Serialize};

/// What `gen` wrote: the stream file and what each slot became.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generated {
    /// The stream file written (`--out`, as given).
    pub out: String,
    /// The leader that signed every shred (base58 public key).
    pub leader: String,
    /// The PoH hash the first slot's entries chain from (base58); each later slot chains
    /// from its parent's last entry hash.
    pub start_hash: String,
    /// The shred version every shred carries (`--shred-version`).
    pub shred_version: u16,
    /// `--version-seed`: the seed the entries were drawn from instead of `--seed`.
    pub version_seed: Option<u64>,
    /// Whether each slot's first FEC set chains from its parent's last Merkle root
    /// (`--chained`); otherwise from the all-zero hash.
    pub chained: bool,
    /// Records in the stream file: the data and code shreds of every slot.
    pub records: u64,
    /// One per slot, in slot order.
    pub slots: Vec<GeneratedSlot>,
}

/// One generated slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneratedSlot {
    /// The slot.
    pub slot: u64,
    /// Its parent: always `slot - 1`.
    pub parent_slot: u64,
    /// Data shreds (indices `0..data_shreds`; a whole number of 32-shred FEC sets).
    pub data_shreds: u64,
    /// Code shreds (indices `0..code_shreds`; as many as data shreds).
    pub code_shreds: u64,
    /// FEC sets, each of 32 data and 32 code shreds.
    pub fec_sets: u64,
    /// Entries shredded into the slot, ticks included.
    pub entries: u64,
    /// Tick entries among them.
    pub ticks: u64,
    /// Transactions in all its entries.
    pub transactions: u64,
    /// The last entry's hash (base58): the slot's blockhash.
    pub blockhash: String,
    /// sha256 (hex) of the slot's entries as bincode `Vec<Entry>`: the bytes written to
    /// `--entries-dir` and what `summary` reports as `entries.sha256`.
    pub entries_sha256: String,
    /// The Merkle root of the slot's last FEC set (base58).
    pub last_merkle_root: String,
}
