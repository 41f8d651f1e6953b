//! The shape of one FEC set as its shreds describe it, and where each shred's erasure shard
//! lies. `SetLayout::analyse` is the only place that decides whether the given shreds form
//! one consistent set; the decoders rely on what it established.

use super::defect::RecoveryDefect;
use super::first_code::FirstCodeIndex;
use crate::shred::layout::{
    CODE_PAYLOAD_LEN, SIZE_OF_CODE_HEADERS, SIZE_OF_SIGNATURE, merkle_shard_len,
};
use crate::shred::merkle::proof_size_for;
use crate::shred::parse::ShredRef;
use crate::shred::variant::{ShredKind, ShredVariant};

/// Erasure shard length of a legacy set: the code payload after its headers (1139 bytes);
/// a data shred contributes its zero-padded payload's first 1139 bytes.
pub(crate) const LEGACY_SHARD_LEN: usize = CODE_PAYLOAD_LEN - SIZE_OF_CODE_HEADERS;

/// Shards an FEC set may have in GF(2^8).
const MAX_SHARDS: usize = 256;

/// One consistent FEC set. Invariants after `analyse`: every shred in `present` has the set's
/// slot, version and fec_set_index, the set's family (legacy, or Merkle with the same proof
/// size / chained / resigned bits), sits at its own erasure position, and code shreds agree on
/// `num_data`, `num_code` and admit `first_code_index` as one of their readings
/// (`first_code.rs`); `num_data + num_code ≤ 256`; for Merkle
/// sets the proof size is ⌈log2(num_data + num_code)⌉.
#[derive(Debug)]
pub(crate) struct SetLayout<'a> {
    /// The family: the variant of `last_code`.
    pub variant: ShredVariant,
    pub slot: u64,
    pub version: u16,
    pub fec_set_index: u32,
    pub num_data: usize,
    pub num_code: usize,
    /// Index of the set's first code shred (erasure position `num_data`): the reading of
    /// the set's code shreds this layout was built for.
    pub first_code_index: u32,
    /// `(proof_size, chained, resigned)` of a Merkle set; `None` for legacy.
    pub merkle: Option<(u8, bool, bool)>,
    /// Erasure shard length (the same for every shred of the set).
    pub shard_len: usize,
    /// Present shreds by erasure position: data `0..num_data`, then code.
    pub present: Vec<Option<ShredRef<'a>>>,
    /// The present code shred with the highest position (Agave takes the set's headers,
    /// root and retransmitter signature from it).
    pub last_code: ShredRef<'a>,
}

