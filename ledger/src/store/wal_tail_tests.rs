//! Logs laid out as RocksDB's log writer lays them out (a test writer below), cut at every
//! kind of place. Real RocksDB logs: `rocks_tail_tests.rs`.

use super::*;

/// Appends logical records the way RocksDB's log writer does: fragments sized to the block,
/// a zero trailer when fewer than a header's bytes are left.
#[derive(Default)]
struct TestLog {
    bytes: Vec<u8>,
}

impl TestLog {
    fn add(&mut self, record: &[u8]) -> u64 {
        let mut left = record;
        let mut first = true;
        loop {
            let room = BLOCK_BYTES - self.bytes.len() % BLOCK_BYTES;
            if room < HEADER_BYTES {
                self.bytes.extend(std::iter::repeat_n(0, room));
                continue;
            }
            let take = left.len().min(room - HEADER_BYTES);
            let end = take == left.len();
            let kind = match (first, end) {
                (true, true) => FULL,
                (true, false) => FIRST,
                (false, false) => MIDDLE,
                (false, true) => LAST,
            };
            self.physical(kind, &left[..take]);
            left = &left[take..];
            first = false;
            if end {
                return self.bytes.len() as u64;
            }
        }
    }

    fn physical(&mut self, kind: u8, payload: &[u8]) {
        let len = u16::try_from(payload.len()).expect("fits a block");
        self.bytes
            .extend_from_slice(&masked_crc(kind, payload).to_le_bytes());
        self.bytes.extend_from_slice(&len.to_le_bytes());
        self.bytes.push(kind);
        self.bytes.extend_from_slice(payload);
    }
}

fn record(seed: u8, len: usize) -> Vec<u8> {
    (0..len).map(|i| seed.wrapping_add(i as u8)).collect()
}

fn tail(bytes: &[u8]) -> LogTail {
    scan(bytes).expect("in memory")
}

#[test]
fn crc32c_matches_the_standard_check_value() {
    assert_eq!(crc32c(0, b"123456789"), 0xe306_9283);
    assert_eq!(crc32c(crc32c(0, b"1234"), b"56789"), 0xe306_9283);
}

#[test]
fn complete_logs_are_complete() {
    assert_eq!(tail(&[]), LogTail::Complete { records_end: 0 });
    let mut log = TestLog::default();
    for (seed, len) in [(1, 10), (2, 0), (3, 100_000), (4, BLOCK_BYTES), (5, 7)] {
        let end = log.add(&record(seed, len));
        assert_eq!(tail(&log.bytes), LogTail::Complete { records_end: end });
    }
}

/// A log whose last record is cut inside it (a failed write of any size, stopped anywhere:
/// every offset near a block's start or end, and every 61st): torn, keeping exactly the
/// records before it.
#[test]
fn every_cut_inside_the_last_record_is_torn_back_to_the_record_before() {
    for (before_len, last_len) in [(10, 100_000), (BLOCK_BYTES - 20, 70_000), (5, 30)] {
        let mut log = TestLog::default();
        let keep = log.add(&record(1, before_len));
        let end = log.add(&record(2, last_len));
        let block = BLOCK_BYTES as u64;
        let near_edge = |c: u64| c % block < 16 || c % block > block - 16;
        for cut in (keep + 1..end).filter(|&c| c % 61 == 0 || near_edge(c)) {
            let bytes = &log.bytes[..cut as usize];
            assert_eq!(
                tail(bytes),
                LogTail::Torn { keep, len: cut },
                "cut at {cut} (records {before_len}, {last_len})"
            );
        }
    }
}

/// The file ends inside a block's zero trailer that the next record's write started.
#[test]
fn a_trailer_cut_short_is_torn_and_a_whole_one_is_not() {
    let mut log = TestLog::default();
    let keep = log.add(&record(1, BLOCK_BYTES - HEADER_BYTES - 3));
    assert_eq!(keep, (BLOCK_BYTES - 3) as u64);
    log.add(&record(2, 10));
    assert_eq!(
        tail(&log.bytes[..BLOCK_BYTES - 1]),
        LogTail::Torn {
            keep,
            len: (BLOCK_BYTES - 1) as u64
        }
    );
    assert_eq!(
        tail(&log.bytes[..BLOCK_BYTES]),
        LogTail::Complete { records_end: keep }
    );
}

#[test]
fn a_flipped_bit_anywhere_in_a_complete_record_is_unexpected() {
    let mut log = TestLog::default();
    log.add(&record(1, 50));
    let end = log.add(&record(2, 40_000)) as usize;
    for at in (0..end).step_by(997) {
        let mut bytes = log.bytes.clone();
        bytes[at] ^= 0x10;
        let verdict = tail(&bytes);
        assert!(
            matches!(verdict, LogTail::Unexpected { .. }),
            "bit flip at {at}: {verdict:?}"
        );
    }
}

#[test]
fn shapes_rocksdb_might_write_but_bstore_does_not_are_unexpected() {
    // Preallocated space left as zeros (type 0), a recyclable record (type 5), a fragment
    // out of order (LAST without FIRST), a FULL inside a fragment.
    let mut zeros = TestLog::default();
    zeros.add(&record(1, 10));
    zeros.bytes.extend([0u8; 64]);
    let mut recyclable = TestLog::default();
    recyclable.physical(5, b"0123payload");
    let mut orphan_last = TestLog::default();
    orphan_last.physical(LAST, b"tail");
    let mut full_in_fragment = TestLog::default();
    full_in_fragment.physical(FIRST, b"head");
    full_in_fragment.physical(FULL, b"other");
    for (name, log) in [
        ("zeros", zeros),
        ("recyclable", recyclable),
        ("orphan LAST", orphan_last),
        ("FULL in a fragment", full_in_fragment),
    ] {
        assert!(
            matches!(tail(&log.bytes), LogTail::Unexpected { .. }),
            "{name}: {:?}",
            tail(&log.bytes)
        );
    }
}

#[test]
fn a_length_past_the_block_is_unexpected_even_at_the_end_of_the_file() {
    let mut bytes = Vec::new();
    bytes.extend_from_slice(&0u32.to_le_bytes());
    bytes.extend_from_slice(&u16::MAX.to_le_bytes());
    bytes.push(FULL);
    bytes.extend_from_slice(&[1, 2, 3]);
    assert!(matches!(
        tail(&bytes),
        LogTail::Unexpected { offset: 0, .. }
    ));
}

#[test]
fn cut_torn_tail_truncates_only_a_torn_log() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut log = TestLog::default();
    let keep = log.add(&record(1, 1000));
    let end = log.add(&record(2, 90_000));
    let path = dir.path().join("000007.log");

    std::fs::write(&path, &log.bytes[..end as usize - 5]).expect("write");
    let verdict = cut_torn_tail(&path).expect("cut");
    assert!(matches!(verdict, LogTail::Torn { keep: k, .. } if k == keep));
    assert_eq!(
        std::fs::read(&path).expect("read"),
        log.bytes[..keep as usize]
    );

    std::fs::write(&path, &log.bytes).expect("write");
    assert_eq!(
        cut_torn_tail(&path).expect("scan"),
        LogTail::Complete { records_end: end }
    );
    assert_eq!(std::fs::read(&path).expect("read"), log.bytes);

    let mut damaged = log.bytes.clone();
    damaged[100] ^= 1;
    std::fs::write(&path, &damaged[..end as usize - 5]).expect("write");
    assert!(matches!(
        cut_torn_tail(&path).expect("scan"),
        LogTail::Unexpected { .. }
    ));
    assert_eq!(
        std::fs::read(&path).expect("read"),
        damaged[..end as usize - 5]
    );
}
