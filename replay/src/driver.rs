//! `ReplayDriver`: replays slots as their shreds arrive, each from its parent's blockhash,
//! marking bad slots dead and reporting `replay-slot-stats` once per slot.
//!
//! Call [`ReplayDriver::replay`] for a slot whenever more of it may have arrived (or use
//! [`crate::follow`]): it fetches greedily until nothing new is complete, and says whether
//! the slot is done. All fetching happens on the caller's thread.

use std::collections::BTreeMap;
use std::sync::Arc;

use bstore_ledger::entry::{HashLimits, TickRules};
use bstore_ledger::store::Blockstore;
use bstore_ledger::{Hash, ShredIndex, Slot};
use log::Level;

use crate::alpenglow::Alpenglow;
use crate::error::ReplayError;
use crate::executor::{CountingExecutor, Executor};
use crate::fetch_mode::FetchMode;
use crate::known::{Known, ParentState, Retained, Retention};
use crate::slot::{Fetcher, SlotReplay, Step};
use crate::stats::{MetricsSink, SlotStats, dead_slot_datapoint};

/// Whether more shreds may still arrive for the slots being replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Completion {
    /// Live: a slot that stops short waits for its shreds, a slot whose parent was not
    /// replayed yet waits for it.
    #[default]
    Streaming,
    /// A finished ledger (the `bstore replay` command): a slot that stops short is dead
    /// ([`ReplayError::Incomplete`]) and an unknown parent is refused.
    Final,
}

/// What replay does with a slot whose data is bad.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum DeadSlots {
    /// Set the blockstore's dead flag (what a validator does).
    #[default]
    Mark,
    /// Report it (status, log, `replay-slot-dead` point with `marked=false`) but leave the
    /// blockstore as it is: for runs whose rules may be wrong (e.g. a guessed
    /// `--hashes-per-tick`), so good slots are never marked by mistake.
    Report,
}

/// How a driver replays.
#[derive(Debug, Clone, Default)]
pub struct ReplayOptions {
    /// Tick rules (64 ticks; hashes per tick checked when set).
    pub tick_rules: TickRules,
    /// Bounds on the hashes an entry or slot may ask for, checked before hashing
    /// (superseded by the tick rules when hashes per tick are set: `HashLimits::under`).
    pub hash_limits: HashLimits,
    /// Whether a slot with bad data is marked dead in the blockstore or only reported.
    pub dead_slots: DeadSlots,
    /// Whether more shreds may still arrive (live) or the ledger is finished.
    pub completion: Completion,
    /// How entries are fetched: serially on the driver's thread, or through a pool.
    pub fetch: FetchMode,
    /// Where the per-slot and dead-slot datapoints go (default: the process-wide agent).
    pub metrics: MetricsSink,
    /// Which slots are Alpenglow blocks (default: none, so a block marker kills a slot as
    /// in a TowerBFT cluster).
    pub alpenglow: Alpenglow,
    /// How much the driver keeps of finished slots (default: bounded; see [`Retention`]).
    pub retention: Retention,
}

/// Where a slot stands after a [`ReplayDriver::replay`] call.
#[derive(Debug)]
pub enum SlotStatus {
    /// Part of it is replayed (or nothing yet); call again when more shreds arrived.
    InProgress {
        /// Shreds of the slot replayed so far (0 when nothing was).
        shreds: u64,
    },
    /// Its parent has not been replayed yet; call again after the parent.
    WaitingForParent {
        /// The parent slot to replay first.
        parent: Slot,
    },
    /// Replayed whole: PoH and tick rules held, every entry executed.
    Replayed {
        /// The slot's replay statistics.
        stats: SlotStats,
        /// The slot's last entry hash, which its children's first entries chain from.
        blockhash: Hash,
    },
    /// Its data is bad: it was marked dead in the blockstore (unless `DeadSlots::Report`).
    Dead {
        /// The statistics up to the failure.
        stats: SlotStats,
        /// Why the slot is dead.
        error: ReplayError,
    },
    /// Not replayed and not marked (parent dead or unknown, already dead, not in the ledger).
    Refused {
        /// Why the slot was refused.
        error: ReplayError,
    },
}

impl SlotStatus {
    /// True once the slot will not change any more (replayed, dead or refused).
    pub fn is_final(&self) -> bool {
        matches!(
            self,
            Self::Replayed { .. } | Self::Dead { .. } | Self::Refused { .. }
        )
    }
}

