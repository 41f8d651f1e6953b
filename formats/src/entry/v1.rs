//! The parts of a v1 transaction (SIMD-0385) that legacy and v0 do not have
//! (`docs/formats-entries.md#v1-transactions`): the config mask and its values, and the
//! walk that finds where each part of a v1 message lies.
//!
//! Strictness equals Agave 4's deserializer (`solana-message` v1 `SchemaRead`): a mask with
//! unknown bits or with only one of the two priority-fee bits is refused; nothing else is
//! checked beyond the bytes being there (the count limits, the 4,096-byte cap and the heap
//! size rules are sanitization, a later step).

use super::EntryDefect;
use super::layout::{KEY_BYTES, SIGNATURE_BYTES, V1_INSTRUCTION_HEADER_BYTES};
use super::reader::{Fault, Reader, Step};

/// The compute budget a v1 message carries inline. `None`: the field's mask bit is clear
/// and the field takes no bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TransactionConfig {
    /// Priority fee in lamports (mask bits 0 and 1, u64 LE).
    pub priority_fee: Option<u64>,
    /// Compute unit limit (mask bit 2, u32 LE).
    pub compute_unit_limit: Option<u32>,
    /// Loaded accounts data size limit in bytes (mask bit 3, u32 LE).
    pub loaded_accounts_data_size_limit: Option<u32>,
    /// Requested heap size in bytes (mask bit 4, u32 LE).
    pub heap_size: Option<u32>,
}

impl TransactionConfig {
    /// Both bits must be set together: the fee is one 8-byte value.
    pub const PRIORITY_FEE_BITS: u32 = 0b11;
    /// Mask bit of `compute_unit_limit`.
    pub const COMPUTE_UNIT_LIMIT_BIT: u32 = 0b100;
    /// Mask bit of `loaded_accounts_data_size_limit`.
    pub const LOADED_ACCOUNTS_DATA_SIZE_BIT: u32 = 0b1000;
    /// Mask bit of `heap_size`.
    pub const HEAP_SIZE_BIT: u32 = 0b1_0000;
    /// Every bit a mask may set.
    pub const KNOWN_BITS: u32 = 0b1_1111;

    /// The mask the encoder writes for this config.
    pub fn mask(&self) -> u32 {
        let bit = |present: bool, bits: u32| if present { bits } else { 0 };
        bit(self.priority_fee.is_some(), Self::PRIORITY_FEE_BITS)
            | bit(
                self.compute_unit_limit.is_some(),
                Self::COMPUTE_UNIT_LIMIT_BIT,
            )
            | bit(
                self.loaded_accounts_data_size_limit.is_some(),
                Self::LOADED_ACCOUNTS_DATA_SIZE_BIT,
            )
            | bit(self.heap_size.is_some(), Self::HEAP_SIZE_BIT)
    }

    /// Bytes of the config values: 4 per set mask bit (the fee's two bits make 8).
    pub fn values_len(&self) -> usize {
        values_len(self.mask())
    }

    /// Refuses a mask Agave 4 refuses (unknown bits first, then a split fee pair).
    pub fn check_mask(mask: u32) -> Result<(), EntryDefect> {
        if mask & !Self::KNOWN_BITS != 0 {
            return Err(EntryDefect::UnknownConfigMaskBits(mask));
        }
        let fee = mask & Self::PRIORITY_FEE_BITS;
        if fee != 0 && fee != Self::PRIORITY_FEE_BITS {
            return Err(EntryDefect::SplitPriorityFeeBits(mask));
        }
        Ok(())
    }

