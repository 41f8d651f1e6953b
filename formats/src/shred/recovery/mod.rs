//! Erasure recovery of one FEC set: from the shreds present, rebuild the missing
//! data shreds with Reed–Solomon, the way Agave and Firedancer do.
//!
//! - Shards are decoded with the `reed-solomon-erasure` crate Agave uses (GF(2^8), SIMD), so
//!   recovered bytes are bit-identical to Agave's.
//! - Merkle sets: the erasure shard of a data shred is `payload[64 .. 88 + capacity]`, of a
//!   code shred `payload[89 .. 89 + shard length]`; the chained root, the proof and the
//!   retransmitter signature are not erasure coded and are rebuilt: the chained root copied,
//!   the proof recomputed from the whole tree, the leader signature copied (all shreds of a set
//!   share it, it signs the root), and for resigned sets the retransmitter signature of the
//!   set put on. Every present shred must prove the set's root, and the tree over present and
//!   recovered shreds must give that root again; anything else rejects the whole set.
//! - Legacy sets: the erasure shard of a data shred is its zero-padded payload's first 1139
//!   bytes (signature included), of a code shred `payload[89..1228]`. There is no root: see
//!   [`recover_fec_set_with`] for what is and is not detected.
//! - Code shards sit at `num_data + index − c`, `c` the set's first code index as its code
//!   shreds read it ([`FirstCodeIndex`]: legacy shreds of Solana 1.7 and early 1.8 leaders state
//!   position 0 and are placed by index).
//!
//! The functions are pure: the caller (the store's insert path) gives the shreds it holds of
//! one set and stores what comes back.

mod defect;
mod first_code;
mod legacy_set;
mod merkle_set;
mod shards;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use reed_solomon_erasure::galois_8::ReedSolomon;

pub use defect::RecoveryDefect;
pub use first_code::FirstCodeIndex;

use super::parse::ShredRef;
use super::variant::ShredVariant;
use crate::error::FormatError;
use crate::types::{Pubkey, Signature, Slot};

/// The shreds recovery rebuilt: stored payloads, each list in index order. Shreds that were
/// given are never returned.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RecoveredSet {
    /// Missing data shreds: 1203 bytes (Merkle) or trimmed to `size` (legacy).
    pub data: Vec<Vec<u8>>,
    /// Missing code shreds of Merkle sets (1228 bytes). Always empty for legacy sets: each
    /// legacy code shred carries its own leader signature, which cannot be rebuilt.
    pub code: Vec<Vec<u8>>,
}

/// Optional checks and inputs of [`recover_fec_set_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RecoverOptions {
    /// The slot leader: Merkle sets check its signature of the root once; legacy sets check
    /// every recovered data shred's (recovered) signature.
    pub leader: Option<Pubkey>,
    /// Resigned sets: the retransmitter signature to put on recovered shreds (a node that
    /// resigns what it receives passes its own). Default: the one carried by the present code
    /// shred with the highest position, as Agave does.
    pub retransmitter_signature: Option<Signature>,
    /// Resigned sets: when given, the retransmitter signature put on recovered shreds must
    /// verify for the set's root under this key.
    pub retransmitter: Option<Pubkey>,
}

