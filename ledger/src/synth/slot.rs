//! One synthetic slot: entries with a valid PoH chain, cut into data sets, shredded.

use ed25519_dalek::SigningKey;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::FormatError;
use crate::entry::{Entry, encode_entries_into, encoded_entries_len, next_hash, signatures_mixin};
use crate::error::Result;
use crate::shred::{BatchOptions, LastInSlot, Resign, SHREDS_PER_FEC_SET, Shredder};
use crate::types::{Hash, Slot};

use super::txs::mainnet_like;

/// Ticks per slot (mainnet).
const TICKS_PER_SLOT: u64 = 64;
/// Data bytes of a plain chained FEC set (32 × 963): a data set is cut to fit one set.
const SET_BYTES: usize = SHREDS_PER_FEC_SET * 963;
/// Data bytes of the resigned last FEC set (32 × 899).
const LAST_SET_BYTES: usize = SHREDS_PER_FEC_SET * 899;

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlotSpec {
    /// About this many data shreds (rounded up to whole FEC sets of 32; at least 2 sets).
    pub data_shreds: u32,
    /// Hashes between ticks (mainnet: 62,500; the default keeps generation and replay fast).
    pub hashes_per_tick: u64,
    /// Also produce the Reed–Solomon coding shreds.
    pub with_code: bool,
}

impl Default for SlotSpec {
    fn default() -> Self {
        Self {
            data_shreds: 1000,
            hashes_per_tick: 2_500,
            with_code: false,
        }
    }
}

/// A generated slot: its shreds (stored form) and the facts a test checks against.
#[derive(Debug, Clone)]
pub struct GeneratedSlot {
    /// The generated slot.
    pub slot: Slot,
    /// The parent slot its shreds name.
    pub parent: Slot,
    /// Data shred payloads (1203 bytes each), in index order.
    pub data_shreds: Vec<Vec<u8>>,
    /// Coding shred payloads (empty unless `with_code`).
    pub code_shreds: Vec<Vec<u8>>,
    /// The entries, in order (all data sets concatenated).
    pub entries: Vec<Entry>,
    /// `[start, end)` shred range of each data set.
    pub data_sets: Vec<std::ops::Range<u32>>,
    /// The last entry hash.
    pub blockhash: Hash,
    /// Total transactions.
    pub transactions: u64,
    /// Total bytes of the data sets (what deshred yields).
    pub data_bytes: u64,
}

/// Generates consecutive slots deterministically from a seed.
#[derive(Debug)]
pub struct SlotGenerator {
    rng: ChaCha8Rng,
    key: SigningKey,
    shred_version: u16,
}

impl SlotGenerator {
    /// A generator whose leader key and content derive from `seed`.
    pub fn new(seed: u64, shred_version: u16) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let key = SigningKey::from_bytes(&rng.r#gen());
        Self {
            rng,
            key,
            shred_version,
        }
    }

    /// The leader's signing key (its public half verifies every generated shred).
    pub fn leader(&self) -> &SigningKey {
        &self.key
    }

    /// Generates `slot` (child of `parent`, whose last entry hash is `parent_hash`).
    pub fn generate(
        &mut self,
        slot: Slot,
        parent: Slot,
        parent_hash: Hash,
        spec: SlotSpec,
    ) -> Result<GeneratedSlot> {
        if spec.hashes_per_tick < 2 {
            return Err(FormatError::Shredder("hashes_per_tick must be at least 2".into()).into());
        }
        let sets = spec.data_shreds.div_ceil(SHREDS_PER_FEC_SET as u32).max(2) as usize;
        // PoH runs on through skipped slots: a block holds the ticks of every slot after its
        // parent (Agave's tick height runs from the parent's end to the slot's end).
        let ticks = TICKS_PER_SLOT.saturating_mul(slot.0.saturating_sub(parent.0).max(1));
        // Transaction bytes per tick interval so that the slot fills about `sets` data sets.
        let budget = (sets * SET_BYTES * 90 / 100) as u64 / ticks;
        let entries = self.entries(parent_hash, ticks, budget, spec.hashes_per_tick);
        let batches = cut_batches(&entries);
        let mut shredder = Shredder::new(slot, parent, self.shred_version, self.key.clone())?;
        let mut out = GeneratedSlot {
            slot,
            parent,
            data_shreds: Vec::new(),
            code_shreds: Vec::new(),
            entries: Vec::new(),
            data_sets: Vec::new(),
            blockhash: entries.last().map_or(parent_hash, |e| e.hash),
            transactions: entries.iter().map(|e| e.transactions.len() as u64).sum(),
            data_bytes: 0,
        };
        let mut ticks = 0u64;
        let mut buf = Vec::new();
        let n = batches.len();
        for (i, batch) in batches.iter().enumerate() {
            let batch_entries = &entries[batch.clone()];
            ticks += batch_entries.iter().filter(|e| e.is_tick()).count() as u64;
            buf.clear();
            encode_entries_into(batch_entries, &mut buf);
            out.data_bytes += buf.len() as u64;
            let last = i + 1 == n;
            let opts = BatchOptions {
                last_in_slot: if last {
                    LastInSlot::Yes
                } else {
                    LastInSlot::No
                },
                reference_tick: ticks.min(63) as u8,
                resign_last: if last { Resign::Yes } else { Resign::No },
            };
            let start = shredder.next_index().0;
            if spec.with_code {
                let b = shredder.shred_batch_with_code(&buf, opts)?;
                out.data_shreds.extend(b.data);
                out.code_shreds.extend(b.code);
            } else {
                out.data_shreds.extend(shredder.shred_batch(&buf, opts)?);
            }
            out.data_sets.push(start..shredder.next_index().0);
        }
        out.entries = entries;
        Ok(out)
    }

