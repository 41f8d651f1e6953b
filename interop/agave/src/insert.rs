//! `insert`: the selected shreds of stream files go through Agave's own blockstore insert (no
//! leader schedule, `is_trusted = false`), either the plain `insert_shreds` or the path a
//! validator's window service takes (`--via window-service`): erasure recovery, and the
//! duplicate handling of `window_service::run_check_duplicate`.

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::PathBuf;

use bstore_interop_protocol::{
    CompletedDataSet, DuplicateKind, HandledDuplicate, InsertPath, Inserted, InsertedSlot,
    MissingMeta, SlotState,
};
use solana_ledger::blockstore::{Blockstore, BlockstoreInsertionMetrics, PossibleDuplicateShred};
use solana_ledger::shred::filter::ShredRecoveryContext;
use solana_ledger::shred::{Payload, ReedSolomonCache, Shred};
use solana_streamer::evicting_sender::EvictingSender;

use crate::agave_api;
use crate::error::{Context, Result};
use crate::open::{self, Access};
use crate::root_bank;
use crate::select::{Select, SlotRange};
use crate::stream;

/// Unparsable records listed by example.
const EXAMPLES: usize = 20;

/// `--via`: which of Agave's insert paths takes the shreds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Via {
    /// `Blockstore::insert_shreds`: no recovery; only the proofs the blockstore stores
    /// itself (Merkle root, erasure and last-index conflicts).
    InsertShreds,
    /// `Blockstore::insert_shreds_handle_duplicate` with a recovery context (recovery on),
    /// then each reported duplicate handled as Agave 4.x's
    /// `window_service::run_check_duplicate` does: a same-position conflict is stored with
    /// `store_duplicate_slot(slot, stored shred, new shred)` unless the slot has a proof; a
    /// chained-Merkle-root conflict marks the slot dead (no proof).
    WindowService,
}

impl Via {
    fn path(self) -> InsertPath {
        match self {
            Via::InsertShreds => InsertPath::InsertShreds,
            Via::WindowService => InsertPath::WindowService,
        }
    }
}

#[derive(Debug)]
pub struct InsertArgs {
    pub ledger: PathBuf,
    pub files: Vec<PathBuf>,
    pub select: Select,
    pub slots: Option<SlotRange>,
    pub via: Via,
    /// Shreds per insert call.
    pub batch: usize,
    /// Wait after each call, the ledger open (a live writer).
    pub pause: std::time::Duration,
}

pub fn run(args: &InsertArgs) -> Result<Inserted> {
    let mut selected = Vec::new();
    let (mut records, mut skipped) = (0usize, 0usize);
    let mut unparsable = Vec::new();
    for file in &args.files {
        for (record, payload) in stream::read(file)?.into_iter().enumerate() {
            records += 1;
            match Shred::new_from_serialized_shred(payload) {
                Ok(shred) if takes(args, &shred) => selected.push(shred),
                Ok(_) => skipped += 1,
                Err(e) => unparsable.push(format!("{} record {record}: {e}", file.display())),
            }
        }
    }
    let data = selected.iter().filter(|s| s.is_data()).count();
    let code = selected.len() - data;
    let slots: BTreeSet<u64> = selected.iter().map(Shred::slot).collect();

    let blockstore = open::blockstore(&args.ledger, Access::Primary)?;
    let shred_version = selected.first().map_or(0, Shred::version);
    let mut window = match args.via {
        Via::WindowService => Some(WindowService::new(shred_version)?),
        Via::InsertShreds => None,
    };
    let mut completed = Vec::new();
    let mut rest = selected;
    while !rest.is_empty() {
        let tail = rest.split_off(rest.len().min(args.batch));
        let batch = std::mem::replace(&mut rest, tail);
        let batch_len = batch.len();
        let sets = match args.via {
            Via::InsertShreds => {
                agave_api::insert_shreds(&blockstore, batch).context("Agave insert_shreds")?
            }
            Via::WindowService => match window.as_mut() {
                Some(window) => window.insert(&blockstore, batch)?,
                None => Vec::new(),
            },
        };
        completed.extend(sets.into_iter().map(|set| CompletedDataSet {
            slot: set.slot,
            start: set.indices.start,
            end: set.indices.end,
        }));
        if !args.pause.is_zero() {
            eprintln!("inserted {} shreds, {} left", batch_len, rest.len());
            std::thread::sleep(args.pause);
        }
    }
    let metas = slot_states(&blockstore, &slots)?;
    let (metrics, duplicates) = match window {
        Some(window) => (window.metrics, window.duplicates),
        None => (BlockstoreInsertionMetrics::default(), Vec::new()),
    };
    Ok(Inserted {
        via: args.via.path(),
        records: records as u64,
        selected: (data + code) as u64,
        data: data as u64,
        code: code as u64,
        skipped: skipped as u64,
        unparsable: unparsable.len() as u64,
        unparsable_examples: unparsable.into_iter().take(EXAMPLES).collect(),
        completed_data_sets: completed,
        recovered: metrics.num_recovered_inserted as u64,
        recovered_exists: metrics.num_recovered_exists as u64,
        recovered_invalid: metrics.num_recovered_failed_invalid as u64,
        possible_duplicates: duplicates,
        slots_full: metas.0,
        slots: metas.1,
    })
}

/// What a window service keeps across insert calls.
struct WindowService {
    recovery: ShredRecoveryContext,
    metrics: BlockstoreInsertionMetrics,
    /// Every duplicate the blockstore reported, in order, and what handling it did.
    duplicates: Vec<HandledDuplicate>,
    /// The root bank's accounts (removed when the service is dropped).
    _accounts: tempfile::TempDir,
}

