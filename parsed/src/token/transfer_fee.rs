//! Token-2022's transfer-fee extension (tag 26, `TransferFeeInstruction`, packed like the
//! token instructions: `COption` keys, little-endian integers, trailing bytes ignored).

use serde_json::json;

use super::amount::token_amount;
use crate::reader::Reader;
use crate::{Ix, Parsed, b58, object, signers};

pub(super) fn parse(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let mut r = Reader::new(rest);
    let k = |i| ix.key(i);
    match r.u8()? {
        0 => {
            let config_authority = r.option(Reader::pubkey)?;
            let withdraw_authority = r.option(Reader::pubkey)?;
            let basis_points = r.u16()?;
            let maximum_fee = r.u64()?;
            let mut info = object(json!({
                "mint": k(0)?,
                "transferFeeBasisPoints": basis_points,
                "maximumFee": maximum_fee,
            }));
            if let Some(key) = config_authority {
                info.insert("transferFeeConfigAuthority".into(), b58(&key).into());
            }
            if let Some(key) = withdraw_authority {
                info.insert("withdrawWithheldAuthority".into(), b58(&key).into());
            }
            Parsed::new("initializeTransferFeeConfig", info.into())
        }
        1 => {
            let (amount, decimals, fee) = (r.u64()?, r.u8()?, r.u64()?);
            ix.need(4)?;
            let mut info = object(json!({
                "source": k(0)?,
                "mint": k(1)?,
                "destination": k(2)?,
                "tokenAmount": token_amount(amount, decimals),
                "feeAmount": token_amount(fee, decimals),
            }));
            signers(&mut info, ix.accounts, 3, "authority", "multisigAuthority")?;
            Parsed::new("transferCheckedWithFee", info.into())
        }
        2 => {
            ix.need(3)?;
            let mut info = object(json!({"mint": k(0)?, "feeRecipient": k(1)?}));
            withheld_authority(&mut info, ix.accounts)?;
            Parsed::new("withdrawWithheldTokensFromMint", info.into())
        }
        3 => {
            let n = usize::from(r.u8()?);
            ix.need(3 + n)?;
            let first_source = ix.accounts.len() - n;
            let mut info = object(json!({
                "mint": k(0)?,
                "feeRecipient": k(1)?,
                "sourceAccounts": ix.keys_from(first_source),
            }));
            // The authority (or multisig and signers) sit between the recipient and the
            // sources.
            withheld_authority(&mut info, ix.accounts.get(..first_source)?)?;
            Parsed::new("withdrawWithheldTokensFromAccounts", info.into())
        }
        4 => Parsed::new(
            "harvestWithheldTokensToMint",
            json!({"mint": k(0)?, "sourceAccounts": ix.keys_from(1)}),
        ),
        5 => {
            let (basis_points, maximum_fee) = (r.u16()?, r.u64()?);
            ix.need(2)?;
            let mut info = object(json!({
                "mint": k(0)?,
                "transferFeeBasisPoints": basis_points,
                "maximumFee": maximum_fee,
            }));
            // Agave's multisig member name here is spelled with a lower-case "t".
            signers(
                &mut info,
                ix.accounts,
                1,
                "transferFeeConfigAuthority",
                "multisigtransferFeeConfigAuthority",
            )?;
            Parsed::new("setTransferFee", info.into())
        }
        _ => None,
    }
}

fn withheld_authority(
    info: &mut serde_json::Map<String, serde_json::Value>,
    accounts: &[[u8; 32]],
) -> Option<()> {
    signers(
        info,
        accounts,
        2,
        "withdrawWithheldAuthority",
        "multisigWithdrawWithheldAuthority",
    )
}

#[cfg(test)]
#[path = "../tests/token_fee_pointers.rs"]
mod tests;
