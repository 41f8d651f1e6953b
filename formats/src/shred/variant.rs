//! The variant byte at offset 64 (`docs/formats-shreds.md#variant-byte`): legacy or Merkle, data or
//! code, and for Merkle
//! shreds the proof size and whether the shred is chained and/or resigned.

use super::defect::ShredDefect;
use super::layout::{LEGACY_DATA_CAPACITY, merkle_data_capacity};

const LEGACY_DATA: u8 = 0xA5;
const LEGACY_CODE: u8 = 0x5A;
const MERKLE_CODE: u8 = 0x40;
const MERKLE_CODE_CHAINED: u8 = 0x60;
const MERKLE_CODE_RESIGNED: u8 = 0x70;
const MERKLE_DATA: u8 = 0x80;
const MERKLE_DATA_CHAINED: u8 = 0x90;
const MERKLE_DATA_RESIGNED: u8 = 0xB0;

/// Data or code (erasure) shred.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShredKind {
    /// A data shred: carries a piece of the slot's entries.
    Data,
    /// A code shred: carries Reed–Solomon parity over its FEC set's data shreds.
    Code,
}

/// Every variant `docs/formats-shreds.md#variant-byte` accepts. `proof_size` is the low nibble
/// (0..=15); `resigned`
/// implies `chained` on the wire (no byte encodes resigned without chained).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShredVariant {
    /// A data shred signed over its whole payload (variant byte `0xA5`).
    LegacyData,
    /// A code shred signed over its whole payload (variant byte `0x5A`).
    LegacyCode,
    /// A data shred whose leader signature is over its FEC set's Merkle root.
    MerkleData {
        /// Number of 20-byte entries in the shred's Merkle proof.
        proof_size: u8,
        /// The shred also carries the previous FEC set's Merkle root.
        chained: bool,
        /// The shred has room for a retransmitter signature after the proof.
        resigned: bool,
    },
    /// A code shred whose leader signature is over its FEC set's Merkle root.
    MerkleCode {
        /// Number of 20-byte entries in the shred's Merkle proof.
        proof_size: u8,
        /// The shred also carries the previous FEC set's Merkle root.
        chained: bool,
        /// The shred has room for a retransmitter signature after the proof.
        resigned: bool,
    },
}

impl ShredVariant {
    /// Decodes the variant byte.
    pub fn from_byte(b: u8) -> Result<Self, ShredDefect> {
        let proof_size = b & 0x0F;
        let merkle_data = |chained, resigned| Self::MerkleData {
            proof_size,
            chained,
            resigned,
        };
        let merkle_code = |chained, resigned| Self::MerkleCode {
            proof_size,
            chained,
            resigned,
        };
        match b {
            LEGACY_DATA => Ok(Self::LegacyData),
            LEGACY_CODE => Ok(Self::LegacyCode),
            _ => match b & 0xF0 {
                MERKLE_CODE => Ok(merkle_code(false, false)),
                MERKLE_CODE_CHAINED => Ok(merkle_code(true, false)),
                MERKLE_CODE_RESIGNED => Ok(merkle_code(true, true)),
                MERKLE_DATA => Ok(merkle_data(false, false)),
                MERKLE_DATA_CHAINED => Ok(merkle_data(true, false)),
                MERKLE_DATA_RESIGNED => Ok(merkle_data(true, true)),
                _ => Err(ShredDefect::InvalidVariant(b)),
            },
        }
    }

    /// Encodes the variant byte. A Merkle variant with `resigned` but not `chained`, or a
    /// proof size above 15, has no encoding; it is encoded as chained + resigned with the
    /// proof size masked to 4 bits (constructors in this crate never build one).
    pub fn to_byte(self) -> u8 {
        match self {
            Self::LegacyData => LEGACY_DATA,
            Self::LegacyCode => LEGACY_CODE,
            Self::MerkleData {
                proof_size,
                chained,
                resigned,
            } => {
                let high = match (chained, resigned) {
                    (false, false) => MERKLE_DATA,
                    (true, false) => MERKLE_DATA_CHAINED,
                    (_, true) => MERKLE_DATA_RESIGNED,
                };
                high | (proof_size & 0x0F)
            }
            Self::MerkleCode {
                proof_size,
                chained,
                resigned,
            } => {
                let high = match (chained, resigned) {
                    (false, false) => MERKLE_CODE,
                    (true, false) => MERKLE_CODE_CHAINED,
                    (_, true) => MERKLE_CODE_RESIGNED,
                };
                high | (proof_size & 0x0F)
            }
        }
    }

