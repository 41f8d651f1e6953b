//! The timing commands (`fetch-bench`, `insert-bench`, `encode-bench`). Times are
//! nanoseconds of wall-clock time; a median is the upper middle value.

use serde::{Deserialize, Serialize};

/// `fetch-bench`: Agave's `get_slot_entries_with_shred_info(slot, 0, false)` timed per slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchBench {
    /// Slots fetched per round.
    pub slots: u64,
    /// The first of them.
    pub first_slot: Option<u64>,
    /// The last of them.
    pub last_slot: Option<u64>,
    /// Rounds over all the slots.
    pub rounds: u64,
    /// Entries fetched in one round.
    pub entries_per_round: u64,
    /// Each round's median fetch time of one slot (ns).
    pub round_medians_ns: Vec<u64>,
    /// The median fetch time of one slot over all rounds (ns).
    pub median_ns: u64,
}

/// `insert-bench`: Agave's parse and insert of stream files, a fresh ledger per round.
/// Twin of `bstore bench insert`; `scripts/bench-insert-agave.sh` reads `agave`, `shreds`
/// and `median_ns`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InsertBench {
    /// The Agave release the tool links (e.g. `4.2.2`).
    pub agave: String,
    /// Shreds in the stream files.
    pub shreds: u64,
    /// Data shreds among them.
    pub data: u64,
    /// Code shreds among them.
    pub code: u64,
    /// Slots full after the last round.
    pub slots_full: u64,
    /// Shreds per insert call.
    pub batch: u64,
    /// Rounds.
    pub rounds: u64,
    /// Each round's parse and insert time (ns).
    pub round_ns: Vec<u64>,
    /// The median of `round_ns` (ns).
    pub median_ns: u64,
    /// `median_ns` per shred (ns, rounded down).
    pub per_shred_ns: u64,
    /// The median round time of the insert calls alone, the parse left out (ns).
    pub insert_only_median_ns: u64,
}

/// `encode-bench`: Agave's getBlock work per block (fetch, then the json and base64
/// encoders with metadata). Twin of `bstore bench getblock`;
/// `scripts/bench-getblock-agave.sh` reads the medians and the sizes of the last block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EncodeBench {
    /// Blocks per round.
    pub slots: u64,
    /// Rounds.
    pub rounds: u64,
    /// Transactions in the last block.
    pub transactions_last_block: u64,
    /// Median `get_rooted_block` time of one block (ns).
    pub fetch_median_ns: u64,
    /// Median json encode (and serde_json) time of one block (ns).
    pub encode_json_median_ns: u64,
    /// Median base64 encode (and serde_json) time of one block (ns).
    pub encode_base64_median_ns: u64,
    /// Bytes of the last block's json text.
    pub json_bytes_last_block: u64,
    /// Bytes of the last block's base64 text.
    pub base64_bytes_last_block: u64,
}
