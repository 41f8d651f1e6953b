//! Writes `testdata/agave4/block_components.json`: Alpenglow block components serialized by
//! Agave's own code (`solana-entry` 4.2.2, `block_component`), and Agave's accept/reject
//! verdict on systematically damaged copies of each marker. bstore's tests
//! (`formats/tests/it/block_agave_vectors.rs`, `ledger/tests/it/fetch_block_components.rs`)
//! read the committed file; CI never builds this tool.
//!
//! The same source, built by `interop/agave44-block` (feature `agave44`, solana-entry 4.4.0),
//! writes `testdata/agave44/block_components.json`: the same markers and slot, byte for
//! byte, with 4.4's verdicts, plus the verdicts of 4.4's entry-view parser
//! (`block_component_parser::parse`) on the same damaged copies.
//!
//! Every value is fixed (no randomness), so a rebuild writes the same bytes:
//! `scripts/agave4-vectors-alpenglow.sh` checks that (`BSTORE_AGAVE_BLOCK_VERSION=4.4` for
//! the 4.4 build).
//!
//! Usage: `agave4-block OUT.json` (`agave44-block OUT.json`)

use agave_votor_messages::reward_certificate::{NotarRewardCertificate, SkipRewardCertificate};
use solana_bls_signatures::{Signature as BlsSignature, SignatureCompressed};
use solana_entry::block_component::{
    BlockComponent, BlockFinalizationCert, BlockFooterV1, BlockHeaderV1, GenesisCertBlockMarker,
    UpdateParentV1, VersionedBlockMarker, VotesAggregate,
};
use solana_entry::entry::{Entry, next_hash};
use solana_hash::Hash;
use solana_message::compiled_instruction::CompiledInstruction;
use solana_message::{Message, MessageHeader, VersionedMessage};
use solana_pubkey::Pubkey;
use solana_signature::Signature;
use solana_transaction::versioned::VersionedTransaction;
use std::fmt::Write as _;

/// The byte values each position of a marker is overwritten with, one at a time.
const MUTATIONS: [u8; 6] = [0x00, 0x01, 0x02, 0x04, 0x80, 0xff];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Agave's reader of a whole data set (`BlockComponent`, as its Blockstore reads entries
/// and markers).
fn accepts(bytes: &[u8]) -> bool {
    wincode::deserialize::<BlockComponent>(bytes).is_ok()
}

/// Agave 4.4's entry-view parser (its Blockstore's reader for entry views): a separate
/// code path from `BlockComponent`'s reader, so its verdicts are recorded separately.
#[cfg(feature = "agave44")]
fn view_accepts(bytes: &[u8]) -> bool {
    solana_entry::block_component_parser::parse(bytes.to_vec()).is_ok()
}

/// `accept`'s verdict on every truncation of `bytes` (lengths 0 to all), on every byte
/// overwritten with each of `MUTATIONS` (position-major), and on `bytes` plus one zero.
fn verdicts(bytes: &[u8], accept: fn(&[u8]) -> bool) -> (String, String, bool) {
    let truncations = (0..=bytes.len())
        .map(|n| if accept(&bytes[..n]) { '1' } else { '0' })
        .collect();
    let mut mutations = String::with_capacity(bytes.len() * MUTATIONS.len());
    let mut copy = bytes.to_vec();
    for i in 0..bytes.len() {
        for v in MUTATIONS {
            let old = copy[i];
            copy[i] = v;
            mutations.push(if accept(&copy) { '1' } else { '0' });
            copy[i] = old;
        }
    }
    let mut trailing = bytes.to_vec();
    trailing.push(0);
    (truncations, mutations, accept(&trailing))
}

/// The JSON fields of one marker row that the 4.4 build adds: the view parser's verdicts.
#[cfg(feature = "agave44")]
fn view_fields(bytes: &[u8]) -> String {
    assert!(
        view_accepts(bytes),
        "Agave's view parser must read its own bytes"
    );
    let (truncations, mutations, trailing) = verdicts(bytes, view_accepts);
    format!(
        ", \"view_truncations\": \"{truncations}\", \"view_mutations\": \"{mutations}\", \
         \"view_trailing_zero_accepted\": {trailing}"
    )
}

#[cfg(not(feature = "agave44"))]
fn view_fields(_: &[u8]) -> String {
    String::new()
}

#[cfg(feature = "agave44")]
const GENERATOR: &str = "interop/agave44-block (solana-entry 4.4.0)";
#[cfg(not(feature = "agave44"))]
const GENERATOR: &str = "interop/agave4-block (solana-entry 4.2.2)";

