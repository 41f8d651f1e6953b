//! A bounded cursor over marker bytes: every read checks the remaining length first, and
//! every length prefix is checked against the remaining bytes before anything is copied, so
//! a marker can neither panic the parser nor make it allocate more than its own size.

use super::defect::MarkerDefect;
use crate::entry::short_vec_decode;

/// A parse failure: where (byte offset in the data set) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fault {
    pub offset: usize,
    pub defect: MarkerDefect,
}

pub(crate) type Step<T> = Result<T, Fault>;

/// Cursor over `bytes`; `pos <= bytes.len()` always.
pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    pub(crate) fn fault(&self, offset: usize, defect: MarkerDefect) -> Fault {
        Fault { offset, defect }
    }

    fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    pub(crate) fn array<const N: usize>(&mut self, field: &'static str) -> Step<[u8; N]> {
        match self.rest().first_chunk::<N>() {
            Some(a) => {
                self.pos += N;
                Ok(*a)
            }
            None => Err(self.fault(
                self.pos,
                MarkerDefect::Truncated {
                    field,
                    need: N,
                    have: self.remaining(),
                },
            )),
        }
    }

    pub(crate) fn u8(&mut self, field: &'static str) -> Step<u8> {
        self.array::<1>(field).map(|[b]| b)
    }

    pub(crate) fn u16(&mut self, field: &'static str) -> Step<u16> {
        self.array::<2>(field).map(u16::from_le_bytes)
    }

    pub(crate) fn u64(&mut self, field: &'static str) -> Step<u64> {
        self.array::<8>(field).map(u64::from_le_bytes)
    }

    /// `len` bytes, after checking they are there (the length came from the input).
    pub(crate) fn bytes(&mut self, field: &'static str, len: u64, at: usize) -> Step<Vec<u8>> {
        let have = self.remaining();
        let n = usize::try_from(len)
            .ok()
            .filter(|&n| n <= have)
            .ok_or_else(|| {
                self.fault(
                    at,
                    MarkerDefect::LengthExceedsInput {
                        field,
                        declared: len,
                        have,
                    },
                )
            })?;
        let out = self.rest().get(..n).unwrap_or_default().to_vec();
        self.pos += n;
        Ok(out)
    }

    /// A byte vector with a `u8` length.
    pub(crate) fn vec_u8_len(&mut self, field: &'static str) -> Step<Vec<u8>> {
        let at = self.pos;
        let len = self.u8(field)?;
        self.bytes(field, u64::from(len), at)
    }

    /// A byte vector with a `u16` length.
    pub(crate) fn vec_u16_len(&mut self, field: &'static str) -> Step<Vec<u8>> {
        let at = self.pos;
        let len = self.u16(field)?;
        self.bytes(field, u64::from(len), at)
    }

    /// A byte vector with a `u64` (bincode) length.
    pub(crate) fn vec_u64_len(&mut self, field: &'static str) -> Step<Vec<u8>> {
        let at = self.pos;
        let len = self.u64(field)?;
        self.bytes(field, len, at)
    }

    /// A byte vector with a compact-u16 (short_vec) length.
    pub(crate) fn vec_short_len(&mut self, field: &'static str) -> Step<Vec<u8>> {
        let at = self.pos;
        let (len, used) = short_vec_decode(self.rest())
            .map_err(|reason| self.fault(at, MarkerDefect::CompactU16 { field, reason }))?;
        self.pos += used;
        self.bytes(field, u64::from(len), at)
    }

    /// An `Option` tag: `false` for 0, `true` for 1.
    pub(crate) fn option_tag(&mut self, field: &'static str) -> Step<bool> {
        let at = self.pos;
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            tag => Err(self.fault(at, MarkerDefect::InvalidOptionTag { field, tag })),
        }
    }
}
