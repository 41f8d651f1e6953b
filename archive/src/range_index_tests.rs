use super::*;
use proptest::prelude::*;

fn tables(range_start: u64, spec: &[(u64, Vec<[u8; 8]>)]) -> Vec<SigTable> {
    spec.iter()
        .map(|(off, sigs)| {
            let mut entries: Vec<([u8; 64], u32)> = sigs
                .iter()
                .enumerate()
                .map(|(i, head)| {
                    let mut s = [0x5a; 64];
                    s[..8].copy_from_slice(head);
                    (s, i as u32)
                })
                .collect();
            entries.sort_unstable();
            entries.dedup_by_key(|(s, _)| *s);
            SigTable {
                slot: Slot(range_start + off),
                entries,
            }
        })
        .collect()
}

/// Runs a lookup the way a reader does, with slices standing in for range reads.
fn lookup(bytes: &[u8], layout: &Layout, sig: &[u8; 64]) -> Result<Vec<TxLocation>> {
    let key = Path::from("index/x");
    let limits = ReadLimits::default();
    let header = Header::parse(&key, layout, &bytes[..HEADER_BYTES as usize])?;
    let end = (HEADER_BYTES + header.summary_bytes()) as usize;
    let summary = Summary::parse(&key, header, &bytes[HEADER_BYTES as usize..end], &limits)?;
    if !summary.bloom.may_contain(sig) {
        return Ok(Vec::new());
    }
    let r = summary.fanout_range(sig);
    let words = bytes
        .get(r.start as usize..r.end as usize)
        .unwrap_or_default();
    let b = summary.bucket_range(words, &limits)?;
    let entries = bytes
        .get(b.start as usize..b.end as usize)
        .unwrap_or_default();
    summary.search_bucket(entries, sig)
}

proptest! {
    #[test]
    fn every_signature_resolves_to_its_slot_and_index(
        spec in proptest::collection::btree_map(0u64..64, proptest::collection::vec(any::<[u8; 8]>(), 0..40), 0..8)
    ) {
        let layout = Layout::new(64).expect("layout");
        let spec: Vec<(u64, Vec<[u8; 8]>)> = spec.into_iter().collect();
        let tables = tables(128, &spec);
        let refs: Vec<&SigTable> = tables.iter().collect();
        let bytes = build(&layout, Slot(128), &refs).expect("builds");
        let header = Header::parse(&Path::from("k"), &layout, &bytes[..64]).expect("header");
        prop_assert_eq!(header.object_bytes(), bytes.len() as u64);
        for t in &tables {
            for (sig, idx) in &t.entries {
                let found = lookup(&bytes, &layout, sig).expect("lookup");
                let want = TxLocation { slot: t.slot, index: *idx };
                prop_assert!(found.contains(&want), "{:?} not in {:?}", want, found);
            }
        }
        let absent = [0xa5; 64];
        prop_assert_eq!(lookup(&bytes, &layout, &absent).expect("lookup"), vec![]);
    }
}

#[test]
fn summary_corruption_is_caught_by_the_checksum() {
    let layout = Layout::new(64).expect("layout");
    let t = tables(0, &[(3, vec![[1; 8], [2; 8]])]);
    let bytes = build(&layout, Slot(0), &[&t[0]]).expect("builds");
    let header = Header::parse(&Path::from("k"), &layout, &bytes[..64]).expect("header");
    let end = (HEADER_BYTES + header.summary_bytes()) as usize;
    for i in HEADER_BYTES as usize..end {
        let mut b = bytes.clone();
        b[i] ^= 1;
        let e = lookup(&b, &layout, &t[0].entries[0].0).expect_err("flip");
        assert!(e.to_string().contains("checksum"), "{e}");
    }
}

#[test]
fn lying_fanout_words_and_buckets_are_errors() {
    let layout = Layout::new(64).expect("layout");
    let t = tables(0, &[(3, vec![[1; 8], [2; 8]])]);
    let bytes = build(&layout, Slot(0), &[&t[0]]).expect("builds");
    let key = Path::from("k");
    let header = Header::parse(&key, &layout, &bytes[..64]).expect("header");
    let end = (HEADER_BYTES + header.summary_bytes()) as usize;
    let summary =
        Summary::parse(&key, header, &bytes[64..end], &ReadLimits::default()).expect("summary");
    let limits = ReadLimits::default();
    let words = |lo: u32, hi: u32| [lo.to_le_bytes(), hi.to_le_bytes()].concat();
    assert!(summary.bucket_range(&words(2, 1), &limits).is_err());
    assert!(summary.bucket_range(&words(0, 3), &limits).is_err());
    assert!(summary.bucket_range(&words(0, 1)[..7], &limits).is_err());
    let tight = ReadLimits {
        index_bucket_bytes: 71,
        ..limits
    };
    assert!(matches!(
        summary.bucket_range(&words(0, 1), &tight),
        Err(ArchiveError::TooLarge { .. })
    ));
    assert!(summary.search_bucket(&[0u8; 71], &[0; 64]).is_err());
    let mut bad_offset = t[0].entries[0].0.to_vec();
    bad_offset.extend_from_slice(&64u32.to_le_bytes());
    bad_offset.extend_from_slice(&0u32.to_le_bytes());
    assert!(
        summary
            .search_bucket(&bad_offset, &t[0].entries[0].0)
            .is_err()
    );
}

#[test]
fn headers_that_do_not_fit_the_layout_are_refused() {
    let t = tables(0, &[(3, vec![[1; 8]])]);
    let bytes = build(&Layout::new(64).expect("layout"), Slot(0), &[&t[0]]).expect("builds");
    let other = Layout::new(128).expect("layout");
    assert!(Header::parse(&Path::from("k"), &other, &bytes[..64]).is_err());
    let mut b = bytes.clone();
    b[40] ^= 1; // bloom_bytes
    assert!(
        Header::parse(
            &Path::from("k"),
            &Layout::new(64).expect("layout"),
            &b[..64]
        )
        .is_err()
    );
    assert!(
        build(&Layout::new(64).expect("layout"), Slot(64), &[&t[0]]).is_err(),
        "slot outside the range"
    );
}

#[test]
fn a_damaged_fanout_table_is_refused_and_a_good_one_is_kept() {
    let layout = Layout::new(64).expect("layout");
    let t = tables(0, &[(3, vec![[1; 8], [2; 8], [0xff; 8]])]);
    let bytes = build(&layout, Slot(0), &[&t[0]]).expect("builds");
    let key = Path::from("k");
    let header = Header::parse(&key, &layout, &bytes[..64]).expect("header");
    let end = (HEADER_BYTES + header.summary_bytes()) as usize;
    let summary =
        Summary::parse(&key, header, &bytes[64..end], &ReadLimits::default()).expect("summary");
    let r = summary.fanout_table_range();
    let table = &bytes[r.start as usize..r.end as usize];
    for at in [0usize, 4 * 300, table.len() - 1] {
        let mut bad = table.to_vec();
        bad[at] ^= 0x80;
        assert!(summary.set_fanout(&bad).is_err(), "flip at {at}");
    }
    assert!(summary.set_fanout(&table[1..]).is_err());
    assert_eq!(summary.cached_fanout_words(&t[0].entries[0].0), None);
    summary.set_fanout(table).expect("a good table");
    for (sig, _) in &t[0].entries {
        let r = summary.fanout_range(sig);
        let words = summary.cached_fanout_words(sig).expect("cached");
        assert_eq!(&words[..], &bytes[r.start as usize..r.end as usize]);
    }
}
