//! The per-slot signature table `PREFIX/sigs/<slot>`: each transaction's first signature
//! (what `getTransaction` is asked by, and what Agave keys `transaction_status` by) with its
//! index in the block, sorted by signature. Written before the block object; read to build a
//! range's sealed index and to look up signatures of slots not sealed yet.
//!
//! ```text
//! magic "BSAS" | version u8 = 1 | reserved [0; 3] | slot u64 | count u32 | reserved u32
//! | count × (signature [64] | transaction index u32)        (LE, sorted by signature)
//! ```

use bstore_ledger::Slot;
use bstore_ledger::entry::EntriesView;
use bstore_ledger::history::BlockRecord;
use object_store::path::Path;

use crate::error::{ArchiveError, Result};

const MAGIC: &[u8; 4] = b"BSAS";
const VERSION: u8 = 1;
const HEADER_BYTES: usize = 24;
/// Bytes of one entry.
pub(crate) const ENTRY_BYTES: usize = 68;

/// The first signature of each transaction of `record`, in block order (`None` for a
/// transaction without signatures); the position is the transaction's index, the same as
/// in `BlockRecord::statuses`. An entry set that does not parse is an error naming the slot.
pub fn first_signatures(record: &BlockRecord) -> Result<Vec<Option<[u8; 64]>>> {
    let mut out = Vec::with_capacity(record.statuses.len());
    for (i, set) in record.entry_sets.iter().enumerate() {
        let view = EntriesView::parse(set).map_err(|e| ArchiveError::Ledger {
            slot: record.slot,
            source: bstore_ledger::LedgerError::InvalidBlockRecord {
                reason: format!("entry set {i}: {e}"),
            },
        })?;
        out.extend(view.transactions().map(|tx| tx.first_signature().copied()));
    }
    Ok(out)
}

/// A transaction's place: its slot and its index among the block's transactions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TxLocation {
    /// The slot of the block holding the transaction.
    pub slot: Slot,
    /// Position of the transaction in its block (0-based).
    pub index: u32,
}

/// One slot's signatures, sorted.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SigTable {
    /// The slot these signatures belong to.
    pub slot: Slot,
    /// `(first signature, transaction index)`, sorted by signature then index.
    pub entries: Vec<([u8; 64], u32)>,
}

impl SigTable {
    /// The table of `record`'s transactions. A transaction without a signature has an index
    /// but no entry (nothing can ask for it).
    pub fn from_record(record: &BlockRecord) -> Result<Self> {
        let mut entries: Vec<([u8; 64], u32)> = first_signatures(record)?
            .into_iter()
            .zip(0u32..)
            .filter_map(|(sig, index)| Some((sig?, index)))
            .collect();
        entries.sort_unstable();
        Ok(Self {
            slot: record.slot,
            entries,
        })
    }

    /// The index of the transaction whose first signature is `sig`.
    pub(crate) fn find(&self, sig: &[u8; 64]) -> Option<u32> {
        let i = self.entries.partition_point(|(s, _)| s < sig);
        self.entries
            .get(i)
            .filter(|(s, _)| s == sig)
            .map(|(_, idx)| *idx)
    }

    /// The stored bytes.
    pub(crate) fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_BYTES + self.entries.len() * ENTRY_BYTES);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[VERSION, 0, 0, 0]);
        out.extend_from_slice(&self.slot.0.to_le_bytes());
        let n = u32::try_from(self.entries.len()).unwrap_or(u32::MAX);
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes());
        for (sig, idx) in &self.entries {
            out.extend_from_slice(sig);
            out.extend_from_slice(&idx.to_le_bytes());
        }
        out
    }

    /// Decodes the table `key`, which must be of `slot` and sorted.
    pub(crate) fn decode(key: &Path, slot: Slot, bytes: &[u8]) -> Result<Self> {
        let bad = |reason: String| ArchiveError::corrupt(key, reason);
        let (header, body) = bytes
            .split_at_checked(HEADER_BYTES)
            .ok_or_else(|| bad(format!("{} bytes is shorter than the header", bytes.len())))?;
        if &header[..4] != MAGIC || header[4] != VERSION {
            return Err(bad("not a signature table (bad magic or version)".into()));
        }
        let mut s = [0u8; 8];
        s.copy_from_slice(&header[8..16]);
        if u64::from_le_bytes(s) != slot.0 {
            return Err(bad(format!(
                "holds slot {}, not {slot}",
                u64::from_le_bytes(s)
            )));
        }
        let mut n = [0u8; 4];
        n.copy_from_slice(&header[16..20]);
        let n = u32::from_le_bytes(n) as usize;
        if body.len() != n.saturating_mul(ENTRY_BYTES) {
            return Err(bad(format!(
                "{n} entries need {} bytes, found {}",
                n.saturating_mul(ENTRY_BYTES),
                body.len()
            )));
        }
        let mut entries = Vec::with_capacity(n);
        for chunk in body.chunks_exact(ENTRY_BYTES) {
            let (sig, idx) = chunk.split_at(64);
            let mut s = [0u8; 64];
            s.copy_from_slice(sig);
            let mut i = [0u8; 4];
            i.copy_from_slice(idx);
            entries.push((s, u32::from_le_bytes(i)));
        }
        if !entries.is_sorted() {
            return Err(bad("entries are not sorted".into()));
        }
        Ok(Self { slot, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn table(slot: u64, sigs: &[u8]) -> SigTable {
        let mut entries: Vec<([u8; 64], u32)> = sigs
            .iter()
            .enumerate()
            .map(|(i, b)| ([*b; 64], i as u32))
            .collect();
        entries.sort_unstable();
        SigTable {
            slot: Slot(slot),
            entries,
        }
    }

    proptest! {
        #[test]
        fn tables_round_trip(slot: u64, sigs in proptest::collection::vec(any::<u8>(), 0..50)) {
            let t = table(slot, &sigs);
            let key = Path::from("sigs/x");
            prop_assert_eq!(SigTable::decode(&key, Slot(slot), &t.encode()).expect("decodes"), t.clone());
            for (i, b) in sigs.iter().enumerate() {
                let found = t.find(&[*b; 64]).expect("present");
                prop_assert_eq!(sigs[found as usize], *b);
                let _ = i;
            }
        }
    }

    #[test]
    fn defects_name_the_object() {
        let t = table(5, &[1, 2, 3]);
        let key = Path::from("p/sigs/0000000000000005");
        let bytes = t.encode();
        for len in 0..bytes.len() {
            let e = SigTable::decode(&key, Slot(5), &bytes[..len]).expect_err("cut");
            assert!(e.to_string().contains("p/sigs/0000000000000005"), "{e}");
        }
        assert!(SigTable::decode(&key, Slot(6), &bytes).is_err());
        let mut unsorted = t.clone();
        unsorted.entries.reverse();
        let e = SigTable::decode(&key, Slot(5), &unsorted.encode()).expect_err("order");
        assert!(e.to_string().contains("not sorted"), "{e}");
    }
}
