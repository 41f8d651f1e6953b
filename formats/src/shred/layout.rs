//! Byte layout of shreds (`docs/formats-shreds.md#shreds-on-the-wire`): sizes, header offsets,
//! per-variant capacities and the
//! offsets of the Merkle trailer. Every reader here is bounds-checked: a short slice gives
//! `None`, never a panic.

/// Highest number of data (or code) shreds in one slot; valid indices are below it.
pub const MAX_SHREDS_PER_SLOT: u32 = 32_768;
/// Ed25519 signature at the start of every shred.
pub const SIZE_OF_SIGNATURE: usize = 64;
/// Common header: signature, variant, slot, index, version, fec_set_index.
pub const SIZE_OF_COMMON_HEADER: usize = 83;
/// Common header + data header (parent_offset, flags, size).
pub const SIZE_OF_HEADERS: usize = 88;
/// Common header + coding header (num_data, num_code, position).
pub const SIZE_OF_CODE_HEADERS: usize = 89;
/// Payload of a Merkle data shred (what is stored; packets may carry more after it).
pub const MERKLE_DATA_PAYLOAD_LEN: usize = 1203;
/// Payload of every code shred, and the full (untrimmed) payload of a legacy data shred.
pub const CODE_PAYLOAD_LEN: usize = 1228;
/// Data bytes a legacy data shred can carry.
pub const LEGACY_DATA_CAPACITY: usize = 1051;
/// Data flag: the shred ends a data set.
pub const FLAG_DATA_COMPLETE: u8 = 0x40;
/// Data flags: the shred is the slot's last (always includes `FLAG_DATA_COMPLETE`).
pub const FLAG_LAST_IN_SLOT: u8 = 0xC0;
/// Bits 0–5 of the data flags: the reference tick.
pub const REFERENCE_TICK_MASK: u8 = 0x3F;
/// Root of the previous FEC set, carried by chained shreds.
pub const SIZE_OF_MERKLE_ROOT: usize = 32;
/// One Merkle proof entry: the first 20 bytes of a sibling node.
pub const SIZE_OF_MERKLE_PROOF_ENTRY: usize = 20;

// Common header offsets (`docs/formats-shreds.md#common-header`).
pub(crate) const OFFSET_VARIANT: usize = 64;
pub(crate) const OFFSET_SLOT: usize = 65;
pub(crate) const OFFSET_INDEX: usize = 73;
pub(crate) const OFFSET_VERSION: usize = 77;
pub(crate) const OFFSET_FEC_SET_INDEX: usize = 79;
// Data header offsets (`docs/formats-shreds.md#data-header`).
pub(crate) const OFFSET_PARENT_OFFSET: usize = 83;
pub(crate) const OFFSET_FLAGS: usize = 85;
pub(crate) const OFFSET_SIZE: usize = 86;
// Coding header offsets: three u16 LE right after the common header.
pub(crate) const OFFSET_NUM_DATA: usize = 83;
pub(crate) const OFFSET_NUM_CODE: usize = 85;
pub(crate) const OFFSET_POSITION: usize = 87;

/// Bytes the Merkle trailer takes from a payload: chained root, proof, retransmitter
/// signature. At most 32 + 15·20 + 64 = 396, so it always fits both payload sizes.
pub(crate) const fn merkle_trailer_len(proof_size: u8, chained: bool, resigned: bool) -> usize {
    let chained = if chained { SIZE_OF_MERKLE_ROOT } else { 0 };
    let resigned = if resigned { SIZE_OF_SIGNATURE } else { 0 };
    chained + proof_size as usize * SIZE_OF_MERKLE_PROOF_ENTRY + resigned
}

/// Data capacity of a Merkle data shred (`docs/formats-shreds.md#payload-sizes-and-capacity`): 1203
/// − 88 − trailer.
pub(crate) const fn merkle_data_capacity(proof_size: u8, chained: bool, resigned: bool) -> usize {
    MERKLE_DATA_PAYLOAD_LEN - SIZE_OF_HEADERS - merkle_trailer_len(proof_size, chained, resigned)
}

