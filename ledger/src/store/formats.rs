//! Before a ledger is opened read-write (`docs/on-disk-layout.md#opening-read-write`): every
//! column family on disk must be one bstore writes or one Agave 3.x keeps and bstore leaves
//! alone, and the newest row of each column bstore rewrites must decode. A ledger from a newer
//! validator with a column or row format bstore does not know is refused read-write (bstore
//! would write rows that validator cannot read, or miss rows it must keep); read-only and
//! secondary opens are not checked.

use std::path::Path;

use super::Column;
use super::blockstore::Blockstore;
use super::columns::{self, ErasureMetaColumn, Index, MerkleRootMetaColumn, Meta};
use super::kv::{Direction, KvEngine};
use crate::error::{LedgerError, Result};

/// Column families besides `columns::ALL` and `columns::AGAVE_OTHER_COLUMNS` that a
/// known ledger may hold: RocksDB's own `default`, and the `program_costs` of Agave 1.x–2.x.
const OTHER_KNOWN: [&str; 2] = ["default", "program_costs"];

/// The column families on disk bstore does not know, if any.
pub fn unknown_columns(names: &[String]) -> Vec<&str> {
    names
        .iter()
        .map(String::as_str)
        .filter(|n| !columns::ALL.iter().any(|(known, _)| known == n))
        .filter(|n| !columns::AGAVE_OTHER_COLUMNS.contains(n) && !OTHER_KNOWN.contains(n))
        .collect()
}

impl<E: KvEngine> Blockstore<E> {
    /// Decodes the newest row of every column insert rewrites (`meta`, `index`,
    /// `erasure_meta`, `merkle_root_meta`); an error names the column and why.
    pub(crate) fn check_row_formats(&self, path: &Path) -> Result<()> {
        let refuse = |column: &str, e: LedgerError| LedgerError::UnknownFormat {
            path: path.to_path_buf(),
            reason: format!("the newest {column} row does not decode: {e}"),
        };
        newest::<E, Meta>(self).map_err(|e| refuse(Meta::NAME, e))?;
        newest::<E, Index>(self).map_err(|e| refuse(Index::NAME, e))?;
        newest::<E, ErasureMetaColumn>(self).map_err(|e| refuse(ErasureMetaColumn::NAME, e))?;
        newest::<E, MerkleRootMetaColumn>(self)
            .map_err(|e| refuse(MerkleRootMetaColumn::NAME, e))?;
        Ok(())
    }
}

/// Decodes the last row of column `C` (none is fine).
fn newest<E: KvEngine, C: Column>(store: &Blockstore<E>) -> Result<()> {
    let mut cursor = store.kv().cursor(C::NAME, &[], None, Direction::Reverse);
    if let Some(row) = super::kv::KvCursor::advance(&mut cursor) {
        let (key, value) = row?;
        C::decode_value(C::decode_key(key)?, value)?;
    }
    Ok(())
}
