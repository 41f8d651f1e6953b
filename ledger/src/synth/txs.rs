//! Mainnet-like transactions for synthetic ledgers: mostly one-signature vote-like legacy
//! transactions, some multi-signature transfers, some v0 transactions with address lookup
//! tables. Signatures are random bytes (shreds are signed; transactions are not executed).

use rand::Rng;

use crate::entry::{
    AddressTableLookup, CompiledInstruction, LegacyMessage, MessageHeader, V0Message,
    VersionedMessage, VersionedTransaction,
};
use crate::types::{Hash, Pubkey, Signature};

/// The vote program id (`Vote111111111111111111111111111111111111111`).
const VOTE_PROGRAM: [u8; 32] = [
    7, 97, 72, 29, 53, 116, 116, 187, 124, 77, 118, 36, 235, 211, 189, 179, 216, 53, 94, 115, 209,
    16, 67, 252, 13, 163, 83, 128, 0, 0, 0, 0,
];

fn key(rng: &mut impl Rng) -> Pubkey {
    Pubkey(rng.r#gen())
}

fn signature(rng: &mut impl Rng) -> Signature {
    let mut s = [0u8; 64];
    rng.fill(&mut s[..]);
    Signature(s)
}

fn bytes(rng: &mut impl Rng, len: usize) -> Vec<u8> {
    let mut v = vec![0u8; len];
    rng.fill(&mut v[..]);
    v
}

/// A vote-like transaction: 1 signature, 3 keys, one vote instruction of 100–160 data bytes
/// (≈ 330 bytes serialized, like a compact TowerSync vote).
pub fn vote(rng: &mut impl Rng, blockhash: Hash) -> VersionedTransaction {
    let data_len = rng.gen_range(100..160);
    VersionedTransaction {
        signatures: vec![signature(rng)],
        message: VersionedMessage::Legacy(LegacyMessage {
            header: MessageHeader {
                num_required_signatures: 1,
                num_readonly_signed_accounts: 0,
                num_readonly_unsigned_accounts: 1,
            },
            account_keys: vec![key(rng), key(rng), Pubkey(VOTE_PROGRAM)],
            recent_blockhash: blockhash,
            instructions: vec![CompiledInstruction {
                program_id_index: 2,
                accounts: vec![1, 0],
                data: bytes(rng, data_len),
            }],
        }),
    }
}

/// A multi-signature legacy transaction (2–4 signers, 2 instructions).
pub fn multisig(rng: &mut impl Rng, blockhash: Hash) -> VersionedTransaction {
    let signers: u8 = rng.gen_range(2..=4);
    let keys: Vec<Pubkey> = (0..signers + 3).map(|_| key(rng)).collect();
    let program = signers + 2;
    VersionedTransaction {
        signatures: (0..signers).map(|_| signature(rng)).collect(),
        message: VersionedMessage::Legacy(LegacyMessage {
            header: MessageHeader {
                num_required_signatures: signers,
                num_readonly_signed_accounts: 0,
                num_readonly_unsigned_accounts: 1,
            },
            account_keys: keys,
            recent_blockhash: blockhash,
            instructions: vec![
                CompiledInstruction {
                    program_id_index: program,
                    accounts: vec![0, signers],
                    data: bytes(rng, 12),
                },
                CompiledInstruction {
                    program_id_index: program,
                    accounts: vec![1, signers + 1],
                    data: bytes(rng, 12),
                },
            ],
        }),
    }
}

/// A v0 transaction with one or two address lookup tables.
pub fn v0_with_lookups(rng: &mut impl Rng, blockhash: Hash) -> VersionedTransaction {
    let tables = rng.gen_range(1..=2);
    let lookups = (0..tables)
        .map(|_| AddressTableLookup {
            account_key: key(rng),
            writable_indexes: (0..rng.gen_range(1..6)).map(|_| rng.r#gen()).collect(),
            readonly_indexes: (0..rng.gen_range(0..6)).map(|_| rng.r#gen()).collect(),
        })
        .collect();
    let data_len = rng.gen_range(20..120);
    VersionedTransaction {
        signatures: vec![signature(rng)],
        message: VersionedMessage::V0(V0Message {
            header: MessageHeader {
                num_required_signatures: 1,
                num_readonly_signed_accounts: 0,
                num_readonly_unsigned_accounts: 2,
            },
            account_keys: vec![key(rng), key(rng), key(rng), key(rng)],
            recent_blockhash: blockhash,
            instructions: vec![
                CompiledInstruction {
                    program_id_index: 2,
                    accounts: vec![],
                    data: bytes(rng, 5),
                },
                CompiledInstruction {
                    program_id_index: 3,
                    accounts: vec![0, 1, 4, 5],
                    data: bytes(rng, data_len),
                },
            ],
            address_table_lookups: lookups,
        }),
    }
}

/// One transaction of the mainnet-like mix: 85% vote-like, 10% multi-signature, 5% v0.
pub fn mainnet_like(rng: &mut impl Rng, blockhash: Hash) -> VersionedTransaction {
    match rng.gen_range(0..100) {
        0..85 => vote(rng, blockhash),
        85..95 => multisig(rng, blockhash),
        _ => v0_with_lookups(rng, blockhash),
    }
}
