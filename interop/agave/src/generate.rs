//! `gen`: consecutive slots of real entries (ticks and signed transfers) shredded by Agave's
//! own `Shredder`, written as a shred stream file.
//!
//! Agave 4.x's shredder makes only chained Merkle shreds in batches of 32 data + 32 code
//! shreds, and resigns the last batch of a slot. Each slot is cut into one shredder call per
//! FEC set, as the broadcast stage cuts it into data sets, so every FEC set ends with a
//! data-complete shred and the last one with the last-in-slot shred. Within a slot each FEC
//! set chains from the previous one's Merkle root. With `--chained` a slot's first FEC set
//! chains from its parent's last root (what mainnet leaders do); without, from the all-zero
//! hash (the shreds keep the chained layout: Agave 4.x has no other).
//!
//! `--version-seed` draws the entries from another seed while the leader key, the payers and
//! the PoH start hash still come from `--seed`: a second version of the same slots, signed
//! by the same leader, as an equivocating leader would broadcast.

use std::path::{Path, PathBuf};

use bstore_interop_protocol::{Generated, GeneratedSlot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sha2::{Digest, Sha256};
use solana_entry::entry::{Entry, next_entry_mut};
use solana_hash::Hash;
use solana_keypair::Keypair;
use solana_ledger::shred::{ProcessShredsStats, ReedSolomonCache, Shred, ShredData, Shredder};
use solana_pubkey::Pubkey;
use solana_signer::Signer;
use solana_transaction::Transaction;

use crate::agave_api;
use crate::error::{Context, Error, Result};
use crate::stream;

/// Data shreds per FEC set in Agave 4.x's shredder (`DATA_SHREDS_PER_FEC_BLOCK`).
const DATA_SHREDS_PER_FEC_SET: usize = 32;
/// Merkle proof entries of a 32:32 batch (`PROOF_ENTRIES_FOR_32_32_BATCH`).
const PROOF_SIZE: u8 = 6;
/// Entries are packed to this fraction (in percent) of a FEC set's data capacity, so a
/// shredder call never spills into a second FEC set.
const FILL_PERCENT: usize = 90;
const HASHES_PER_TICK: u64 = 8;
const PAYERS: usize = 4;

/// What `gen` is asked for.
#[derive(Debug)]
pub struct GenArgs {
    pub out: PathBuf,
    pub start_slot: u64,
    pub slots: u64,
    pub data_shreds_per_slot: usize,
    pub seed: u64,
    /// Draws the entries from this seed instead of `seed`'s stream, keeping the leader, the
    /// payers and the PoH start hash: a second version of the same slots by the same leader.
    pub version_seed: Option<u64>,
    pub chained: bool,
    pub shred_version: u16,
    pub entries_dir: Option<PathBuf>,
}

/// What one slot became.
struct SlotOut {
    slot: u64,
    parent: u64,
    entries: Vec<Entry>,
    shreds: Vec<Shred>,
    fec_sets: usize,
    last_root: Hash,
}

/// The deterministic inputs every slot draws from.
struct Source {
    rng: ChaCha20Rng,
    leader: Keypair,
    payers: Vec<Keypair>,
    recent_blockhash: Hash,
    poh: Hash,
}

pub fn run(args: &GenArgs) -> Result<Generated> {
    if args.slots == 0 {
        return Err(Error::new("--slots must be at least 1"));
    }
    let mut rng = ChaCha20Rng::seed_from_u64(args.seed);
    let leader = Keypair::new_from_array(rng.r#gen());
    let payers = (0..PAYERS)
        .map(|_| Keypair::new_from_array(rng.r#gen()))
        .collect();
    let recent_blockhash = Hash::new_from_array(rng.r#gen());
    let start_hash = Hash::new_from_array(rng.r#gen());
    if let Some(version) = args.version_seed {
        rng = ChaCha20Rng::seed_from_u64(version);
    }
    let mut src = Source {
        rng,
        leader,
        payers,
        recent_blockhash,
        poh: start_hash,
    };
    let fec_sets = args
        .data_shreds_per_slot
        .div_ceil(DATA_SHREDS_PER_FEC_SET)
        .max(1);
    let rs_cache = ReedSolomonCache::default();
    let mut chain_root = Hash::default();
    let mut slots = Vec::new();
    let mut payloads: Vec<Vec<u8>> = Vec::new();
    for offset in 0..args.slots {
        let slot = args
            .start_slot
            .checked_add(offset)
            .ok_or_else(|| Error::new("slot number overflows u64"))?;
        let parent = slot.saturating_sub(1);
        let first_root = if args.chained {
            chain_root
        } else {
            Hash::default()
        };
        let out = make_slot(
            &mut src, slot, parent, fec_sets, first_root, args, &rs_cache,
        )?;
        chain_root = out.last_root;
        if let Some(dir) = &args.entries_dir {
            write_entries(dir, slot, &out.entries)?;
        }
        payloads.extend(out.shreds.iter().map(|s| s.payload().to_vec()));
        slots.push(slot_out(&out)?);
    }
    let records = stream::write(&args.out, payloads.iter().map(Vec::as_slice))?;
    Ok(Generated {
        out: args.out.display().to_string(),
        leader: src.leader.pubkey().to_string(),
        start_hash: start_hash.to_string(),
        shred_version: args.shred_version,
        version_seed: args.version_seed,
        chained: args.chained,
        records: records as u64,
        slots,
    })
}

fn make_slot(
    src: &mut Source,
    slot: u64,
    parent: u64,
    fec_sets: usize,
    first_root: Hash,
    args: &GenArgs,
    rs_cache: &ReedSolomonCache,
) -> Result<SlotOut> {
    let mut entries = Vec::new();
    let mut shreds: Vec<Shred> = Vec::new();
    let mut root = first_root;
    let (mut next_data, mut next_code) = (0u32, 0u32);
    let mut ticks = 0u8;
    for set in 0..fec_sets {
        let last_in_slot = set + 1 == fec_sets;
        let capacity = ShredData::capacity(PROOF_SIZE, last_in_slot)
            .context("ShredData::capacity")?
            * DATA_SHREDS_PER_FEC_SET;
        let batch = make_entries(src, capacity * FILL_PERCENT / 100, last_in_slot)?;
        // Shred flags keep 6 bits of reference tick.
        let reference_tick = ticks.min(63);
        ticks = ticks.saturating_add(batch.iter().filter(|e| e.is_tick()).count() as u8);
        let shredder = Shredder::new(slot, parent, reference_tick, args.shred_version)
            .context(format!("slot {slot}: Shredder::new(parent {parent})"))?;
        let made: Vec<Shred> = agave_api::shreds_vec(shredder.make_merkle_shreds_from_entries(
            &src.leader,
            &batch,
            last_in_slot,
            root,
            next_data,
            next_code,
            rs_cache,
            &mut ProcessShredsStats::default(),
        ));
        let data = made.iter().filter(|s| s.is_data()).count();
        let code = made.len() - data;
        if data != DATA_SHREDS_PER_FEC_SET {
            return Err(Error::new(format!(
                "slot {slot} FEC set {set}: the shredder made {data} data shreds, expected \
                 {DATA_SHREDS_PER_FEC_SET} (entries overflowed one FEC set)"
            )));
        }
        let last = made
            .last()
            .ok_or_else(|| Error::new(format!("slot {slot}: the shredder made no shreds")))?;
        root = last
            .merkle_root()
            .context(format!("slot {slot}: Merkle root of FEC set {set}"))?;
        next_data += data as u32;
        next_code += code as u32;
        entries.extend(batch);
        shreds.extend(made);
    }
    Ok(SlotOut {
        slot,
        parent,
        entries,
        shreds,
        fec_sets,
        last_root: root,
    })
}

/// Entries whose bincode `Vec<Entry>` stays within `budget` bytes: signed transfers (one to
/// three per entry) mixed with ticks; the slot's last batch ends with a tick.
fn make_entries(src: &mut Source, budget: usize, end_with_tick: bool) -> Result<Vec<Entry>> {
    const VEC_LEN_BYTES: u64 = 8;
    let mut used = VEC_LEN_BYTES;
    let mut entries = Vec::new();
    let tick_len = entry_len(&Entry::default())?;
    let reserve = if end_with_tick { tick_len } else { 0 };
    loop {
        let is_tick = src.rng.gen_ratio(1, 4);
        let mut poh = src.poh;
        let entry = if is_tick {
            next_entry_mut(&mut poh, HASHES_PER_TICK, vec![])
        } else {
            let count = src.rng.gen_range(1..=3);
            let txs = (0..count).map(|_| transfer(src)).collect();
            next_entry_mut(&mut poh, src.rng.gen_range(1..=4), txs)
        };
        let len = entry_len(&entry)?;
        if used + len + reserve > budget as u64 {
            break;
        }
        used += len;
        src.poh = poh;
        entries.push(entry);
    }
    if end_with_tick {
        entries.push(next_entry_mut(&mut src.poh, HASHES_PER_TICK, vec![]));
    }
    if entries.is_empty() {
        return Err(Error::new(format!(
            "a FEC set budget of {budget} bytes fits no entry"
        )));
    }
    Ok(entries)
}

fn transfer(src: &mut Source) -> Transaction {
    let payer = &src.payers[src.rng.gen_range(0..src.payers.len())];
    let to = Pubkey::new_from_array(src.rng.r#gen());
    solana_system_transaction::transfer(
        payer,
        &to,
        src.rng.gen_range(1..1_000_000_000),
        src.recent_blockhash,
    )
}

fn entry_len(entry: &Entry) -> Result<u64> {
    wincode::serialized_size(entry).context("wincode size of an entry")
}

/// The slot's entries as one `Vec<Entry>` in Agave 4.x's wincode (the same bytes as bincode
/// 1.x's legacy layout): what `summary` hashes and what bstore encodes for the same entries.
pub fn entries_bincode(entries: &[Entry]) -> Result<Vec<u8>> {
    wincode::serialize(entries).context("wincode of entries")
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

fn write_entries(dir: &Path, slot: u64, entries: &[Entry]) -> Result<()> {
    std::fs::create_dir_all(dir).context(dir.display())?;
    let path = dir.join(format!("{slot}.bin"));
    std::fs::write(&path, entries_bincode(entries)?).context(path.display())
}

fn slot_out(out: &SlotOut) -> Result<GeneratedSlot> {
    let data = out.shreds.iter().filter(|s| s.is_data()).count();
    let blockhash = out
        .entries
        .last()
        .map(|e| e.hash.to_string())
        .unwrap_or_default();
    Ok(GeneratedSlot {
        slot: out.slot,
        parent_slot: out.parent,
        data_shreds: data as u64,
        code_shreds: (out.shreds.len() - data) as u64,
        fec_sets: out.fec_sets as u64,
        entries: out.entries.len() as u64,
        ticks: out.entries.iter().filter(|e| e.is_tick()).count() as u64,
        transactions: out
            .entries
            .iter()
            .map(|e| e.transactions.len() as u64)
            .sum(),
        blockhash,
        entries_sha256: sha256_hex(&entries_bincode(&out.entries)?),
        last_merkle_root: out.last_root.to_string(),
    })
}
