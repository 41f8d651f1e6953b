//! Which shreds of stream files an `insert` takes, and the `A..B` slot range syntax.

use std::ops::RangeInclusive;
use std::str::FromStr;

use crate::error::Error;

/// `--select`. Parity is the parity of the shred's own index within its kind: data shreds
/// by data index, code shreds by code index (Agave's shredder numbers a slot's code shreds
/// 0, 1, 2, ... independently of its data shreds). So `even` and `odd` split every slot's
/// data shreds and its code shreds each into two disjoint halves whose union is the slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Select {
    All,
    Even,
    Odd,
    Data,
    Code,
}

impl Select {
    pub fn takes(self, is_data: bool, index: u32) -> bool {
        match self {
            Select::All => true,
            Select::Even => index.is_multiple_of(2),
            Select::Odd => !index.is_multiple_of(2),
            Select::Data => is_data,
            Select::Code => !is_data,
        }
    }
}

/// `A..B` (B excluded, as in Rust) or `A..=B` (B included).
#[derive(Debug, Clone)]
pub struct SlotRange(pub RangeInclusive<u64>);

impl FromStr for SlotRange {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = || Error::new(format!("slot range {s:?}: expected A..B or A..=B"));
        let (start, rest) = s.split_once("..").ok_or_else(bad)?;
        let start: u64 = start.trim().parse().map_err(|_| bad())?;
        let range = if let Some(end) = rest.strip_prefix('=') {
            start..=end.trim().parse().map_err(|_| bad())?
        } else {
            let end: u64 = rest.trim().parse().map_err(|_| bad())?;
            if end <= start {
                return Err(Error::new(format!("slot range {s:?} is empty")));
            }
            start..=end - 1
        };
        if range.is_empty() {
            return Err(Error::new(format!("slot range {s:?} is empty")));
        }
        Ok(SlotRange(range))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_parse_half_open_and_inclusive() {
        assert_eq!(SlotRange::from_str("3..5").map(|r| r.0).ok(), Some(3..=4));
        assert_eq!(SlotRange::from_str("3..=5").map(|r| r.0).ok(), Some(3..=5));
        assert!(SlotRange::from_str("5..5").is_err());
        assert!(SlotRange::from_str("x..5").is_err());
        assert!(SlotRange::from_str("7").is_err());
    }

    #[test]
    fn even_and_odd_partition_each_kind() {
        for is_data in [true, false] {
            for index in 0..64 {
                assert_ne!(
                    Select::Even.takes(is_data, index),
                    Select::Odd.takes(is_data, index)
                );
            }
        }
    }
}