    /// Data or code.
    pub fn kind(self) -> ShredKind {
        match self {
            Self::LegacyData | Self::MerkleData { .. } => ShredKind::Data,
            Self::LegacyCode | Self::MerkleCode { .. } => ShredKind::Code,
        }
    }

    /// Stable snake_case name, used in the CLI's JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Self::LegacyData => "legacy_data",
            Self::LegacyCode => "legacy_code",
            Self::MerkleData {
                chained, resigned, ..
            } => match (chained, resigned) {
                (false, false) => "merkle_data",
                (true, false) => "merkle_data_chained",
                (_, true) => "merkle_data_chained_resigned",
            },
            Self::MerkleCode {
                chained, resigned, ..
            } => match (chained, resigned) {
                (false, false) => "merkle_code",
                (true, false) => "merkle_code_chained",
                (_, true) => "merkle_code_chained_resigned",
            },
        }
    }

    /// Bytes of data a data shred of this variant can carry
    /// (`docs/formats-shreds.md#payload-sizes-and-capacity`); `None` for code.
    pub fn data_capacity(self) -> Option<usize> {
        match self {
            Self::LegacyData => Some(LEGACY_DATA_CAPACITY),
            Self::MerkleData {
                proof_size,
                chained,
                resigned,
            } => Some(merkle_data_capacity(proof_size, chained, resigned)),
            Self::LegacyCode | Self::MerkleCode { .. } => None,
        }
    }

    /// The Merkle proof size; `None` for legacy variants.
    pub fn proof_size(self) -> Option<u8> {
        match self {
            Self::MerkleData { proof_size, .. } | Self::MerkleCode { proof_size, .. } => {
                Some(proof_size)
            }
            Self::LegacyData | Self::LegacyCode => None,
        }
    }

    /// `(proof_size, chained, resigned)` of a Merkle variant; `None` for legacy.
    pub(crate) fn merkle(self) -> Option<(u8, bool, bool)> {
        match self {
            Self::MerkleData {
                proof_size,
                chained,
                resigned,
            }
            | Self::MerkleCode {
                proof_size,
                chained,
                resigned,
            } => Some((proof_size, chained, resigned)),
            Self::LegacyData | Self::LegacyCode => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips_or_is_rejected() {
        let mut accepted = 0;
        for b in 0..=u8::MAX {
            match ShredVariant::from_byte(b) {
                Ok(v) => {
                    accepted += 1;
                    assert_eq!(v.to_byte(), b, "byte {b:#04x}");
                }
                Err(e) => assert_eq!(e, ShredDefect::InvalidVariant(b)),
            }
        }
        // 6 Merkle nibbles × 16 proof sizes + the two legacy bytes.
        assert_eq!(accepted, 6 * 16 + 2);
    }

    #[test]
    fn names_and_capacities() {
        let v = ShredVariant::from_byte(0xB6).expect("valid");
        assert_eq!(v.name(), "merkle_data_chained_resigned");
        assert_eq!(v.data_capacity(), Some(899));
        assert_eq!(v.kind(), ShredKind::Data);
        let c = ShredVariant::from_byte(0x66).expect("valid");
        assert_eq!(c.name(), "merkle_code_chained");
        assert_eq!(c.data_capacity(), None);
        assert_eq!(c.kind(), ShredKind::Code);
        assert_eq!(ShredVariant::LegacyData.data_capacity(), Some(1051));
        assert_eq!(
            ShredVariant::from_byte(0x86).map(|v| v.name()),
            Ok("merkle_data")
        );
        assert_eq!(ShredVariant::LegacyCode.proof_size(), None);
    }
}
