//! A cursor over bincode 1.x fixint values (integers little-endian) read from disk.
//!
//! Every read is bounds-checked and fails with the name of the field that ran out; no
//! length read from the bytes is trusted before it is compared with the bytes left.
//!
//! It sits below the store and the history rows, which both decode with it (the store's
//! metas and Agave 4.x values, the history's memos, errors and block records).

/// Cursor over little-endian fields; errors name the field that ran out.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Self { bytes, pos: 0 }
    }

    pub(crate) fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// The bytes not read yet.
    pub(crate) fn rest(&self) -> &'a [u8] {
        self.bytes.get(self.pos..).unwrap_or_default()
    }

    /// `n` bytes, or an error naming `field` when fewer are left.
    pub(crate) fn take(&mut self, n: usize, field: &str) -> Result<&'a [u8], String> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| format!("ends inside {field} at byte {}", self.pos))?;
        let out = self.bytes.get(self.pos..end).unwrap_or_default();
        self.pos = end;
        Ok(out)
    }

    pub(crate) fn u64(&mut self, field: &str) -> Result<u64, String> {
        let b = self.take(8, field)?;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or_default()))
    }

    pub(crate) fn u32(&mut self, field: &str) -> Result<u32, String> {
        let b = self.take(4, field)?;
        Ok(u32::from_le_bytes(b.try_into().unwrap_or_default()))
    }

    pub(crate) fn u8(&mut self, field: &str) -> Result<u8, String> {
        Ok(self.take(1, field)?.first().copied().unwrap_or_default())
    }

    /// A `u64` length then that many bytes (bincode's `Vec<u8>` / serde_bytes), the length
    /// bounded by `max` and by the bytes left before anything is read.
    pub(crate) fn byte_vec(&mut self, max: usize, field: &str) -> Result<&'a [u8], String> {
        let len = self.u64(field)?;
        if len > max as u64 || len > self.remaining() as u64 {
            return Err(format!(
                "{field} length {len} exceeds the bound of {max} or the {} bytes left",
                self.remaining()
            ));
        }
        self.take(len as usize, field)
    }

    /// Fails when bytes are left over (bincode's `reject_trailing_bytes`).
    pub(crate) fn finish(&self, what: &str) -> Result<(), String> {
        match self.remaining() {
            0 => Ok(()),
            n => Err(format!("{n} trailing bytes after {what}")),
        }
    }
}
