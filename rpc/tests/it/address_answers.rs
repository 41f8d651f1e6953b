//! Kept `getSignaturesForAddress` answers (`Limits::address_answers_bytes`): over one
//! ledger that changes under them - a root advancing over entries, a new slot before and
//! after it is rooted, a purge of the lowest rooted slot - a server that keeps answers
//! answers every request (finalized and confirmed) with the same bytes as one that keeps
//! none, asked twice in a row, and the second ask is answered from what it kept when
//! nothing changed.

use bstore_ledger::Hash;
use bstore_ledger::Slot;
use bstore_rpc::{KeptAnswerCounts, Limits, RpcServer};
use serde_json::{Value, json};

use crate::common::{
    SYNTH_CONFIRMED, SYNTH_DEAD, SYNTH_FIRST, TestLedger, block_addresses, build_ledger, post,
    server_with_limits, write_synthetic_slot,
};

/// The limits asked for each address: one entry, a few, and more than the ledger holds.
const LIMITS: [u64; 4] = [1, 3, 10, 1000];

struct Servers {
    ledger: TestLedger,
    keeping: RpcServer,
    fresh: RpcServer,
    addresses: Vec<String>,
}

fn server(ledger: &TestLedger, address_answers_bytes: usize) -> RpcServer {
    let limits = Limits {
        address_answers_bytes,
        ..Limits::default()
    };
    server_with_limits(&ledger.store, limits)
}

fn body(server: &RpcServer, params: &Value) -> String {
    let request = json!({"jsonrpc": "2.0", "id": 3, "method": "getSignaturesForAddress",
                         "params": params});
    let (status, text) = post(server.local_addr(), request.to_string().as_bytes());
    assert_eq!(status, 200, "{params}: {text}");
    text
}

impl Servers {
    fn start() -> Self {
        let ledger = build_ledger();
        let keeping = server(&ledger, Limits::default().address_answers_bytes);
        let fresh = server(&ledger, 0);
        // The six most used accounts of the first synthetic block (the vote program first,
        // which every synthetic slot uses), and an address the ledger never saw.
        let block = crate::common::call(
            fresh.local_addr(),
            "getBlock",
            json!([SYNTH_FIRST, {"encoding": "json", "maxSupportedTransactionVersion": 0}]),
        );
        let mut addresses = block_addresses(&block["result"]);
        addresses.truncate(6);
        addresses.push(bs58::encode([9u8; 32]).into_string());
        Self {
            ledger,
            keeping,
            fresh,
            addresses,
        }
    }

    /// Every address at every limit and commitment, asked twice of the keeping server and
    /// once of the fresh one: the same bytes. Returns the fresh answers at `finalized`
    /// and at `confirmed`.
    fn same(&self, step: &str) -> [Vec<Value>; 2] {
        let mut answers = [Vec::new(), Vec::new()];
        for (i, commitment) in ["finalized", "confirmed"].into_iter().enumerate() {
            for address in &self.addresses {
                for limit in LIMITS {
                    let params = json!([address, {"limit": limit, "commitment": commitment}]);
                    let first = body(&self.keeping, &params);
                    let second = body(&self.keeping, &params);
                    let fresh = body(&self.fresh, &params);
                    assert_eq!(first, fresh, "{step}: {params}: kept vs fresh");
                    assert_eq!(second, fresh, "{step}: {params}: asked again");
                    let value: Value = serde_json::from_str(&fresh).expect("json");
                    assert!(value["result"].is_array(), "{step}: {params}: {fresh}");
                    answers[i].push(value["result"].clone());
                }
            }
        }
        answers
    }

    /// Requests per commitment in [`Self::same`].
    fn cases(&self) -> u64 {
        (self.addresses.len() * LIMITS.len()) as u64
    }
}

/// The slots the answers' entries sit in.
fn slots(answers: &[Value]) -> std::collections::BTreeSet<u64> {
    answers
        .iter()
        .flat_map(|a| a.as_array().into_iter().flatten())
        .map(|e| e["slot"].as_u64().expect("slot"))
        .collect()
}

/// The confirmation status of the answers' entries in `slot`.
fn statuses(answers: &[Value], slot: u64) -> std::collections::BTreeSet<String> {
    answers
        .iter()
        .flat_map(|a| a.as_array().into_iter().flatten())
        .filter(|e| e["slot"].as_u64() == Some(slot))
        .map(|e| {
            e["confirmationStatus"]
                .as_str()
                .expect("status")
                .to_string()
        })
        .collect()
}