/// [`recover_fec_set_with`] with no optional checks.
pub fn recover_fec_set(shreds: &[ShredRef<'_>]) -> crate::Result<RecoveredSet> {
    recover_fec_set_with(shreds, &RecoverOptions::default())
}

/// Rebuilds the missing shreds of one FEC set from `shreds` (any order; exact duplicates are
/// ignored). Needs at least one code shred and at least `num_data` distinct shreds. When no
/// data shred is missing nothing is decoded and the result is empty.
///
/// Errors (`FormatError::Recovery` naming slot, fec_set_index and a [`RecoveryDefect`]): too
/// few shreds, shreds of another set, inconsistent variants or coding headers, conflicting
/// shreds at one position, and for Merkle sets a differing leader signature, a present shred
/// not proving the set's root, a recovered shred with a header unlike the set's or a rebuilt
/// root unlike the set's. With `options.leader`, a signature that does not verify. Code
/// shreds sharing no first code index reading are `CodeHeaderMismatch`; a lone legacy code
/// shred whose two readings both rebuild valid, different shreds is `AmbiguousCodePosition`.
///
/// Legacy sets have no root. Without the leader's key a corrupted code shred is detected only
/// when the wrong bytes reach a recovered shred's common or data header (checked against the
/// set and validated) or its zero padding after `size`; wrong bytes inside the data of a
/// recovered shred are not detectable. With `options.leader` every recovered legacy shred's
/// signature (itself recovered, covering the whole zero-padded payload) is verified, so a
/// wrong shred is rejected.
pub fn recover_fec_set_with(
    shreds: &[ShredRef<'_>],
    options: &RecoverOptions,
) -> crate::Result<RecoveredSet> {
    let (slot, fec_set_index) = shreds
        .first()
        .map_or((Slot(0), 0), |s| (s.slot(), s.fec_set_index()));
    recover_inner(shreds, options).map_err(|defect| FormatError::Recovery {
        slot,
        fec_set_index,
        defect,
    })
}

fn recover_inner(
    shreds: &[ShredRef<'_>],
    options: &RecoverOptions,
) -> Result<RecoveredSet, RecoveryDefect> {
    let readings = shards::set_readings(shreds)?;
    let stated = recover_as(shreds, readings.stated(), options);
    let Some(positionless) = readings.positionless() else {
        return stated;
    };
    // One legacy code shred stating position 0 away from its set's index: it was made by a
    // leader that did not write positions (placed by index) or by one that did (placed at
    // 0). Both are decoded; a reading whose recovered shreds fail the checks is dropped, and
    // two readings that give different shreds refuse the set.
    match (stated, recover_as(shreds, positionless, options)) {
        (Ok(a), Ok(b)) if a == b => Ok(a),
        (Ok(_), Ok(_)) => Err(RecoveryDefect::AmbiguousCodePosition {
            index: readings.stated(),
        }),
        (Ok(a), Err(_)) | (Err(_), Ok(a)) => Ok(a),
        (Err(e), Err(_)) => Err(e),
    }
}

/// Recovery when the set's first code index is `first_code_index`.
fn recover_as(
    shreds: &[ShredRef<'_>],
    first_code_index: u32,
    options: &RecoverOptions,
) -> Result<RecoveredSet, RecoveryDefect> {
    let set = shards::SetLayout::analyse(shreds, first_code_index)?;
    if set.missing_data() == 0 {
        return Ok(RecoveredSet::default());
    }
    set.check_enough()?;
    match set.variant {
        ShredVariant::LegacyData | ShredVariant::LegacyCode => legacy_set::recover(&set, options),
        ShredVariant::MerkleData { .. } | ShredVariant::MerkleCode { .. } => {
            merkle_set::recover(&set, options)
        }
    }
}

/// Most decoders kept; past it the cache starts over (shapes come from received headers, so
/// their number is bounded only by what senders choose).
const MAX_CACHED_DECODERS: usize = 64;

type DecoderCache = Mutex<HashMap<(usize, usize), Arc<ReedSolomon>>>;

/// A shared decoder for a shape. Building one inverts a `num_data`-square matrix, so decoders
/// are kept across calls (the crate also caches its decode matrices per erasure pattern).
pub(crate) fn decoder(
    num_data: usize,
    num_code: usize,
) -> Result<Arc<ReedSolomon>, RecoveryDefect> {
    static CACHE: OnceLock<DecoderCache> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    // A panic while holding the lock cannot leave the map inconsistent (insert is atomic
    // from our view), so a poisoned lock is still usable.
    let mut map = cache.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(rs) = map.get(&(num_data, num_code)) {
        return Ok(Arc::clone(rs));
    }
    let rs = Arc::new(ReedSolomon::new(num_data, num_code).map_err(rs_error)?);
    if map.len() >= MAX_CACHED_DECODERS {
        map.clear();
    }
    map.insert((num_data, num_code), Arc::clone(&rs));
    Ok(rs)
}

pub(crate) fn rs_error(e: reed_solomon_erasure::Error) -> RecoveryDefect {
    use reed_solomon_erasure::Error as E;
    RecoveryDefect::ReedSolomon(match e {
        E::TooFewShards => "too few shards",
        E::TooManyShards => "too many shards",
        E::TooFewDataShards => "too few data shards",
        E::TooManyDataShards => "too many data shards",
        E::TooFewParityShards => "too few parity shards",
        E::TooManyParityShards => "too many parity shards",
        E::TooFewBufferShards => "too few buffer shards",
        E::TooManyBufferShards => "too many buffer shards",
        E::IncorrectShardSize => "shards differ in size",
        E::TooFewShardsPresent => "too few shards present",
        E::EmptyShard => "empty shard",
        E::InvalidShardFlags => "invalid shard flags",
        E::InvalidIndex => "invalid shard index",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shred::erasure::Encoder;

    /// The shredder's own encoder and the decoder's crate must be the same code, or recovered
    /// shards would not match the parity a leader computed.
    #[test]
    fn shredder_parity_equals_the_crate_parity() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        };
        for (num_data, num_code) in [(1, 1), (5, 20), (7, 21), (32, 32), (34, 34), (67, 189)] {
            let data: Vec<Vec<u8>> = (0..num_data)
                .map(|_| (0..1039).map(|_| next()).collect())
                .collect();
            let refs: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
            let ours = Encoder::new(num_data, num_code).expect("shape");
            let mut parity = vec![vec![0u8; 1039]; num_code];
            let mut outs: Vec<&mut [u8]> = parity.iter_mut().map(Vec::as_mut_slice).collect();
            ours.encode(&refs, &mut outs);
            let mut theirs: Vec<Vec<u8>> = data.clone();
            theirs.extend(std::iter::repeat_n(vec![0u8; 1039], num_code));
            decoder(num_data, num_code)
                .expect("shape")
                .encode(&mut theirs)
                .expect("encodes");
            assert_eq!(&theirs[num_data..], &parity[..], "{num_data}:{num_code}");
        }
    }

    #[test]
    fn empty_input_is_refused_with_a_reason() {
        let err = recover_fec_set(&[]).expect_err("nothing to recover from");
        assert!(err.to_string().contains("no shreds given"), "{err}");
    }
}