/// A `VotesAggregate` from its wire bytes: its fields are private and its constructor needs
/// a real BLS point, so the tool writes the layout (96-byte signature, u16 length, bitmap)
/// and lets Agave's own reader build the value.
fn aggregate(sig: u8, bitmap: &[u8]) -> VotesAggregate {
    let mut bytes = vec![sig; 96];
    bytes.extend_from_slice(&(bitmap.len() as u16).to_le_bytes());
    bytes.extend_from_slice(bitmap);
    wincode::deserialize(&bytes).expect("VotesAggregate layout")
}

fn footer(user_agent: &[u8]) -> BlockFooterV1 {
    BlockFooterV1 {
        bank_hash: Hash::new_from_array([0x33; 32]),
        block_producer_time_nanos: 1_700_000_000_123_456_789,
        block_user_agent: user_agent.to_vec(),
        block_final_cert: None,
        skip_reward_cert: None,
        notar_reward_cert: None,
    }
}

fn markers() -> Vec<(&'static str, VersionedBlockMarker)> {
    let header = VersionedBlockMarker::from_block_header(BlockHeaderV1 {
        parent_slot: 41,
        parent_block_id: Hash::new_from_array([0x11; 32]),
    });
    let update_parent = VersionedBlockMarker::from_update_parent(UpdateParentV1 {
        new_parent_slot: 40,
        new_parent_block_id: Hash::new_from_array([0x22; 32]),
    });
    let footer_minimal =
        VersionedBlockMarker::from_block_footer(footer(b"bstore-vectors/agave-4.2.2"));
    let mut full = footer(b"agave/4.2.2");
    full.block_final_cert = Some(BlockFinalizationCert {
        slot: 39,
        block_id: Hash::new_from_array([0x44; 32]),
        final_aggregate: aggregate(0x55, &[0xaa; 64]),
        notar_aggregate: None,
    });
    full.skip_reward_cert = Some(
        SkipRewardCertificate::try_new(38, SignatureCompressed([0x66; 96]), vec![0x0f; 200])
            .expect("bitmap fits"),
    );
    full.notar_reward_cert = Some(
        NotarRewardCertificate::try_new(
            38,
            Hash::new_from_array([0x77; 32]),
            SignatureCompressed([0x88; 96]),
            vec![0xf0; 3],
        )
        .expect("bitmap fits"),
    );
    let footer_full = VersionedBlockMarker::from_block_footer(full);
    let mut slow = footer(b"");
    slow.block_final_cert = Some(BlockFinalizationCert {
        slot: 39,
        block_id: Hash::new_from_array([0x44; 32]),
        final_aggregate: aggregate(0x55, &[0xaa; 2]),
        notar_aggregate: Some(aggregate(0x99, &[0x01; 2])),
    });
    let footer_slow = VersionedBlockMarker::from_block_footer(slow);
    let footer_max_user_agent = VersionedBlockMarker::from_block_footer(footer(&[b'a'; 255]));
    let genesis = VersionedBlockMarker::from_genesis_cert_block_marker(GenesisCertBlockMarker {
        slot: 40,
        block_id: Hash::new_from_array([0xab; 32]),
        bls_signature: BlsSignature([0xcd; 192]),
        bitmap: vec![0xef; 64],
    });
    vec![
        ("header", header),
        ("update_parent", update_parent),
        ("footer_minimal", footer_minimal),
        ("footer_full", footer_full),
        ("footer_slow", footer_slow),
        ("footer_max_user_agent", footer_max_user_agent),
        ("genesis_certificate", genesis),
    ]
}

/// A legacy transaction with a fixed (unsigned) signature: PoH mixes in signatures only.
fn transaction(seed: u8, signatures: u8) -> VersionedTransaction {
    let keys: Vec<Pubkey> = (0..=signatures)
        .map(|k| Pubkey::new_from_array([seed.wrapping_add(k); 32]))
        .collect();
    let message = Message {
        header: MessageHeader {
            num_required_signatures: signatures,
            num_readonly_signed_accounts: 0,
            num_readonly_unsigned_accounts: 1,
        },
        account_keys: keys,
        recent_blockhash: Hash::new_from_array([seed; 32]),
        instructions: vec![CompiledInstruction {
            program_id_index: signatures,
            accounts: (0..signatures).collect(),
            data: vec![seed, 1, 2, 3],
        }],
    };
    VersionedTransaction {
        signatures: (0..signatures)
            .map(|k| Signature::from([seed.wrapping_mul(3).wrapping_add(k); 64]))
            .collect(),
        message: VersionedMessage::Legacy(message),
    }
}