/// Replays slots of one blockstore on the caller's thread.
#[derive(Debug)]
pub struct ReplayDriver<E: Executor = CountingExecutor> {
    blockstore: Arc<Blockstore>,
    options: ReplayOptions,
    executor: E,
    fetcher: Fetcher,
    /// Slots under replay: never evicted.
    active: BTreeMap<Slot, SlotReplay>,
    /// Blockhashes of replayed and seeded slots (what children chain from) and dead marks:
    /// a bounded cache over the ledger.
    known: Known,
}

impl<E: Executor> ReplayDriver<E> {
    /// A driver with no replayed slot yet: seed the root with [`Self::seed_blockhash`].
    pub fn new(blockstore: Arc<Blockstore>, options: ReplayOptions, executor: E) -> Self {
        let fetcher = Fetcher::new(options.fetch.clone());
        let known = Known::new(options.retention, options.dead_slots == DeadSlots::Mark);
        Self {
            blockstore,
            options,
            executor,
            fetcher,
            active: BTreeMap::new(),
            known,
        }
    }

    /// Declares `slot` replayed with last entry hash `blockhash` (the ledger's root, or the
    /// parent of the first slot of a ledger, whose blockhash comes from a snapshot). Seeds
    /// are never evicted.
    pub fn seed_blockhash(&mut self, slot: Slot, blockhash: Hash) {
        self.known.seed(slot, blockhash);
    }

    /// The blockhash of a seeded slot, or of a replayed slot the driver still holds (`None`
    /// once it was evicted: see [`Retention`]).
    pub fn blockhash(&self, slot: Slot) -> Option<Hash> {
        self.known.blockhash(slot)
    }

    /// What the driver holds now, and how much it evicted and read back.
    pub fn retained(&self) -> Retained {
        self.known.retained(self.active.len())
    }

    /// The executor (e.g. to read its totals).
    pub fn executor(&self) -> &E {
        &self.executor
    }

    /// The blockstore replayed from.
    pub fn blockstore(&self) -> &Arc<Blockstore> {
        &self.blockstore
    }

    /// Replays as much of `slot` as has arrived: fetches greedily until no new data set is
    /// complete. `Err` only when the store itself fails (no slot is at fault then; the
    /// slot's progress is kept and the call may be retried).
    ///
    /// Each call first reads the ledger's newest root: finished slots that fell out of the
    /// [`Retention`] margin are evicted. A slot evicted after it was replayed is not known as
    /// replayed any more: named again, it is replayed again from the ledger, with the same
    /// verdict and blockhash while its bytes and its parent's are unchanged (and a second
    /// `replay-slot-stats` point). A slot evicted after it died stays refused
    /// (`AlreadyDead`): the blockstore's dead flag answers.
    pub fn replay(&mut self, slot: Slot) -> Result<SlotStatus, ReplayError> {
        let root = self
            .blockstore
            .max_root()
            .map_err(|source| ReplayError::Storage { slot, source })?;
        if let Some(root) = root {
            self.known.set_root(root);
        }
        if self.known.blockhash(slot).is_some() {
            return Ok(refused(ReplayError::AlreadyReplayed { slot }));
        }
        if self.known.holds_dead(slot) {
            return Ok(refused(ReplayError::AlreadyDead { slot }));
        }
        if !self.active.contains_key(&slot) {
            match self.begin(slot)? {
                Ok(state) => {
                    self.active.insert(slot, state);
                }
                Err(status) => return Ok(status),
            }
        }
        self.advance(slot)
    }

