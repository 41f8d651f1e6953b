//! Reed–Solomon parity for code shreds, compatible with the `reed-solomon-erasure` scheme
//! Agave uses: GF(2^8) with polynomial x⁸+x⁴+x³+x²+1 (0x11D) and generator 2; the encoding
//! matrix is the (data + code) × data Vandermonde matrix `V[r][c] = r^c` multiplied by the
//! inverse of its top square, so the first `data` rows are the identity and the remaining
//! rows give the parity shards.
//!
//! Only encoding is implemented (the shredder needs parity to build code shreds and their
//! Merkle leaves); recovery is not.

/// log / exp tables of GF(2^8); `EXP` is doubled so `EXP[log a + log b]` needs no modulo.
const fn gf_tables() -> ([u8; 256], [u8; 510]) {
    let mut log = [0u8; 256];
    let mut exp = [0u8; 510];
    let mut x: u16 = 1;
    let mut i = 0;
    while i < 255 {
        exp[i] = x as u8;
        exp[i + 255] = x as u8;
        log[x as usize] = i as u8;
        x <<= 1;
        if x & 0x100 != 0 {
            x ^= 0x11D;
        }
        i += 1;
    }
    (log, exp)
}

const TABLES: ([u8; 256], [u8; 510]) = gf_tables();
const LOG: [u8; 256] = TABLES.0;
const EXP: [u8; 510] = TABLES.1;

const fn gf_mul(a: u8, b: u8) -> u8 {
    if a == 0 || b == 0 {
        0
    } else {
        EXP[LOG[a as usize] as usize + LOG[b as usize] as usize]
    }
}

/// Multiplicative inverse; `a` must be non-zero (callers check).
const fn gf_inv(a: u8) -> u8 {
    EXP[255 - LOG[a as usize] as usize]
}

/// `a^n` with `0^0 = 1`, as the Vandermonde construction needs.
const fn gf_pow(a: u8, n: usize) -> u8 {
    if n == 0 {
        1
    } else if a == 0 {
        0
    } else {
        EXP[(LOG[a as usize] as usize * n) % 255]
    }
}

/// Full multiplication table: `MUL[c]` maps a byte to `c · byte`. 64 KiB, built at compile
/// time; the encoder reads one 256-byte row per coefficient, which stays in L1.
static MUL: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut a = 0;
    while a < 256 {
        let mut b = 0;
        while b < 256 {
            t[a][b] = gf_mul(a as u8, b as u8);
            b += 1;
        }
        a += 1;
    }
    t
};

/// Parity coefficients for one (num_data, num_code) shape.
#[derive(Debug, Clone)]
pub(crate) struct Encoder {
    num_data: usize,
    num_code: usize,
    /// Row-major `num_code × num_data`.
    parity: Vec<u8>,
}

impl Encoder {
    /// `None` when the shape is impossible in GF(2^8) (more than 256 shards) or empty.
    pub(crate) fn new(num_data: usize, num_code: usize) -> Option<Self> {
        let total = num_data.checked_add(num_code)?;
        if num_data == 0 || num_code == 0 || total > 256 {
            return None;
        }
        let vander = |r: usize, c: usize| gf_pow(r as u8, c);
        // Invert the top num_data × num_data square (Gauss–Jordan on [top | I]).
        let n = num_data;
        let mut top: Vec<u8> = (0..n * n).map(|i| vander(i / n, i % n)).collect();
        let mut inv: Vec<u8> = (0..n * n).map(|i| u8::from(i / n == i % n)).collect();
        for col in 0..n {
            let pivot = (col..n).find(|&r| top[r * n + col] != 0)?;
            if pivot != col {
                for k in 0..n {
                    top.swap(pivot * n + k, col * n + k);
                    inv.swap(pivot * n + k, col * n + k);
                }
            }
            let scale = gf_inv(top[col * n + col]);
            for k in 0..n {
                top[col * n + k] = gf_mul(top[col * n + k], scale);
                inv[col * n + k] = gf_mul(inv[col * n + k], scale);
            }
            for r in 0..n {
                let f = top[r * n + col];
                if r != col && f != 0 {
                    for k in 0..n {
                        top[r * n + k] ^= gf_mul(f, top[col * n + k]);
                        inv[r * n + k] ^= gf_mul(f, inv[col * n + k]);
                    }
                }
            }
        }
        // Parity row i = Vandermonde row (num_data + i) × top⁻¹.
        let mut parity = vec![0u8; num_code * n];
        for i in 0..num_code {
            for c in 0..n {
                let mut acc = 0u8;
                for k in 0..n {
                    acc ^= gf_mul(vander(n + i, k), inv[k * n + c]);
                }
                parity[i * n + c] = acc;
            }
        }
        Some(Self {
            num_data,
            num_code,
            parity,
        })
    }