impl WindowService {
    /// A window service of a node on shred version `shred_version` (the streams' own: the
    /// recovery context drops shreds of any other version).
    fn new(shred_version: u16) -> Result<Self> {
        let accounts = tempfile::tempdir().context("temporary accounts directory")?;
        // Recovered shreds would be retransmitted; nobody listens here (the window service's
        // own channel evicts the oldest batch when full, so a small one never blocks).
        let (retransmit, _retransmitted) = EvictingSender::new_bounded(1);
        let recovery = ShredRecoveryContext::new(
            ReedSolomonCache::default(),
            retransmit,
            root_bank::bank(accounts.path()),
            shred_version,
        );
        Ok(Self {
            recovery,
            metrics: BlockstoreInsertionMetrics::default(),
            duplicates: Vec::new(),
            _accounts: accounts,
        })
    }

    fn insert(
        &mut self,
        blockstore: &Blockstore,
        batch: Vec<Shred>,
    ) -> Result<Vec<solana_ledger::blockstore::CompletedDataSetInfo>> {
        let found = RefCell::new(Vec::new());
        let sets = agave_api::insert_handle_duplicate(
            blockstore,
            batch,
            &mut self.recovery,
            &|duplicate| found.borrow_mut().push(duplicate),
            &mut self.metrics,
        )
        .context("Agave insert_shreds_handle_duplicate")?;
        for duplicate in found.into_inner() {
            self.duplicates
                .push(check_duplicate(blockstore, duplicate)?);
        }
        Ok(sets)
    }
}

/// `window_service::run_check_duplicate` of Agave 4.2 (core/src/window_service.rs), minus
/// the gossip push and the consensus notification, outside Alpenglow, with the
/// `validate_chained_block_id` features taken as active: a chained-Merkle-root conflict
/// (either check) marks the slot dead and stores no proof. Merkle root, erasure and
/// last-index conflicts were stored by the blockstore itself when found.
fn check_duplicate(
    blockstore: &Blockstore,
    duplicate: PossibleDuplicateShred,
) -> Result<HandledDuplicate> {
    let slot = duplicate.slot();
    let had_proof = blockstore.has_duplicate_shreds_in_slot(slot);
    let was_dead = blockstore.is_dead(slot);
    let store = |shred1: Payload, shred2: Payload| -> Result<bool> {
        if had_proof {
            return Ok(false);
        }
        blockstore
            .store_duplicate_slot(slot, shred1, shred2)
            .context(format!("Agave store_duplicate_slot({slot})"))?;
        Ok(true)
    };
    let mark_dead = || -> Result<bool> {
        blockstore
            .set_dead_slot(slot)
            .context(format!("Agave set_dead_slot({slot})"))?;
        Ok(false)
    };
    let (variant, kind, stored) = match duplicate {
        PossibleDuplicateShred::LastIndexConflict(..) => {
            ("LastIndexConflict", DuplicateKind::LastIndexConflict, false)
        }
        PossibleDuplicateShred::ErasureConflict(..) => (
            "ErasureConflict",
            DuplicateKind::ErasureConfigConflict,
            false,
        ),
        PossibleDuplicateShred::MerkleRootConflict(..) => (
            "MerkleRootConflict",
            DuplicateKind::MerkleRootConflict,
            false,
        ),
        // 4.3 dropped the backward chaining check's variant; only the fixed-FEC one is left.
        #[cfg(not(feature = "agave43"))]
        PossibleDuplicateShred::ChainedMerkleRootConflict(_) => (
            "ChainedMerkleRootConflict",
            DuplicateKind::ChainedMerkleRootConflict,
            mark_dead()?,
        ),
        PossibleDuplicateShred::FixedFECChainedMerkleRootConflict(_) => (
            "FixedFECChainedMerkleRootConflict",
            DuplicateKind::ChainedMerkleRootConflict,
            mark_dead()?,
        ),
        // The same shred again is reported too; only a different payload is a duplicate.
        PossibleDuplicateShred::Exists(shred) => match blockstore.is_shred_duplicate(&shred) {
            Some(existing) => (
                "Exists",
                DuplicateKind::SamePosition,
                store(Payload::from(existing), shred.into_payload())?,
            ),
            None => ("Exists", DuplicateKind::SamePayload, false),
        },
    };
    Ok(HandledDuplicate {
        slot,
        agave_variant: variant.to_string(),
        kind,
        proof_before_handling: had_proof,
        stored_by_handler: stored,
        has_proof: blockstore.has_duplicate_shreds_in_slot(slot),
        dead_before_handling: was_dead,
        dead: blockstore.is_dead(slot),
    })
}

fn takes(args: &InsertArgs, shred: &Shred) -> bool {
    args.slots
        .as_ref()
        .is_none_or(|range| range.0.contains(&shred.slot()))
        && args.select.takes(shred.is_data(), shred.index())
}

/// The full slots among `slots`, and each slot's consumed / received / last index.
fn slot_states(
    blockstore: &Blockstore,
    slots: &BTreeSet<u64>,
) -> Result<(Vec<u64>, Vec<InsertedSlot>)> {
    let mut full = Vec::new();
    let mut states = Vec::new();
    for &slot in slots {
        let Some(meta) = blockstore
            .meta(slot)
            .context(format!("meta of slot {slot}"))?
        else {
            states.push(InsertedSlot::Missing(MissingMeta { slot, meta: () }));
            continue;
        };
        if meta.is_full() {
            full.push(slot);
        }
        states.push(InsertedSlot::Stored(SlotState {
            slot,
            consumed: meta.consumed,
            received: meta.received,
            last_index: meta.last_index,
            is_full: meta.is_full(),
        }));
    }
    Ok((full, states))
}
