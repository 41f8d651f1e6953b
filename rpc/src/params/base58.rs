//! Base58 (Bitcoin alphabet) decoding of fixed-size params (signatures, addresses), with the
//! result `bs58::decode(text).into_vec()` gives and then a size check: the `bs58` crate
//! multiplies one byte at a time for every input character (~20 k instructions for a
//! signature, a noticeable share of a `getTransaction`); here five characters at a time are
//! folded into 32-bit limbs (58^5 < 2^32), about a fifth of the work.

/// Why a text is not `N` bytes of base58.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Base58Error {
    /// A character outside the alphabet.
    Invalid,
    /// Valid base58 of another length than `N` bytes.
    WrongSize,
}

/// Digit value of each ASCII byte, 0xFF for a byte outside the alphabet.
const DIGITS: [u8; 128] = {
    let alphabet = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let mut table = [0xFFu8; 128];
    let mut i = 0;
    while i < alphabet.len() {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
};

/// Limbs of the number being decoded: enough for 96 bytes (any `N` here is at most 64, and
/// a text longer than `N` bytes can hold is refused before it could overflow them).
const LIMBS: usize = 24;

/// Decodes `text` into exactly `N` bytes. Leading `1`s are leading zero bytes, as in
/// `bs58`; the rest is the number's big-endian bytes without leading zeros.
pub(crate) fn decode_fixed<const N: usize>(text: &str) -> Result<[u8; N], Base58Error> {
    let input = text.as_bytes();
    let zeros = input.iter().take_while(|&&b| b == b'1').count();
    if zeros > N {
        // Every leading `1` is an output byte of its own.
        return validate(input).and(Err(Base58Error::WrongSize));
    }
    // Base58 has about 0.73 bytes per character: a text of more than 2N + 2 characters
    // after the zeros is always longer than N bytes (checked for validity first, as `bs58`
    // reports a bad character before any size).
    let rest = input.get(zeros..).unwrap_or_default();
    if rest.len() > 2 * N + 2 || N > LIMBS * 4 {
        return validate(input).and(Err(Base58Error::WrongSize));
    }
    // Little-endian 32-bit limbs; `used` limbs are non-zero territory.
    let mut limbs = [0u32; LIMBS];
    let mut used = 0usize;
    for chunk in rest.chunks(5) {
        let mut value = 0u64;
        let mut scale = 1u64;
        for &b in chunk {
            let digit = DIGITS.get(usize::from(b)).copied().unwrap_or(0xFF);
            if digit == 0xFF {
                return Err(Base58Error::Invalid);
            }
            value = value * 58 + u64::from(digit);
            scale *= 58;
        }
        // limbs = limbs * scale + value (scale ≤ 58^5 < 2^32: each step fits a u64).
        let mut carry = value;
        for limb in limbs.iter_mut().take(used) {
            let cur = u64::from(*limb) * scale + carry;
            *limb = cur as u32;
            carry = cur >> 32;
        }
        if carry != 0 {
            match limbs.get_mut(used) {
                Some(limb) => *limb = carry as u32,
                None => return Err(Base58Error::WrongSize),
            }
            used += 1;
        }
    }
    // Big-endian bytes of the number, without leading zeros, after the `zeros` zero bytes.
    let mut be = [0u8; LIMBS * 4];
    for (i, limb) in limbs.iter().take(used).enumerate() {
        let at = LIMBS * 4 - 4 * (i + 1);
        if let Some(dst) = be.get_mut(at..at + 4) {
            dst.copy_from_slice(&limb.to_be_bytes());
        }
    }
    let significant = be.iter().position(|&b| b != 0).unwrap_or(be.len());
    let number = be.get(significant..).unwrap_or_default();
    if zeros + number.len() != N {
        return Err(Base58Error::WrongSize);
    }
    let mut out = [0u8; N];
    if let Some(dst) = out.get_mut(zeros..) {
        dst.copy_from_slice(number);
    }
    Ok(out)
}

/// `Ok` when every byte of `input` is a base58 character.
fn validate(input: &[u8]) -> Result<(), Base58Error> {
    match input
        .iter()
        .all(|&b| DIGITS.get(usize::from(b)).is_some_and(|&d| d != 0xFF))
    {
        true => Ok(()),
        false => Err(Base58Error::Invalid),
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// What the params did before: `bs58`, then the size.
    fn reference<const N: usize>(text: &str) -> Result<[u8; N], Base58Error> {
        let bytes = bs58::decode(text)
            .into_vec()
            .map_err(|_| Base58Error::Invalid)?;
        bytes.try_into().map_err(|_| Base58Error::WrongSize)
    }

    fn same<const N: usize>(text: &str) {
        assert_eq!(
            decode_fixed::<N>(text),
            reference::<N>(text),
            "{text:?} as {N}"
        );
    }

    #[test]
    fn same_as_bs58_on_encoded_values_of_every_length() {
        let mut rng = ChaCha8Rng::seed_from_u64(58);
        for len in 0..=72usize {
            for _ in 0..40 {
                let mut v: Vec<u8> = (0..len).map(|_| rng.r#gen()).collect();
                // Leading zero bytes (leading `1`s) and small numbers too.
                let lead = rng.gen_range(0..=len.min(6));
                v.iter_mut().take(lead).for_each(|b| *b = 0);
                let text = bs58::encode(&v).into_string();
                same::<64>(&text);
                same::<32>(&text);
            }
            let zeros = bs58::encode(vec![0u8; len]).into_string();
            same::<64>(&zeros);
            same::<32>(&zeros);
            let ones = bs58::encode(vec![0xFFu8; len]).into_string();
            same::<64>(&ones);
            same::<32>(&ones);
        }
    }

    #[test]
    fn same_as_bs58_on_arbitrary_text() {
        let mut rng = ChaCha8Rng::seed_from_u64(85);
        let chars: Vec<char> = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0OIl+/=é"
            .chars()
            .collect();
        for _ in 0..20_000 {
            let len = rng.gen_range(0..=100);
            // Mostly valid characters, so that lengths near the limits are reached.
            let text: String = (0..len)
                .map(|_| match rng.gen_range(0..50) {
                    0 => chars[rng.gen_range(58..chars.len())],
                    1..=4 => '1',
                    5 => 'z',
                    _ => chars[rng.gen_range(0..58)],
                })
                .collect();
            same::<64>(&text);
            same::<32>(&text);
        }
        for text in [
            "",
            "1",
            "z",
            "0",
            "1111",
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        ] {
            same::<64>(text);
            same::<32>(text);
        }
    }
}
