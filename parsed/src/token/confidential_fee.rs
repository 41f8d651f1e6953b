//! Token-2022's confidential transfer-fee extension (tag 37, `confidential_transfer_fee.rs`).

use serde_json::json;

use super::confidential::{b64, payload, single_proof};
use crate::{Ix, Parsed, nonzero_key, object, signers};

pub(super) fn parse(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    let authority = |info: &mut _, accounts, at| {
        signers(
            info,
            accounts,
            at,
            "withdrawWithheldAuthority",
            "multisigWithdrawWithheldAuthority",
        )
    };
    match rest.first()? {
        0 => {
            let mut r = payload::<64>(rest)?;
            let config_authority = r.pubkey()?;
            // A plain ElGamal key (not an optional one): always printed.
            let elgamal = b64(r.bytes(32)?);
            let mut info = object(json!({
                "mint": k(0)?,
                "withdrawWithheldAuthorityElGamalPubkey": elgamal,
            }));
            if let Some(key) = nonzero_key(&config_authority) {
                info.insert("authority".into(), key.into());
            }
            Parsed::new("initializeConfidentialTransferFeeConfig", info.into())
        }
        1 => {
            ix.need(4)?;
            let mut r = payload::<37>(rest)?;
            let offset = r.i8()?;
            let balance = b64(r.bytes(36)?);
            let mut info = object(json!({
                "mint": k(0)?,
                "feeRecipient": k(1)?,
                "proofInstructionOffset": offset,
                "newDecryptableAvailableBalance": balance,
            }));
            let at = single_proof(&mut info, ix, 2, offset, 4, "recordAccount")?;
            authority(&mut info, ix.accounts, at)?;
            Parsed::new(
                "withdrawWithheldConfidentialTransferTokensFromMint",
                info.into(),
            )
        }
        2 => {
            let mut r = payload::<38>(rest)?;
            let n = usize::from(r.u8()?);
            let offset = r.i8()?;
            let balance = b64(r.bytes(36)?);
            ix.need(4 + n)?;
            let first_source = ix.accounts.len() - n;
            let mut info = object(json!({
                "mint": k(0)?,
                "feeRecipient": k(1)?,
                "proofInstructionOffset": offset,
                "newDecryptableAvailableBalance": balance,
                "sourceAccounts": ix.keys_from(first_source),
            }));
            // The proof account is assumed present when more than four accounts precede
            // the sources.
            let at = single_proof(&mut info, ix, 2, offset, 4 + n, "proofAccount")?;
            authority(&mut info, ix.accounts.get(..first_source)?, at)?;
            Parsed::new(
                "withdrawWithheldConfidentialTransferTokensFromAccounts",
                info.into(),
            )
        }
        3 => Parsed::new(
            "harvestWithheldConfidentialTransferTokensToMint",
            json!({"mint": k(0)?, "sourceAccounts": ix.keys_from(1)}),
        ),
        4 | 5 => {
            ix.need(2)?;
            let kind = if rest.first() == Some(&4) {
                "enableConfidentialTransferFeeHarvestToMint"
            } else {
                "disableConfidentialTransferFeeHarvestToMint"
            };
            let mut info = object(json!({"account": k(0)?}));
            signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
            Parsed::new(kind, info.into())
        }
        _ => None,
    }
}
