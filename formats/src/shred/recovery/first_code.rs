//! Where a code shred sits in its FEC set (`docs/formats-shreds.md#code-shred-positions`).
//!
//! A set's code shreds have consecutive indexes from the set's *first code index* `c`; the
//! code shred at index `i` is erasure shard `num_data + (i − c)`. The coding header states
//! `position = i − c`, but not every leader wrote it:
//!
//! - Solana 1.7 and early 1.8 (1.8.5 still) serialized the field unused, always 0,
//!   numbered a set's code shreds `fec_set_index + k`, and placed them by index
//!   (`num_data + index − fec_set_index`), never by the field.
//! - Later 1.8 (1.8.9 already) wrote `position = k` and still placed by index; from 1.9
//!   the position is read from the header and the first code index is `index − position`.
//!
//! So a legacy code shred stating position 0 has two readings of `c` when its index is not
//! its `fec_set_index`: the *stated* one (`index`, as 1.9 and later read it) and the
//! *positionless* one (`fec_set_index`, as its 1.7 leader meant it). Both are kept until the
//! set's other code shreds rule one out; two shreds of one set contradict each other only
//! when no reading is common to both. Merkle code shreds were never positionless.

use crate::shred::parse::ShredRef;
use crate::shred::variant::ShredVariant;

/// The readings of a code shred's first code index, or of a whole set's (the readings every
/// one of its code shreds admits). Invariant: `positionless`, when set, differs from
/// `stated`, so one reading is never counted twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FirstCodeIndex {
    /// `index − position` as the coding header states it.
    stated: u32,
    /// `fec_set_index`, for a legacy code shred stating position 0 whose index lies in
    /// `fec_set_index + 1 .. fec_set_index + num_code`.
    positionless: Option<u32>,
}

impl FirstCodeIndex {
    /// The readings of a code shred; `None` for a data shred. `parse` guarantees
    /// `position ≤ index`, so the stated reading exists.
    pub fn of(shred: &ShredRef<'_>) -> Option<Self> {
        let (position, num_code) = (shred.position()?, shred.num_code()?);
        let index = shred.index().0;
        let stated = index.checked_sub(u32::from(position))?;
        let fec = shred.fec_set_index();
        let positionless = (shred.variant() == ShredVariant::LegacyCode
            && position == 0
            && index > fec
            && index - fec < u32::from(num_code))
        .then_some(fec);
        Some(Self {
            stated,
            positionless,
        })
    }

    /// A single, certain reading.
    pub fn exactly(first_code_index: u32) -> Self {
        Self {
            stated: first_code_index,
            positionless: None,
        }
    }

    /// The reading the coding header states.
    pub fn stated(&self) -> u32 {
        self.stated
    }

    /// The other reading, when the shred (or set) may be positionless.
    pub fn positionless(&self) -> Option<u32> {
        self.positionless
    }

    /// Whether `first_code_index` is one of the readings.
    pub fn admits(&self, first_code_index: u32) -> bool {
        self.stated == first_code_index || self.positionless == Some(first_code_index)
    }

    /// The readings, stated first.
    pub fn readings(&self) -> impl Iterator<Item = u32> + use<> {
        std::iter::once(self.stated).chain(self.positionless)
    }

    /// More than one reading is still possible.
    pub fn is_ambiguous(&self) -> bool {
        self.positionless.is_some()
    }

    /// The readings both admit; `None` when they have none in common (the two shreds, or
    /// the shred and the set, cannot be of one honest FEC set).
    pub fn narrow(&self, other: &Self) -> Option<Self> {
        let mut common = self.readings().filter(|&c| other.admits(c));
        let first = common.next()?;
        Some(Self {
            stated: first,
            positionless: common.next(),
        })
    }

    /// The two have a reading in common.
    pub fn agrees_with(&self, other: &Self) -> bool {
        self.narrow(other).is_some()
    }

    /// The erasure position (`num_data + index − c`) of the code shred at `index` when the
    /// set's first code index is `c`; `None` unless `c ≤ index < c + num_code`.
    pub fn erasure_position(index: u32, c: u32, num_data: usize, num_code: usize) -> Option<usize> {
        let k = usize::try_from(index.checked_sub(c)?).ok()?;
        (k < num_code).then_some(num_data + k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(variant: u8, index: u32, fec: u32, num_code: u16, position: u16) -> Vec<u8> {
        let mut buf = vec![0u8; 1228];
        buf[64] = variant;
        buf[65..73].copy_from_slice(&7u64.to_le_bytes());
        buf[73..77].copy_from_slice(&index.to_le_bytes());
        buf[79..83].copy_from_slice(&fec.to_le_bytes());
        buf[83..85].copy_from_slice(&32u16.to_le_bytes());
        buf[85..87].copy_from_slice(&num_code.to_le_bytes());
        buf[87..89].copy_from_slice(&position.to_le_bytes());
        buf
    }

    fn readings(payload: &[u8]) -> FirstCodeIndex {
        let shred = ShredRef::parse(payload).expect("valid code shred");
        FirstCodeIndex::of(&shred).expect("a code shred")
    }

    #[test]
    fn position_zero_legacy_shreds_read_both_ways() {
        // 1.7: set 64, code shred 69 stating position 0.
        let r = readings(&code(0x5A, 69, 64, 32, 0));
        assert_eq!(r.readings().collect::<Vec<_>>(), vec![69, 64]);
        // At the set's own index both readings coincide.
        assert!(!readings(&code(0x5A, 64, 64, 32, 0)).is_ambiguous());
        // Past the set's num_code, or a stated position: one reading.
        assert!(!readings(&code(0x5A, 96, 64, 32, 0)).is_ambiguous());
        assert_eq!(
            readings(&code(0x5A, 69, 64, 32, 5)),
            FirstCodeIndex::exactly(64)
        );
        // Merkle code shreds always state their position.
        assert_eq!(
            readings(&code(0x46, 69, 64, 32, 0)),
            FirstCodeIndex::exactly(69)
        );
    }

    #[test]
    fn two_positionless_shreds_agree_on_the_set_index_only() {
        let a = readings(&code(0x5A, 69, 64, 32, 0));
        let b = readings(&code(0x5A, 71, 64, 32, 0));
        assert_eq!(a.narrow(&b), Some(FirstCodeIndex::exactly(64)));
        // A shred stating position 2 at 71 puts the set at 69: it agrees with `a` (stated)
        // but not with `b`, whatever the era.
        let c = readings(&code(0x5A, 71, 64, 32, 2));
        assert_eq!(a.narrow(&c), Some(FirstCodeIndex::exactly(69)));
        assert!(!b.agrees_with(&c));
    }

    #[test]
    fn erasure_positions_stay_inside_the_set() {
        assert_eq!(FirstCodeIndex::erasure_position(69, 64, 32, 32), Some(37));
        assert_eq!(FirstCodeIndex::erasure_position(63, 64, 32, 32), None);
        assert_eq!(FirstCodeIndex::erasure_position(96, 64, 32, 32), None);
    }
}