impl<'a> SetLayout<'a> {
    /// The set as `shreds` describe it when its first code index is `first_code_index` (one
    /// of the readings [`set_readings`] leaves).
    pub(crate) fn analyse(
        shreds: &[ShredRef<'a>],
        first_code_index: u32,
    ) -> Result<Self, RecoveryDefect> {
        let first = shreds.first().ok_or(RecoveryDefect::NoShreds)?;
        let last_code = shreds
            .iter()
            .filter(|s| s.kind() == ShredKind::Code)
            .max_by_key(|s| s.position())
            .copied()
            .ok_or(RecoveryDefect::NoCodeShred)?;
        let code_index = last_code.index().0;
        let n = |v: Option<u16>| usize::from(v.unwrap_or_default());
        let (num_data, num_code) = (n(last_code.num_data()), n(last_code.num_code()));
        if num_data + num_code > MAX_SHARDS {
            return Err(RecoveryDefect::UnsupportedShape {
                num_data: last_code.num_data().unwrap_or_default(),
                num_code: last_code.num_code().unwrap_or_default(),
            });
        }
        let merkle = last_code.variant().merkle();
        let shard_len = match merkle {
            Some((proof_size, chained, resigned)) => {
                if proof_size != proof_size_for(num_data + num_code) {
                    return Err(RecoveryDefect::VariantMismatch { index: code_index });
                }
                merkle_shard_len(proof_size, chained, resigned)
            }
            None => LEGACY_SHARD_LEN,
        };
        let mut set = SetLayout {
            variant: last_code.variant(),
            slot: first.slot().0,
            version: first.version(),
            fec_set_index: first.fec_set_index(),
            num_data,
            num_code,
            first_code_index,
            merkle,
            shard_len,
            present: vec![None; num_data + num_code],
            last_code,
        };
        for shred in shreds {
            let position = set.position_of(shred)?;
            // `position_of` bounds the position below num_data + num_code.
            let Some(slot) = set.present.get_mut(position) else {
                return Err(RecoveryDefect::OutsideSet {
                    index: shred.index().0,
                });
            };
            match slot {
                None => *slot = Some(*shred),
                Some(held) => {
                    if shard_bytes(held, shard_len) != shard_bytes(shred, shard_len) {
                        return Err(RecoveryDefect::ConflictingShreds {
                            index: shred.index().0,
                        });
                    }
                }
            }
        }
        Ok(set)
    }

    /// Checks one shred against the set and returns its erasure position.
    fn position_of(&self, shred: &ShredRef<'_>) -> Result<usize, RecoveryDefect> {
        let index = shred.index().0;
        if shred.slot().0 != self.slot
            || shred.version() != self.version
            || shred.fec_set_index() != self.fec_set_index
        {
            return Err(RecoveryDefect::ForeignShred { index });
        }
        if shred.variant().merkle() != self.merkle {
            return Err(RecoveryDefect::VariantMismatch { index });
        }
        match shred.kind() {
            ShredKind::Data => {
                // parse checked fec_set_index ≤ index.
                let position = (index - self.fec_set_index) as usize;
                if position >= self.num_data {
                    return Err(RecoveryDefect::OutsideSet { index });
                }
                Ok(position)
            }
            ShredKind::Code => {
                let num_data = shred.num_data().map(usize::from);
                let num_code = shred.num_code().map(usize::from);
                let admitted =
                    FirstCodeIndex::of(shred).is_some_and(|r| r.admits(self.first_code_index));
                if num_data != Some(self.num_data) || num_code != Some(self.num_code) || !admitted {
                    return Err(RecoveryDefect::CodeHeaderMismatch { index });
                }
                // An admitted reading puts the shred inside the set's code range.
                FirstCodeIndex::erasure_position(
                    index,
                    self.first_code_index,
                    self.num_data,
                    self.num_code,
                )
                .ok_or(RecoveryDefect::CodeHeaderMismatch { index })
            }
        }
    }

    /// Distinct shreds present.
    pub(crate) fn present_count(&self) -> usize {
        self.present.iter().flatten().count()
    }

    /// Data shreds missing.
    pub(crate) fn missing_data(&self) -> usize {
        self.present
            .iter()
            .take(self.num_data)
            .filter(|s| s.is_none())
            .count()
    }

    /// Error unless at least `num_data` distinct shreds are present.
    pub(crate) fn check_enough(&self) -> Result<(), RecoveryDefect> {
        let present = self.present_count();
        if present < self.num_data {
            return Err(RecoveryDefect::TooFewShreds {
                present,
                needed: self.num_data,
            });
        }
        Ok(())
    }
}

/// The first code index readings all code shreds of the set admit (shreds of another slot,
/// version or set are left to `analyse` to refuse). Two readings remain only when a single
/// code shred is present, legacy, stating position 0 away from its set's index.
pub(crate) fn set_readings(shreds: &[ShredRef<'_>]) -> Result<FirstCodeIndex, RecoveryDefect> {
    let first = shreds.first().ok_or(RecoveryDefect::NoShreds)?;
    let same_set = |s: &&ShredRef<'_>| {
        s.slot() == first.slot()
            && s.version() == first.version()
            && s.fec_set_index() == first.fec_set_index()
    };
    let mut set: Option<FirstCodeIndex> = None;
    for shred in shreds.iter().filter(same_set) {
        let Some(readings) = FirstCodeIndex::of(shred) else {
            continue;
        };
        let narrowed = match set {
            None => Some(readings),
            Some(set) => set.narrow(&readings),
        };
        set = Some(narrowed.ok_or(RecoveryDefect::CodeHeaderMismatch {
            index: shred.index().0,
        })?);
    }
    set.ok_or(RecoveryDefect::NoCodeShred)
}

/// The bytes of `shred` that take part in erasure coding, as stored: Merkle data
/// `payload[64 .. 64 + shard_len]`, Merkle code and legacy code `payload[89 .. 89 +
/// shard_len]`, legacy data its whole (trimmed) payload, which is zero-padded to `shard_len`
/// by `copy_shard`. Short payloads give a short slice, never a panic.
pub(crate) fn shard_bytes<'a>(shred: &ShredRef<'a>, shard_len: usize) -> &'a [u8] {
    let payload = shred.payload();
    let start = match shred.variant() {
        ShredVariant::LegacyData => return payload.get(..shard_len).unwrap_or(payload),
        ShredVariant::MerkleData { .. } => SIZE_OF_SIGNATURE,
        ShredVariant::MerkleCode { .. } | ShredVariant::LegacyCode => SIZE_OF_CODE_HEADERS,
    };
    payload
        .get(start..start + shard_len)
        .or_else(|| payload.get(start.min(payload.len())..))
        .unwrap_or_default()
}

/// An owned copy of `shred`'s shard, zero-padded to `shard_len`.
pub(crate) fn copy_shard(shred: &ShredRef<'_>, shard_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; shard_len];
    let bytes = shard_bytes(shred, shard_len);
    let n = bytes.len().min(shard_len);
    out[..n].copy_from_slice(&bytes[..n]);
    out
}
