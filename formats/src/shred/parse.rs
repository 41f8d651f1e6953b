//! `ShredRef`: a validated view over the bytes of one shred, from a received packet or a
//! stored payload. Parsing reads only header fields; nothing is copied or hashed.

use super::defect::ShredDefect;
use super::layout::{
    CODE_PAYLOAD_LEN, FLAG_DATA_COMPLETE, FLAG_LAST_IN_SLOT, MAX_SHREDS_PER_SLOT,
    MERKLE_DATA_PAYLOAD_LEN, OFFSET_FEC_SET_INDEX, OFFSET_FLAGS, OFFSET_INDEX, OFFSET_NUM_CODE,
    OFFSET_NUM_DATA, OFFSET_PARENT_OFFSET, OFFSET_POSITION, OFFSET_SIZE, OFFSET_SLOT,
    OFFSET_VARIANT, OFFSET_VERSION, REFERENCE_TICK_MASK, SIZE_OF_COMMON_HEADER, SIZE_OF_HEADERS,
    read_array, read_u16, read_u32, read_u64,
};
use super::variant::{ShredKind, ShredVariant};
use crate::error::FormatError;
use crate::types::{ShredIndex, Signature, Slot};

/// Agave's bound on `num_code` (8 × 32 data shreds per FEC block).
pub const MAX_CODE_SHREDS_PER_FEC_SET: u16 = 256;

/// Parsed, validated shred over borrowed bytes. `Copy` and cheap: `parse` reads only
/// header fields; the payload stays where it is.
#[derive(Debug, Clone, Copy)]
pub struct ShredRef<'a> {
    /// Exactly the stored payload (`docs/formats-shreds.md#what-the-store-keeps`); trailing packet
    /// bytes are already cut off.
    payload: &'a [u8],
    variant: ShredVariant,
    slot: u64,
    index: u32,
    version: u16,
    fec_set_index: u32,
    body: Body,
}

/// The header after the common header.
#[derive(Debug, Clone, Copy)]
enum Body {
    Data {
        parent_offset: u16,
        flags: u8,
        size: u16,
    },
    Code {
        num_data: u16,
        num_code: u16,
        position: u16,
    },
}

