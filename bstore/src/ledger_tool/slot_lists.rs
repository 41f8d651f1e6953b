//! `bstore ledger dead-slots` and `bstore ledger duplicate-slots`: agave-ledger-tool's
//! commands of the same names — the slots at or above a start slot marked in `dead_slots`,
//! or holding a proof in `duplicate_slots`, ascending, one per line (or one JSON list).

use bstore_ledger::Slot;
use bstore_ledger::shred::{ShredKind, ShredRef};
use bstore_ledger::store::{Blockstore, DuplicateSlotProof, KvEngine};
use serde_json::{Value, json};

use super::{Detail, Format};

/// Runs `bstore ledger dead-slots`.
pub(crate) fn run_dead<E: KvEngine>(
    store: &Blockstore<E>,
    start: Slot,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let slots = store
        .dead_slots_from(start)
        .collect::<bstore_ledger::Result<Vec<Slot>>>()?;
    print_list("dead_slots", &slots, format);
    Ok(())
}

/// Runs `bstore ledger duplicate-slots`; `Detail::Full` adds each proof's two shreds
/// (Agave's `duplicate-slots -v`).
pub(crate) fn run_duplicate<E: KvEngine>(
    store: &Blockstore<E>,
    start: Slot,
    detail: Detail,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let slots = store
        .duplicate_slots_from(start)
        .collect::<bstore_ledger::Result<Vec<Slot>>>()?;
    if detail == Detail::Brief {
        print_list("duplicate_slots", &slots, format);
        return Ok(());
    }
    let mut proofs = Vec::with_capacity(slots.len());
    for &slot in &slots {
        // The key was just listed; a proof gone since is a purge racing us, shown as null.
        let proof = store.duplicate_slot_proof(slot)?;
        proofs.push(json!({"slot": slot.0, "proof": proof.as_ref().map(proof_json)}));
    }
    match format {
        Format::Json => {
            let v = json!({
                "duplicate_slots": slots.iter().map(|s| s.0).collect::<Vec<_>>(),
                "proofs": proofs,
            });
            println!("{v}");
        }
        Format::Text => {
            for p in &proofs {
                println!("{}", p["slot"]);
                for shred in ["shred1", "shred2"] {
                    println!("  {shred}: {}", p["proof"][shred]);
                }
            }
        }
    }
    Ok(())
}

fn print_list(name: &str, slots: &[Slot], format: Format) {
    match format {
        Format::Text => {
            for slot in slots {
                println!("{slot}");
            }
        }
        Format::Json => {
            let list: Vec<u64> = slots.iter().map(|s| s.0).collect();
            println!("{}", json!({ name: list }));
        }
    }
}

/// The two shreds of a proof by their headers (`shred1` is the one the store kept).
fn proof_json(proof: &DuplicateSlotProof) -> Value {
    json!({
        "shred1": shred_json(&proof.shred1),
        "shred2": shred_json(&proof.shred2),
    })
}

fn shred_json(payload: &[u8]) -> Value {
    match ShredRef::parse(payload) {
        Ok(s) => json!({
            "slot": s.slot().0,
            "index": s.index().0,
            "kind": match s.kind() {
                ShredKind::Data => "data",
                ShredKind::Code => "code",
            },
            "variant": s.variant().name(),
            "fec_set_index": s.fec_set_index(),
            "version": s.version(),
            "payload_len": payload.len(),
        }),
        Err(e) => json!({"payload_len": payload.len(), "error": e.to_string()}),
    }
}
