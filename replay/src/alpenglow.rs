//! Which slots follow Alpenglow's rules, and the order rules of a block's components
//! (`docs/block-components.md#replay`).
//!
//! Agave decides per slot from its migration state (the `alpenglow` feature and the
//! genesis certificate), never from the bytes: a slot is an Alpenglow block when it is
//! after the Alpenglow genesis slot. A marker in any other slot is
//! `BlockComponentPreMigration` and the slot is dead; the fetch itself never refuses a
//! marker. [`Alpenglow`] is that decision as a replay option.
//!
//! An Alpenglow block is: header, optional genesis certificate (only right after the
//! header), entry batches, optional UpdateParent, entry batches, footer, and the final tick
//! (a last batch of exactly one tick of one hash). [`ComponentCheck`] is Agave's
//! `BlockComponentStage` machine with its error names.

use std::fmt;

use bstore_ledger::Slot;
use bstore_ledger::block::{BlockMarker, UpdateParent};

/// Consecutive slots of one leader: an UpdateParent may only open a window.
const LEADER_WINDOW_SLOTS: u64 = 4;

/// Which slots replay treats as Alpenglow blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Alpenglow {
    /// None (TowerBFT; every cluster before the migration): a block marker kills the slot.
    #[default]
    Off,
    /// Every slot after the Alpenglow genesis slot `genesis` (Agave's `AlpenglowEnabled`
    /// rule: `slot > genesis`). `After(Slot(0))` is a cluster with Alpenglow from genesis.
    After(Slot),
}

impl Alpenglow {
    /// Whether `slot` is an Alpenglow block.
    pub fn is_alpenglow(self, slot: Slot) -> bool {
        match self {
            Self::Off => false,
            Self::After(genesis) => slot > genesis,
        }
    }

    /// Whether a block whose parent is `parent` must carry the genesis certificate: the
    /// first block after a migration genesis (not a cluster that starts on Alpenglow).
    fn requires_genesis_certificate(self, parent: Slot) -> bool {
        matches!(self, Self::After(genesis) if genesis.0 != 0 && parent == genesis)
    }
}

/// A component-order failure, named as Agave's `BlockComponentProcessorError`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComponentViolation {
    /// A marker in a slot that is not an Alpenglow block.
    BlockComponentPreMigration,
    /// An entry batch, footer or genesis certificate before the header.
    MissingParentMarker,
    /// A second header.
    MultipleBlockHeaders,
    /// The header names another parent than the slot's.
    HeaderParentSlotMismatch {
        /// The parent slot the block header names.
        header_parent_slot: Slot,
        /// The parent slot in the slot's meta (the shreds' parent).
        bank_parent_slot: Slot,
    },
    /// A genesis certificate anywhere but right after the header.
    GenesisCertificateOutOfOrder,
    /// A genesis certificate whose slot is not the parent's.
    GenesisCertificateOnNonChild,
    /// A genesis certificate in a block whose parent is slot 0 (a cluster on Alpenglow from
    /// genesis has none).
    GenesisCertificateInAlpenglowCluster,
    /// The first block after the migration genesis has no genesis certificate.
    MissingGenesisCertificateMarker,
    /// An UpdateParent after another one.
    MultipleUpdateParents,
    /// An UpdateParent in a slot that is not the first of its 4-slot leader window.
    UpdateParentNotFirstInLeaderWindow(Slot),
    /// An UpdateParent after the footer, or a header after an UpdateParent.
    SpuriousUpdateParent,
    /// A replay from the start of the slot met an UpdateParent before any header.
    UnexpectedInitialUpdateParent,
    /// An entry batch after the footer that is not the final tick.
    EntryBatchAfterBlockFooter,
    /// The final tick is missing, misplaced, or not alone.
    InvalidAlpentickPosition,
    /// A second footer.
    MultipleBlockFooters,
    /// The slot is full without a footer.
    MissingBlockFooter,
}