    /// Reads the values a checked `mask` announces, in wire order.
    pub(crate) fn read(mask: u32, r: &mut Reader<'_>) -> Step<Self> {
        const WHAT: &str = "v1 config values";
        let mut c = Self::default();
        if mask & Self::PRIORITY_FEE_BITS != 0 {
            c.priority_fee = Some(r.u64(WHAT)?);
        }
        if mask & Self::COMPUTE_UNIT_LIMIT_BIT != 0 {
            c.compute_unit_limit = Some(r.u32_le(WHAT)?);
        }
        if mask & Self::LOADED_ACCOUNTS_DATA_SIZE_BIT != 0 {
            c.loaded_accounts_data_size_limit = Some(r.u32_le(WHAT)?);
        }
        if mask & Self::HEAP_SIZE_BIT != 0 {
            c.heap_size = Some(r.u32_le(WHAT)?);
        }
        Ok(c)
    }

    /// Appends the values in wire order.
    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        if let Some(v) = self.priority_fee {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [
            self.compute_unit_limit,
            self.loaded_accounts_data_size_limit,
            self.heap_size,
        ]
        .into_iter()
        .flatten()
        {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

/// Bytes of the config values a valid mask announces.
fn values_len(mask: u32) -> usize {
    (mask & TransactionConfig::KNOWN_BITS).count_ones() as usize * 4
}

/// Where the parts of a v1 message lie, as offsets from its version byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct V1Layout {
    pub header: [u8; 3],
    pub mask: u32,
    pub blockhash_start: usize,
    pub num_instructions: usize,
    pub num_keys: usize,
    pub keys_start: usize,
    pub config_start: usize,
    /// The instruction headers, 4 bytes each, then the payloads (accounts, data) in order.
    pub instructions_start: usize,
    pub payloads_start: usize,
    /// Bytes of the message (the signatures follow).
    pub message_len: usize,
}

impl V1Layout {
    /// The account keys of `msg`, the message this layout was walked from.
    pub(crate) fn keys<'a>(&self, msg: &'a [u8]) -> &'a [[u8; 32]] {
        msg.get(self.keys_start..self.keys_start + self.num_keys * KEY_BYTES)
            .map_or(&[], |k| k.as_chunks::<KEY_BYTES>().0)
    }

    /// The config values of `msg` (the walk checked they are all there).
    pub(crate) fn config(&self, msg: &[u8]) -> TransactionConfig {
        let mut r = Reader::new(msg.get(self.config_start..).unwrap_or(&[]));
        TransactionConfig::read(self.mask, &mut r).unwrap_or_default()
    }

    /// The instructions of `msg`: program id index, account indexes, data.
    pub(crate) fn instructions<'a>(
        &self,
        msg: &'a [u8],
    ) -> impl Iterator<Item = (u8, &'a [u8], &'a [u8])> + use<'a> {
        let headers = msg
            .get(self.instructions_start..self.payloads_start)
            .unwrap_or(&[]);
        let mut headers = Reader::new(headers);
        let mut payloads = Reader::new(msg.get(self.payloads_start..).unwrap_or(&[]));
        (0..self.num_instructions)
            .map_while(move |_| read_instruction(&mut headers, &mut payloads).ok())
    }
}

/// Validates the v1 message at the reader's position (its first byte is `0x81`, already
/// peeked by the caller) and moves past it. Every count is a u8, so the walk does at most
/// 255 steps of bounded work, and every skip is checked against the remaining bytes.
pub(crate) fn walk_message(r: &mut Reader<'_>) -> Step<V1Layout> {
    let base = r.pos();
    r.skip(1, "message version")?;
    let header = *r.array::<3>("message header")?;
    let mask_at = r.pos();
    let mask = r.u32_le("v1 config mask")?;
    TransactionConfig::check_mask(mask).map_err(|defect| Fault {
        offset: mask_at,
        defect,
    })?;
    let blockhash_start = r.pos() - base;
    r.skip(32, "recent blockhash")?;
    let num_instructions = usize::from(r.u8("v1 instruction count")?);
    let num_keys = usize::from(r.u8("v1 account key count")?);
    let keys_start = r.pos() - base;
    r.skip(num_keys * KEY_BYTES, "account keys")?;
    let config_start = r.pos() - base;
    r.skip(values_len(mask), "v1 config values")?;
    let instructions_start = r.pos() - base;
    let headers = r.take(
        num_instructions * V1_INSTRUCTION_HEADER_BYTES,
        "v1 instruction headers",
    )?;
    let payloads_start = r.pos() - base;
    for h in headers.as_chunks::<V1_INSTRUCTION_HEADER_BYTES>().0 {
        let (accounts, data) = payload_lens(h);
        r.skip(accounts, "instruction accounts")?;
        r.skip(data, "instruction data")?;
    }
    Ok(V1Layout {
        header,
        mask,
        blockhash_start,
        num_instructions,
        num_keys,
        keys_start,
        config_start,
        instructions_start,
        payloads_start,
        message_len: r.pos() - base,
    })
}

