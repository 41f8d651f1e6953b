//! Before a ledger is opened read-write (`docs/on-disk-layout.md#opening-read-write`): every
//! column family on disk must be one of Agave 4.x's set or a retired one (`families.rs`),
//! and the newest row of each column bstore rewrites must decode. A ledger from a newer
//! validator with a column or row format bstore does not know is refused read-write (bstore
//! would write rows that validator cannot read, or miss rows it must keep); read-only and
//! secondary opens are not checked.

use std::path::Path;

use super::Column;
use super::columns::{ErasureMetaColumn, Index, MerkleRootMetaColumn, Meta};
use super::families;
use super::kv::{Direction, KvEngine};
use crate::error::{LedgerError, Result};

/// The column families on disk bstore does not know, if any.
pub(super) fn unknown_columns(names: &[String]) -> Vec<&str> {
    names
        .iter()
        .map(String::as_str)
        .filter(|n| !families::is_known(n))
        .collect()
}

/// Decodes the newest row of every column insert rewrites (`meta`, `index`,
/// `erasure_meta`, `merkle_root_meta`) in the ledger at `path` opened as `kv`; an error
/// names the column and why.
pub(super) fn check_row_formats<E: KvEngine>(kv: &E, path: &Path) -> Result<()> {
    let refuse = |column: &str, e: LedgerError| LedgerError::UnknownFormat {
        path: path.to_path_buf(),
        reason: format!("the newest {column} row does not decode: {e}"),
    };
    newest::<E, Meta>(kv).map_err(|e| refuse(Meta::NAME, e))?;
    newest::<E, Index>(kv).map_err(|e| refuse(Index::NAME, e))?;
    newest::<E, ErasureMetaColumn>(kv).map_err(|e| refuse(ErasureMetaColumn::NAME, e))?;
    newest::<E, MerkleRootMetaColumn>(kv).map_err(|e| refuse(MerkleRootMetaColumn::NAME, e))?;
    Ok(())
}

/// Decodes the last row of column `C` (none is fine).
fn newest<E: KvEngine, C: Column>(kv: &E) -> Result<()> {
    let mut cursor = kv.cursor(C::NAME, &[], None, Direction::Reverse);
    if let Some(row) = super::kv::KvCursor::advance(&mut cursor) {
        let (key, value) = row?;
        C::decode_value(C::decode_key(key)?, value)?;
    }
    Ok(())
}