impl ComponentViolation {
    /// A stable snake_case name (the `reason` of a dead slot).
    pub fn name(self) -> &'static str {
        match self {
            Self::BlockComponentPreMigration => "block_component_pre_migration",
            Self::MissingParentMarker => "missing_parent_marker",
            Self::MultipleBlockHeaders => "multiple_block_headers",
            Self::HeaderParentSlotMismatch { .. } => "header_parent_slot_mismatch",
            Self::GenesisCertificateOutOfOrder => "genesis_certificate_out_of_order",
            Self::GenesisCertificateOnNonChild => "genesis_certificate_on_non_child",
            Self::GenesisCertificateInAlpenglowCluster => {
                "genesis_certificate_in_alpenglow_cluster"
            }
            Self::MissingGenesisCertificateMarker => "missing_genesis_certificate_marker",
            Self::MultipleUpdateParents => "multiple_update_parents",
            Self::UpdateParentNotFirstInLeaderWindow(_) => {
                "update_parent_not_first_in_leader_window"
            }
            Self::SpuriousUpdateParent => "spurious_update_parent",
            Self::UnexpectedInitialUpdateParent => "unexpected_initial_update_parent",
            Self::EntryBatchAfterBlockFooter => "entry_batch_after_block_footer",
            Self::InvalidAlpentickPosition => "invalid_alpentick_position",
            Self::MultipleBlockFooters => "multiple_block_footers",
            Self::MissingBlockFooter => "missing_block_footer",
        }
    }
}

impl fmt::Display for ComponentViolation {
    /// Agave's message for the same error.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::BlockComponentPreMigration => f.write_str("BlockComponent detected pre-migration"),
            Self::MissingParentMarker => f.write_str(
                "Missing parent marker (neither a header nor an update parent was present)",
            ),
            Self::MultipleBlockHeaders => f.write_str("Multiple block headers detected"),
            Self::HeaderParentSlotMismatch {
                header_parent_slot,
                bank_parent_slot,
            } => write!(
                f,
                "Block header parent slot mismatch: header={header_parent_slot}, bank={bank_parent_slot}"
            ),
            Self::GenesisCertificateOutOfOrder => {
                f.write_str("GenesisCertificate marker must immediately follow the block header")
            }
            Self::GenesisCertificateOnNonChild => f.write_str(
                "GenesisCertificate marker detected on a block which is not a child of genesis",
            ),
            Self::GenesisCertificateInAlpenglowCluster => f.write_str(
                "GenesisCertificate marker detected when the cluster has Alpenglow enabled at slot 0",
            ),
            Self::UpdateParentNotFirstInLeaderWindow(slot) => write!(
                f,
                "UpdateParent marker is only valid in the first slot of a leader window: slot {slot}"
            ),
            Self::MissingGenesisCertificateMarker => {
                f.write_str("Missing genesis certificate marker")
            }
            Self::MultipleUpdateParents => f.write_str("Multiple update parents detected"),
            Self::SpuriousUpdateParent => f.write_str("Spurious update parent"),
            Self::UnexpectedInitialUpdateParent => f.write_str(
                "UpdateParent cannot be the initial parent marker unless replay starts at UpdateParent",
            ),
            Self::EntryBatchAfterBlockFooter => f.write_str("Entry batch detected after block footer"),
            Self::InvalidAlpentickPosition => f.write_str(
                "Alpentick must be the final block component and appear after block footer",
            ),
            Self::MultipleBlockFooters => f.write_str("Multiple block footers detected"),
            Self::MissingBlockFooter => f.write_str("Missing block footer"),
        }
    }
}

/// Where in the block shape the components so far have brought us.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// Nothing yet: only a header.
    PreParentMarker,
    /// Right after the header: genesis certificate, entries or footer.
    AfterHeader,
    /// Entries: more entries or the footer; an UpdateParent only if the section began at
    /// the header.
    Entries { after_update_parent: bool },
    /// After the footer: only the final tick.
    AfterFooter,
    /// After the final tick: nothing.
    Done,
}

/// What a marker asks replay to do beyond accepting it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MarkerAction {
    /// Nothing.
    Continue,
    /// The prefix built on the header's parent is abandoned: continue from the new
    /// parent's blockhash (Agave drops the bank and replays from the UpdateParent's FEC
    /// set on the new parent).
    Reparent(UpdateParent),
}

