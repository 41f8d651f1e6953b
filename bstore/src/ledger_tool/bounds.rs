//! `bstore ledger bounds`: agave-ledger-tool's `bounds` — the lowest and highest slot with
//! a meta, how many there are, and the rooted slots.
//!
//! Agave's rules, kept: a slot counts when it has a `meta` row (a placeholder parent made by
//! a child counts too); "past the last root" counts the slots above the highest root (above
//! 0 when nothing is rooted); an empty ledger reports no roots without reading `root`.

use std::fmt;

use bstore_ledger::Slot;
use bstore_ledger::store::{Blockstore, KvEngine};
use serde_json::{Value, json};

use super::{Detail, Format};

/// The rooted part of [`Bounds`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct RootBounds {
    pub total: u64,
    pub first: Option<Slot>,
    pub last: Option<Slot>,
    /// Slots with a meta above `last` (above slot 0 when nothing is rooted).
    pub num_after_last_root: u64,
}

/// What `bounds` reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Bounds {
    pub lowest: Option<Slot>,
    pub highest: Option<Slot>,
    pub num_slots: u64,
    /// Every slot with a meta, when asked for (`--all`).
    pub all_slots: Option<Vec<Slot>>,
    pub roots: RootBounds,
}

/// Reads the bounds in one pass over `meta` and one over `root`; `Detail::Full` also lists
/// every slot.
pub(crate) fn bounds<E: KvEngine>(
    store: &Blockstore<E>,
    detail: Detail,
) -> bstore_ledger::Result<Bounds> {
    let Some(highest) = store.highest_slot()? else {
        return Ok(Bounds::default());
    };
    let max_root = store.max_root()?;
    let past_root_floor = max_root.unwrap_or(Slot(0));
    let mut b = Bounds {
        highest: Some(highest),
        all_slots: (detail == Detail::Full).then(Vec::new),
        ..Bounds::default()
    };
    for meta in store.slot_metas(..) {
        let slot = meta?.slot;
        b.lowest.get_or_insert(slot);
        b.num_slots += 1;
        if slot > past_root_floor {
            b.roots.num_after_last_root += 1;
        }
        if let Some(list) = &mut b.all_slots {
            list.push(slot);
        }
    }
    for root in store.rooted_slots(..) {
        let root = root?;
        b.roots.first.get_or_insert(root);
        b.roots.total += 1;
    }
    b.roots.last = max_root;
    Ok(b)
}

impl Bounds {
    /// The JSON object (`lowest`, `highest`, `num_slots`, `roots{...}`, `all_slots` with
    /// `--all`).
    pub(crate) fn to_json(&self) -> Value {
        let mut v = json!({
            "lowest": self.lowest.map(|s| s.0),
            "highest": self.highest.map(|s| s.0),
            "num_slots": self.num_slots,
            "roots": {
                "total": self.roots.total,
                "first": self.roots.first.map(|s| s.0),
                "last": self.roots.last.map(|s| s.0),
                "num_after_last_root": self.roots.num_after_last_root,
            },
        });
        if let Some(all) = &self.all_slots {
            v["all_slots"] = json!(all.iter().map(|s| s.0).collect::<Vec<_>>());
        }
        v
    }
}

/// Agave's wording, line for line (`ledger-tool/src/output.rs`, `Display for SlotBounds`).
impl fmt::Display for Bounds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (Some(first), Some(last)) = (self.lowest, self.highest) else {
            return writeln!(f, "Ledger is empty");
        };
        if first == last {
            writeln!(f, "Ledger has data for slot {first}")?;
        } else {
            writeln!(
                f,
                "Ledger has data for {} slots {first} to {last}",
                self.num_slots
            )?;
            if let Some(all) = &self.all_slots {
                let all: Vec<u64> = all.iter().map(|s| s.0).collect();
                writeln!(f, "Non-empty slots: {all:?}")?;
            }
        }
        match (self.roots.first, self.roots.last) {
            (Some(a), Some(b)) => {
                writeln!(
                    f,
                    "  with {} rooted slots from {a} to {b}",
                    self.roots.total
                )?;
                writeln!(
                    f,
                    "  and {} slots past the last root",
                    self.roots.num_after_last_root
                )
            }
            _ => writeln!(f, "  with no rooted slots"),
        }
    }
}

/// Runs `bstore ledger bounds`.
pub(crate) fn run<E: KvEngine>(
    store: &Blockstore<E>,
    detail: Detail,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let b = bounds(store, detail)?;
    match format {
        Format::Text => print!("{b}"),
        Format::Json => println!("{}", b.to_json()),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(b: &Bounds) -> String {
        b.to_string()
    }

    #[test]
    fn text_is_agaves_wording() {
        assert_eq!(text(&Bounds::default()), "Ledger is empty\n");
        let b = Bounds {
            lowest: Some(Slot(3)),
            highest: Some(Slot(9)),
            num_slots: 5,
            all_slots: Some(vec![Slot(3), Slot(4), Slot(5), Slot(8), Slot(9)]),
            roots: RootBounds {
                total: 2,
                first: Some(Slot(3)),
                last: Some(Slot(5)),
                num_after_last_root: 2,
            },
        };
        assert_eq!(
            text(&b),
            "Ledger has data for 5 slots 3 to 9\nNon-empty slots: [3, 4, 5, 8, 9]\n  \
             with 2 rooted slots from 3 to 5\n  and 2 slots past the last root\n"
        );
        let one = Bounds {
            lowest: Some(Slot(7)),
            highest: Some(Slot(7)),
            num_slots: 1,
            ..Bounds::default()
        };
        assert_eq!(
            text(&one),
            "Ledger has data for slot 7\n  with no rooted slots\n"
        );
    }
}
