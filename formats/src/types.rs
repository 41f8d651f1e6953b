//! Domain newtypes shared by every layer: slots, shred indices, hashes, signatures, keys.
//!
//! Public APIs take these instead of bare integers or byte arrays, so a slot can never be
//! passed where a shred index is expected.

use std::fmt;
use std::str::FromStr;

/// A slot number (one leader's turn). Ordered like the `u64` it wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Slot(pub u64);

/// Index of a shred within its slot. Valid indices are `< MAX_DATA_SHREDS_PER_SLOT`
/// (see `shred::MAX_SHREDS_PER_SLOT`); the type itself does not enforce it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ShredIndex(pub u32);

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for ShredIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Error from parsing a base58 string into one of the fixed-size byte types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBase58Error {
    /// What was being parsed ("hash", "signature", "pubkey").
    pub what: &'static str,
    /// Why it failed.
    pub reason: String,
}

impl fmt::Display for ParseBase58Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid base58 {}: {}", self.what, self.reason)
    }
}

impl std::error::Error for ParseBase58Error {}

macro_rules! base58_bytes {
    ($(#[$doc:meta])* $name:ident, $len:expr, $what:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub [u8; $len]);

        impl $name {
            /// Length of the value in bytes.
            pub const LEN: usize = $len;

            /// The raw bytes.
            pub fn as_bytes(&self) -> &[u8; $len] {
                &self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self([0u8; $len])
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&bs58::encode(&self.0).into_string())
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}({})", stringify!($name), self)
            }
        }

        impl FromStr for $name {
            type Err = ParseBase58Error;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                let mut out = [0u8; $len];
                let n = bs58::decode(s).onto(&mut out[..]).map_err(|e| ParseBase58Error {
                    what: $what,
                    reason: e.to_string(),
                })?;
                if n != $len {
                    return Err(ParseBase58Error {
                        what: $what,
                        reason: format!("decodes to {n} bytes, expected {}", $len),
                    });
                }
                Ok(Self(out))
            }
        }
    };
}

base58_bytes!(
    /// A SHA-256 hash (entry hashes, blockhashes, Merkle roots). Displays as base58.
    Hash,
    32,
    "hash"
);
base58_bytes!(
    /// An Ed25519 signature. Displays as base58.
    Signature,
    64,
    "signature"
);
base58_bytes!(
    /// An Ed25519 public key (account address). Displays as base58.
    Pubkey,
    32,
    "pubkey"
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base58_round_trip_and_length_check() {
        let h: Hash = "CZPKWGUfdCxaqrdcwHndRvQrxGMo2KtkdE8PUMiqYEQo"
            .parse()
            .expect("valid hash");
        assert_eq!(
            h.to_string(),
            "CZPKWGUfdCxaqrdcwHndRvQrxGMo2KtkdE8PUMiqYEQo"
        );
        assert!("3q8F".parse::<Hash>().is_err());
        assert!("0OIl".parse::<Pubkey>().is_err());
    }
}
