//! Builds one signed, chained Merkle FEC set: data shreds, their Reed–Solomon code shreds,
//! the Merkle tree over both (data leaves first), proofs and signatures.

use ed25519_dalek::{Signer, SigningKey};

use super::erasure::Encoder;
use super::layout::{
    CODE_PAYLOAD_LEN, MERKLE_DATA_PAYLOAD_LEN, OFFSET_FEC_SET_INDEX, OFFSET_FLAGS, OFFSET_INDEX,
    OFFSET_NUM_CODE, OFFSET_NUM_DATA, OFFSET_PARENT_OFFSET, OFFSET_POSITION, OFFSET_SIZE,
    OFFSET_SLOT, OFFSET_VARIANT, OFFSET_VERSION, SIZE_OF_CODE_HEADERS, SIZE_OF_HEADERS,
    SIZE_OF_SIGNATURE, merkle_offsets, merkle_shard_len,
};
use super::merkle::{MerkleTree, leaf_hash, proof_size_for};
use super::variant::ShredVariant;

/// Everything that is the same for every shred of one set.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SetHeader {
    pub slot: u64,
    pub version: u16,
    pub parent_offset: u16,
    pub fec_set_index: u32,
    /// Index of the set's first code shred.
    pub first_code_index: u32,
    pub resigned: bool,
    /// Root of the previous FEC set.
    pub chained_root: [u8; 32],
}

/// One built set, payloads in index order.
#[derive(Debug)]
pub(crate) struct BuiltSet {
    pub data: Vec<Vec<u8>>,
    pub code: Vec<Vec<u8>>,
    pub root: [u8; 32],
}

/// One data shred's content: its data bytes (≤ capacity) and flags byte.
pub(crate) struct DataPiece<'a> {
    pub data: &'a [u8],
    pub flags: u8,
}

fn put(buf: &mut [u8], at: usize, bytes: &[u8]) {
    buf[at..at + bytes.len()].copy_from_slice(bytes);
}

fn put_common(buf: &mut [u8], variant: ShredVariant, h: &SetHeader, index: u32) {
    buf[OFFSET_VARIANT] = variant.to_byte();
    put(buf, OFFSET_SLOT, &h.slot.to_le_bytes());
    put(buf, OFFSET_INDEX, &index.to_le_bytes());
    put(buf, OFFSET_VERSION, &h.version.to_le_bytes());
    put(buf, OFFSET_FEC_SET_INDEX, &h.fec_set_index.to_le_bytes());
}

/// Builds the set. Preconditions (checked by the shredder, which alone calls this):
/// `pieces.len() == encoder.num_data()`, every piece fits the variant's capacity, and the
/// indices stay below 32,768. The proof size is ⌈log2(num_data + num_code)⌉.
pub(crate) fn build_set(
    header: &SetHeader,
    pieces: &[DataPiece<'_>],
    encoder: &Encoder,
    key: &SigningKey,
) -> BuiltSet {
    let num_data = encoder.num_data();
    let num_code = encoder.num_code();
    let proof_size = proof_size_for(num_data + num_code);
    let (chained, resigned) = (true, header.resigned);
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
    let shard_len = merkle_shard_len(proof_size, chained, resigned);
    let data_offsets = merkle_offsets(MERKLE_DATA_PAYLOAD_LEN, proof_size, chained, resigned);
    let code_offsets = merkle_offsets(CODE_PAYLOAD_LEN, proof_size, chained, resigned);

    // One zeroed allocation per payload; each is returned to the caller as is.
    let mut data: Vec<Vec<u8>> = Vec::with_capacity(num_data);
    for (k, piece) in pieces.iter().enumerate() {
        let mut buf = vec![0u8; MERKLE_DATA_PAYLOAD_LEN];
        put_common(
            &mut buf,
            data_variant,
            header,
            header.fec_set_index + k as u32,
        );
        put(
            &mut buf,
            OFFSET_PARENT_OFFSET,
            &header.parent_offset.to_le_bytes(),
        );
        buf[OFFSET_FLAGS] = piece.flags;
        let size = (SIZE_OF_HEADERS + piece.data.len()) as u16;
        put(&mut buf, OFFSET_SIZE, &size.to_le_bytes());
        put(&mut buf, SIZE_OF_HEADERS, piece.data);
        put(&mut buf, data_offsets.chained_root, &header.chained_root);
        data.push(buf);
    }

    let mut code: Vec<Vec<u8>> = Vec::with_capacity(num_code);
    for i in 0..num_code {
        let mut buf = vec![0u8; CODE_PAYLOAD_LEN];
        put_common(
            &mut buf,
            code_variant,
            header,
            header.first_code_index + i as u32,
        );
        put(&mut buf, OFFSET_NUM_DATA, &(num_data as u16).to_le_bytes());
        put(&mut buf, OFFSET_NUM_CODE, &(num_code as u16).to_le_bytes());
        put(&mut buf, OFFSET_POSITION, &(i as u16).to_le_bytes());
        put(&mut buf, code_offsets.chained_root, &header.chained_root);
        code.push(buf);
    }
    {
        // Data shard = payload[64 .. 64 + shard_len]; code shard = payload[89 ..].
        let shards: Vec<&[u8]> = data
            .iter()
            .map(|d| &d[SIZE_OF_SIGNATURE..SIZE_OF_SIGNATURE + shard_len])
            .collect();
        let mut parity: Vec<&mut [u8]> = code
            .iter_mut()
            .map(|c| &mut c[SIZE_OF_CODE_HEADERS..SIZE_OF_CODE_HEADERS + shard_len])
            .collect();
        encoder.encode(&shards, &mut parity);
    }

    let leaves: Vec<[u8; 32]> = data
        .iter()
        .map(|d| leaf_hash(&d[SIZE_OF_SIGNATURE..data_offsets.proof]))
        .chain(
            code.iter()
                .map(|c| leaf_hash(&c[SIZE_OF_SIGNATURE..code_offsets.proof])),
        )
        .collect();
    let tree = MerkleTree::new(leaves);
    let root = tree.root();
    let signature = key.sign(&root).to_bytes();
    let finish = |buf: &mut Vec<u8>, position: usize, offsets: &super::layout::MerkleOffsets| {
        tree.write_proof(position, &mut buf[offsets.proof..offsets.retransmitter]);
        put(buf, 0, &signature);
        if resigned {
            // The retransmitter signs the same root; we fill it with the leader's signature.
            put(buf, offsets.retransmitter, &signature);
        }
    };
    for (k, buf) in data.iter_mut().enumerate() {
        finish(buf, k, &data_offsets);
    }
    for (i, buf) in code.iter_mut().enumerate() {
        finish(buf, num_data + i, &code_offsets);
    }
    BuiltSet { data, code, root }
}
