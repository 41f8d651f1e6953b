//! Leader signatures: Merkle shreds sign the 32-byte FEC set root, legacy shreds sign
//! `payload[64..]` of the full 1228-byte payload (stored legacy data is zero-padded back).

use ed25519_dalek::{Signature as DalekSignature, VerifyingKey};

use super::defect::ShredDefect;
use super::layout::{CODE_PAYLOAD_LEN, SIZE_OF_SIGNATURE};
use super::merkle::root_bytes;
use super::parse::ShredRef;
use super::variant::ShredVariant;
use crate::error::FormatError;
use crate::types::Pubkey;

/// Verifies the leader's signature (strict Ed25519, as Agave verifies shreds).
pub fn verify_signature(shred: &ShredRef<'_>, leader: &Pubkey) -> crate::Result<()> {
    check(shred, leader).map_err(|defect| FormatError::InvalidShred {
        slot: Some(shred.slot()),
        index: Some(shred.index()),
        defect,
    })
}

fn check(shred: &ShredRef<'_>, leader: &Pubkey) -> Result<(), ShredDefect> {
    let key =
        VerifyingKey::from_bytes(leader.as_bytes()).map_err(|_| ShredDefect::InvalidSignature)?;
    let signature = DalekSignature::from_bytes(&shred.signature().0);
    let ok = match shred.variant() {
        ShredVariant::MerkleData { .. } | ShredVariant::MerkleCode { .. } => {
            let root = root_bytes(shred)?;
            key.verify_strict(&root, &signature).is_ok()
        }
        ShredVariant::LegacyData | ShredVariant::LegacyCode => {
            // One stack copy of ≤ 1228 bytes: trimmed legacy data is signed zero-padded.
            let mut full = [0u8; CODE_PAYLOAD_LEN];
            let payload = shred.payload();
            let n = payload.len().min(CODE_PAYLOAD_LEN);
            full[..n].copy_from_slice(&payload[..n]);
            key.verify_strict(&full[SIZE_OF_SIGNATURE..], &signature)
                .is_ok()
        }
    };
    if ok {
        Ok(())
    } else {
        Err(ShredDefect::InvalidSignature)
    }
}
