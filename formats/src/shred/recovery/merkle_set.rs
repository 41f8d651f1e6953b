//! Recovery of a Merkle FEC set. Order of checks, each rejecting the whole set:
//! 1. every present shred carries the set's leader signature and proves the set's root
//!    (the root the highest-position code shred proves);
//! 2. Reed–Solomon rebuilds every missing shard, data and code (the tree needs all leaves);
//! 3. each recovered data shred's header must be the set's (variant, slot, index, version,
//!    fec_set_index) and validate as a shred;
//! 4. the tree over present and recovered leaves must have the set's root; only then are
//!    proofs written and the shreds returned.

use ed25519_dalek::{Signature as DalekSignature, VerifyingKey};

use super::defect::RecoveryDefect;
use super::shards::{SetLayout, copy_shard};
use super::{RecoverOptions, RecoveredSet, decoder, rs_error};
use crate::shred::layout::{
    CODE_PAYLOAD_LEN, MERKLE_DATA_PAYLOAD_LEN, MerkleOffsets, OFFSET_FEC_SET_INDEX, OFFSET_INDEX,
    OFFSET_NUM_CODE, OFFSET_NUM_DATA, OFFSET_POSITION, OFFSET_SLOT, OFFSET_VARIANT, OFFSET_VERSION,
    SIZE_OF_CODE_HEADERS, SIZE_OF_MERKLE_ROOT, SIZE_OF_SIGNATURE, merkle_offsets, read_array,
    read_u16, read_u32, read_u64,
};
use crate::shred::merkle::{MerkleTree, leaf_hash, root_from_proof};
use crate::shred::parse::ShredRef;
use crate::shred::variant::ShredVariant;
use crate::types::Pubkey;

/// The parts of a Merkle set that are not erasure coded, taken from present shreds.
struct Trailer {
    /// Leaf of each present shred by erasure position (hashed once, reused by the tree).
    leaves: Vec<Option<[u8; 32]>>,
    signature: [u8; SIZE_OF_SIGNATURE],
    root: [u8; 32],
    chained_root: Option<[u8; SIZE_OF_MERKLE_ROOT]>,
    retransmitter: Option<[u8; SIZE_OF_SIGNATURE]>,
}

pub(super) fn recover(
    set: &SetLayout<'_>,
    options: &RecoverOptions,
) -> Result<RecoveredSet, RecoveryDefect> {
    let Some((proof_size, chained, resigned)) = set.merkle else {
        return Err(RecoveryDefect::VariantMismatch {
            index: set.last_code.index().0,
        });
    };
    let data_off = merkle_offsets(MERKLE_DATA_PAYLOAD_LEN, proof_size, chained, resigned);
    let code_off = merkle_offsets(CODE_PAYLOAD_LEN, proof_size, chained, resigned);
    let trailer = check_present(set, &data_off, &code_off, chained, resigned, options)?;

    // Missing positions get their full payload buffer, the shard decoded in place; present
    // positions lend the decoder a copy of their shard.
    let total = set.num_data + set.num_code;
    let shard = |pos: usize| {
        let start = if pos < set.num_data {
            SIZE_OF_SIGNATURE
        } else {
            SIZE_OF_CODE_HEADERS
        };
        start..start + set.shard_len
    };
    let mut bufs: Vec<Vec<u8>> = (0..total)
        .map(|pos| match set.present.get(pos).copied().flatten() {
            Some(shred) => copy_shard(&shred, set.shard_len),
            None if pos < set.num_data => vec![0u8; MERKLE_DATA_PAYLOAD_LEN],
            None => vec![0u8; CODE_PAYLOAD_LEN],
        })
        .collect();
    {
        let mut shards: Vec<(&mut [u8], bool)> = bufs
            .iter_mut()
            .enumerate()
            .map(|(pos, buf)| {
                let present = matches!(set.present.get(pos), Some(Some(_)));
                let range = if present {
                    0..set.shard_len
                } else {
                    shard(pos)
                };
                // Buffers are sized for their range; an empty slice would only make the
                // decoder return an error.
                (buf.get_mut(range).unwrap_or_default(), present)
            })
            .collect();
        decoder(set.num_data, set.num_code)?
            .reconstruct(&mut shards)
            .map_err(rs_error)?;
    }

    let data_variant = ShredVariant::MerkleData {
        proof_size,
        chained,
        resigned,
    };
    let code_variant = ShredVariant::MerkleCode {
        proof_size,
        chained,
        resigned,
    };
    let mut leaves = Vec::with_capacity(total);
    for (pos, buf) in bufs.iter_mut().enumerate() {
        let leaf = match set.present.get(pos).copied().flatten() {
            Some(_) => trailer.leaves.get(pos).copied().flatten(),
            None if pos < set.num_data => {
                finish_data(set, pos, buf, data_variant, &data_off, &trailer)?;
                buf.get(SIZE_OF_SIGNATURE..data_off.proof).map(leaf_hash)
            }
            None => {
                finish_code(
                    set,
                    pos - set.num_data,
                    buf,
                    code_variant,
                    &code_off,
                    &trailer,
                );
                buf.get(SIZE_OF_SIGNATURE..code_off.proof).map(leaf_hash)
            }
        };
        // Payload lengths were validated by parse / sized here, so the leaf range exists.
        leaves.push(leaf.ok_or(RecoveryDefect::RecoveredRootMismatch)?);
    }
    let tree = MerkleTree::new(leaves);
    if tree.root() != trailer.root {
        return Err(RecoveryDefect::RecoveredRootMismatch);
    }

    let mut out = RecoveredSet::default();
    for (pos, mut buf) in bufs.into_iter().enumerate() {
        if matches!(set.present.get(pos), Some(Some(_))) {
            continue;
        }
        let off = if pos < set.num_data {
            &data_off
        } else {
            &code_off
        };
        if let Some(proof) = buf.get_mut(off.proof..off.retransmitter) {
            tree.write_proof(pos, proof);
        }
        if pos < set.num_data {
            out.data.push(buf);
        } else {
            out.code.push(buf);
        }
    }
    Ok(out)
}