    /// Checks the slot and its parent; the parent's blockhash seeds the slot's PoH.
    fn begin(&mut self, slot: Slot) -> Result<Result<SlotReplay, SlotStatus>, ReplayError> {
        let storage = |source| ReplayError::Storage { slot, source };
        let streaming = self.options.completion == Completion::Streaming;
        let Some(meta) = self.blockstore.meta(slot).map_err(storage)? else {
            return Ok(Err(if streaming {
                SlotStatus::InProgress { shreds: 0 }
            } else {
                refused(ReplayError::UnknownSlot { slot })
            }));
        };
        let Some(parent) = meta.parent_slot else {
            return Ok(Err(if streaming {
                SlotStatus::InProgress { shreds: 0 }
            } else {
                refused(ReplayError::NoParent { slot })
            }));
        };
        if self.blockstore.is_dead(slot).map_err(storage)? {
            self.known.dead(slot);
            return Ok(Err(refused(ReplayError::AlreadyDead { slot })));
        }
        let parent_hash = match self
            .known
            .parent(&self.blockstore, parent)
            .map_err(storage)?
        {
            ParentState::Known(hash) => hash,
            ParentState::Dead => return Ok(Err(refused(ReplayError::ParentDead { slot, parent }))),
            ParentState::Unknown if streaming => {
                return Ok(Err(SlotStatus::WaitingForParent { parent }));
            }
            ParentState::Unknown => {
                return Ok(Err(refused(ReplayError::ParentUnknown { slot, parent })));
            }
        };
        Ok(Ok(SlotReplay::new(
            slot,
            (parent, parent_hash),
            meta.replay_fec_set_index,
            &self.options.tick_rules,
            &self.options.hash_limits,
            self.options.alpenglow,
        )))
    }

    fn advance(&mut self, slot: Slot) -> Result<SlotStatus, ReplayError> {
        let Some(state) = self.active.get_mut(&slot) else {
            return Ok(SlotStatus::InProgress { shreds: 0 });
        };
        let result = loop {
            match state.step(
                &self.blockstore,
                &mut self.fetcher,
                &mut self.executor,
                &mut self.known,
            ) {
                Ok(Step::Progress) => continue,
                Ok(Step::Complete) => break Ok(()),
                Ok(Step::Nothing) => {
                    if self.options.completion == Completion::Streaming {
                        return Ok(SlotStatus::InProgress {
                            shreds: state.shreds(),
                        });
                    }
                    break Err(incomplete(&self.blockstore, slot)?);
                }
                Err(e @ ReplayError::Storage { .. }) => return Err(e),
                Err(e) => break Err(e),
            }
        };
        let Some(mut state) = self.active.remove(&slot) else {
            return Ok(SlotStatus::InProgress { shreds: 0 });
        };
        let stats = state.finish_stats();
        match result {
            Ok(()) => {
                self.known.replayed(slot, state.last_hash);
                self.options
                    .metrics
                    .submit(stats.to_datapoint(), Level::Info);
                log::debug!("replayed slot {slot}: {stats:?}");
                Ok(SlotStatus::Replayed {
                    stats,
                    blockhash: state.last_hash,
                })
            }
            Err(error) if error.marks_dead() => {
                self.mark_dead(&error);
                Ok(SlotStatus::Dead { stats, error })
            }
            Err(error) => {
                if matches!(error, ReplayError::AlreadyDead { .. }) {
                    self.known.dead(slot);
                }
                Ok(refused(error))
            }
        }
    }

    /// Marks the slot dead in the blockstore (Agave's one-byte flag: the reason itself is
    /// kept in the returned status, the `replay-slot-dead` point and the log). With
    /// `DeadSlots::Report` the flag is left alone; the driver still treats the slot as
    /// dead, so its children are refused.
    fn mark_dead(&mut self, error: &ReplayError) {
        let slot = error.slot();
        self.known.dead(slot);
        let dead_slots = self.options.dead_slots;
        match dead_slots {
            DeadSlots::Mark => {
                log::warn!("marking slot {slot} dead: {error}");
                if let Err(e) = self.blockstore.set_dead_slot(slot) {
                    log::error!("slot {slot}: could not mark it dead in the blockstore: {e}");
                }
            }
            DeadSlots::Report => log::warn!("slot {slot} is dead (not marked): {error}"),
        }
        self.options
            .metrics
            .submit(dead_slot_datapoint(error, dead_slots), Level::Error);
    }
}

fn refused(error: ReplayError) -> SlotStatus {
    log::info!("not replaying slot {}: {error}", error.slot());
    SlotStatus::Refused { error }
}

/// Why a slot of a final ledger stopped short: its first missing shred.
fn incomplete(blockstore: &Blockstore, slot: Slot) -> Result<ReplayError, ReplayError> {
    let meta = blockstore
        .meta(slot)
        .map_err(|source| ReplayError::Storage { slot, source })?;
    let (consumed, last_index) = meta.map_or((0, None), |m| (m.consumed, m.last_index));
    Ok(ReplayError::Incomplete {
        slot,
        missing: ShredIndex(u32::try_from(consumed).unwrap_or(u32::MAX)),
        last_index,
    })
}
