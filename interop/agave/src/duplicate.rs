//! `store-duplicate` and `duplicate-proof`: a slot's duplicate-slot proof written and read
//! with Agave's own `store_duplicate_slot`, `get_duplicate_slot` and
//! `has_duplicate_shreds_in_slot`, and its two shreds checked with Agave's shred API.
//!
//! A proof file is a shred stream file of exactly two records: shred1 then shred2.

use std::path::{Path, PathBuf};

use bstore_interop_protocol::{
    DuplicateKind, DuplicateProofRead, DuplicateStored, ParsedShred, ProofCheck, ShredCheck,
    ShredType, UnparsableShred,
};
use solana_ledger::blockstore_meta::ErasureMeta;
use solana_ledger::shred::Shred;
use solana_pubkey::Pubkey;

use crate::error::{Context, Error, Result};
use crate::generate::sha256_hex;
use crate::open::{self, Access};
use crate::stream;
use crate::summary::require_db;

/// Offset of a coding shred's `num_data_shreds` (u16 LE) in its payload: the coding header
/// follows the 83-byte common header (Agave's `shred::wire::get_erasure_config`).
const NUM_DATA_OFFSET: usize = 83;

#[derive(Debug)]
pub struct StoreArgs {
    pub ledger: PathBuf,
    pub slot: u64,
    pub proof: PathBuf,
}

#[derive(Debug)]
pub struct ReadArgs {
    pub ledger: PathBuf,
    pub slot: u64,
    pub leader: Option<Pubkey>,
    pub out: Option<PathBuf>,
}

/// Agave's `store_duplicate_slot(slot, shred1, shred2)` with the two records of `proof`.
pub fn store(args: &StoreArgs) -> Result<DuplicateStored> {
    require_db(&args.ledger)?;
    let [shred1, shred2] = read_proof_file(&args.proof)?;
    let (len1, len2) = (shred1.len(), shred2.len());
    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    blockstore
        .store_duplicate_slot(args.slot, shred1, shred2)
        .context(format!("Agave store_duplicate_slot({})", args.slot))?;
    Ok(DuplicateStored {
        slot: args.slot,
        stored: true,
        shred1_len: len1 as u64,
        shred2_len: len2 as u64,
        has_duplicate: blockstore.has_duplicate_shreds_in_slot(args.slot),
    })
}

/// Agave's `has_duplicate_shreds_in_slot` and `get_duplicate_slot`; each shred of the
/// proof parsed and checked, and the conflict the pair shows.
pub fn read(args: &ReadArgs) -> Result<DuplicateProofRead> {
    require_db(&args.ledger)?;
    let slot = args.slot;
    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    let has_duplicate = blockstore.has_duplicate_shreds_in_slot(slot);
    let Some(proof) = blockstore.get_duplicate_slot(slot) else {
        return Ok(DuplicateProofRead {
            slot,
            has_duplicate,
            proof: None,
        });
    };
    let (bytes1, bytes2) = (proof.shred1.to_vec(), proof.shred2.to_vec());
    if let Some(out) = &args.out {
        stream::write(out, [bytes1.as_slice(), bytes2.as_slice()])?;
    }
    let shred1 = Shred::new_from_serialized_shred(bytes1.clone());
    let shred2 = Shred::new_from_serialized_shred(bytes2.clone());
    let conflicts = match (&shred1, &shred2) {
        (Ok(a), Ok(b)) => conflicts(a, b),
        _ => Vec::new(),
    };
    let mut problems = Vec::new();
    for (name, shred) in [("shred1", &shred1), ("shred2", &shred2)] {
        match shred {
            Err(e) => problems.push(format!("{name} does not parse: {e}")),
            Ok(shred) => {
                if shred.slot() != slot {
                    problems.push(format!("{name} is of slot {}", shred.slot()));
                }
                if let Err(e) = shred.sanitize() {
                    problems.push(format!("{name} fails sanitize: {e}"));
                }
                if let Some(leader) = &args.leader
                    && !shred.verify(leader)
                {
                    problems.push(format!("{name} is not signed by {leader}"));
                }
            }
        }
    }
    if bytes1 == bytes2 {
        problems.push("shred1 and shred2 are the same bytes".to_string());
    }
    if conflicts.is_empty() {
        problems.push("the two shreds show no conflict".to_string());
    }
    Ok(DuplicateProofRead {
        slot,
        has_duplicate,
        proof: Some(ProofCheck {
            shred1: shred_check(&bytes1, &shred1, args.leader.as_ref()),
            shred2: shred_check(&bytes2, &shred2, args.leader.as_ref()),
            conflicts,
            valid: problems.is_empty(),
            problems,
        }),
    })
}

/// Every reason the two shreds make a duplicate proof, by the rules of Agave's gossip check
/// (`duplicate_shred::check_shreds`: same-set Merkle roots, same position, last index,
/// erasure config) plus the blockstore's chaining check (a coding shred's set is followed by
/// the other shred's set, which chains to another root). Two versions of one set conflict
/// both by position and by root, so a pair can show more than one. Empty: no conflict.
fn conflicts(a: &Shred, b: &Shred) -> Vec<DuplicateKind> {
    let mut found = Vec::new();
    if a.slot() != b.slot() {
        return found;
    }
    if a.fec_set_index() == b.fec_set_index() && a.merkle_root().ok() != b.merkle_root().ok() {
        found.push(DuplicateKind::MerkleRootConflict);
    }
    // Same (slot, index, type), payloads other than the retransmitter signature.
    if a.is_shred_duplicate(b) {
        found.push(DuplicateKind::SamePosition);
    }
    if chains_wrongly(a, b) || chains_wrongly(b, a) {
        found.push(DuplicateKind::ChainedMerkleRootConflict);
    }
    let last_index = |x: &Shred, y: &Shred| x.last_in_slot() && y.index() > x.index();
    if a.is_data() && b.is_data() && (last_index(a, b) || last_index(b, a)) {
        found.push(DuplicateKind::LastIndexConflict);
    }
    if a.is_code()
        && b.is_code()
        && a.fec_set_index() == b.fec_set_index()
        && !ErasureMeta::check_erasure_consistency(a, b)
    {
        found.push(DuplicateKind::ErasureConfigConflict);
    }
    found
}