#[test]
fn kept_answers_are_what_a_fresh_server_answers_as_the_ledger_changes() {
    let s = Servers::start();
    let cases = s.cases();

    let [first, first_confirmed] = s.same("initial");
    assert!(slots(&first).contains(&SYNTH_FIRST), "{:?}", slots(&first));
    assert!(!slots(&first).contains(&SYNTH_CONFIRMED));
    assert_eq!(
        statuses(&first_confirmed, SYNTH_CONFIRMED),
        ["confirmed".to_string()].into()
    );
    // The second ask of each case was answered from the first's kept answer.
    let counts = s.keeping.address_answer_counts();
    assert!(counts.reused >= 2 * cases, "{counts:?}");
    assert_eq!(s.fresh.address_answer_counts(), KeptAnswerCounts::default());

    // The root advances over a slot with entries: new entries at the top of the finalized
    // answers, and the same entries finalized in the confirmed ones.
    s.ledger
        .store
        .set_roots([Slot(SYNTH_CONFIRMED)])
        .expect("root");
    let [rooted, rooted_confirmed] = s.same("root advanced");
    assert!(slots(&rooted).contains(&SYNTH_CONFIRMED));
    assert_ne!(rooted, first);
    assert_eq!(slots(&rooted_confirmed), slots(&first_confirmed));
    assert_eq!(
        statuses(&rooted_confirmed, SYNTH_CONFIRMED),
        ["finalized".to_string()].into()
    );

    // A new slot above the root: finalized answers stay as they were, and are reused; the
    // confirmed ones take its entries (a ledger without vote records counts every full
    // slot near the top as confirmed).
    let before = s.keeping.address_answer_counts();
    let new_slot = SYNTH_DEAD + 1;
    let parent_hash: Hash = s
        .ledger
        .block(SYNTH_CONFIRMED)
        .blockhash
        .parse()
        .expect("hash");
    write_synthetic_slot(&s.ledger.store, 43, new_slot, SYNTH_CONFIRMED, parent_hash);
    let [unrooted, unrooted_confirmed] = s.same("new unrooted slot");
    assert_eq!(unrooted, rooted);
    assert_eq!(
        statuses(&unrooted_confirmed, new_slot),
        ["confirmed".to_string()].into()
    );
    let after = s.keeping.address_answer_counts();
    assert!(
        after.reused - before.reused >= 2 * cases,
        "{before:?} -> {after:?}"
    );

    // Rooted: its entries come in.
    s.ledger.store.set_roots([Slot(new_slot)]).expect("root");
    let [newest, newest_confirmed] = s.same("new slot rooted");
    assert!(slots(&newest).contains(&new_slot));
    assert_eq!(
        statuses(&newest_confirmed, new_slot),
        ["finalized".to_string()].into()
    );

    // The lowest synthetic slot purged: its entries go.
    s.ledger
        .store
        .purge_slots(Slot(SYNTH_FIRST), Slot(SYNTH_FIRST))
        .expect("purge");
    let [purged, purged_confirmed] = s.same("lowest slot purged");
    for answers in [&purged, &purged_confirmed] {
        assert!(!slots(answers).contains(&SYNTH_FIRST));
        assert!(slots(answers).contains(&new_slot));
    }
}

#[test]
fn paged_answers_are_never_kept() {
    let s = Servers::start();
    // The address with the most entries (the vote program).
    let (address, all) = s
        .addresses
        .iter()
        .map(|a| {
            let all = crate::common::call(
                s.fresh.local_addr(),
                "getSignaturesForAddress",
                json!([a, {"commitment": "confirmed"}]),
            );
            (a, all["result"].as_array().cloned().unwrap_or_default())
        })
        .max_by_key(|(_, all)| all.len())
        .expect("addresses");
    assert!(all.len() > 10, "{}", all.len());
    let sig = all[all.len() / 2]["signature"].clone();
    for params in [
        json!([address, {"before": sig, "limit": 5}]),
        json!([address, {"until": sig, "commitment": "confirmed"}]),
        json!([address, {"before": all[0]["signature"], "until": sig}]),
    ] {
        for _ in 0..2 {
            assert_eq!(
                body(&s.keeping, &params),
                body(&s.fresh, &params),
                "{params}"
            );
        }
    }
    // A `before` signature the ledger does not hold: no entries, as Agave answers.
    let unknown = json!([address, {"before": "1".repeat(64)}]);
    let answer = crate::common::call(
        s.keeping.local_addr(),
        "getSignaturesForAddress",
        unknown.clone(),
    );
    assert_eq!(answer["result"], json!([]), "{answer}");
    assert_eq!(body(&s.keeping, &unknown), body(&s.fresh, &unknown));
    assert_eq!(
        s.keeping.address_answer_counts(),
        KeptAnswerCounts::default()
    );
}
