//! Byte compatibility with Agave's serialization: serde structs shaped like Solana's `Entry`,
//! `VersionedTransaction` and messages (with a `short_vec` module for compact-u16 lengths),
//! serialized by the real `bincode` 1.3 crate, give exactly the bytes of our encoder; our
//! decoder and our view read those bytes back to the same value.

use bstore_formats::entry::{
    AddressTableLookup, CompiledInstruction, EntriesView, Entry, LegacyMessage, MessageHeader,
    V0Message, VersionedMessage, VersionedTransaction, decode_entries, encode_entries,
};
use bstore_formats::{Hash, Pubkey, Signature};
use proptest::prelude::*;
use serde::Serialize;
use serde::ser::{SerializeTuple, Serializer};

/// Solana's `short_vec`: a compact-u16 length (7 bits per byte, low first) then the items,
/// all as tuple elements (bincode writes tuples without a length).
mod short_vec {
    use super::*;

    pub(super) fn serialize<S: Serializer, T: Serialize>(
        items: &[T],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let len = u16::try_from(items.len()).map_err(|_| serde::ser::Error::custom("too long"))?;
        let mut prefix = Vec::new();
        let mut rest = len;
        loop {
            let byte = (rest & 0x7f) as u8;
            rest >>= 7;
            if rest == 0 {
                prefix.push(byte);
                break;
            }
            prefix.push(byte | 0x80);
        }
        let mut t = s.serialize_tuple(prefix.len() + items.len())?;
        for b in &prefix {
            t.serialize_element(b)?;
        }
        for item in items {
            t.serialize_element(item)?;
        }
        t.end()
    }
}

/// `solana_signature::Signature`: 64 bytes, no length.
struct SigS([u8; 64]);

impl Serialize for SigS {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(64)?;
        for b in &self.0 {
            t.serialize_element(b)?;
        }
        t.end()
    }
}

#[derive(Serialize)]
struct EntryS {
    num_hashes: u64,
    hash: [u8; 32],
    transactions: Vec<TxS>,
}

#[derive(Serialize)]
struct TxS {
    #[serde(with = "short_vec")]
    signatures: Vec<SigS>,
    message: MsgS,
}

#[derive(Serialize)]
struct HeaderS {
    num_required_signatures: u8,
    num_readonly_signed_accounts: u8,
    num_readonly_unsigned_accounts: u8,
}

#[derive(Serialize)]
struct IxS {
    program_id_index: u8,
    #[serde(with = "short_vec")]
    accounts: Vec<u8>,
    #[serde(with = "short_vec")]
    data: Vec<u8>,
}

#[derive(Serialize)]
struct LegacyS {
    header: HeaderS,
    #[serde(with = "short_vec")]
    account_keys: Vec<[u8; 32]>,
    recent_blockhash: [u8; 32],
    #[serde(with = "short_vec")]
    instructions: Vec<IxS>,
}

#[derive(Serialize)]
struct LookupS {
    account_key: [u8; 32],
    #[serde(with = "short_vec")]
    writable_indexes: Vec<u8>,
    #[serde(with = "short_vec")]
    readonly_indexes: Vec<u8>,
}

#[derive(Serialize)]
struct V0S {
    header: HeaderS,
    #[serde(with = "short_vec")]
    account_keys: Vec<[u8; 32]>,
    recent_blockhash: [u8; 32],
    #[serde(with = "short_vec")]
    instructions: Vec<IxS>,
    #[serde(with = "short_vec")]
    address_table_lookups: Vec<LookupS>,
}

/// Solana's `VersionedMessage`: legacy as is; v0 as the tuple (0x80, message).
enum MsgS {
    Legacy(LegacyS),
    V0(V0S),
}

impl Serialize for MsgS {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            MsgS::Legacy(m) => m.serialize(s),
            MsgS::V0(m) => {
                let mut t = s.serialize_tuple(2)?;
                t.serialize_element(&0x80u8)?;
                t.serialize_element(m)?;
                t.end()
            }
        }
    }
}

fn header_s(h: &MessageHeader) -> HeaderS {
    HeaderS {
        num_required_signatures: h.num_required_signatures,
        num_readonly_signed_accounts: h.num_readonly_signed_accounts,
        num_readonly_unsigned_accounts: h.num_readonly_unsigned_accounts,
    }
}

fn ixs_s(ixs: &[CompiledInstruction]) -> Vec<IxS> {
    ixs.iter()
        .map(|ix| IxS {
            program_id_index: ix.program_id_index,
            accounts: ix.accounts.clone(),
            data: ix.data.clone(),
        })
        .collect()
}

fn mirror(e: &Entry) -> EntryS {
    EntryS {
        num_hashes: e.num_hashes,
        hash: e.hash.0,
        transactions: e
            .transactions
            .iter()
            .map(|tx| TxS {
                signatures: tx.signatures.iter().map(|s| SigS(s.0)).collect(),
                message: match &tx.message {
                    VersionedMessage::Legacy(m) => MsgS::Legacy(LegacyS {
                        header: header_s(&m.header),
                        account_keys: m.account_keys.iter().map(|k| k.0).collect(),
                        recent_blockhash: m.recent_blockhash.0,
                        instructions: ixs_s(&m.instructions),
                    }),
                    VersionedMessage::V0(m) => MsgS::V0(V0S {
                        header: header_s(&m.header),
                        account_keys: m.account_keys.iter().map(|k| k.0).collect(),
                        recent_blockhash: m.recent_blockhash.0,
                        instructions: ixs_s(&m.instructions),
                        address_table_lookups: m
                            .address_table_lookups
                            .iter()
                            .map(|l| LookupS {
                                account_key: l.account_key.0,
                                writable_indexes: l.writable_indexes.clone(),
                                readonly_indexes: l.readonly_indexes.clone(),
                            })
                            .collect(),
                    }),
                    // v1 is not a bincode layout (its wire format is its own); this mirror
                    // covers legacy and v0 only, v1 is checked against Agave's bytes in
                    // `entry_v1_agave`.
                    VersionedMessage::V1(_) => unreachable!("no v1 transaction in this test"),
                },
            })
            .collect(),
    }
}

