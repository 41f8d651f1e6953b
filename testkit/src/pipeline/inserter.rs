//! The inserter thread: generates each slot, then inserts it FEC set by FEC set, paced over
//! the slot time and shuffled within a window, telling replay and the data-sets service
//! what each insert did.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use bstore_ledger::store::{Blockstore, CompletedDataSet};
use bstore_ledger::synth::{SlotGenerator, SlotSpec};
use bstore_ledger::{Hash, Slot};
use bstore_replay::InsertTally;
use crossbeam_channel::Sender;
use log::Level;
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use super::{Generated, PipelineConfig, Progress, ROOT};
use crate::error::TestkitError;

/// Shreds per insert call: one FEC set's worth.
const SHREDS_PER_INSERT: usize = 32;

pub(super) fn run(
    blockstore: &Blockstore,
    config: &PipelineConfig,
    root_hash: Hash,
    updates: &Sender<Slot>,
    sets: &Sender<Vec<CompletedDataSet>>,
    highest_full: &AtomicU64,
    progress: &Progress,
) -> Result<Generated, TestkitError> {
    let mut generator = SlotGenerator::new(config.seed, 1);
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed ^ 0x5eed);
    let mut generated = Generated::default();
    let (mut parent, mut parent_hash) = (ROOT, root_hash);
    let start = Instant::now();
    for n in 1..=config.slots {
        let slot = Slot(ROOT.0 + n);
        let spec = SlotSpec {
            data_shreds: config.shreds_per_slot,
            hashes_per_tick: config.hashes_per_tick,
            with_code: false,
        };
        let generated_slot = generator
            .generate(slot, parent, parent_hash, spec)
            .map_err(|source| TestkitError::Ledger { slot, source })?;
        let mut shreds = generated_slot.data_shreds;
        for window in shreds.chunks_mut(config.shuffle_window.max(1)) {
            window.shuffle(&mut rng);
        }
        let inserts = shreds.len().div_ceil(SHREDS_PER_INSERT).max(1) as u32;
        let mut tally = InsertTally::default();
        let slot_start = start + config.slot_time * (n - 1) as u32;
        for (i, chunk) in shreds.chunks(SHREDS_PER_INSERT).enumerate() {
            let due = slot_start + config.slot_time * i as u32 / inserts;
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            let outcome = blockstore
                .insert_shreds(chunk)
                .map_err(|source| TestkitError::Ledger { slot, source })?;
            tally.add(&outcome);
            if !outcome.completed_data_sets.is_empty() {
                // The service may lag; a full channel (100,000 batches) means it is stuck.
                if sets.send(outcome.completed_data_sets).is_err() {
                    return Err(TestkitError::Stopped("the data-sets service stopped"));
                }
            }
            if !outcome.slots_full.is_empty() {
                highest_full.fetch_max(slot.0, Ordering::Relaxed);
            }
            if updates.send(slot).is_err() {
                return Err(TestkitError::Stopped("replay stopped"));
            }
        }
        for point in tally.datapoints() {
            config.metrics.submit(point, Level::Info);
        }
        if let Some(retention) = config.retention {
            retain(blockstore, &retention, slot, progress)?;
        }
        generated.slots += 1;
        generated.shreds += shreds.len() as u64;
        generated.entries += generated_slot.entries.len() as u64;
        generated.transactions += generated_slot.transactions;
        progress.inserted.fetch_add(1, Ordering::Relaxed);
        parent = slot;
        parent_hash = generated_slot.blockhash;
    }
    log::info!(
        "inserted {} slots in {:.1} s",
        generated.slots,
        start.elapsed().as_secs_f64()
    );
    Ok(generated)
}

/// Roots the slot `root_lag` behind `slot` and, every `interval` slots, purges down to the
/// limit.
fn retain(
    blockstore: &Blockstore,
    retention: &super::Retention,
    slot: Slot,
    progress: &Progress,
) -> Result<(), TestkitError> {
    let ledger = |source| TestkitError::Ledger { slot, source };
    if let Some(root) = slot
        .0
        .checked_sub(retention.root_lag)
        .filter(|r| *r > ROOT.0)
    {
        blockstore.set_roots([Slot(root)]).map_err(ledger)?;
    }
    if slot.0.is_multiple_of(retention.interval.max(1))
        && let Some(stats) = blockstore
            .purge_to_limit(retention.max_shreds)
            .map_err(ledger)?
    {
        progress
            .purged_slots
            .fetch_add(stats.slots_with_meta, Ordering::Relaxed);
    }
    Ok(())
}
