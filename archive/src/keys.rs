//! Object names (`docs/archive.md#objects`). Every slot number in a name is 16 lowercase
//! hex digits, so the store's lexicographic listing order is slot order and a listing can
//! start right after a given slot (`start-after`).
//!
//! ```text
//! PREFIX/layout.json                      the archive's parameters (immutable)
//! PREFIX/sigs/<slot>                      per-slot signature table, written before the block
//! PREFIX/blocks/<slot>                    the block object: the slot's commit point
//! PREFIX/index/<range start>-<n slots>    sealed signature index of one slot range
//! ```

use bstore_ledger::Slot;
use object_store::path::Path;

/// Folder of block objects.
pub(crate) const BLOCKS: &str = "blocks";
/// Folder of per-slot signature tables.
pub(crate) const SIGS: &str = "sigs";
/// Folder of sealed range indexes.
pub(crate) const INDEX: &str = "index";

/// The names under one archive prefix.
#[derive(Debug, Clone)]
pub struct Keys {
    prefix: Path,
}

impl Keys {
    /// Names under `prefix` (empty: the bucket's root).
    pub(crate) fn new(prefix: Path) -> Self {
        Self { prefix }
    }

    /// `PREFIX/layout.json`.
    pub(crate) fn layout(&self) -> Path {
        self.prefix.clone().join("layout.json")
    }

    /// A folder under the prefix (`BLOCKS`, `SIGS`, `INDEX`).
    pub(crate) fn folder(&self, folder: &str) -> Path {
        self.prefix.clone().join(folder)
    }

    /// `PREFIX/blocks/<slot>`.
    pub fn block(&self, slot: Slot) -> Path {
        self.folder(BLOCKS).join(slot_name(slot))
    }

    /// `PREFIX/sigs/<slot>`.
    pub fn sigs(&self, slot: Slot) -> Path {
        self.folder(SIGS).join(slot_name(slot))
    }

    /// `PREFIX/index/<range start>-<n slots>`.
    pub fn index(&self, range_start: Slot, n_slots: u32) -> Path {
        self.folder(INDEX)
            .join(format!("{}-{n_slots:08x}", slot_name(range_start)))
    }
}

/// 16 lowercase hex digits.
pub(crate) fn slot_name(slot: Slot) -> String {
    format!("{:016x}", slot.0)
}

/// The slot a `blocks/` or `sigs/` name stands for; `None` for a name this layout did not
/// write (such objects are ignored, never guessed at).
pub(crate) fn parse_slot_name(name: &str) -> Option<Slot> {
    if name.len() != 16
        || !name
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return None;
    }
    u64::from_str_radix(name, 16).ok().map(Slot)
}

/// `(range start, n slots)` of an `index/` name.
pub(crate) fn parse_index_name(name: &str) -> Option<(Slot, u32)> {
    let (start, count) = name.split_once('-')?;
    if count.len() != 8
        || !count
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return None;
    }
    Some((
        parse_slot_name(start)?,
        u32::from_str_radix(count, 16).ok()?,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn slot_names_sort_as_slots(a: u64, b: u64) {
            prop_assert_eq!(slot_name(Slot(a)).cmp(&slot_name(Slot(b))), a.cmp(&b));
            prop_assert_eq!(parse_slot_name(&slot_name(Slot(a))), Some(Slot(a)));
        }

        #[test]
        fn index_names_round_trip(start: u64, n: u32) {
            let keys = Keys::new(Path::from("p"));
            let key = keys.index(Slot(start), n);
            prop_assert_eq!(parse_index_name(key.filename().unwrap_or_default()), Some((Slot(start), n)));
        }
    }

    #[test]
    fn foreign_names_are_not_slots() {
        for name in [
            "",
            "12",
            "000000000000000G",
            "00000000000000AA",
            "0000000000000000x",
        ] {
            assert_eq!(parse_slot_name(name), None, "{name}");
        }
        assert_eq!(parse_index_name("0000000000000000-0000000"), None);
        assert_eq!(parse_index_name("0000000000000000"), None);
    }

    #[test]
    fn names_sit_under_the_prefix() {
        let keys = Keys::new(Path::from("a/b"));
        assert_eq!(
            keys.block(Slot(255)).as_ref(),
            "a/b/blocks/00000000000000ff"
        );
        assert_eq!(keys.sigs(Slot(1)).as_ref(), "a/b/sigs/0000000000000001");
        assert_eq!(
            keys.index(Slot(4096), 3).as_ref(),
            "a/b/index/0000000000001000-00000003"
        );
        assert_eq!(Keys::new(Path::default()).layout().as_ref(), "layout.json");
    }
}
