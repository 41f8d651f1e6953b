//! Length prefixes larger than the remaining bytes can hold (u64::MAX entry or transaction
//! counts, 65,535-item compact-u16 lengths) are errors at the prefix's offset, and nothing
//! is allocated for them: a measuring allocator records the largest allocation made on the
//! decoding thread.
#![allow(unsafe_code)] // the measuring global allocator below; it only forwards to `System`

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use bstore_formats::FormatError;
use bstore_formats::entry::{
    EntriesView, Entry, EntryDefect, MIN_TRANSACTION_BYTES, decode_entries, decode_transaction,
};

thread_local! {
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

struct Measuring;

// SAFETY: every call forwards unchanged to the system allocator; the thread-local is
// const-initialised without a destructor, so touching it never allocates or recurses.
unsafe impl GlobalAlloc for Measuring {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = LARGEST.try_with(|m| m.set(m.get().max(layout.size())));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = LARGEST.try_with(|m| m.set(m.get().max(new_size)));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Measuring = Measuring;

/// Runs `f` and returns its result with the largest single allocation it made.
fn largest_allocation<T>(f: impl FnOnce() -> T) -> (T, usize) {
    LARGEST.with(|m| m.set(0));
    let out = f();
    (out, LARGEST.with(Cell::get))
}

fn defect(r: Result<(), FormatError>) -> (usize, EntryDefect) {
    match r {
        Err(FormatError::InvalidEntries { offset, defect }) => (offset, defect),
        other => panic!("expected InvalidEntries, got {other:?}"),
    }
}

/// Decodes (owned and view) and checks both fail at `offset` with a too-large `what`, the
/// owned decode allocating at most `budget` bytes at once. The view may also allocate its
/// transaction offset table, sized from the byte length (4 bytes per smallest transaction),
/// never from a declared count.
fn assert_bomb(bytes: &[u8], offset: usize, what: &str, budget: usize) {
    let view_budget = budget + 4 * (bytes.len() / MIN_TRANSACTION_BYTES);
    let (owned, a) = largest_allocation(|| decode_entries(bytes).map(|_| ()));
    let (view, b) = largest_allocation(|| EntriesView::parse(bytes).map(|_| ()));
    for (name, r, largest, budget) in [("owned", owned, a, budget), ("view", view, b, view_budget)]
    {
        let (at, d) = defect(r);
        assert_eq!(at, offset, "{name}: offset of the length prefix");
        match d {
            EntryDefect::LengthTooLarge { what: w, .. } => assert_eq!(w, what, "{name}"),
            other => panic!("{name}: expected LengthTooLarge, got {other:?}"),
        }
        assert!(
            largest <= budget,
            "{name}: allocated {largest} bytes for a length bomb"
        );
    }
}

/// A valid entry header with the given transaction count.
fn entry_header(tx_count: u64) -> Vec<u8> {
    let mut v = 5u64.to_le_bytes().to_vec();
    v.extend_from_slice(&[9; 32]);
    v.extend_from_slice(&tx_count.to_le_bytes());
    v
}

#[test]
fn length_bombs_fail_without_allocating() {
    let zeros = vec![0u8; 1 << 20];

    // u64::MAX entries, then 1 MiB that could hold 21,845 entries.
    let mut bytes = u64::MAX.to_le_bytes().to_vec();
    bytes.extend_from_slice(&zeros);
    assert_bomb(&bytes, 0, "entry count", 0);
    match defect(decode_entries(&bytes).map(|_| ())).1 {
        EntryDefect::LengthTooLarge { declared, max, .. } => {
            assert_eq!((declared, max), (u64::MAX, (1 << 20) / 48));
        }
        other => panic!("unexpected {other:?}"),
    }

    // One more entry than the bytes can hold.
    let mut bytes = ((1u64 << 20) / 48 + 1).to_le_bytes().to_vec();
    bytes.extend_from_slice(&zeros);
    assert_bomb(&bytes, 0, "entry count", 0);

    // An entry declaring u64::MAX transactions.
    let mut bytes = 1u64.to_le_bytes().to_vec();
    bytes.extend_from_slice(&entry_header(u64::MAX));
    bytes.extend_from_slice(&zeros);
    assert_bomb(&bytes, 8 + 40, "transaction count", 64);

    // Signature counts: legacy / v0 take one byte (127 at most), v1 takes the header's
    // num_required_signatures (255 at most); both are checked against the bytes left.
    let legacy = [&[0x7fu8][..], &[0u8; 300]].concat();
    let v1 = [
        &[0x81u8, 0xff, 0, 0][..],
        &[0; 4],
        &[0; 32],
        &[0, 0],
        &[0; 300],
    ]
    .concat();
    for (tx, at, what, declared) in [
        (&legacy, 0, "signature count", 127),
        (&v1, 1, "v1 signature count", 255),
    ] {
        let ((), largest) = largest_allocation(|| {
            let (offset, d) = defect(decode_transaction(tx).map(|_| ()));
            assert_eq!(offset, at, "{what}");
            assert!(
                matches!(d, EntryDefect::LengthTooLarge { what: w, declared: n, .. } if w == what && n == declared),
                "{what}: got {d:?}"
            );
        });
        assert!(largest <= 64, "{what}: allocated {largest} bytes");
    }

    // Compact-u16 bombs inside a transaction: 65,535 keys / instructions / data bytes /
    // lookups in a few hundred bytes.
    let max16 = [0xff, 0xff, 0x03];
    let tx_cases: Vec<(Vec<u8>, usize, &str)> = vec![
        (
            [&[0u8, 1, 0, 0][..], &max16, &[0; 300]].concat(),
            4,
            "account key count",
        ),
        (
            [&[0u8, 1, 0, 0, 0][..], &[0; 32], &max16, &[0; 300]].concat(),
            37,
            "instruction count",
        ),
        (
            [
                &[0u8, 1, 0, 0, 0][..],
                &[0; 32],
                &[1, 0, 0],
                &max16,
                &[0; 300],
            ]
            .concat(),
            40,
            "instruction data length",
        ),
        (
            [
                &[0u8, 0x80, 1, 0, 0, 0][..],
                &[0; 32],
                &[0],
                &max16,
                &[0; 300],
            ]
            .concat(),
            39,
            "address table lookup count",
        ),
    ];
    for (tx, at, what) in &tx_cases {
        let ((), largest) = largest_allocation(|| {
            let (offset, d) = defect(decode_transaction(tx).map(|_| ()));
            assert_eq!(offset, *at, "{what}");
            assert!(
                matches!(d, EntryDefect::LengthTooLarge { what: w, declared: 65_535, .. } if w == *what),
                "{what}: got {d:?}"
            );
        });
        assert!(largest <= 64, "{what}: allocated {largest} bytes");
        // The same bytes as the only transaction of an entry: offsets shift by the headers.
        let mut set = 1u64.to_le_bytes().to_vec();
        set.extend_from_slice(&entry_header(1));
        set.extend_from_slice(tx);
        assert_bomb(&set, 8 + 48 + at, what, 256);
    }
}

#[test]
fn allocation_is_bounded_by_the_input() {
    // The largest count 1 MiB can hold is accepted and allocated once, in proportion to the
    // bytes: zeroed entries are 48 bytes on the wire and one `Entry` in memory.
    let n = (1u64 << 20) / 48;
    let mut bytes = n.to_le_bytes().to_vec();
    bytes.extend_from_slice(&vec![0u8; 1 << 20]);
    let (entries, largest) = largest_allocation(|| decode_entries(&bytes).expect("zero entries"));
    assert_eq!(entries.len() as u64, n);
    assert_eq!(largest, n as usize * size_of::<Entry>());
    let (view, largest) = largest_allocation(|| EntriesView::parse(&bytes).expect("view"));
    assert_eq!(view.len() as u64, n);
    assert!(
        largest <= bytes.len(),
        "view allocated {largest} for {} bytes",
        bytes.len()
    );
}