    /// `ticks` tick intervals, each with about `budget` bytes of transaction entries,
    /// PoH-chained from `start` with exactly `hashes_per_tick` hashes per interval.
    fn entries(
        &mut self,
        start: Hash,
        ticks: u64,
        budget: u64,
        hashes_per_tick: u64,
    ) -> Vec<Entry> {
        let mut entries = Vec::new();
        let mut hash = start;
        for _ in 0..ticks {
            let mut used_hashes = 0u64;
            let mut used_bytes = 0u64;
            // Leave at least one hash for the tick itself.
            while used_bytes < budget && used_hashes + 2 < hashes_per_tick {
                // About 340 bytes a transaction: stay within the interval's budget.
                let room = ((budget - used_bytes) / 340).clamp(1, 8) as usize;
                let n = self.rng.gen_range(1..=room);
                let txs: Vec<_> = (0..n).map(|_| mainnet_like(&mut self.rng, start)).collect();
                let max = (hashes_per_tick - used_hashes - 1).min(16);
                let num_hashes = self.rng.gen_range(1..=max);
                let mixin =
                    signatures_mixin(txs.iter().flat_map(|t| t.signatures.iter().map(|s| &s.0)));
                hash = next_hash(&hash, num_hashes, Some(&mixin));
                let entry = Entry {
                    num_hashes,
                    hash,
                    transactions: txs,
                };
                used_bytes += encoded_entries_len(std::slice::from_ref(&entry)) as u64 - 8;
                used_hashes += num_hashes;
                entries.push(entry);
            }
            let num_hashes = hashes_per_tick - used_hashes;
            hash = next_hash(&hash, num_hashes, None);
            entries.push(Entry {
                num_hashes,
                hash,
                transactions: Vec::new(),
            });
        }
        entries
    }
}

/// Cuts entries into data sets that each fit one FEC set (the last one a resigned set).
fn cut_batches(entries: &[Entry]) -> Vec<std::ops::Range<usize>> {
    let sizes: Vec<usize> = entries
        .iter()
        .map(|e| encoded_entries_len(std::slice::from_ref(e)) - 8)
        .collect();
    let mut batches = Vec::new();
    let mut begin = 0;
    let mut bytes = 8; // the u64 entry count of each data set
    for (i, size) in sizes.iter().enumerate() {
        if i > begin && bytes + size > SET_BYTES {
            batches.push(begin..i);
            begin = i;
            bytes = 8;
        }
        bytes += size;
    }
    // The slot's last data set is shredded into a resigned set: move entries out of it until
    // it fits one.
    let mut last = begin..entries.len();
    let mut last_bytes: usize = 8 + sizes[last.clone()].iter().sum::<usize>();
    let mut split = last.start;
    while last_bytes > LAST_SET_BYTES && split + 1 < last.end {
        last_bytes -= sizes[split];
        split += 1;
    }
    if split > last.start {
        batches.push(last.start..split);
        last.start = split;
    }
    if !last.is_empty() {
        batches.push(last);
    }
    batches
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entry::{TickRules, decode_entries, verify_poh, verify_slot_ticks};
    use crate::fetch::group_by_slot;
    use crate::shred::{ShredRef, verify_signature};
    use crate::types::Pubkey;

    #[test]
    fn generated_slot_deshreds_to_its_entries_with_valid_poh() {
        let mut g = SlotGenerator::new(7, 42);
        let spec = SlotSpec {
            data_shreds: 96,
            hashes_per_tick: 100,
            with_code: false,
        };
        let parent_hash = Hash([9; 32]);
        let s = g
            .generate(Slot(11), Slot(10), parent_hash, spec)
            .expect("generates");
        let leader = Pubkey(g.leader().verifying_key().to_bytes());
        let shreds: Vec<_> = s
            .data_shreds
            .iter()
            .map(|p| ShredRef::parse(p).expect("parses"))
            .collect();
        assert!(
            shreds
                .iter()
                .all(|sh| verify_signature(sh, &leader).is_ok())
        );
        let slots = group_by_slot(shreds);
        let slot = &slots[&Slot(11)];
        assert!(slot.is_full());
        assert_eq!(slot.data_sets(), s.data_sets);
        let mut entries = Vec::new();
        for r in &s.data_sets {
            entries.extend(decode_entries(&slot.deshred(r).expect("deshreds")).expect("decodes"));
        }
        assert_eq!(entries, s.entries);
        assert_eq!(
            verify_poh(&parent_hash, &entries).expect("poh"),
            s.blockhash
        );
        let rules = TickRules {
            ticks_per_slot: 64,
            hashes_per_tick: Some(100),
        };
        verify_slot_ticks(&entries, &rules).expect("tick rules");
        let n = s.data_shreds.len();
        assert!(
            (96..=128).contains(&n),
            "{n} data shreds for a 96-shred spec"
        );
    }

    #[test]
    fn shred_count_follows_the_spec() {
        let mut g = SlotGenerator::new(1, 1);
        for target in [1000u32, 4000, 64] {
            let spec = SlotSpec {
                data_shreds: target,
                hashes_per_tick: 2_500,
                with_code: false,
            };
            let s = g
                .generate(Slot(5), Slot(4), Hash::default(), spec)
                .expect("generates");
            let n = s.data_shreds.len() as u32;
            assert!(
                n >= target * 7 / 8 && n <= target + target / 8 + 32,
                "{n} data shreds for {target}"
            );
            let per_shred = s.transactions as f64 / f64::from(n);
            // Mainnet-like density (about 3 per data shred) once ticks stop dominating.
            let min = if target >= 1000 { 2.3 } else { 1.2 };
            assert!(
                (min..=3.5).contains(&per_shred),
                "{per_shred} transactions per data shred"
            );
        }
    }
}