impl<'a> ShredRef<'a> {
    /// Parses and validates a received packet (bytes after the payload are ignored) or a
    /// stored payload (legacy data trimmed to `size`).
    ///
    /// Checks: the variant byte; enough bytes for the variant's payload; `index < 32,768`;
    /// for data shreds `fec_set_index ≤ index`, the flags rule, `88 ≤ size ≤ 88 + capacity`
    /// and `parent_offset` (non-zero unless slot 0, at most the slot); for code shreds the
    /// coding header as Agave sanitizes it (`1 ≤ num_data`, `1 ≤ num_code ≤ 256`,
    /// `position < num_code`, `position ≤ index`, and the set's last data and code index
    /// stay below 32,768). Code shreds keep their own index sequence, so `fec_set_index ≤
    /// index` is not required of them (Agave does not either).
    ///
    /// Errors are `FormatError::InvalidShred` with `slot`/`index` set whenever the bytes
    /// reach them.
    pub fn parse(packet: &'a [u8]) -> crate::Result<ShredRef<'a>> {
        let slot = read_u64(packet, OFFSET_SLOT);
        let index = read_u32(packet, OFFSET_INDEX);
        Self::parse_inner(packet).map_err(|defect| FormatError::InvalidShred {
            slot: slot.map(Slot),
            index: index.map(ShredIndex),
            defect,
        })
    }

    pub(crate) fn parse_inner(packet: &'a [u8]) -> Result<ShredRef<'a>, ShredDefect> {
        let too_short = |need| ShredDefect::TooShort {
            len: packet.len(),
            need,
        };
        let header = packet
            .get(..SIZE_OF_COMMON_HEADER)
            .ok_or(too_short(SIZE_OF_COMMON_HEADER))?;
        // The header slice is 83 bytes, so every common-header read below succeeds; the
        // fallbacks are unreachable but keep the code panic-free by construction.
        let variant_byte = header.get(OFFSET_VARIANT).copied().unwrap_or_default();
        let variant = ShredVariant::from_byte(variant_byte)?;
        let slot = read_u64(header, OFFSET_SLOT).unwrap_or_default();
        let index = read_u32(header, OFFSET_INDEX).unwrap_or_default();
        let version = read_u16(header, OFFSET_VERSION).unwrap_or_default();
        let fec_set_index = read_u32(header, OFFSET_FEC_SET_INDEX).unwrap_or_default();
        if index >= MAX_SHREDS_PER_SLOT {
            return Err(ShredDefect::IndexTooLarge(index));
        }
        let (payload, body) = match variant.kind() {
            ShredKind::Data => parse_data(packet, variant, slot, index, fec_set_index)?,
            ShredKind::Code => parse_code(packet, index, fec_set_index)?,
        };
        Ok(ShredRef {
            payload,
            variant,
            slot,
            index,
            version,
            fec_set_index,
            body,
        })
    }

    /// Exactly what is stored (`docs/formats-shreds.md#what-the-store-keeps`): Merkle data 1203
    /// bytes, legacy data
    /// `payload[..size]`, code 1228 bytes.
    pub fn payload(&self) -> &'a [u8] {
        self.payload
    }

    /// The leader's signature (offset 0).
    pub fn signature(&self) -> Signature {
        // parse guarantees at least 88 bytes.
        Signature(read_array(self.payload, 0).unwrap_or([0; 64]))
    }

    /// The variant decoded from byte 64: kind, legacy or Merkle, proof size, chained and resigned
    /// bits.
    pub fn variant(&self) -> ShredVariant {
        self.variant
    }

    /// Data or code.
    pub fn kind(&self) -> ShredKind {
        self.variant.kind()
    }

    /// True for a data shred.
    pub fn is_data(&self) -> bool {
        self.kind() == ShredKind::Data
    }

    /// The slot the shred belongs to (offset 65).
    pub fn slot(&self) -> Slot {
        Slot(self.slot)
    }

    /// The shred's index within its slot (offset 73).
    pub fn index(&self) -> ShredIndex {
        ShredIndex(self.index)
    }

    /// The shred version (offset 77): a hash of the cluster's genesis and hard forks.
    pub fn version(&self) -> u16 {
        self.version
    }

    /// Index of the first data shred of the shred's FEC set (offset 79).
    pub fn fec_set_index(&self) -> u32 {
        self.fec_set_index
    }

    /// Merkle proof size; `None` for legacy shreds.
    pub fn proof_size(&self) -> Option<u8> {
        self.variant.proof_size()
    }

    /// Data shreds: distance to the parent slot.
    pub fn parent_offset(&self) -> Option<u16> {
        match self.body {
            Body::Data { parent_offset, .. } => Some(parent_offset),
            Body::Code { .. } => None,
        }
    }

    /// Data shreds: `slot − parent_offset` (validated not to underflow).
    pub fn parent_slot(&self) -> Option<Slot> {
        let offset = self.parent_offset()?;
        self.slot.checked_sub(u64::from(offset)).map(Slot)
    }

    /// Data shreds: the raw flags byte.
    pub fn flags(&self) -> Option<u8> {
        match self.body {
            Body::Data { flags, .. } => Some(flags),
            Body::Code { .. } => None,
        }
    }

    /// The shred ends a data set (also true for last-in-slot shreds).
    pub fn data_complete(&self) -> bool {
        self.flags()
            .is_some_and(|f| f & FLAG_DATA_COMPLETE == FLAG_DATA_COMPLETE)
    }

    /// The shred is the slot's last data shred.
    pub fn last_in_slot(&self) -> bool {
        self.flags()
            .is_some_and(|f| f & FLAG_LAST_IN_SLOT == FLAG_LAST_IN_SLOT)
    }

    /// Data shreds: the reference tick (flags bits 0–5).
    pub fn reference_tick(&self) -> Option<u8> {
        self.flags().map(|f| f & REFERENCE_TICK_MASK)
    }

    /// Data shreds: headers plus data length.
    pub fn size(&self) -> Option<u16> {
        match self.body {
            Body::Data { size, .. } => Some(size),
            Body::Code { .. } => None,
        }
    }

    /// `payload[88..size]` for data shreds; empty for code shreds.
    pub fn data(&self) -> &'a [u8] {
        match self.body {
            // parse checked 88 ≤ size ≤ payload length.
            Body::Data { size, .. } => self
                .payload
                .get(SIZE_OF_HEADERS..usize::from(size))
                .unwrap_or_default(),
            Body::Code { .. } => &[],
        }
    }

    /// Code shreds: data shreds in the FEC set.
    pub fn num_data(&self) -> Option<u16> {
        match self.body {
            Body::Code { num_data, .. } => Some(num_data),
            Body::Data { .. } => None,
        }
    }

    /// Code shreds: code shreds in the FEC set.
    pub fn num_code(&self) -> Option<u16> {
        match self.body {
            Body::Code { num_code, .. } => Some(num_code),
            Body::Data { .. } => None,
        }
    }

    /// Code shreds: position among the set's code shreds, as the coding header states it
    /// (always 0 from Solana 1.7 and early 1.8 leaders, which did not write it).
    pub fn position(&self) -> Option<u16> {
        match self.body {
            Body::Code { position, .. } => Some(position),
            Body::Data { .. } => None,
        }
    }

