//! Key layouts (`docs/on-disk-layout.md#column-families`): each unit struct is one layout a
//! column declares (`columns.rs`). Integers are big-endian so byte order is numeric order;
//! a decode checks the length and nothing else can be wrong with a key except an index that
//! does not fit its type.

use super::alt_columns::BlockLocation;
use super::column::{KeyCodec, KeyStart};
use crate::types::{Hash, Pubkey, ShredIndex, Signature, Slot};

/// An FEC set of a slot: `(slot, fec_set_index)`.
pub type SetKey = (Slot, u32);

/// A slot version named by its block id: `(slot, block_id)`.
pub type BlockKey = (Slot, Hash);

/// Encodes a slot key: u64 big-endian.
pub fn slot_key(slot: Slot) -> [u8; 8] {
    slot.0.to_be_bytes()
}

/// Encodes a shred key: slot u64 big-endian ‖ index as u64 big-endian.
pub fn shred_key(slot: Slot, index: ShredIndex) -> [u8; 16] {
    let mut key = [0u8; 16];
    let (s, i) = key.split_at_mut(8);
    s.copy_from_slice(&slot.0.to_be_bytes());
    i.copy_from_slice(&u64::from(index.0).to_be_bytes());
    key
}

/// Encodes a signature key: signature ‖ slot u64 big-endian (Agave's `(Signature, Slot)`).
pub fn signature_slot_key(signature: &[u8; 64], slot: Slot) -> [u8; 72] {
    let mut key = [0u8; 72];
    let (s, t) = key.split_at_mut(64);
    s.copy_from_slice(signature);
    t.copy_from_slice(&slot.0.to_be_bytes());
    key
}

/// Encodes the first 40 bytes of an `address_signatures` key: address ‖ slot u64 BE (every
/// row of the address in the slot starts with them).
pub(crate) fn address_slot_key(address: &[u8; 32], slot: Slot) -> [u8; 40] {
    let mut key = [0u8; 40];
    let (a, s) = key.split_at_mut(32);
    a.copy_from_slice(address);
    s.copy_from_slice(&slot.0.to_be_bytes());
    key
}

/// Copies `bytes` into an array of exactly `N`, else the reason.
fn exact<const N: usize>(bytes: &[u8]) -> Result<[u8; N], String> {
    bytes
        .try_into()
        .map_err(|_| format!("{} bytes, expected {N}", bytes.len()))
}

/// The array at `at..at + N` of an array already checked to be long enough.
fn part<const N: usize>(bytes: &[u8], at: usize) -> [u8; N] {
    bytes
        .get(at..at + N)
        .and_then(|b| b.try_into().ok())
        .unwrap_or([0; N])
}

fn slot_at(bytes: &[u8], at: usize) -> Slot {
    Slot(u64::from_be_bytes(part(bytes, at)))
}

/// A u64 BE shred or set index that must fit a u32.
fn index_u32(bytes: &[u8], at: usize) -> Result<u32, String> {
    let index = u64::from_be_bytes(part(bytes, at));
    u32::try_from(index).map_err(|_| format!("shred index {index} exceeds u32"))
}

fn concat<const L: usize>(parts: &[&[u8]]) -> [u8; L] {
    let mut key = [0u8; L];
    for (dst, src) in key.iter_mut().zip(parts.iter().flat_map(|p| p.iter())) {
        *dst = *src;
    }
    key
}

/// Slot u64 BE (8).
#[derive(Debug, Clone, Copy)]
pub struct SlotKey;

impl KeyCodec for SlotKey {
    type Key = Slot;
    type Bytes = [u8; 8];
    const START: KeyStart = KeyStart::Slot;
    fn encode(key: Slot) -> [u8; 8] {
        slot_key(key)
    }
    fn decode(bytes: &[u8]) -> Result<Slot, String> {
        exact::<8>(bytes).map(|b| Slot(u64::from_be_bytes(b)))
    }
}

/// Slot u64 BE ‖ shred index u64 BE (16); the index must fit a u32.
#[derive(Debug, Clone, Copy)]
pub struct ShredKey;

impl KeyCodec for ShredKey {
    type Key = (Slot, ShredIndex);
    type Bytes = [u8; 16];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, index): Self::Key) -> [u8; 16] {
        shred_key(slot, index)
    }
    fn decode(bytes: &[u8]) -> Result<Self::Key, String> {
        let b = exact::<16>(bytes)?;
        Ok((slot_at(&b, 0), ShredIndex(index_u32(&b, 8)?)))
    }
}

/// Slot u64 BE ‖ fec_set_index u64 BE (16): `erasure_meta`'s set key.
#[derive(Debug, Clone, Copy)]
pub struct WideSetKey;

impl KeyCodec for WideSetKey {
    type Key = SetKey;
    type Bytes = [u8; 16];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, fec): SetKey) -> [u8; 16] {
        shred_key(slot, ShredIndex(fec))
    }
    fn decode(bytes: &[u8]) -> Result<SetKey, String> {
        ShredKey::decode(bytes).map(|(slot, fec)| (slot, fec.0))
    }
}

/// Slot u64 BE ‖ fec_set_index u32 BE (12): `merkle_root_meta`'s set key.
#[derive(Debug, Clone, Copy)]
pub struct NarrowSetKey;