/// `earlier` is a coding shred whose set is immediately followed by `later`'s set, and
/// `later`'s chained Merkle root is not `earlier`'s root.
fn chains_wrongly(earlier: &Shred, later: &Shred) -> bool {
    if !earlier.is_code() {
        return false;
    }
    let Some(num_data) = earlier
        .payload()
        .get(NUM_DATA_OFFSET..NUM_DATA_OFFSET + 2)
        .map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])))
    else {
        return false;
    };
    earlier.fec_set_index().checked_add(num_data) == Some(later.fec_set_index())
        && later.chained_merkle_root().ok() != earlier.merkle_root().ok()
}

fn shred_check(
    bytes: &[u8],
    shred: &std::result::Result<Shred, solana_ledger::shred::Error>,
    leader: Option<&Pubkey>,
) -> ShredCheck {
    let shred = match shred {
        Ok(shred) => shred,
        Err(e) => {
            return ShredCheck::Unparsable(UnparsableShred {
                len: bytes.len() as u64,
                sha256: sha256_hex(bytes),
                error: e.to_string(),
            });
        }
    };
    ShredCheck::Parsed(ParsedShred {
        len: bytes.len() as u64,
        sha256: sha256_hex(bytes),
        slot: shred.slot(),
        index: shred.index(),
        shred_type: if shred.is_data() {
            ShredType::Data
        } else {
            ShredType::Code
        },
        fec_set_index: shred.fec_set_index(),
        version: shred.version(),
        merkle_root: shred.merkle_root().ok().map(|h| h.to_string()),
        chained_merkle_root: shred.chained_merkle_root().ok().map(|h| h.to_string()),
        sanitize_ok: shred.sanitize().is_ok(),
        signed_by_leader: leader.map(|l| shred.verify(l)),
    })
}

/// The two records of a proof file.
fn read_proof_file(path: &Path) -> Result<[Vec<u8>; 2]> {
    let records = stream::read(path)?;
    let count = records.len();
    <[Vec<u8>; 2]>::try_from(records).map_err(|_| {
        Error::new(format!(
            "{}: a proof file holds 2 records (shred1, shred2), not {count}",
            path.display()
        ))
    })
}

#[cfg(test)]
mod tests {
    use solana_entry::entry::create_ticks;
    use solana_hash::Hash;
    use solana_keypair::Keypair;
    use solana_ledger::shred::{ProcessShredsStats, ReedSolomonCache, Shredder};

    use super::*;
    use crate::agave_api;

    /// A version of slot 5 by `leader`: `sets` chained FEC sets of 32:32 (one shredder call
    /// each), ticks seeded by `seed`.
    fn version(leader: &Keypair, seed: u8, sets: u32) -> Vec<Shred> {
        let shredder = Shredder::new(5, 4, 0, 1).expect("shredder");
        let cache = ReedSolomonCache::default();
        let mut root = Hash::default();
        let mut shreds = Vec::new();
        for set in 0..sets {
            let ticks = create_ticks(3, 1, Hash::new_from_array([seed; 32]));
            let made: Vec<Shred> = agave_api::shreds_vec(shredder.make_merkle_shreds_from_entries(
                leader,
                &ticks,
                set + 1 == sets,
                root,
                set * 32,
                set * 32,
                &cache,
                &mut ProcessShredsStats::default(),
            ));
            root = made
                .last()
                .and_then(|s| s.merkle_root().ok())
                .expect("a set has a root");
            shreds.extend(made);
        }
        shreds
    }

    fn at(shreds: &[Shred], is_data: bool, index: u32) -> &Shred {
        shreds
            .iter()
            .find(|s| s.is_data() == is_data && s.index() == index)
            .expect("the shredder made this position")
    }

    #[test]
    fn two_versions_conflict_and_one_does_not() {
        let leader = Keypair::new();
        let (a, b) = (version(&leader, 1, 2), version(&leader, 2, 2));
        let short = version(&leader, 3, 1);
        assert_eq!(
            conflicts(at(&a, true, 5), at(&b, true, 5)),
            [
                DuplicateKind::MerkleRootConflict,
                DuplicateKind::SamePosition
            ]
        );
        assert_eq!(
            conflicts(at(&a, true, 0), at(&b, true, 20)),
            [DuplicateKind::MerkleRootConflict]
        );
        assert_eq!(
            conflicts(at(&a, false, 0), at(&b, true, 32)),
            [DuplicateKind::ChainedMerkleRootConflict]
        );
        assert_eq!(
            conflicts(at(&short, true, 31), at(&b, true, 40)),
            [DuplicateKind::LastIndexConflict]
        );
        // One version: the same shred, two positions, a set and the set it chains to.
        for (x, y) in [
            (at(&a, true, 5), at(&a, true, 5)),
            (at(&a, true, 3), at(&a, true, 4)),
            (at(&a, false, 0), at(&a, true, 32)),
            (at(&a, false, 31), at(&a, false, 40)),
        ] {
            assert!(conflicts(x, y).is_empty(), "{:?} {:?}", x.id(), y.id());
        }
    }
}