    pub(crate) fn num_data(&self) -> usize {
        self.num_data
    }

    pub(crate) fn num_code(&self) -> usize {
        self.num_code
    }

    /// Computes `out[i] = Σ_j parity[i][j] · data[j]` byte-wise. The caller passes exactly
    /// `num_data` data shards and `num_code` outputs, all of one length (the shredder builds
    /// them so); extra or missing shards are ignored by the zips.
    pub(crate) fn encode(&self, data: &[&[u8]], out: &mut [&mut [u8]]) {
        let len = out.iter().map(|o| o.len()).min().unwrap_or(0);
        // Column blocks keep the touched parts of all shards in L1 while every coefficient
        // row is applied.
        let mut start = 0;
        while start < len {
            let end = (start + ENCODE_BLOCK).min(len);
            let rows = self.parity.chunks_exact(self.num_data);
            for (row, dst) in rows.zip(out.iter_mut()) {
                let Some(dst) = dst.get_mut(start..end) else {
                    continue;
                };
                dst.fill(0);
                for (&coef, src) in row.iter().zip(data) {
                    if let Some(src) = src.get(start..end) {
                        mul_add(&MUL[usize::from(coef)], src, dst);
                    }
                }
            }
            start = end;
        }
    }
}

/// Bytes of each shard processed per block of `Encoder::encode`.
const ENCODE_BLOCK: usize = 512;

/// `dst ^= c · src` with `table = MUL[c]`; eight looked-up bytes are XORed as one word.
fn mul_add(table: &[u8; 256], src: &[u8], dst: &mut [u8]) {
    let (d8, d_rest) = dst.as_chunks_mut::<8>();
    let (s8, s_rest) = src.as_chunks::<8>();
    for (d, s) in d8.iter_mut().zip(s8) {
        let product = u64::from_ne_bytes(s.map(|b| table[usize::from(b)]));
        *d = (u64::from_ne_bytes(*d) ^ product).to_ne_bytes();
    }
    for (d, &s) in d_rest.iter_mut().zip(s_rest) {
        *d ^= table[usize::from(s)];
    }
}

/// Parity shards for `data_shards` (all one length), as a leader computes its code shreds'
/// erasure shards: `num_code` outputs of the same length. Error when the shape is empty,
/// has more than 256 shards, or the shards differ in length.
pub fn encode_parity(data_shards: &[&[u8]], num_code: usize) -> crate::Result<Vec<Vec<u8>>> {
    let refuse = |reason: String| crate::FormatError::Shredder(reason);
    let encoder = Encoder::new(data_shards.len(), num_code).ok_or_else(|| {
        refuse(format!(
            "no Reed-Solomon code for {} data + {num_code} code shards",
            data_shards.len()
        ))
    })?;
    let len = data_shards.first().map_or(0, |s| s.len());
    if data_shards.iter().any(|s| s.len() != len) {
        return Err(refuse("erasure shards differ in length".to_string()));
    }
    let mut out = vec![vec![0u8; len]; num_code];
    let mut refs: Vec<&mut [u8]> = out.iter_mut().map(Vec::as_mut_slice).collect();
    encoder.encode(data_shards, &mut refs);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_inverse_and_systematic_top() {
        for a in 1..=255u8 {
            assert_eq!(gf_mul(a, gf_inv(a)), 1);
        }
        // With one data shard every parity row is the identity: parity == data.
        let enc = Encoder::new(1, 3).expect("valid shape");
        let data = [7u8, 0, 255];
        let mut outs = [[0u8; 3]; 3];
        let mut refs: Vec<&mut [u8]> = outs.iter_mut().map(|o| &mut o[..]).collect();
        enc.encode(&[&data], &mut refs);
        assert!(outs.iter().all(|o| *o == data));
        assert!(Encoder::new(200, 57).is_none());
        assert!(Encoder::new(0, 1).is_none());
    }
}
