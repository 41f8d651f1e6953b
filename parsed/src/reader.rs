//! A bounded cursor over hostile instruction data, with the primitive decodings the
//! program interfaces use: fixed-width little-endian integers (bincode's fixint and the
//! SPL `pack` layouts), bincode's `u64`-prefixed strings and byte vectors, borsh's
//! `u32`-prefixed strings, Solana's compact `ShortU16` lengths and the LEB128 `VarInt`.
//!
//! Invariant: every read either consumes bytes that are there or returns `None` and leaves
//! nothing half-read that a caller could use; no read allocates more than the bytes it
//! consumes, whatever a length field claims.

/// A read position in `data`.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Self {
        Self { rest: data }
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.rest
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.rest.is_empty()
    }

    /// The next `n` bytes.
    pub(crate) fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        if n > self.rest.len() {
            return None;
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Some(head)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.bytes(N)?.try_into().ok()
    }

    pub(crate) fn u8(&mut self) -> Option<u8> {
        let (&b, tail) = self.rest.split_first()?;
        self.rest = tail;
        Some(b)
    }

    pub(crate) fn i8(&mut self) -> Option<i8> {
        self.array().map(i8::from_le_bytes)
    }

    pub(crate) fn u16(&mut self) -> Option<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub(crate) fn u32(&mut self) -> Option<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub(crate) fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    pub(crate) fn i64(&mut self) -> Option<i64> {
        self.array().map(i64::from_le_bytes)
    }

    pub(crate) fn pubkey(&mut self) -> Option<[u8; 32]> {
        self.array()
    }

    /// bincode's and borsh's `bool`: one byte, 0 or 1; anything else is an error.
    pub(crate) fn bool(&mut self) -> Option<bool> {
        match self.u8()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    /// The tag of a bincode or borsh `Option`: 0 is `None`, 1 is `Some`, anything else is
    /// an error.
    pub(crate) fn option_tag(&mut self) -> Option<bool> {
        self.bool()
    }

    /// A bincode `Option<T>` read with `read`.
    pub(crate) fn option<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Option<T>,
    ) -> Option<Option<T>> {
        if self.option_tag()? {
            read(self).map(Some)
        } else {
            Some(None)
        }
    }

    /// bincode's enum variant index (fixint `u32`).
    pub(crate) fn variant(&mut self) -> Option<u32> {
        self.u32()
    }

    /// bincode's `Vec<u8>` / `&[u8]`: a `u64` length, then the bytes.
    pub(crate) fn bincode_bytes(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        self.bytes(len)
    }

    /// bincode's `String`: its bytes, which must be UTF-8.
    pub(crate) fn bincode_string(&mut self) -> Option<&'a str> {
        std::str::from_utf8(self.bincode_bytes()?).ok()
    }

    /// A bincode `u64` length of a sequence of `elem_size`-byte elements, accepted only
    /// when that many elements are actually present (so a caller may allocate for them).
    pub(crate) fn bincode_len(&mut self, elem_size: usize) -> Option<usize> {
        let len = usize::try_from(self.u64()?).ok()?;
        (len.checked_mul(elem_size)? <= self.rest.len()).then_some(len)
    }

    /// borsh's `String`: a `u32` length, then UTF-8 bytes.
    pub(crate) fn borsh_string(&mut self) -> Option<&'a str> {
        let len = usize::try_from(self.u32()?).ok()?;
        std::str::from_utf8(self.bytes(len)?).ok()
    }

    /// Solana's `ShortU16` (compact-u16), strict form: one to three bytes, no alias
    /// encodings (a zero byte after the first), no continuation on the third byte, no
    /// value above `u16::MAX`.
    pub(crate) fn short_u16(&mut self) -> Option<u16> {
        let mut value: u32 = 0;
        for nth in 0..3u32 {
            let byte = self.u8()?;
            if byte == 0 && nth != 0 {
                return None;
            }
            let done = byte & 0x80 == 0;
            if nth == 2 && !done {
                return None;
            }
            value |= u32::from(byte & 0x7f) << (7 * nth);
            let value = u16::try_from(value).ok()?;
            if done {
                return Some(value);
            }
        }
        None
    }

    /// `solana-serde-varint`'s `u64`: LEB128, at most ten bytes, with its two strictness
    /// rules (the last byte loses no bits to the shift; a zero last byte only for the
    /// one-byte encoding of zero).
    pub(crate) fn varint_u64(&mut self) -> Option<u64> {
        let mut out: u64 = 0;
        let mut shift = 0u32;
        while shift < u64::BITS {
            let byte = self.u8()?;
            out |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                if (out >> shift) as u8 != byte {
                    return None;
                }
                if byte == 0 && (shift != 0 || out != 0) {
                    return None;
                }
                return Some(out);
            }
            shift += 7;
        }
        None
    }
}

#[cfg(test)]
#[path = "tests/reader.rs"]
mod tests;