impl KeyCodec for NarrowSetKey {
    type Key = SetKey;
    type Bytes = [u8; 12];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, fec): SetKey) -> [u8; 12] {
        concat(&[&slot.0.to_be_bytes(), &fec.to_be_bytes()])
    }
    fn decode(bytes: &[u8]) -> Result<SetKey, String> {
        let b = exact::<12>(bytes)?;
        Ok((slot_at(&b, 0), u32::from_be_bytes(part(&b, 8))))
    }
}

/// Slot u64 BE ‖ block id (40).
#[derive(Debug, Clone, Copy)]
pub struct BlockIdKey;

impl KeyCodec for BlockIdKey {
    type Key = BlockKey;
    type Bytes = [u8; 40];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, id): BlockKey) -> [u8; 40] {
        concat(&[&slot.0.to_be_bytes(), id.as_bytes()])
    }
    fn decode(bytes: &[u8]) -> Result<BlockKey, String> {
        let b = exact::<40>(bytes)?;
        Ok((slot_at(&b, 0), Hash(part(&b, 8))))
    }
}

/// Slot u64 BE ‖ block id ‖ shred index u64 BE (48); the index must fit a u32.
#[derive(Debug, Clone, Copy)]
pub struct BlockShredKey;

impl KeyCodec for BlockShredKey {
    type Key = (Slot, Hash, u32);
    type Bytes = [u8; 48];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, id, index): Self::Key) -> [u8; 48] {
        concat(&[
            &slot.0.to_be_bytes(),
            id.as_bytes(),
            &u64::from(index).to_be_bytes(),
        ])
    }
    fn decode(bytes: &[u8]) -> Result<Self::Key, String> {
        let b = exact::<48>(bytes)?;
        Ok((slot_at(&b, 0), Hash(part(&b, 8)), index_u32(&b, 40)?))
    }
}

/// Slot u64 BE ‖ block id ‖ fec_set_index u32 BE (44).
#[derive(Debug, Clone, Copy)]
pub struct BlockSetKey;

impl KeyCodec for BlockSetKey {
    type Key = (Slot, Hash, u32);
    type Bytes = [u8; 44];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, id, fec): Self::Key) -> [u8; 44] {
        concat(&[&slot.0.to_be_bytes(), id.as_bytes(), &fec.to_be_bytes()])
    }
    fn decode(bytes: &[u8]) -> Result<Self::Key, String> {
        let b = exact::<44>(bytes)?;
        Ok((
            slot_at(&b, 0),
            Hash(part(&b, 8)),
            u32::from_be_bytes(part(&b, 40)),
        ))
    }
}

/// Slot u64 BE ‖ [`BlockLocation`] as 32 bytes (40): zeros for the primary columns.
#[derive(Debug, Clone, Copy)]
pub struct LocationKey;

impl KeyCodec for LocationKey {
    type Key = (Slot, BlockLocation);
    type Bytes = [u8; 40];
    const START: KeyStart = KeyStart::Slot;
    fn encode((slot, location): Self::Key) -> [u8; 40] {
        concat(&[&slot.0.to_be_bytes(), &location.to_bytes()])
    }
    fn decode(bytes: &[u8]) -> Result<Self::Key, String> {
        let b = exact::<40>(bytes)?;
        Ok((slot_at(&b, 0), BlockLocation::from_bytes(part(&b, 8))))
    }
}

/// Signature ‖ slot u64 BE (72): Agave's `(Signature, Slot)` of the statuses and memos.
#[derive(Debug, Clone, Copy)]
pub struct SignatureSlotKey;

impl KeyCodec for SignatureSlotKey {
    type Key = (Signature, Slot);
    type Bytes = [u8; 72];
    const START: KeyStart = KeyStart::Signature;
    fn encode((signature, slot): Self::Key) -> [u8; 72] {
        signature_slot_key(&signature.0, slot)
    }
    fn decode(bytes: &[u8]) -> Result<Self::Key, String> {
        if bytes.len() != 72 {
            return Err("expected 72 bytes".into());
        }
        Ok((Signature(part(bytes, 0)), slot_at(bytes, 64)))
    }
}

/// One `address_signatures` key: the address, the slot and position of the transaction in
/// its block, and the transaction's first signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AddressRowKey {
    /// The account the transaction touched.
    pub address: Pubkey,
    /// The slot of the block holding the transaction.
    pub slot: Slot,
    /// Position of the transaction in its block (0-based).
    pub transaction_index: u32,
    /// The transaction's first signature.
    pub signature: Signature,
}

/// Address ‖ slot u64 BE ‖ transaction index u32 BE ‖ signature (108).
#[derive(Debug, Clone, Copy)]
pub struct AddressKey;

impl KeyCodec for AddressKey {
    type Key = AddressRowKey;
    type Bytes = [u8; 108];
    const START: KeyStart = KeyStart::Address;
    fn encode(key: AddressRowKey) -> [u8; 108] {
        concat(&[
            key.address.as_bytes(),
            &key.slot.0.to_be_bytes(),
            &key.transaction_index.to_be_bytes(),
            key.signature.as_bytes(),
        ])
    }
    fn decode(bytes: &[u8]) -> Result<AddressRowKey, String> {
        if bytes.len() != 108 {
            return Err("expected 108 bytes".into());
        }
        Ok(AddressRowKey {
            address: Pubkey(part(bytes, 0)),
            slot: slot_at(bytes, 32),
            transaction_index: u32::from_be_bytes(part(bytes, 40)),
            signature: Signature(part(bytes, 44)),
        })
    }
}
