//! Token amounts and the enum names the token parsers print.

use serde_json::{Value, json};

/// Agave's `UiTokenAmount` for `amount` at `decimals` with no interest-bearing or scaled
/// configuration (`token_amount_to_ui_amount_v3` with only decimals): `uiAmount` is the
/// `f64` quotient, `null` when `10^decimals` overflows 64 bits; `uiAmountString` is the
/// exact decimal text with trailing zeros trimmed.
pub(super) fn token_amount(amount: u64, decimals: u8) -> Value {
    let ui_amount = 10u64
        .checked_pow(u32::from(decimals))
        .map(|divisor| amount as f64 / divisor as f64);
    json!({
        "uiAmount": ui_amount,
        "decimals": decimals,
        "amount": amount.to_string(),
        "uiAmountString": ui_amount_string(amount, decimals),
    })
}

/// `real_number_string_trimmed`: `amount / 10^decimals` in decimal, at least one integer
/// digit, no trailing fractional zeros and no bare trailing point.
pub(super) fn ui_amount_string(amount: u64, decimals: u8) -> String {
    if decimals == 0 {
        return amount.to_string();
    }
    let decimals = usize::from(decimals);
    let mut s = format!("{amount:0width$}", width = decimals + 1);
    s.insert(s.len() - decimals, '.');
    let trimmed = s.trim_end_matches('0').trim_end_matches('.');
    trimmed.to_string()
}

/// `UiAuthorityType` for a `SetAuthority` type byte, and whether the authority belongs to
/// a mint (`"mint"`) or a token account (`"account"`).
pub(super) fn authority_type(t: u8) -> Option<(&'static str, &'static str)> {
    let name = match t {
        0 => "mintTokens",
        1 => "freezeAccount",
        2 => return Some(("accountOwner", "account")),
        3 => return Some(("closeAccount", "account")),
        4 => "transferFeeConfig",
        5 => "withheldWithdraw",
        6 => "closeMint",
        7 => "interestRate",
        8 => "permanentDelegate",
        9 => "confidentialTransferMint",
        10 => "transferHookProgramId",
        11 => "confidentialTransferFeeConfig",
        12 => "metadataPointer",
        13 => "groupPointer",
        14 => "groupMemberPointer",
        15 => "scaledUiAmount",
        16 => "pause",
        _ => return None,
    };
    Some((name, "mint"))
}

/// `UiExtensionType` for an `ExtensionType` value (`u16`, little-endian in instructions).
pub(super) fn extension_type(t: u16) -> Option<&'static str> {
    const NAMES: [&str; 28] = [
        "uninitialized",
        "transferFeeConfig",
        "transferFeeAmount",
        "mintCloseAuthority",
        "confidentialTransferMint",
        "confidentialTransferAccount",
        "defaultAccountState",
        "immutableOwner",
        "memoTransfer",
        "nonTransferable",
        "interestBearingConfig",
        "cpiGuard",
        "permanentDelegate",
        "nonTransferableAccount",
        "transferHook",
        "transferHookAccount",
        "confidentialTransferFeeConfig",
        "confidentialTransferFeeAmount",
        "metadataPointer",
        "tokenMetadata",
        "groupPointer",
        "tokenGroup",
        "groupMemberPointer",
        "tokenGroupMember",
        "confidentialMintBurn",
        "scaledUiAmount",
        "pausable",
        "pausableAccount",
    ];
    NAMES.get(usize::from(t)).copied()
}

/// A list of extension types as the instruction carries it: two bytes each; an odd byte
/// or an unknown type fails the whole instruction, as `TryFrom<&[u8]>` does in Agave.
pub(super) fn extension_types(data: &[u8]) -> Option<Vec<&'static str>> {
    let mut out = Vec::with_capacity(data.len() / 2);
    for chunk in data.chunks(2) {
        let pair: [u8; 2] = chunk.try_into().ok()?;
        out.push(extension_type(u16::from_le_bytes(pair))?);
    }
    Some(out)
}

/// `UiAccountState` for an `AccountState` byte.
pub(super) fn account_state(state: u8) -> Option<&'static str> {
    ["uninitialized", "initialized", "frozen"]
        .get(usize::from(state))
        .copied()
}

#[cfg(test)]
#[path = "../tests/token_amount.rs"]
mod tests;
