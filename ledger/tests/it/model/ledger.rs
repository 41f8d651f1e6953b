//! The model's generated ledger: a small fork of real-format slots (our shredder, signed,
//! chained, resigned), one FEC set of 32 data shreds per data set.

use bstore_ledger::entry::{Entry, encode_entries};
use bstore_ledger::shred::{BatchOptions, LastInSlot, Resign, Shredder};
use bstore_ledger::{Hash, Pubkey, Slot};
use ed25519_dalek::SigningKey;

use super::SET_SHREDS;

/// One generated slot: its shreds and the entries of each data set.
#[derive(Debug)]
pub(crate) struct GenSlot {
    pub slot: Slot,
    pub parent: Slot,
    pub data: Vec<Vec<u8>>,
    pub code: Vec<Vec<u8>>,
    /// Data set `i` is shreds `32 i .. 32 (i + 1)`.
    pub sets: Vec<Vec<Entry>>,
}

/// A small forked ledger: 0 → 1 → 2 → {3, 5}, one to three data sets per slot.
#[derive(Debug)]
pub(crate) struct GenLedger {
    pub slots: Vec<GenSlot>,
    pub leader: Pubkey,
}

/// xorshift64*: deterministic bytes without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl GenLedger {
    pub(crate) fn new(seed: u64) -> Self {
        let key = SigningKey::from_bytes(&[7u8; 32]);
        let leader = Pubkey(key.verifying_key().to_bytes());
        let mut rng = Rng(seed | 1);
        let shape = [(0, 0, 2), (1, 0, 1), (2, 1, 3), (3, 2, 2), (5, 2, 1)];
        let slots = shape
            .iter()
            .map(|&(slot, parent, sets)| gen_slot(&key, &mut rng, slot, parent, sets))
            .collect();
        Self { slots, leader }
    }
}

fn gen_slot(key: &SigningKey, rng: &mut Rng, slot: u64, parent: u64, sets: usize) -> GenSlot {
    let mut shredder =
        Shredder::new(Slot(slot), Slot(parent), 1, key.clone()).expect("valid shape");
    let (mut data, mut code, mut all_sets) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..sets {
        let entries: Vec<Entry> = (0..1 + rng.next() % 4)
            .map(|_| {
                let mut hash = [0u8; 32];
                hash[..8].copy_from_slice(&rng.next().to_le_bytes());
                Entry {
                    num_hashes: rng.next() % 1000,
                    hash: Hash(hash),
                    transactions: Vec::new(),
                }
            })
            .collect();
        let last = i + 1 == sets;
        let opts = BatchOptions {
            last_in_slot: if last {
                LastInSlot::Yes
            } else {
                LastInSlot::No
            },
            reference_tick: 0,
            resign_last: if last { Resign::Yes } else { Resign::No },
        };
        let batch = shredder
            .shred_batch_with_code(&encode_entries(&entries), opts)
            .expect("shreds");
        assert_eq!(
            batch.data.len(),
            SET_SHREDS as usize,
            "one FEC set per data set"
        );
        data.extend(batch.data);
        code.extend(batch.code);
        all_sets.push(entries);
    }
    GenSlot {
        slot: Slot(slot),
        parent: Slot(parent),
        data,
        code,
        sets: all_sets,
    }
}
