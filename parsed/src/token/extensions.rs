//! Token-2022 extensions with a small sub-instruction (`parse_token/extension/`): default
//! account state, required memo transfers, CPI guard, interest-bearing mint, scaled UI
//! amount and pausable. `rest` is the data after the token tag: the sub-instruction's type
//! byte, then its payload.

use serde_json::json;

use super::amount::account_state;
use super::exact;
use crate::{Ix, Parsed, b58, nonzero_key, object, signers};

/// Tag 28 (`decode_instruction` of the extension: exactly a type and a state byte).
pub(super) fn default_account_state(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let [kind, state] = rest.try_into().ok()?;
    let state = account_state(state)?;
    match kind {
        0 => Parsed::new(
            "initializeDefaultAccountState",
            json!({"mint": ix.key(0)?, "accountState": state}),
        ),
        1 => {
            ix.need(2)?;
            let mut info = object(json!({"mint": ix.key(0)?, "accountState": state}));
            signers(
                &mut info,
                ix.accounts,
                1,
                "freezeAuthority",
                "multisigFreezeAuthority",
            )?;
            Parsed::new("updateDefaultAccountState", info.into())
        }
        _ => None,
    }
}

/// Tag 30: enable / disable required memos on incoming transfers (payload ignored).
pub(super) fn memo_transfer(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let kind = match rest.first()? {
        0 => "enableRequiredMemoTransfers",
        1 => "disableRequiredMemoTransfers",
        _ => return None,
    };
    account_toggle(kind, ix)
}

/// Tag 34: enable / disable the CPI guard (payload ignored).
pub(super) fn cpi_guard(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let kind = match rest.first()? {
        0 => "enableCpiGuard",
        1 => "disableCpiGuard",
        _ => return None,
    };
    account_toggle(kind, ix)
}

/// An account and its owner (or multisig owner and signers).
fn account_toggle(kind: &'static str, ix: &Ix<'_>) -> Option<Parsed> {
    ix.need(2)?;
    let mut info = object(json!({"account": ix.key(0)?}));
    signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
    Parsed::new(kind, info.into())
}

/// Tag 33: `Initialize { rate_authority, rate: i16 }` or `UpdateRate(i16)`.
pub(super) fn interest_bearing(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    match rest.first()? {
        0 => {
            let data: [u8; 34] = exact(rest)?;
            let (authority, rate) = data.split_at(32);
            let authority: [u8; 32] = authority.try_into().ok()?;
            let rate = i16::from_le_bytes(rate.try_into().ok()?);
            Parsed::new(
                "initializeInterestBearingConfig",
                json!({
                    "mint": ix.key(0)?,
                    "rateAuthority": nonzero_key(&authority),
                    "rate": rate,
                }),
            )
        }
        1 => {
            ix.need(2)?;
            let rate = i16::from_le_bytes(exact(rest)?);
            let mut info = object(json!({"mint": ix.key(0)?, "newRate": rate}));
            signers(
                &mut info,
                ix.accounts,
                1,
                "rateAuthority",
                "multisigRateAuthority",
            )?;
            Parsed::new("updateInterestBearingConfigRate", info.into())
        }
        _ => None,
    }
}

/// Tag 43: `Initialize { authority, multiplier: f64 }` or `UpdateMultiplier { multiplier,
/// effective_timestamp: i64 }`. Multipliers are printed with Rust's `f64` `Display`, as
/// Agave's `to_string` does.
pub(super) fn scaled_ui_amount(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    match rest.first()? {
        0 => {
            let data: [u8; 40] = exact(rest)?;
            let (authority, multiplier) = data.split_at(32);
            let authority: [u8; 32] = authority.try_into().ok()?;
            let multiplier = f64::from_le_bytes(multiplier.try_into().ok()?);
            Parsed::new(
                "initializeScaledUiAmountConfig",
                json!({
                    "mint": ix.key(0)?,
                    "authority": nonzero_key(&authority),
                    "multiplier": multiplier.to_string(),
                }),
            )
        }
        1 => {
            ix.need(2)?;
            let data: [u8; 16] = exact(rest)?;
            let (multiplier, timestamp) = data.split_at(8);
            let multiplier = f64::from_le_bytes(multiplier.try_into().ok()?);
            let timestamp = i64::from_le_bytes(timestamp.try_into().ok()?);
            let mut info = object(json!({
                "mint": ix.key(0)?,
                "newMultiplier": multiplier.to_string(),
                "newMultiplierTimestamp": timestamp,
            }));
            signers(&mut info, ix.accounts, 1, "authority", "multisigAuthority")?;
            Parsed::new("updateMultiplier", info.into())
        }
        _ => None,
    }
}

/// Tag 44: `Initialize { authority }` (a plain key, never null), `Pause`, `Resume`.
pub(super) fn pausable(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let kind = match rest.first()? {
        0 => {
            let authority: [u8; 32] = exact(rest)?;
            return Parsed::new(
                "initializePausableConfig",
                json!({"mint": ix.key(0)?, "authority": b58(&authority)}),
            );
        }
        1 => "pause",
        2 => "resume",
        _ => return None,
    };
    ix.need(2)?;
    let mut info = object(json!({"mint": ix.key(0)?}));
    signers(&mut info, ix.accounts, 1, "authority", "multisigAuthority")?;
    Parsed::new(kind, info.into())
}

#[cfg(test)]
#[path = "../tests/token_extensions.rs"]
pub(super) mod tests;
