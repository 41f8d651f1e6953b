//! A `transaction_memos` value: the memo text of a transaction (Agave joins the memos of
//! its memo instructions), stored as a bincode `String` (u64 LE length, UTF-8 bytes).

use crate::wire::Reader;

/// Most bytes a memo may claim (a transaction is at most 1232 bytes; this leaves room for
/// Agave's formatting of several memos).
const MAX_MEMO: usize = 64 * 1024;

/// The memo text, borrowed from the stored value.
pub fn decode_memo(bytes: &[u8]) -> Result<&str, String> {
    let mut r = Reader::new(bytes);
    let text = r.byte_vec(MAX_MEMO, "memo")?;
    std::str::from_utf8(text).map_err(|e| format!("memo: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_bincode_strings() {
        let mut v = 5u64.to_le_bytes().to_vec();
        v.extend_from_slice(b"[3] x");
        assert_eq!(decode_memo(&v), Ok("[3] x"));
        assert!(decode_memo(&v[..10]).is_err());
        let mut bomb = u64::MAX.to_le_bytes().to_vec();
        bomb.push(b'a');
        assert!(decode_memo(&bomb).is_err());
        let mut bad = 1u64.to_le_bytes().to_vec();
        bad.push(0xff);
        assert!(decode_memo(&bad).is_err());
    }
}
