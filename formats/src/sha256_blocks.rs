//! SHA-256 by direct calls of the compression function, for messages whose padded blocks a
//! caller builds once (PoH's 32-byte rehash, the 66-byte Merkle node). `sha2` picks its
//! SHA-NI code at run time when the CPU has it.

use sha2::digest::generic_array::GenericArray;
use sha2::digest::typenum::U64;

/// SHA-256 initial state (FIPS 180-4, 5.3.3).
pub(crate) const SHA256_IV: [u32; 8] = [
    0x6a09_e667,
    0xbb67_ae85,
    0x3c6e_f372,
    0xa54f_f53a,
    0x510e_527f,
    0x9b05_688c,
    0x1f83_d9ab,
    0x5be0_cd19,
];

/// The digest of already padded `blocks` (the message's last block carries 0x80, zeros and
/// the bit length).
pub(crate) fn digest_padded(blocks: &[GenericArray<u8, U64>]) -> [u8; 32] {
    let mut state = SHA256_IV;
    sha2::compress256(&mut state, blocks);
    let mut out = [0u8; 32];
    for (dst, word) in out.chunks_exact_mut(4).zip(state) {
        dst.copy_from_slice(&word.to_be_bytes());
    }
    out
}