/// Alpenglow entries: one hash each, chained from `start`.
fn batch(start: &mut Hash, txs: Vec<Vec<VersionedTransaction>>) -> BlockComponent {
    let entries = txs
        .into_iter()
        .map(|transactions| {
            let hash = next_hash(start, 1, &transactions);
            *start = hash;
            Entry {
                num_hashes: 1,
                hash,
                transactions,
            }
        })
        .collect();
    BlockComponent::new_entry_batch(entries).expect("non-empty batch")
}

fn data_sets_json(components: &[BlockComponent]) -> String {
    let sets: Vec<String> = components
        .iter()
        .map(|c| {
            let kind = if c.as_marker().is_some() {
                "marker"
            } else {
                "entries"
            };
            let bytes = wincode::serialize(c).expect("component serializes");
            format!(
                "      {{\"kind\": \"{kind}\", \"hex\": \"{}\"}}",
                hex(&bytes)
            )
        })
        .collect();
    sets.join(",\n")
}

fn main() {
    let out = std::env::args()
        .nth(1)
        .expect("usage: agave4-block OUT.json");
    let all = markers();
    let mut json = format!("{{\n  \"generator\": \"{GENERATOR}\",\n");
    let _ = writeln!(json, "  \"mutation_values\": \"{}\",", hex(&MUTATIONS));
    json.push_str("  \"markers\": [\n");
    let mut rows = Vec::new();
    for (name, marker) in &all {
        let bytes = wincode::serialize(&BlockComponent::new_block_marker(marker.clone()))
            .expect("marker serializes");
        assert!(accepts(&bytes), "{name}: Agave must read its own bytes");
        let (truncations, mutations, trailing) = verdicts(&bytes, accepts);
        rows.push(format!(
            "    {{\"name\": \"{name}\", \"hex\": \"{}\", \"truncations\": \"{truncations}\", \
             \"mutations\": \"{mutations}\", \"trailing_zero_accepted\": {trailing}{}}}",
            hex(&bytes),
            view_fields(&bytes)
        ));
    }
    json.push_str(&rows.join(",\n"));
    json.push_str("\n  ],\n");

    let aborted = [0u8; 8];
    let _ = writeln!(
        json,
        "  \"aborted\": {{\"hex\": \"{}\", \"accepted\": {}, \"is_empty_entry_batch\": {}}},",
        hex(&aborted),
        accepts(&aborted),
        BlockComponent::infer_is_empty_entry_batch(&aborted)
    );

    // A whole slot 42: header (parent 41), genesis certificate, entries, UpdateParent (new
    // parent 40), entries, footer, final tick. Entries before the UpdateParent chain from
    // slot 41's blockhash, entries after it from slot 40's (replay restarts there).
    let marker = |name: &str| {
        let (_, m) = all.iter().find(|(n, _)| *n == name).expect("marker");
        BlockComponent::new_block_marker(m.clone())
    };
    let parent_blockhash = Hash::new_from_array([0x5a; 32]);
    let new_parent_blockhash = Hash::new_from_array([0x6b; 32]);
    let mut h = parent_blockhash;
    let before = vec![
        marker("header"),
        marker("genesis_certificate"),
        batch(
            &mut h,
            vec![
                vec![transaction(1, 1)],
                vec![transaction(2, 2), transaction(3, 1)],
            ],
        ),
        batch(&mut h, vec![vec![transaction(4, 1)]]),
    ];
    let prefix_last_hash = h;
    let mut h = new_parent_blockhash;
    let after = vec![
        marker("update_parent"),
        batch(
            &mut h,
            vec![vec![transaction(5, 3)], vec![transaction(6, 1)]],
        ),
        marker("footer_full"),
        batch(&mut h, vec![vec![]]),
    ];
    let components: Vec<BlockComponent> = before.into_iter().chain(after).collect();
    let _ = writeln!(
        json,
        "  \"slot\": {{\n    \"slot\": 42,\n    \"parent_slot\": 41,\n    \"parent_blockhash\": \"{}\",\n    \"prefix_last_hash\": \"{}\",\n    \"new_parent_slot\": 40,\n    \"new_parent_blockhash\": \"{}\",\n    \"blockhash\": \"{}\",\n    \"data_sets\": [\n{}\n    ]\n  }}",
        hex(parent_blockhash.as_ref()),
        hex(prefix_last_hash.as_ref()),
        hex(new_parent_blockhash.as_ref()),
        hex(h.as_ref()),
        data_sets_json(&components)
    );
    json.push_str("}\n");
    std::fs::write(&out, json).expect("write output");
}
