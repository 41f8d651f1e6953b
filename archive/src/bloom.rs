//! The bloom filter of a range index: `BLOOM_BITS_PER_KEY` bits per signature and
//! `BLOOM_HASHES` probes, so a signature absent from the range is rejected in memory with
//! a false-positive rate of about 0.05% (a false positive costs two object reads).
//!
//! Probe `i` of a signature is bit `(h1 + i·h2) mod m`, with `h1`, `h2` the little-endian
//! `u64`s at bytes 8..16 and 16..24 of the signature (`h2` forced odd). Those bytes belong to
//! the signature's `R` point and are uniformly distributed for signatures made honestly;
//! bytes 0..2 pick the fan-out bucket, so the two never share bits.

use crate::layout::{BLOOM_BITS_PER_KEY, BLOOM_HASHES};

/// A bloom filter's bits (bit `j` is bit `j % 8` of byte `j / 8`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Bloom {
    bits: Vec<u8>,
}

/// Bytes of the filter of `n` signatures (0 for none).
pub(crate) fn bloom_bytes(n: u64) -> u64 {
    if n == 0 {
        0
    } else {
        (n * BLOOM_BITS_PER_KEY).div_ceil(8).max(8)
    }
}

fn probes(sig: &[u8; 64], m: u64) -> impl Iterator<Item = u64> {
    let word = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&sig[at..at + 8]);
        u64::from_le_bytes(b)
    };
    let (h1, h2) = (word(8), word(16) | 1);
    (0..u64::from(BLOOM_HASHES)).map(move |i| h1.wrapping_add(i.wrapping_mul(h2)) % m)
}

impl Bloom {
    /// The filter of `sigs`.
    pub(crate) fn build<'a>(n: u64, sigs: impl Iterator<Item = &'a [u8; 64]>) -> Self {
        let mut bits = vec![0u8; bloom_bytes(n) as usize];
        let m = bits.len() as u64 * 8;
        if m > 0 {
            for sig in sigs {
                for j in probes(sig, m) {
                    if let Some(b) = bits.get_mut((j / 8) as usize) {
                        *b |= 1 << (j % 8);
                    }
                }
            }
        }
        Self { bits }
    }

    /// A filter read back from its bytes.
    pub(crate) fn from_bytes(bits: Vec<u8>) -> Self {
        Self { bits }
    }

    /// The stored bytes.
    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.bits
    }

    /// False only when `sig` is certainly not in the set.
    pub(crate) fn may_contain(&self, sig: &[u8; 64]) -> bool {
        let m = self.bits.len() as u64 * 8;
        m > 0
            && probes(sig, m).all(|j| {
                self.bits
                    .get((j / 8) as usize)
                    .is_some_and(|b| b & (1 << (j % 8)) != 0)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn no_false_negatives_and_few_false_positives() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let sig = |rng: &mut rand_chacha::ChaCha8Rng| {
            let mut s = [0u8; 64];
            rng.fill(&mut s[..]);
            s
        };
        let members: Vec<[u8; 64]> = (0..20_000).map(|_| sig(&mut rng)).collect();
        let bloom = Bloom::build(members.len() as u64, members.iter());
        assert!(members.iter().all(|s| bloom.may_contain(s)));
        let fp = (0..100_000)
            .filter(|_| bloom.may_contain(&sig(&mut rng)))
            .count();
        assert!(fp < 200, "{fp} false positives in 100000 (expected ~50)");
        assert!(!Bloom::default().may_contain(&members[0]));
    }
}