/// Checks that the v1 signatures (`num_required_signatures` of them, no length prefix)
/// follow, refusing before any work a count the remaining bytes cannot hold; returns it.
/// `header_at` is the offset of the header byte that declares the count.
pub(crate) fn signature_count(r: &Reader<'_>, layout: &V1Layout, header_at: usize) -> Step<usize> {
    let [declared, ..] = layout.header;
    r.check_count(
        header_at,
        "v1 signature count",
        u64::from(declared),
        SIGNATURE_BYTES,
    )
}

/// Account-index and data lengths of one instruction header.
fn payload_lens(h: &[u8; V1_INSTRUCTION_HEADER_BYTES]) -> (usize, usize) {
    let [_, accounts, d0, d1] = *h;
    (
        usize::from(accounts),
        usize::from(u16::from_le_bytes([d0, d1])),
    )
}

/// Reads one instruction: its header from `headers`, its accounts and data from
/// `payloads` (both readers advance).
pub(crate) fn read_instruction<'a>(
    headers: &mut Reader<'a>,
    payloads: &mut Reader<'a>,
) -> Step<(u8, &'a [u8], &'a [u8])> {
    let h = headers.array::<V1_INSTRUCTION_HEADER_BYTES>("v1 instruction header")?;
    let (accounts, data) = payload_lens(h);
    let [program_id_index, ..] = *h;
    let accounts = payloads.take(accounts, "instruction accounts")?;
    let data = payloads.take(data, "instruction data")?;
    Ok((program_id_index, accounts, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mask_rules_follow_agave() {
        for mask in 0..32u32 {
            let split = (mask & 0b11).count_ones() == 1;
            assert_eq!(
                TransactionConfig::check_mask(mask).is_err(),
                split,
                "{mask:#b}"
            );
        }
        assert_eq!(
            TransactionConfig::check_mask(0b10_0000),
            Err(EntryDefect::UnknownConfigMaskBits(0b10_0000))
        );
        assert_eq!(
            TransactionConfig::check_mask(0x8000_0001),
            Err(EntryDefect::UnknownConfigMaskBits(0x8000_0001)),
            "unknown bits are named before a split fee pair"
        );
        assert_eq!(
            TransactionConfig::check_mask(0b10),
            Err(EntryDefect::SplitPriorityFeeBits(0b10))
        );
        assert_eq!(values_len(0b1_1111), 20);
        assert_eq!(values_len(0b1_0100), 8);
    }

    #[test]
    fn values_round_trip_in_wire_order() {
        let c = TransactionConfig {
            priority_fee: Some(u64::MAX - 1),
            compute_unit_limit: None,
            loaded_accounts_data_size_limit: Some(7),
            heap_size: Some(64 * 1024),
        };
        assert_eq!(c.mask(), 0b1_1011);
        let mut out = Vec::new();
        c.write(&mut out);
        assert_eq!(out.len(), c.values_len());
        assert_eq!(out.get(8..12), Some(&7u32.to_le_bytes()[..]));
        let back = TransactionConfig::read(c.mask(), &mut Reader::new(&out));
        assert_eq!(back, Ok(c));
    }
}