/// The order rules of one slot's components.
#[derive(Debug, Clone)]
pub(crate) struct ComponentCheck {
    alpenglow: bool,
    slot: Slot,
    /// The first Alpenglow block after a migration genesis must carry the certificate.
    needs_genesis_certificate: bool,
    has_genesis_certificate: bool,
    parent: Slot,
    stage: Stage,
    /// Replay starts at the slot's UpdateParent (`SlotMeta::replay_fec_set_index`), so the
    /// UpdateParent is the first parent marker seen.
    starts_at_update_parent: bool,
}

impl ComponentCheck {
    pub(crate) fn new(mode: Alpenglow, slot: Slot, parent: Slot) -> Self {
        // Slot 0 has no markers and is never checked (as Agave skips it).
        let alpenglow = mode.is_alpenglow(slot) && slot.0 != 0;
        Self {
            alpenglow,
            slot,
            needs_genesis_certificate: alpenglow && mode.requires_genesis_certificate(parent),
            has_genesis_certificate: false,
            parent,
            stage: Stage::PreParentMarker,
            starts_at_update_parent: false,
        }
    }

    /// The check of a replay that starts at the slot's UpdateParent, as Agave 4.4 replays a
    /// slot whose meta has a non-zero `replay_fec_set_index`; `parent` is the new parent.
    /// The header and any genesis certificate lie before the start and are not seen.
    pub(crate) fn from_update_parent(mode: Alpenglow, slot: Slot, parent: Slot) -> Self {
        Self {
            needs_genesis_certificate: false,
            starts_at_update_parent: true,
            ..Self::new(mode, slot, parent)
        }
    }

    /// Whether the slot follows Alpenglow's rules.
    pub(crate) fn is_alpenglow(&self) -> bool {
        self.alpenglow
    }

    pub(crate) fn on_marker(
        &mut self,
        marker: &BlockMarker,
    ) -> Result<MarkerAction, ComponentViolation> {
        use ComponentViolation as V;
        if !self.alpenglow {
            return Err(V::BlockComponentPreMigration);
        }
        if marker.as_update_parent().is_some() && !self.slot.0.is_multiple_of(LEADER_WINDOW_SLOTS) {
            return Err(V::UpdateParentNotFirstInLeaderWindow(self.slot));
        }
        let next = match (marker, self.stage) {
            (BlockMarker::Header(h), Stage::PreParentMarker) => {
                if h.parent_slot != self.parent {
                    return Err(V::HeaderParentSlotMismatch {
                        header_parent_slot: h.parent_slot,
                        bank_parent_slot: self.parent,
                    });
                }
                Stage::AfterHeader
            }
            (
                BlockMarker::Header(_),
                Stage::Entries {
                    after_update_parent: true,
                },
            ) => {
                return Err(V::SpuriousUpdateParent);
            }
            (BlockMarker::Header(_), _) => return Err(V::MultipleBlockHeaders),
            (BlockMarker::GenesisCertificate(_), Stage::PreParentMarker) => {
                return Err(V::MissingParentMarker);
            }
            (BlockMarker::GenesisCertificate(g), Stage::AfterHeader) => {
                if self.parent.0 == 0 {
                    return Err(V::GenesisCertificateInAlpenglowCluster);
                }
                if g.slot != self.parent {
                    return Err(V::GenesisCertificateOnNonChild);
                }
                self.has_genesis_certificate = true;
                Stage::Entries {
                    after_update_parent: false,
                }
            }
            (BlockMarker::GenesisCertificate(_), _) => return Err(V::GenesisCertificateOutOfOrder),
            (BlockMarker::UpdateParent(_), Stage::PreParentMarker)
                if !self.starts_at_update_parent =>
            {
                return Err(V::UnexpectedInitialUpdateParent);
            }
            (
                BlockMarker::UpdateParent(u),
                Stage::PreParentMarker
                | Stage::AfterHeader
                | Stage::Entries {
                    after_update_parent: false,
                },
            ) => {
                self.stage = Stage::Entries {
                    after_update_parent: true,
                };
                self.parent = u.new_parent_slot;
                return Ok(MarkerAction::Reparent(*u));
            }
            (BlockMarker::UpdateParent(_), Stage::Entries { .. }) => {
                return Err(V::MultipleUpdateParents);
            }
            (BlockMarker::UpdateParent(_), Stage::AfterFooter | Stage::Done) => {
                return Err(V::SpuriousUpdateParent);
            }
            (BlockMarker::Footer(_), Stage::PreParentMarker) => return Err(V::MissingParentMarker),
            (BlockMarker::Footer(_), Stage::AfterHeader | Stage::Entries { .. }) => {
                Stage::AfterFooter
            }
            (BlockMarker::Footer(_), Stage::AfterFooter | Stage::Done) => {
                return Err(V::MultipleBlockFooters);
            }
        };
        self.stage = next;
        Ok(MarkerAction::Continue)
    }