/// Step 1: the set's signature, root, chained root and retransmitter signature, after
/// checking every present shred against them (and the optional keys against the root).
fn check_present(
    set: &SetLayout<'_>,
    data_off: &MerkleOffsets,
    code_off: &MerkleOffsets,
    chained: bool,
    resigned: bool,
    options: &RecoverOptions,
) -> Result<Trailer, RecoveryDefect> {
    // Leaf and root of a present shred at `pos`, from its own proof.
    let leaf_and_root = |pos: usize, shred: &ShredRef<'_>| {
        let off = if pos < set.num_data {
            data_off
        } else {
            code_off
        };
        let payload = shred.payload();
        let leaf = payload.get(SIZE_OF_SIGNATURE..off.proof).map(leaf_hash);
        let proof = payload.get(off.proof..off.retransmitter);
        leaf.zip(proof)
            .and_then(|(leaf, proof)| Some((leaf, root_from_proof(leaf, pos, proof)?)))
            .ok_or(RecoveryDefect::InvalidProof {
                index: shred.index().0,
            })
    };
    let source = &set.last_code;
    let signature = source.signature().0;
    let (_, root) = leaf_and_root(source.erasure_position(), source)?;
    let mut leaves = vec![None; set.present.len()];
    for (pos, shred) in set.present.iter().enumerate() {
        let Some(shred) = shred else { continue };
        let index = shred.index().0;
        if shred.signature().0 != signature {
            return Err(RecoveryDefect::LeaderSignatureMismatch { index });
        }
        let (leaf, shred_root) = leaf_and_root(pos, shred)?;
        if shred_root != root {
            return Err(RecoveryDefect::MerkleRootMismatch { index });
        }
        if let Some(slot) = leaves.get_mut(pos) {
            *slot = Some(leaf);
        }
    }
    let payload = source.payload();
    let chained_root = chained
        .then(|| read_array(payload, code_off.chained_root))
        .flatten();
    let retransmitter = if resigned {
        let carried = read_array(payload, code_off.retransmitter);
        options.retransmitter_signature.map(|s| s.0).or(carried)
    } else {
        None
    };
    let index = source.index().0;
    if let Some(leader) = &options.leader
        && !verifies(leader, &signature, &root)
    {
        return Err(RecoveryDefect::InvalidLeaderSignature { index });
    }
    if let (Some(key), Some(sig)) = (&options.retransmitter, &retransmitter)
        && !verifies(key, sig, &root)
    {
        return Err(RecoveryDefect::InvalidRetransmitterSignature);
    }
    Ok(Trailer {
        leaves,
        signature,
        root,
        chained_root,
        retransmitter,
    })
}

