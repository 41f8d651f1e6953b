//! [`BlockRecord`]: one rooted block with the history rows a validator wrote for it, owned
//! and self-contained — what an archive stores per slot and what RPC encodes when the local
//! ledger no longer has the slot (`docs/history.md#block-records`).
//!
//! Encoding (version 1, integers little-endian; `opt` = one tag byte 0/1 then the value):
//!
//! ```text
//! magic "BSBR" | version u8 = 1 | slot u64 | parent_slot u64 | blockhash [32]
//! | previous_blockhash [32] | opt block_time i64 | opt block_height u64
//! | n_sets u32 | n_sets × (len u32 | bincode Vec<Entry> bytes)
//! | n_status u32 | n_status × opt (len u32 | Agave transaction_status value bytes)
//! | opt (len u32 | Agave rewards value bytes)
//! ```
//!
//! Decoding never trusts a count or length before comparing it with the bytes left, so a
//! hostile object costs at most its own size.

use crate::error::{LedgerError, Result};
use crate::types::{Hash, Slot};
use crate::wire::Reader;

const MAGIC: &[u8; 4] = b"BSBR";
const VERSION: u8 = 1;

/// One block and its history rows, as raw as the ledger holds them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BlockRecord {
    /// The block's slot.
    pub slot: Slot,
    /// The slot this block builds on.
    pub parent_slot: Slot,
    /// The slot's last entry hash.
    pub blockhash: Hash,
    /// The parent's last entry hash (the default hash when the parent was not stored).
    pub previous_blockhash: Hash,
    /// The block's time in Unix seconds from the `blocktime` column (`None`: not recorded).
    pub block_time: Option<i64>,
    /// The block's height from the `block_height` column (`None`: not recorded).
    pub block_height: Option<u64>,
    /// Each completed data set's bincode `Vec<Entry>`, in slot order.
    pub entry_sets: Vec<Vec<u8>>,
    /// The `transaction_status` value of each transaction, in block order (`None`: the
    /// ledger has no status for it).
    pub statuses: Vec<Option<Vec<u8>>>,
    /// The slot's `rewards` value.
    pub rewards: Option<Vec<u8>>,
}

impl BlockRecord {
    /// The encoded record (see the module docs).
    pub fn encode(&self) -> Vec<u8> {
        let size = 128
            + self.entry_sets.iter().map(|s| s.len() + 4).sum::<usize>()
            + self
                .statuses
                .iter()
                .map(|s| s.as_ref().map_or(1, |s| s.len() + 5))
                .sum::<usize>()
            + self.rewards.as_ref().map_or(1, |r| r.len() + 5);
        let mut out = Vec::with_capacity(size);
        out.extend_from_slice(MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&self.slot.0.to_le_bytes());
        out.extend_from_slice(&self.parent_slot.0.to_le_bytes());
        out.extend_from_slice(self.blockhash.as_bytes());
        out.extend_from_slice(self.previous_blockhash.as_bytes());
        put_opt(&mut out, self.block_time.map(i64::to_le_bytes));
        put_opt(&mut out, self.block_height.map(u64::to_le_bytes));
        put_len(&mut out, self.entry_sets.len());
        for set in &self.entry_sets {
            put_bytes(&mut out, set);
        }
        put_len(&mut out, self.statuses.len());
        for status in &self.statuses {
            put_opt_bytes(&mut out, status.as_deref());
        }
        put_opt_bytes(&mut out, self.rewards.as_deref());
        out
    }

    /// Decodes a record; any defect is `InvalidBlockRecord` naming the field.
    pub fn decode(bytes: &[u8]) -> Result<Self> {
        decode(bytes).map_err(|reason| LedgerError::InvalidBlockRecord { reason })
    }
}

fn put_len(out: &mut Vec<u8>, len: usize) {
    // Parts are at most a slot's data (far below 4 GiB); saturate rather than wrap.
    out.extend_from_slice(&u32::try_from(len).unwrap_or(u32::MAX).to_le_bytes());
}

fn put_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    put_len(out, bytes.len());
    out.extend_from_slice(bytes);
}

fn put_opt<const N: usize>(out: &mut Vec<u8>, value: Option<[u8; N]>) {
    match value {
        Some(v) => {
            out.push(1);
            out.extend_from_slice(&v);
        }
        None => out.push(0),
    }
}

fn put_opt_bytes(out: &mut Vec<u8>, value: Option<&[u8]>) {
    match value {
        Some(v) => {
            out.push(1);
            put_bytes(out, v);
        }
        None => out.push(0),
    }
}

fn decode(bytes: &[u8]) -> Result<BlockRecord, String> {
    let mut r = Reader::new(bytes);
    if r.take(4, "magic")? != MAGIC {
        return Err("not a block record (bad magic)".into());
    }
    let version = r.u8("version")?;
    if version != VERSION {
        return Err(format!("unknown version {version}"));
    }
    let slot = Slot(r.u64("slot")?);
    let parent_slot = Slot(r.u64("parent_slot")?);
    let blockhash = hash(&mut r, "blockhash")?;
    let previous_blockhash = hash(&mut r, "previous_blockhash")?;
    let block_time = opt(&mut r, "block_time")?.map(|v| v as i64);
    let block_height = opt(&mut r, "block_height")?;
    // Each set costs at least its 4-byte length: a count above that is a lie.
    let n_sets = count(&mut r, 4, "entry set count")?;
    let mut entry_sets = Vec::with_capacity(n_sets);
    for _ in 0..n_sets {
        entry_sets.push(bytes_field(&mut r, "entry set")?.to_vec());
    }
    let n_status = count(&mut r, 1, "status count")?;
    let mut statuses = Vec::with_capacity(n_status);
    for _ in 0..n_status {
        statuses.push(opt_bytes(&mut r, "status")?.map(<[u8]>::to_vec));
    }
    let rewards = opt_bytes(&mut r, "rewards")?.map(<[u8]>::to_vec);
    r.finish("the block record")?;
    Ok(BlockRecord {
        slot,
        parent_slot,
        blockhash,
        previous_blockhash,
        block_time,
        block_height,
        entry_sets,
        statuses,
        rewards,
    })
}

fn hash(r: &mut Reader<'_>, field: &str) -> Result<Hash, String> {
    let b: [u8; 32] = r.take(32, field)?.try_into().unwrap_or_default();
    Ok(Hash(b))
}

fn opt(r: &mut Reader<'_>, field: &str) -> Result<Option<u64>, String> {
    match r.u8(field)? {
        0 => Ok(None),
        1 => Ok(Some(r.u64(field)?)),
        tag => Err(format!("{field}: option tag {tag}")),
    }
}

/// A `u32` count of items that each take at least `min_item` bytes.
fn count(r: &mut Reader<'_>, min_item: usize, field: &str) -> Result<usize, String> {
    let n = r.u32(field)? as usize;
    if n.saturating_mul(min_item) > r.remaining() {
        return Err(format!(
            "{field} {n} exceeds the {} bytes left",
            r.remaining()
        ));
    }
    Ok(n)
}

fn bytes_field<'a>(r: &mut Reader<'a>, field: &str) -> Result<&'a [u8], String> {
    let len = r.u32(field)? as usize;
    r.take(len, field)
}

fn opt_bytes<'a>(r: &mut Reader<'a>, field: &str) -> Result<Option<&'a [u8]>, String> {
    match r.u8(field)? {
        0 => Ok(None),
        1 => Ok(Some(bytes_field(r, field)?)),
        tag => Err(format!("{field}: option tag {tag}")),
    }
}

#[cfg(test)]
#[path = "record_tests.rs"]
mod tests;
