//! Synthetic Alpenglow blocks (`docs/block-components.md`): entry batches of one hash per
//! entry, block markers encoded byte-exact with Agave, and the shredding of a block's data
//! sets (one data set per component, the last one last-in-slot). The caller chooses the
//! components, so tests can also build blocks that break the order rules.

use ed25519_dalek::SigningKey;

use crate::block::{BlockFooter, BlockHeader, BlockMarker};
use crate::entry::{Entry, VersionedTransaction, encode_entries, next_hash, signatures_mixin};
use crate::error::Result;
use crate::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use crate::types::{Hash, Slot};

/// Alpenglow entries chained from `*prev`, one hash each, one entry per element of `txs`
/// (an empty element is a tick). Leaves `*prev` at the last entry's hash.
pub fn chained_entries(prev: &mut Hash, txs: Vec<Vec<VersionedTransaction>>) -> Vec<Entry> {
    txs.into_iter()
        .map(|transactions| {
            let mixin = (!transactions.is_empty()).then(|| {
                signatures_mixin(
                    transactions
                        .iter()
                        .flat_map(|tx| tx.signatures.iter().map(|s| &s.0)),
                )
            });
            let hash = next_hash(prev, 1, mixin.as_ref());
            *prev = hash;
            Entry {
                num_hashes: 1,
                hash,
                transactions,
            }
        })
        .collect()
}

/// One component of a synthetic block, before encoding.
#[derive(Debug, Clone)]
pub enum Part {
    /// A block marker.
    Marker(BlockMarker),
    /// An entry batch (already chained).
    Entries(Vec<Entry>),
    /// Raw data set bytes (an aborted block's 8 zero bytes, a damaged marker).
    Raw(Vec<u8>),
}

/// The data set bytes of each part, in order.
pub fn encode_parts(parts: &[Part]) -> Result<Vec<Vec<u8>>> {
    parts
        .iter()
        .map(|p| match p {
            Part::Marker(m) => Ok(m.encode()?),
            Part::Entries(e) => Ok(encode_entries(e)),
            Part::Raw(bytes) => Ok(bytes.clone()),
        })
        .collect()
}

/// The standard shape: header (parent `parent`), the given batches, a footer, and the
/// final tick chained after the last batch. Returns the parts and the block's blockhash.
pub fn standard_block(
    parent: Slot,
    parent_hash: Hash,
    batches: Vec<Vec<Vec<VersionedTransaction>>>,
    producer_time_nanos: u64,
) -> (Vec<Part>, Hash) {
    let mut prev = parent_hash;
    let mut parts = vec![Part::Marker(BlockMarker::Header(BlockHeader {
        parent_slot: parent,
        parent_block_id: Hash([0xb1; 32]),
    }))];
    for txs in batches {
        parts.push(Part::Entries(chained_entries(&mut prev, txs)));
    }
    parts.push(Part::Marker(BlockMarker::footer(BlockFooter {
        bank_hash: Hash([0xf0; 32]),
        producer_time_nanos,
        user_agent: b"bstore-synth".to_vec(),
        final_cert: None,
        skip_reward_cert: None,
        notar_reward_cert: None,
    })));
    parts.push(Part::Entries(chained_entries(&mut prev, vec![Vec::new()])));
    (parts, prev)
}

/// Shreds `data_sets` as slot `slot` (child of `parent`): one batch per data set, the last
/// one last-in-slot. Returns the data shreds of each data set, in order.
pub fn shred_data_sets(
    slot: Slot,
    parent: Slot,
    shred_version: u16,
    key: &SigningKey,
    data_sets: &[Vec<u8>],
) -> Result<Vec<Vec<Vec<u8>>>> {
    let mut shredder = Shredder::new(slot, parent, shred_version, key.clone())?;
    let n = data_sets.len();
    data_sets
        .iter()
        .enumerate()
        .map(|(i, set)| {
            let opts = BatchOptions {
                last_in_slot: if i + 1 == n {
                    LastInSlot::Yes
                } else {
                    LastInSlot::No
                },
                reference_tick: 0,
                resign_last: Resign::No,
            };
            Ok(shredder.shred_batch(set, opts)?)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::{is_block_marker, parse_data_set};
    use crate::entry::decode_entries;

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len())
            .step_by(2)
            .filter_map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
            .collect()
    }

    /// Re-chaining the transactions of Agave's vector slot gives Agave's entries, and a
    /// standard block parses back into its parts.
    #[test]
    fn chained_entries_match_agave_and_blocks_parse() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../testdata/agave4/block_components.json"
        );
        let text = std::fs::read_to_string(path).expect("vectors");
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        let slot = &v["slot"];
        let hash = |k: &str| {
            Hash(
                unhex(slot[k].as_str().expect("hex"))
                    .try_into()
                    .expect("32 bytes"),
            )
        };
        let mut prev = hash("parent_blockhash");
        for set in slot["data_sets"].as_array().expect("sets") {
            let bytes = unhex(set["hex"].as_str().expect("hex"));
            if is_block_marker(&bytes) {
                if BlockMarker::parse(&bytes)
                    .expect("marker")
                    .as_update_parent()
                    .is_some()
                {
                    prev = hash("new_parent_blockhash");
                }
                continue;
            }
            let agave = decode_entries(&bytes).expect("entries");
            let txs = agave.iter().map(|e| e.transactions.clone()).collect();
            assert_eq!(chained_entries(&mut prev, txs), agave);
        }
        assert_eq!(prev, hash("blockhash"));

        let (parts, blockhash) = standard_block(Slot(3), Hash([1; 32]), vec![vec![vec![]]], 5);
        let sets = encode_parts(&parts).expect("encodes");
        assert_eq!(sets.len(), 4);
        assert!(sets.iter().all(|s| parse_data_set(s).is_ok()));
        let Part::Entries(tick) = &parts[3] else {
            panic!("the last part is the final tick");
        };
        assert_eq!(tick.last().map(|e| e.hash), Some(blockhash));
    }
}
