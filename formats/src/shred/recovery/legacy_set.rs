//! Recovery of a legacy FEC set. Each legacy data shred is signed on its own and its
//! signature is part of its erasure shard, so a recovered data shred is complete once its
//! shard is decoded: nothing is copied from other shreds. There is no root to check: a
//! recovered shred is accepted when its headers are the set's and validate, its bytes after
//! `size` are zero (leaders zero-pad), and, when the caller gives the leader's key, its
//! recovered signature verifies.

use super::defect::RecoveryDefect;
use super::shards::{SetLayout, copy_shard};
use super::{RecoverOptions, RecoveredSet, decoder, rs_error};
use crate::shred::layout::{
    OFFSET_FEC_SET_INDEX, OFFSET_INDEX, OFFSET_SLOT, OFFSET_VARIANT, OFFSET_VERSION, read_u16,
    read_u32, read_u64,
};
use crate::shred::parse::ShredRef;
use crate::shred::signature::verify_signature;
use crate::shred::variant::ShredVariant;

pub(super) fn recover(
    set: &SetLayout<'_>,
    options: &RecoverOptions,
) -> Result<RecoveredSet, RecoveryDefect> {
    // Present shards are lent as copies (the decoder wants owned, mutable shards); missing
    // ones are left `None` and only the data shards among them are rebuilt.
    let mut shards: Vec<Option<Vec<u8>>> = set
        .present
        .iter()
        .map(|s| s.map(|shred| copy_shard(&shred, set.shard_len)))
        .collect();
    decoder(set.num_data, set.num_code)?
        .reconstruct_data(&mut shards)
        .map_err(rs_error)?;

    let mut out = RecoveredSet::default();
    for (pos, shard) in shards.iter().enumerate().take(set.num_data) {
        if matches!(set.present.get(pos), Some(Some(_))) {
            continue;
        }
        // pos < num_data ≤ 256 and fec_set_index + num_data was validated by parse.
        let index = set.fec_set_index + pos as u32;
        let bytes = shard.as_deref().unwrap_or_default();
        let shred = check_recovered(set, index, bytes)?;
        if let Some(leader) = &options.leader {
            verify_signature(&shred, leader)
                .map_err(|_| RecoveryDefect::InvalidLeaderSignature { index })?;
        }
        // Stored legacy data is trimmed to `size` (what parse returns as the payload).
        out.data.push(shred.payload().to_vec());
    }
    Ok(out)
}

/// The decoded shard (the zero-padded payload's first 1139 bytes) as a validated shred of
/// this set at `index`.
fn check_recovered<'a>(
    set: &SetLayout<'_>,
    index: u32,
    bytes: &'a [u8],
) -> Result<ShredRef<'a>, RecoveryDefect> {
    let mismatch = |field| RecoveryDefect::RecoveredHeaderMismatch { index, field };
    if bytes.get(OFFSET_VARIANT).copied() != Some(ShredVariant::LegacyData.to_byte()) {
        return Err(mismatch("variant"));
    }
    if read_u64(bytes, OFFSET_SLOT) != Some(set.slot) {
        return Err(mismatch("slot"));
    }
    if read_u32(bytes, OFFSET_INDEX) != Some(index) {
        return Err(mismatch("index"));
    }
    if read_u16(bytes, OFFSET_VERSION) != Some(set.version) {
        return Err(mismatch("version"));
    }
    if read_u32(bytes, OFFSET_FEC_SET_INDEX) != Some(set.fec_set_index) {
        return Err(mismatch("fec_set_index"));
    }
    let shred = ShredRef::parse_inner(bytes)
        .map_err(|defect| RecoveryDefect::RecoveredShredInvalid { index, defect })?;
    let padding = bytes.get(shred.payload().len()..).unwrap_or_default();
    if padding.iter().any(|&b| b != 0) {
        return Err(RecoveryDefect::RecoveredPaddingNotZero { index });
    }
    Ok(shred)
}
