//! Telling a data set's kind apart as Agave 4.x does, and parsing it into a component.
//!
//! Agave reads a data set as a `BlockComponent`: a `u64` entry count; a non-zero count is
//! an entry batch (the legacy `Vec<Entry>` bytes), a zero count is followed by a block
//! marker. A data set of exactly 8 zero bytes is how a leader aborts its block: it never
//! parses (the marker version is missing), and Agave reports it as an aborted block rather
//! than as bad data.

use super::decode::parse_prefix;
use super::defect::MarkerDefect;
use super::encode::encode_into;
use super::model::BlockMarker;
use crate::entry::EntriesView;
use crate::error::{FormatError, Result};

/// Bytes of the entry count that starts every data set.
pub const ENTRY_COUNT_BYTES: usize = 8;

/// The whole data set a leader sends to abort its block: an entry count of zero and nothing
/// else.
pub const ABORTED_BLOCK_DATA_SET: [u8; ENTRY_COUNT_BYTES] = [0; ENTRY_COUNT_BYTES];

/// The data set starts with a zero entry count: Agave reads a block marker after it. (A
/// data set shorter than 8 bytes is neither kind: it does not decode.)
pub fn is_block_marker(data: &[u8]) -> bool {
    data.first_chunk::<ENTRY_COUNT_BYTES>() == Some(&ABORTED_BLOCK_DATA_SET)
}

/// The data set is exactly the abort signal ([`ABORTED_BLOCK_DATA_SET`]).
pub fn is_aborted_block(data: &[u8]) -> bool {
    data == ABORTED_BLOCK_DATA_SET
}

/// One completed data set as Agave 4.x reads it.
#[derive(Debug, Clone)]
pub enum DataSet<'a> {
    /// An entry batch (non-zero entry count), validated and borrowed.
    Entries(EntriesView<'a>),
    /// A block marker.
    Marker(BlockMarker),
}

/// Parses a completed data set into an entry batch or a block marker, with Agave's data
/// set fetch rules: bytes after a complete batch or marker are ignored; an 8-byte zero data
/// set is [`FormatError::BlockAborted`]; any other zero-count data set that is not a valid
/// marker is [`FormatError::InvalidBlockMarker`].
pub fn parse_data_set(data: &[u8]) -> Result<DataSet<'_>> {
    if is_block_marker(data) {
        BlockMarker::parse(data).map(DataSet::Marker)
    } else {
        EntriesView::parse(data).map(DataSet::Entries)
    }
}

impl BlockMarker {
    /// Parses the marker data set `data` (entry count included). Trailing bytes are ignored,
    /// as Agave's data set fetch ignores them; [`Self::parse_exact`] refuses them.
    pub fn parse(data: &[u8]) -> Result<BlockMarker> {
        Self::parse_prefix(data).map(|(marker, _)| marker)
    }

    /// Parses the marker at the start of `data` and returns how many bytes it used.
    pub fn parse_prefix(data: &[u8]) -> Result<(BlockMarker, usize)> {
        parse_prefix(data).map_err(|fault| {
            if is_aborted_block(data) {
                FormatError::BlockAborted
            } else {
                FormatError::InvalidBlockMarker {
                    offset: fault.offset,
                    defect: fault.defect,
                }
            }
        })
    }

    /// Parses `data` as exactly one marker: bytes after it are
    /// [`MarkerDefect::TrailingBytes`] (Agave's rule for a genesis certificate read from a
    /// shred).
    pub fn parse_exact(data: &[u8]) -> Result<BlockMarker> {
        let (marker, used) = Self::parse_prefix(data)?;
        match data.len() - used {
            0 => Ok(marker),
            count => Err(FormatError::InvalidBlockMarker {
                offset: used,
                defect: MarkerDefect::TrailingBytes { count },
            }),
        }
    }

    /// The marker's data set bytes, as Agave serializes the `BlockComponent`.
    pub fn encode(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_into(&mut out)?;
        Ok(out)
    }

    /// Appends the marker's data set bytes to `out` (nothing on error).
    pub fn encode_into(&self, out: &mut Vec<u8>) -> Result<()> {
        encode_into(self, out)
            .map_err(|defect| FormatError::InvalidBlockMarker { offset: 0, defect })
    }
}
