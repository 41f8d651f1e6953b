//! A bounded cursor over entry bytes. Every read checks the remaining length first and every
//! declared count is checked against what the remaining bytes can hold, so nothing here can
//! panic or be talked into a large allocation by a length prefix.

use super::defect::EntryDefect;
use super::short_vec;
use crate::error::FormatError;

/// A decode failure before it becomes a `FormatError`: kept small (no heap, 40 bytes) because
/// it travels through every `?` of the hot decode loops.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fault {
    pub offset: usize,
    pub defect: EntryDefect,
}

impl From<Fault> for FormatError {
    fn from(f: Fault) -> Self {
        FormatError::InvalidEntries {
            offset: f.offset,
            defect: f.defect,
        }
    }
}

pub(crate) type Step<T> = Result<T, Fault>;

/// Cursor over `bytes`; `pos` never exceeds `bytes.len()`.
#[derive(Debug, Clone)]
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    /// Offset of the next unread byte.
    #[inline]
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    /// The whole underlying buffer.
    #[inline]
    pub(crate) fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    #[inline]
    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len() - self.pos
    }

    #[inline]
    fn rest(&self) -> &'a [u8] {
        // `pos <= len` is the struct invariant, so this never yields `None`; the empty
        // fallback keeps the method panic-free regardless.
        self.bytes.get(self.pos..).unwrap_or(&[])
    }

    #[cold]
    fn truncated(&self, what: &'static str, need: usize) -> Fault {
        Fault {
            offset: self.pos,
            defect: EntryDefect::Truncated {
                what,
                need,
                have: self.remaining(),
            },
        }
    }

    /// The next `n` bytes.
    #[inline]
    pub(crate) fn take(&mut self, n: usize, what: &'static str) -> Step<&'a [u8]> {
        match self.rest().get(..n) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.truncated(what, n)),
        }
    }

    /// Skips `n` bytes.
    #[inline]
    pub(crate) fn skip(&mut self, n: usize, what: &'static str) -> Step<()> {
        if n > self.remaining() {
            return Err(self.truncated(what, n));
        }
        self.pos += n;
        Ok(())
    }

    /// The next `N` bytes as an array reference.
    #[inline]
    pub(crate) fn array<const N: usize>(&mut self, what: &'static str) -> Step<&'a [u8; N]> {
        match self.rest().first_chunk::<N>() {
            Some(a) => {
                self.pos += N;
                Ok(a)
            }
            None => Err(self.truncated(what, N)),
        }
    }

    #[inline]
    pub(crate) fn u8(&mut self, what: &'static str) -> Step<u8> {
        self.array::<1>(what).map(|a| a[0])
    }

    #[inline]
    pub(crate) fn u32_le(&mut self, what: &'static str) -> Step<u32> {
        self.array::<4>(what).map(|a| u32::from_le_bytes(*a))
    }

    #[inline]
    pub(crate) fn u64(&mut self, what: &'static str) -> Step<u64> {
        self.array::<8>(what).map(|a| u64::from_le_bytes(*a))
    }

    /// The next byte without consuming it.
    #[inline]
    pub(crate) fn peek(&self, what: &'static str) -> Step<u8> {
        self.rest()
            .first()
            .copied()
            .ok_or_else(|| self.truncated(what, 1))
    }

    /// A compact-u16 count of items each at least `min_item` bytes long (`min_item >= 1`).
    /// Rejects a count the remaining bytes cannot hold, so callers may preallocate it.
    #[inline]
    pub(crate) fn short_count(&mut self, what: &'static str, min_item: usize) -> Step<usize> {
        let start = self.pos;
        let (value, used) = short_vec::decode(self.rest()).map_err(|e| Fault {
            offset: start,
            defect: EntryDefect::CompactU16(e.reason()),
        })?;
        self.pos += used;
        self.check_count(start, what, u64::from(value), min_item)
    }

    /// A bincode u64 count of items each at least `min_item` bytes long (`min_item >= 1`).
    #[inline]
    pub(crate) fn u64_count(&mut self, what: &'static str, min_item: usize) -> Step<usize> {
        let start = self.pos;
        let value = self.u64(what)?;
        self.check_count(start, what, value, min_item)
    }

    /// `declared` items of at least `min_item` bytes each (a count read at `start`) must
    /// fit in the remaining bytes: `LengthTooLarge` otherwise.
    #[inline]
    pub(crate) fn check_count(
        &self,
        start: usize,
        what: &'static str,
        declared: u64,
        min_item: usize,
    ) -> Step<usize> {
        let max = self.remaining() / min_item.max(1);
        match usize::try_from(declared) {
            Ok(n) if n <= max => Ok(n),
            _ => Err(Fault {
                offset: start,
                defect: EntryDefect::LengthTooLarge {
                    what,
                    declared,
                    max: max as u64,
                },
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_bounded() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.u8("a"), Ok(1));
        assert!(r.u64("b").is_err());
        assert_eq!(r.pos(), 1, "a failed read consumes nothing");
        assert_eq!(r.take(2, "c"), Ok(&[2u8, 3][..]));
        assert!(r.take(1, "d").is_err());
        assert!(r.peek("e").is_err());
    }

    #[test]
    fn counts_are_capped_by_remaining_bytes() {
        let mut bytes = u64::MAX.to_le_bytes().to_vec();
        bytes.extend_from_slice(&[0; 96]);
        let err = Reader::new(&bytes)
            .u64_count("entries", 48)
            .expect_err("count above what 96 bytes hold");
        assert_eq!(err.offset, 0);
        assert_eq!(
            err.defect,
            EntryDefect::LengthTooLarge {
                what: "entries",
                declared: u64::MAX,
                max: 2
            }
        );
        let mut ok = 2u64.to_le_bytes().to_vec();
        ok.extend_from_slice(&[0; 96]);
        assert_eq!(Reader::new(&ok).u64_count("entries", 48), Ok(2));
    }
}
