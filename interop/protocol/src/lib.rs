//! The JSON protocol of `agave-interop`, the differential tool over Agave's own ledger
//! crates (`interop/agave`, docs/interop-agave.md): one serde type per message the tool
//! prints and bstore reads.
//!
//! The rule: the tool builds these values and serializes them; bstore's tests and commands
//! deserialize them (`serde_json::from_str::<T>`). Neither side looks a field up by name,
//! so a renamed, missing or extra field is a parse error naming the field, not a `null`
//! found at run time. Every type refuses unknown fields.
//!
//! Wire format: every command prints one JSON object on one line of stdout, its keys in
//! sorted order (the tool goes through serde_json's `Value`, whose maps are sorted); scripts
//! read some of them with `jq`. Slots, shred indices and counts are unsigned integers;
//! hashes, keys and signatures are base58 strings; raw bytes and digests are lowercase hex.
//!
//! Every printed message implements [`Message`]. Start reading at [`Generated`] (`gen`)
//! and [`Summary`] (`summary`); the history file
//! (`history --out`) is [`HistoryAnswers`], generic over the JSON value type so that this
//! crate needs nothing but serde.

mod bench;
mod columns;
mod duplicate;
mod flags;
mod generate;
mod history;
mod insert;
mod present;
mod slot;

pub use bench::{EncodeBench, FetchBench, InsertBench};
pub use columns::{
    ColumnDump, DecodeFailed, Decoded, DumpedColumns, DumpedRow, RawDigest, SlotRows, SlotView,
};
pub use duplicate::{
    DuplicateKind, DuplicateProofRead, DuplicateStored, ParsedShred, ProofCheck, ShredCheck,
    UnparsableShred,
};
pub use flags::{MarkedDead, Purged, ReplayRowsWritten, Rooted, ValidatorRun};
pub use generate::{Generated, GeneratedSlot};
pub use history::{
    Answer, BlockCase, BlockConfig, GapSlot, HistoryAnswers, HistorySlot, HistorySummary,
    MethodCount, SignaturesCase, SignaturesConfig, StatusesCase, StatusesConfig, TransactionCase,
    TransactionConfig, WrittenSlot,
};
pub use insert::{
    CompletedDataSet, HandledDuplicate, InsertPath, Inserted, InsertedSlot, MissingMeta, SlotState,
};
/// A message a command prints (the answers file of `history` is written, not printed, and
/// is not one). Readers take `T: Message` to parse a command's output.
pub trait Message: serde::Serialize + serde::de::DeserializeOwned {}

impl Message for Generated {}
impl Message for Inserted {}
impl Message for Summary {}
impl Message for ColumnDump {}
impl Message for SlotRows {}
impl Message for DuplicateStored {}
impl Message for DuplicateProofRead {}
impl Message for Rooted {}
impl Message for MarkedDead {}
impl Message for Purged {}
impl Message for ReplayRowsWritten {}
impl Message for ValidatorRun {}
impl Message for FetchBench {}
impl Message for InsertBench {}
impl Message for EncodeBench {}
impl Message for HistorySummary {}

pub use slot::{
    ErasureMetaRow, FetchFailed, FetchedEntries, IndexFormat, IndexRow, IndexSummary,
    MerkleRootMetaRow, MetaFormat, ShredIndices, ShredType, SlotEntries, SlotMetaView, Summary,
};