// ---- strategies over our model ----

/// Byte vectors whose lengths need 1, 2 or 3 compact-u16 bytes.
fn bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        8 => prop::collection::vec(any::<u8>(), 0..12),
        2 => prop::collection::vec(any::<u8>(), 120..400),
        1 => (0x4000usize..0x4100, any::<u8>()).prop_map(|(n, b)| vec![b; n]),
    ]
}

fn key() -> impl Strategy<Value = [u8; 32]> {
    any::<[u8; 32]>()
}

fn signature() -> impl Strategy<Value = Signature> {
    (any::<[u8; 32]>(), any::<[u8; 32]>()).prop_map(|(a, b)| {
        let mut s = [0u8; 64];
        s[..32].copy_from_slice(&a);
        s[32..].copy_from_slice(&b);
        Signature(s)
    })
}

fn header() -> impl Strategy<Value = MessageHeader> {
    (0u8..0x80, any::<u8>(), any::<u8>()).prop_map(|(a, b, c)| MessageHeader {
        num_required_signatures: a,
        num_readonly_signed_accounts: b,
        num_readonly_unsigned_accounts: c,
    })
}

fn instruction() -> impl Strategy<Value = CompiledInstruction> {
    (
        any::<u8>(),
        prop::collection::vec(any::<u8>(), 0..6),
        bytes(),
    )
        .prop_map(|(p, accounts, data)| CompiledInstruction {
            program_id_index: p,
            accounts,
            data,
        })
}

fn lookup() -> impl Strategy<Value = AddressTableLookup> {
    (key(), bytes(), prop::collection::vec(any::<u8>(), 0..5)).prop_map(|(k, w, r)| {
        AddressTableLookup {
            account_key: Pubkey(k),
            writable_indexes: w,
            readonly_indexes: r,
        }
    })
}

fn message() -> impl Strategy<Value = VersionedMessage> {
    let body = (
        header(),
        prop::collection::vec(key().prop_map(Pubkey), 0..5),
        key(),
        prop::collection::vec(instruction(), 0..3),
    );
    (body, any::<bool>(), prop::collection::vec(lookup(), 0..3)).prop_map(
        |((header, account_keys, bh, instructions), v0, address_table_lookups)| {
            let recent_blockhash = Hash(bh);
            if v0 {
                VersionedMessage::V0(V0Message {
                    header,
                    account_keys,
                    recent_blockhash,
                    instructions,
                    address_table_lookups,
                })
            } else {
                VersionedMessage::Legacy(LegacyMessage {
                    header,
                    account_keys,
                    recent_blockhash,
                    instructions,
                })
            }
        },
    )
}

fn transaction() -> impl Strategy<Value = VersionedTransaction> {
    (prop::collection::vec(signature(), 0..4), message()).prop_map(|(signatures, message)| {
        VersionedTransaction {
            signatures,
            message,
        }
    })
}

fn entry() -> impl Strategy<Value = Entry> {
    (
        any::<u64>(),
        key(),
        prop::collection::vec(transaction(), 0..4),
    )
        .prop_map(|(num_hashes, h, transactions)| Entry {
            num_hashes,
            hash: Hash(h),
            transactions,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn matches_bincode(entries in prop::collection::vec(entry(), 0..5), pad in 0usize..40) {
        let mirrored: Vec<EntryS> = entries.iter().map(mirror).collect();
        let reference = bincode::serialize(&mirrored).expect("bincode serializes");
        prop_assert_eq!(&encode_entries(&entries), &reference, "encoder == bincode");

        // Real data sets end in zero padding; it is ignored.
        let mut padded = reference.clone();
        padded.resize(reference.len() + pad, 0);
        let decoded = decode_entries(&padded).expect("bincode bytes decode");
        prop_assert_eq!(&decoded, &entries);

        let view = EntriesView::parse(&padded).expect("bincode bytes parse as a view");
        prop_assert_eq!(view.encoded_len(), reference.len());
        prop_assert_eq!(view.len(), entries.len());
        let tx_total: usize = entries.iter().map(|e| e.transactions.len()).sum();
        prop_assert_eq!(view.num_transactions(), tx_total);
        for (e, v) in entries.iter().zip(view.iter()) {
            prop_assert_eq!(v.num_hashes(), e.num_hashes);
            prop_assert_eq!(v.hash(), e.hash);
            prop_assert_eq!(v.num_transactions(), e.transactions.len());
            for (t, tv) in e.transactions.iter().zip(v.transactions()) {
                prop_assert_eq!(&tv.to_owned_transaction().expect("tx view decodes"), t);
                prop_assert_eq!(tv.num_signatures(), t.signatures.len());
                prop_assert_eq!(tv.message().num_lookups(), t.message.address_table_lookups().len());
            }
        }
        prop_assert_eq!(&view.to_owned_entries().expect("owned from view"), &entries);
    }
}