    /// An entry batch; `alpentick` when it is the slot's last data set and exactly one tick
    /// of one hash.
    pub(crate) fn on_entry_batch(&mut self, alpentick: bool) -> Result<(), ComponentViolation> {
        use ComponentViolation as V;
        if !self.alpenglow {
            return Ok(());
        }
        self.stage = match (alpentick, self.stage) {
            (_, Stage::PreParentMarker) => return Err(V::MissingParentMarker),
            (true, Stage::AfterFooter) => Stage::Done,
            (true, _) => return Err(V::InvalidAlpentickPosition),
            (false, Stage::AfterHeader) => Stage::Entries {
                after_update_parent: false,
            },
            (false, stage @ Stage::Entries { .. }) => stage,
            (false, Stage::AfterFooter | Stage::Done) => return Err(V::EntryBatchAfterBlockFooter),
        };
        Ok(())
    }

    /// The slot is full and every component was seen.
    pub(crate) fn on_final(&self) -> Result<(), ComponentViolation> {
        use ComponentViolation as V;
        if !self.alpenglow {
            return Ok(());
        }
        if self.needs_genesis_certificate && !self.has_genesis_certificate {
            return Err(V::MissingGenesisCertificateMarker);
        }
        match self.stage {
            Stage::Done => Ok(()),
            Stage::AfterFooter => Err(V::InvalidAlpentickPosition),
            Stage::PreParentMarker | Stage::AfterHeader | Stage::Entries { .. } => {
                Err(V::MissingBlockFooter)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use bstore_ledger::Hash;
    use bstore_ledger::block::{BlockFooter, BlockHeader, BlsSignature, GenesisCertificate};

    use super::*;
    use ComponentViolation as V;

    /// One component: a marker, an entry batch, or the final tick.
    #[derive(Clone)]
    enum C {
        M(BlockMarker),
        Batch,
        Tick,
    }

    fn header(parent: u64) -> C {
        C::M(BlockMarker::Header(BlockHeader {
            parent_slot: Slot(parent),
            parent_block_id: Hash::default(),
        }))
    }

    fn footer() -> C {
        C::M(BlockMarker::footer(BlockFooter {
            bank_hash: Hash::default(),
            producer_time_nanos: 0,
            user_agent: Vec::new(),
            final_cert: None,
            skip_reward_cert: None,
            notar_reward_cert: None,
        }))
    }

    fn update(parent: u64) -> C {
        C::M(BlockMarker::UpdateParent(UpdateParent {
            new_parent_slot: Slot(parent),
            new_parent_block_id: Hash::default(),
        }))
    }

    fn genesis(slot: u64) -> C {
        C::M(BlockMarker::genesis_certificate(GenesisCertificate {
            slot: Slot(slot),
            block_id: Hash::default(),
            signature: BlsSignature([0; 192]),
            bitmap: Vec::new(),
        }))
    }

    /// Runs a whole slot (8, parent 7) through the machine; the last component is final.
    fn run(mode: Alpenglow, components: &[C]) -> Result<(), ComponentViolation> {
        let mut check = ComponentCheck::new(mode, Slot(8), Slot(7));
        for (i, c) in components.iter().enumerate() {
            let last = i + 1 == components.len();
            match c {
                C::M(m) => {
                    check.on_marker(m)?;
                }
                C::Batch => check.on_entry_batch(false)?,
                C::Tick => check.on_entry_batch(last)?,
            }
        }
        check.on_final()
    }

    const ON: Alpenglow = Alpenglow::After(Slot(0));

    #[test]
    fn the_block_shape_and_each_violation() {
        let good = [header(7), C::Batch, update(6), C::Batch, footer(), C::Tick];
        assert_eq!(run(ON, &good), Ok(()));
        assert_eq!(
            run(Alpenglow::Off, &good),
            Err(V::BlockComponentPreMigration)
        );
        // A TowerBFT slot without markers passes the component rules.
        assert_eq!(run(Alpenglow::Off, &[C::Batch, C::Tick]), Ok(()));
        let cases: Vec<(Vec<C>, ComponentViolation)> = vec![
            (vec![C::Batch, footer(), C::Tick], V::MissingParentMarker),
            (vec![footer(), C::Tick], V::MissingParentMarker),
            (
                vec![update(6), C::Batch, footer(), C::Tick],
                V::UnexpectedInitialUpdateParent,
            ),
            (
                vec![header(7), update(6), update(5)],
                V::MultipleUpdateParents,
            ),
            (
                vec![header(7), update(6), header(7)],
                V::SpuriousUpdateParent,
            ),
            (
                vec![header(7), footer(), update(6)],
                V::SpuriousUpdateParent,
            ),
            (
                vec![header(7), C::Batch, genesis(7)],
                V::GenesisCertificateOutOfOrder,
            ),
            (vec![header(7), genesis(5)], V::GenesisCertificateOnNonChild),
            (
                vec![header(7), footer(), C::Batch, C::Tick],
                V::EntryBatchAfterBlockFooter,
            ),
            (vec![header(7), footer(), footer()], V::MultipleBlockFooters),
            (
                vec![header(7), C::Batch, C::Tick],
                V::InvalidAlpentickPosition,
            ),
            (
                vec![header(7), C::Batch, footer()],
                V::InvalidAlpentickPosition,
            ),
            (vec![header(7), C::Batch], V::MissingBlockFooter),
        ];
        for (components, want) in cases {
            assert_eq!(run(ON, &components), Err(want), "{want}");
        }
    }

    #[test]
    fn genesis_certificate_rules() {
        // Slot 8's parent 7 is the migration genesis: the certificate is required, right
        // after the header, naming the parent.
        let after_genesis = Alpenglow::After(Slot(7));
        let with = [header(7), genesis(7), C::Batch, footer(), C::Tick];
        assert_eq!(run(after_genesis, &with), Ok(()));
        let without = [header(7), C::Batch, footer(), C::Tick];
        assert_eq!(
            run(after_genesis, &without),
            Err(V::MissingGenesisCertificateMarker)
        );
        // A cluster on Alpenglow from slot 0 never needs one, and refuses one on a child
        // of slot 0.
        assert_eq!(run(ON, &without), Ok(()));
        let mut check = ComponentCheck::new(ON, Slot(1), Slot(0));
        let C::M(h) = header(0) else { unreachable!() };
        let C::M(g) = genesis(0) else { unreachable!() };
        assert_eq!(check.on_marker(&h), Ok(MarkerAction::Continue));
        assert_eq!(
            check.on_marker(&g),
            Err(V::GenesisCertificateInAlpenglowCluster)
        );
        // Slot 0 itself is never checked.
        let check = ComponentCheck::new(ON, Slot(0), Slot(0));
        assert!(!check.is_alpenglow());
    }

    /// A replay from the UpdateParent's FEC set takes the UpdateParent as its first parent
    /// marker (and needs no genesis certificate); from shred 0 the same order is refused.
    #[test]
    fn replay_from_update_parent_starts_at_it() {
        let mut check = ComponentCheck::from_update_parent(ON, Slot(8), Slot(6));
        let C::M(u) = update(6) else { unreachable!() };
        let C::M(f) = footer() else { unreachable!() };
        assert!(matches!(check.on_marker(&u), Ok(MarkerAction::Reparent(_))));
        assert_eq!(check.on_entry_batch(false), Ok(()));
        assert_eq!(check.on_marker(&f), Ok(MarkerAction::Continue));
        assert_eq!(check.on_entry_batch(true), Ok(()));
        assert_eq!(check.on_final(), Ok(()));
        let mut check = ComponentCheck::new(ON, Slot(8), Slot(6));
        assert_eq!(check.on_marker(&u), Err(V::UnexpectedInitialUpdateParent));
    }
}