    /// Position of this shred's leaf in its FEC set's Merkle tree (and of its erasure
    /// shard): `index − fec_set_index` for data, `num_data + position` for code. Both are
    /// validated by `parse` not to underflow. A legacy code shred stating position 0 may sit
    /// elsewhere in its set: recovery places it by [`FirstCodeIndex`](super::FirstCodeIndex).
    pub fn erasure_position(&self) -> usize {
        let position = match self.body {
            Body::Data { .. } => self.index.saturating_sub(self.fec_set_index),
            Body::Code {
                num_data, position, ..
            } => u32::from(num_data) + u32::from(position),
        };
        position as usize
    }
}

fn parse_data(
    packet: &[u8],
    variant: ShredVariant,
    slot: u64,
    index: u32,
    fec_set_index: u32,
) -> Result<(&[u8], Body), ShredDefect> {
    let headers = packet.get(..SIZE_OF_HEADERS).ok_or(ShredDefect::TooShort {
        len: packet.len(),
        need: SIZE_OF_HEADERS,
    })?;
    if fec_set_index > index {
        return Err(ShredDefect::FecSetIndexAfterIndex {
            fec_set_index,
            index,
        });
    }
    let parent_offset = read_u16(headers, OFFSET_PARENT_OFFSET).unwrap_or_default();
    let flags = headers.get(OFFSET_FLAGS).copied().unwrap_or_default();
    let size = read_u16(headers, OFFSET_SIZE).unwrap_or_default();
    if flags & 0x80 != 0 && flags & FLAG_DATA_COMPLETE == 0 {
        return Err(ShredDefect::InvalidFlags(flags));
    }
    let capacity = variant.data_capacity().unwrap_or_default();
    let max = SIZE_OF_HEADERS + capacity;
    if !(SIZE_OF_HEADERS..=max).contains(&usize::from(size)) {
        return Err(ShredDefect::SizeOutOfRange {
            size,
            min: SIZE_OF_HEADERS,
            max,
        });
    }
    if parent_offset == 0 && slot != 0 {
        return Err(ShredDefect::ParentOffsetZero);
    }
    if u64::from(parent_offset) > slot {
        return Err(ShredDefect::ParentOffsetBeyondSlot {
            parent_offset,
            slot,
        });
    }
    // Legacy data is stored trimmed to `size`; Merkle data is always the full 1203 bytes
    // because the Merkle trailer sits at the payload's end.
    let stored_len = match variant {
        ShredVariant::LegacyData => usize::from(size),
        _ => MERKLE_DATA_PAYLOAD_LEN,
    };
    let payload = packet.get(..stored_len).ok_or(ShredDefect::TooShort {
        len: packet.len(),
        need: stored_len,
    })?;
    let body = Body::Data {
        parent_offset,
        flags,
        size,
    };
    Ok((payload, body))
}

fn parse_code(packet: &[u8], index: u32, fec_set_index: u32) -> Result<(&[u8], Body), ShredDefect> {
    let payload = packet
        .get(..CODE_PAYLOAD_LEN)
        .ok_or(ShredDefect::TooShort {
            len: packet.len(),
            need: CODE_PAYLOAD_LEN,
        })?;
    let num_data = read_u16(payload, OFFSET_NUM_DATA).unwrap_or_default();
    let num_code = read_u16(payload, OFFSET_NUM_CODE).unwrap_or_default();
    let position = read_u16(payload, OFFSET_POSITION).unwrap_or_default();
    let bad = |field, value| ShredDefect::InvalidCodeHeader { field, value };
    if num_data == 0 {
        return Err(bad("num_data", num_data));
    }
    if num_code == 0 || num_code > MAX_CODE_SHREDS_PER_FEC_SET {
        return Err(bad("num_code", num_code));
    }
    if position >= num_code {
        return Err(bad("position", position));
    }
    // The set's last data index, fec_set_index + num_data − 1, must be a valid index.
    let last_data = u64::from(fec_set_index) + u64::from(num_data) - 1;
    if last_data >= u64::from(MAX_SHREDS_PER_SLOT) {
        return Err(bad("num_data", num_data));
    }
    // The set's first code index is index − position; its last must be a valid index.
    let first_code = index
        .checked_sub(u32::from(position))
        .ok_or(bad("position", position))?;
    let last_code = u64::from(first_code) + u64::from(num_code) - 1;
    if last_code >= u64::from(MAX_SHREDS_PER_SLOT) {
        return Err(bad("num_code", num_code));
    }
    let body = Body::Code {
        num_data,
        num_code,
        position,
    };
    Ok((payload, body))
}