/// Length of the erasure shard of a Merkle set. Data shards are `payload[64 .. 88 + capacity]`,
/// code shards `payload[89 .. 89 + shard_len]`; both are 1228 − 89 − trailer bytes long.
pub(crate) const fn merkle_shard_len(proof_size: u8, chained: bool, resigned: bool) -> usize {
    CODE_PAYLOAD_LEN - SIZE_OF_CODE_HEADERS - merkle_trailer_len(proof_size, chained, resigned)
}

/// Offsets of the Merkle trailer inside a payload of `payload_len` bytes (1203 data, 1228
/// code). The trailer is the payload's tail: `[chained root][proof][retransmitter sig]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MerkleOffsets {
    /// Start of the chained root (meaningful only for chained variants); equals `proof` when
    /// not chained.
    pub chained_root: usize,
    /// Start of the proof: the leaf hashes `payload[64 .. proof]`.
    pub proof: usize,
    /// Start of the retransmitter signature; equals the payload end when not resigned.
    pub retransmitter: usize,
}

pub(crate) const fn merkle_offsets(
    payload_len: usize,
    proof_size: u8,
    chained: bool,
    resigned: bool,
) -> MerkleOffsets {
    let retransmitter = payload_len - if resigned { SIZE_OF_SIGNATURE } else { 0 };
    let proof = retransmitter - proof_size as usize * SIZE_OF_MERKLE_PROOF_ENTRY;
    let chained_root = proof - if chained { SIZE_OF_MERKLE_ROOT } else { 0 };
    MerkleOffsets {
        chained_root,
        proof,
        retransmitter,
    }
}

pub(crate) fn read_u16(bytes: &[u8], at: usize) -> Option<u16> {
    let b = bytes.get(at..at.checked_add(2)?)?;
    Some(u16::from_le_bytes(b.try_into().ok()?))
}

pub(crate) fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(b.try_into().ok()?))
}

pub(crate) fn read_u64(bytes: &[u8], at: usize) -> Option<u64> {
    let b = bytes.get(at..at.checked_add(8)?)?;
    Some(u64::from_le_bytes(b.try_into().ok()?))
}

pub(crate) fn read_array<const N: usize>(bytes: &[u8], at: usize) -> Option<[u8; N]> {
    bytes.get(at..at.checked_add(N)?)?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_match_spec() {
        assert_eq!(merkle_data_capacity(6, false, false), 995);
        assert_eq!(merkle_data_capacity(6, true, false), 963);
        assert_eq!(merkle_data_capacity(6, true, true), 899);
        // Data shard (64..88+cap) and code shard have the same length.
        for p in 0..16 {
            for (c, r) in [(false, false), (true, false), (true, true)] {
                assert_eq!(
                    SIZE_OF_HEADERS + merkle_data_capacity(p, c, r) - SIZE_OF_SIGNATURE,
                    merkle_shard_len(p, c, r)
                );
                let d = merkle_offsets(MERKLE_DATA_PAYLOAD_LEN, p, c, r);
                assert_eq!(
                    d.chained_root,
                    SIZE_OF_HEADERS + merkle_data_capacity(p, c, r)
                );
                let k = merkle_offsets(CODE_PAYLOAD_LEN, p, c, r);
                assert_eq!(
                    k.chained_root,
                    SIZE_OF_CODE_HEADERS + merkle_shard_len(p, c, r)
                );
            }
        }
    }

    #[test]
    fn readers_are_bounds_checked() {
        assert_eq!(read_u16(&[1, 2], 0), Some(0x0201));
        assert_eq!(read_u16(&[1, 2], 1), None);
        assert_eq!(read_u32(&[0; 3], 0), None);
        assert_eq!(read_u64(&[0; 8], usize::MAX), None);
        assert_eq!(read_array::<2>(&[7, 8, 9], 1), Some([8, 9]));
    }
}