/// Strict Ed25519, as Agave verifies shred signatures.
fn verifies(key: &Pubkey, signature: &[u8; SIZE_OF_SIGNATURE], message: &[u8]) -> bool {
    VerifyingKey::from_bytes(key.as_bytes()).is_ok_and(|k| {
        k.verify_strict(message, &DalekSignature::from_bytes(signature))
            .is_ok()
    })
}

/// Copies `bytes` to `buf[at..]`; buffers are sized by the layout, so it always fits.
fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    if let Some(dst) = buf.get_mut(at..at + bytes.len()) {
        dst.copy_from_slice(bytes);
    }
}

/// Step 3 for the data shred at `pos`: its decoded shard holds its common and data headers,
/// which must be the set's; then the parts that are not erasure coded are put on (the proof
/// comes last, from the verified tree).
fn finish_data(
    set: &SetLayout<'_>,
    pos: usize,
    buf: &mut [u8],
    variant: ShredVariant,
    off: &MerkleOffsets,
    trailer: &Trailer,
) -> Result<(), RecoveryDefect> {
    // pos < num_data ≤ 256 and fec_set_index + num_data was validated by parse.
    let index = set.fec_set_index + pos as u32;
    let mismatch = |field| RecoveryDefect::RecoveredHeaderMismatch { index, field };
    if buf.get(OFFSET_VARIANT).copied() != Some(variant.to_byte()) {
        return Err(mismatch("variant"));
    }
    if read_u64(buf, OFFSET_SLOT) != Some(set.slot) {
        return Err(mismatch("slot"));
    }
    if read_u32(buf, OFFSET_INDEX) != Some(index) {
        return Err(mismatch("index"));
    }
    if read_u16(buf, OFFSET_VERSION) != Some(set.version) {
        return Err(mismatch("version"));
    }
    if read_u32(buf, OFFSET_FEC_SET_INDEX) != Some(set.fec_set_index) {
        return Err(mismatch("fec_set_index"));
    }
    put(buf, 0, &trailer.signature);
    if let Some(root) = &trailer.chained_root {
        put(buf, off.chained_root, root);
    }
    if let Some(sig) = &trailer.retransmitter {
        put(buf, off.retransmitter, sig);
    }
    ShredRef::parse_inner(buf)
        .map(|_| ())
        .map_err(|defect| RecoveryDefect::RecoveredShredInvalid { index, defect })
}

/// Step 3 for code shred `position`: headers are not erasure coded, so they are written from
/// the set's (the shard itself was decoded in place).
fn finish_code(
    set: &SetLayout<'_>,
    position: usize,
    buf: &mut [u8],
    variant: ShredVariant,
    off: &MerkleOffsets,
    trailer: &Trailer,
) {
    // position < num_code ≤ 256, and parse validated the set's last code index.
    let index = set.first_code_index + position as u32;
    put(buf, 0, &trailer.signature);
    if let Some(b) = buf.get_mut(OFFSET_VARIANT) {
        *b = variant.to_byte();
    }
    put(buf, OFFSET_SLOT, &set.slot.to_le_bytes());
    put(buf, OFFSET_INDEX, &index.to_le_bytes());
    put(buf, OFFSET_VERSION, &set.version.to_le_bytes());
    put(buf, OFFSET_FEC_SET_INDEX, &set.fec_set_index.to_le_bytes());
    put(buf, OFFSET_NUM_DATA, &(set.num_data as u16).to_le_bytes());
    put(buf, OFFSET_NUM_CODE, &(set.num_code as u16).to_le_bytes());
    put(buf, OFFSET_POSITION, &(position as u16).to_le_bytes());
    if let Some(root) = &trailer.chained_root {
        put(buf, off.chained_root, root);
    }
    if let Some(sig) = &trailer.retransmitter {
        put(buf, off.retransmitter, sig);
    }
}
