use super::*;
use crate::store::MemEngine;
use crate::store::kv::{KvBatch, KvWrite};

const SLOT: Slot = Slot(5);
/// Indices 0..10 of `SLOT` with 3, 6, 8 and 9 missing, and rows of the slots around it.
const STORED: [u32; 6] = [0, 1, 2, 4, 5, 7];

fn store() -> Blockstore<MemEngine> {
    let store = Blockstore::in_memory();
    let mut batch = store.kv().batch().expect("writable");
    let rows = STORED
        .iter()
        .map(|&i| (SLOT, i))
        .chain([(Slot(4), 3), (Slot(6), 0)]);
    for (slot, index) in rows {
        let key = DataShred::encode_key((slot, ShredIndex(index)));
        let value = vec![index as u8; 1 + index as usize];
        batch.put(DataShred::NAME, &key, &value).expect("put");
    }
    store.kv().write(batch).expect("write");
    store
}

/// The next piece of `scan`, up to `until`, as owned payloads per index of `indices` (the
/// indices the piece covers), `None` for those not visited; a row visited outside them
/// fails the test.
fn piece(
    scan: &mut DataShredScan<'_, MemEngine>,
    until: u32,
    indices: std::ops::Range<u32>,
) -> Vec<Option<Vec<u8>>> {
    let mut got = vec![None; indices.len()];
    scan.visit_until(until, |index, value| {
        assert!(indices.contains(&index), "{index} outside {indices:?}");
        got[(index - indices.start) as usize] = Some(value.to_vec());
        Ok(())
    })
    .expect("piece");
    got
}

/// What indices `from..until` hold: the stored payloads, `None` for the missing ones.
fn stored(from: u32, until: u32) -> Vec<Option<Vec<u8>>> {
    (from..until)
        .map(|i| STORED.contains(&i).then(|| vec![i as u8; 1 + i as usize]))
        .collect()
}

/// Any split of `0..10` into consecutive pieces reads exactly what is stored at each
/// piece's indices: a missing shred at a piece's end, which makes the cursor step into the
/// next piece, loses nothing and adds nothing. The whole-range scan is the one-piece case.
#[test]
fn pieces_read_what_is_stored_at_their_indices() {
    let store = store();
    for cuts in [
        vec![10],
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        vec![3, 6, 10],
        vec![4, 7, 9, 10],
        vec![0, 3, 3, 8, 10],
    ] {
        let mut scan = store.data_shred_scan(SLOT, 0, 10);
        let mut from = 0;
        for until in cuts.clone() {
            let got = piece(&mut scan, until, from..until);
            assert_eq!(
                got,
                stored(from, until),
                "cuts {cuts:?}, piece {from}..{until}"
            );
            from = until;
        }
    }
    for (from, until) in [(0, 10), (3, 8), (6, 7)] {
        let mut scan = store.data_shred_scan(SLOT, from, until);
        assert_eq!(
            piece(&mut scan, until, from..until),
            stored(from, until),
            "{from}..{until}"
        );
    }
}

/// A piece past the scan's end stops at the end; a piece that starts later than the last
/// one ended skips nothing it was not asked for (the caller reads up to its start first).
#[test]
fn pieces_stop_at_the_scan_end() {
    let store = store();
    let mut scan = store.data_shred_scan(SLOT, 2, 6);
    assert_eq!(
        piece(&mut scan, 100, 2..6),
        vec![Some(vec![2; 3]), None, Some(vec![4; 5]), Some(vec![5; 6])]
    );
    assert!(piece(&mut scan, 100, 6..6).is_empty());
}
