//! The per-slot JSON summary shared by `bstore shreds deshred` and `bstore ledger slot`.
//! Field names are a stable interface for scripts: keep them.

use std::ops::Range;

use bstore_ledger::entry::{EntriesView, HashLimits, verify_poh_with_limits};
use bstore_ledger::{Hash, Slot};
use serde_json::{Value, json};

/// What the caller asked for beyond the counts.
#[derive(Debug, Clone, Default)]
pub(crate) struct SummaryOptions {
    /// Verify PoH from this hash (the parent's blockhash).
    pub verify_poh: Option<Hash>,
    /// The hash counts refused before any hashing.
    pub limits: HashLimits,
    /// List the first signature of every transaction.
    pub signatures: bool,
}

/// Slot facts known before decoding.
#[derive(Debug, Clone)]
pub(crate) struct SlotFacts {
    pub slot: Slot,
    pub parent_slot: Option<Slot>,
    pub data_shreds: u64,
    pub last_index: Option<u64>,
    pub full: bool,
}

impl SlotFacts {
    /// The fields every line has, with `data_sets`.
    pub(crate) fn to_json(&self, sets: &[Range<u32>]) -> Value {
        json!({
            "slot": self.slot.0,
            "parent_slot": self.parent_slot.map(|p| p.0),
            "data_shreds": self.data_shreds,
            "last_index": self.last_index,
            "full": self.full,
            "data_sets": sets.iter().map(|r| [r.start, r.end]).collect::<Vec<_>>(),
        })
    }
}

/// Builds the slot's JSON line from its data sets, already parsed as zero-copy views.
pub(crate) fn summarize(
    facts: &SlotFacts,
    sets: &[(Range<u32>, &EntriesView<'_>)],
    opts: &SummaryOptions,
) -> Value {
    let ranges: Vec<Range<u32>> = sets.iter().map(|(r, _)| r.clone()).collect();
    let mut v = facts.to_json(&ranges);
    let views: Vec<&EntriesView<'_>> = sets.iter().map(|(_, view)| *view).collect();
    let (mut entries, mut ticks, mut txs, mut sigs, mut hashes) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut first_signatures = Vec::new();
    let mut blockhash = None;
    for view in &views {
        for entry in view.iter() {
            entries += 1;
            hashes += entry.num_hashes();
            if entry.is_tick() {
                ticks += 1;
            }
            for tx in entry.transactions() {
                txs += 1;
                sigs += tx.num_signatures() as u64;
                if opts.signatures
                    && let Some(sig) = tx.first_signature()
                {
                    first_signatures.push(bs58::encode(sig).into_string());
                }
            }
            blockhash = Some(entry.hash());
        }
    }
    v["entries"] = json!(entries);
    v["ticks"] = json!(ticks);
    v["transactions"] = json!(txs);
    v["signatures"] = json!(sigs);
    v["num_hashes"] = json!(hashes);
    v["blockhash"] = json!(blockhash.map(|h: Hash| h.to_string()));
    if let Some(start) = &opts.verify_poh {
        let contiguous = ranges.first().is_some_and(|r| r.start == 0)
            && ranges.windows(2).all(|w| w[0].end == w[1].start);
        v["poh"] = if !contiguous {
            json!("not verified: the complete data sets do not run contiguously from shred 0")
        } else {
            let entries = views.iter().flat_map(|view| view.iter());
            match verify_poh_with_limits(start, entries, &opts.limits) {
                Ok(_) => json!("ok"),
                Err(e) => json!(e.to_string()),
            }
        };
    }
    if opts.signatures {
        v["first_signatures"] = json!(first_signatures);
    }
    v
}
