//! `bstore ledger roots`: agave-ledger-tool's `list-roots` — up to N rooted slots from a
//! start root upward, printed highest first (Agave takes the first N roots at or above
//! `--start-root` in ascending order, then prints them reversed).

use bstore_ledger::fetch::{FetchBuffer, last_entry_hash};
use bstore_ledger::store::{Blockstore, KvEngine};
use bstore_ledger::{Hash, Slot};
use serde_json::json;

use super::Format;

/// What to list.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RootsQuery {
    /// The lowest root considered.
    pub start: Slot,
    /// At most this many roots (the lowest ones at or above `start`); `None`: all.
    pub max: Option<usize>,
    /// Also read each root's blockhash (the last entry hash of its last data set).
    pub blockhash: bool,
}

/// The rooted slots `query` asks for, highest first.
pub(crate) fn roots<E: KvEngine>(
    store: &Blockstore<E>,
    query: RootsQuery,
) -> bstore_ledger::Result<Vec<Slot>> {
    let mut list = store
        .rooted_slots(query.start..)
        .take(query.max.unwrap_or(usize::MAX))
        .collect::<bstore_ledger::Result<Vec<Slot>>>()?;
    list.reverse();
    Ok(list)
}

/// Runs `bstore ledger roots`.
pub(crate) fn run<E: KvEngine>(
    store: &Blockstore<E>,
    query: RootsQuery,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let list = roots(store, query)?;
    let hashes: Option<Vec<Option<Hash>>> = if query.blockhash {
        // One buffer for every root: each fetch reuses its capacity.
        let mut buf = FetchBuffer::new();
        Some(
            list.iter()
                .map(|&slot| last_entry_hash(store, slot, &mut buf))
                .collect::<bstore_ledger::Result<_>>()?,
        )
    } else {
        None
    };
    match format {
        Format::Json => {
            let mut v = json!({"roots": list.iter().map(|s| s.0).collect::<Vec<_>>()});
            if let Some(hashes) = &hashes {
                let hashes: Vec<_> = hashes.iter().map(|h| h.map(|h| h.to_string())).collect();
                v["blockhashes"] = json!(hashes);
            }
            println!("{v}");
        }
        Format::Text => {
            for (i, slot) in list.iter().enumerate() {
                match hashes.as_ref().map(|h| h.get(i).copied().flatten()) {
                    None => println!("{slot}"),
                    Some(Some(hash)) => println!("{slot}: {hash}"),
                    Some(None) => println!("{slot}: no complete data set"),
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lowest_n_from_start_come_out_highest_first() {
        let store = Blockstore::in_memory();
        store.set_roots([2, 4, 6, 8, 10].map(Slot)).expect("roots");
        let q = |start, max| RootsQuery {
            start: Slot(start),
            max,
            blockhash: false,
        };
        let list = |start, max| -> Vec<u64> {
            roots(&store, q(start, max))
                .expect("roots")
                .iter()
                .map(|s| s.0)
                .collect()
        };
        assert_eq!(list(0, None), vec![10, 8, 6, 4, 2]);
        assert_eq!(list(5, Some(2)), vec![8, 6]);
        assert_eq!(list(11, None), Vec::<u64>::new());
    }
}
