//! Token-2022's confidential mint/burn extension (tag 42, `confidential_mint_burn.rs`).

use serde_json::json;

use super::confidential::{b64, payload, proof_accounts};
use crate::{Ix, Parsed, object, signers};

pub(super) fn parse(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    match rest.first()? {
        0 => {
            let mut r = payload::<68>(rest)?;
            let supply_key = b64(r.bytes(32)?);
            let supply = b64(r.bytes(36)?);
            Parsed::new(
                "initializeConfidentialMintBurnMint",
                json!({
                    "mint": k(0)?,
                    "supplyElGamalPubkey": supply_key,
                    "decryptableSupply": supply,
                }),
            )
        }
        1 => {
            ix.need(3)?;
            let mut r = payload::<33>(rest)?;
            let new_key = b64(r.bytes(32)?);
            let offset = r.i8()?;
            let mut info = object(json!({
                "mint": k(0)?,
                "newSupplyElGamalPubkey": new_key,
                "proofInstructionOffset": offset,
            }));
            let proof_name = if offset == 0 {
                "proofAccount"
            } else {
                "instructionsSysvar"
            };
            info.insert(proof_name.into(), k(1)?.into());
            signers(&mut info, ix.accounts, 2, "owner", "multisigOwner")?;
            Parsed::new("rotateConfidentialMintBurnSupplyElGamalPubkey", info.into())
        }
        2 => {
            ix.need(2)?;
            let supply = b64(payload::<36>(rest)?.bytes(36)?);
            let mut info = object(json!({"mint": k(0)?, "newDecryptableSupply": supply}));
            signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
            Parsed::new("updateConfidentialMintBurnDecryptableSupply", info.into())
        }
        3 | 4 => {
            ix.need(3)?;
            let mint = rest.first() == Some(&3);
            let mut r = payload::<167>(rest)?;
            let balance = b64(r.bytes(36)?);
            // The two auditor ciphertexts are not printed.
            r.bytes(128)?;
            let (equality, validity, range) = (r.i8()?, r.i8()?, r.i8()?);
            let (kind, balance_name) = if mint {
                ("confidentialMint", "newDecryptableSupply")
            } else {
                ("confidentialBurn", "newDecryptableAvailableBalance")
            };
            let mut info = object(json!({
                "destination": k(0)?,
                "mint": k(1)?,
                balance_name: balance,
                "equalityProofInstructionOffset": equality,
                "ciphertextValidityProofInstructionOffset": validity,
                "rangeProofInstructionOffset": range,
            }));
            let proofs = [
                ("equalityProof", equality),
                ("ciphertextValidityProof", validity),
                ("rangeProof", range),
            ];
            proof_accounts(&mut info, ix.accounts, 2, &proofs)?;
            Parsed::new(kind, info.into())
        }
        5 => {
            ix.need(2)?;
            let mut info = object(json!({"mint": k(0)?}));
            signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
            Parsed::new("applyPendingBurn", info.into())
        }
        _ => None,
    }
}
