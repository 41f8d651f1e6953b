//! The token instructions that carry no extension sub-instruction: SPL Token's own and
//! the Token-2022 ones that are plain `TokenInstruction` variants.

use serde_json::{Map, Value, json};

use super::amount::{authority_type, extension_types, token_amount};
use crate::reader::Reader;
use crate::{Ix, Parsed, b58, object, signers};

/// A decoded `TokenInstruction` (tag in the comment).
pub(super) enum Classic<'a> {
    /// 0 and 20 (`InitializeMint2`, which has no rent sysvar).
    InitializeMint {
        v2: bool,
        decimals: u8,
        mint_authority: [u8; 32],
        freeze_authority: Option<[u8; 32]>,
    },
    /// 1, 16 and 18: the owner is an account (1) or in the data (16, 18).
    InitializeAccount(u8, Option<[u8; 32]>),
    /// 2 and 19 (`InitializeMultisig2`, no rent sysvar).
    InitializeMultisig { v2: bool, m: u8 },
    /// 3, 4, 7, 8, 23: a plain amount.
    Amount(u8, u64),
    /// 5, 9, 10, 11, 17, 22, 31, 32, 38: no data.
    Bare(u8),
    /// 6.
    SetAuthority(u8, Option<[u8; 32]>),
    /// 12 to 15: an amount and the mint's decimals.
    Checked(u8, u64, u8),
    /// 21 and 29.
    ExtensionTypes(u8, Vec<&'static str>),
    /// 24.
    UiAmountToAmount(&'a str),
    /// 25.
    InitializeMintCloseAuthority(Option<[u8; 32]>),
    /// 35.
    InitializePermanentDelegate([u8; 32]),
}

/// `unpack_pubkey_option`: 0, or 1 and a key.
fn coption_key(r: &mut Reader<'_>) -> Option<Option<[u8; 32]>> {
    r.option(Reader::pubkey)
}

impl<'a> Classic<'a> {
    pub(super) fn unpack(tag: u8, r: &mut Reader<'a>) -> Option<Self> {
        Some(match tag {
            0 | 20 => Self::InitializeMint {
                v2: tag == 20,
                decimals: r.u8()?,
                mint_authority: r.pubkey()?,
                freeze_authority: coption_key(r)?,
            },
            1 => Self::InitializeAccount(tag, None),
            16 | 18 => Self::InitializeAccount(tag, Some(r.pubkey()?)),
            2 | 19 => Self::InitializeMultisig {
                v2: tag == 19,
                m: r.u8()?,
            },
            3 | 4 | 7 | 8 | 23 => Self::Amount(tag, r.u64()?),
            5 | 9 | 10 | 11 | 17 | 22 | 31 | 32 | 38 => Self::Bare(tag),
            6 => {
                let t = r.u8()?;
                authority_type(t)?;
                Self::SetAuthority(t, coption_key(r)?)
            }
            12..=15 => Self::Checked(tag, r.u64()?, r.u8()?),
            21 | 29 => Self::ExtensionTypes(tag, extension_types(r.rest())?),
            24 => Self::UiAmountToAmount(std::str::from_utf8(r.rest()).ok()?),
            25 => Self::InitializeMintCloseAuthority(coption_key(r)?),
            35 => Self::InitializePermanentDelegate(r.pubkey()?),
            _ => return None,
        })
    }
}

/// `(type, index of the authority, owner name, multisig name)` of an instruction whose
/// tail is an authority, or a multisig and its signers.
type Shape = (&'static str, usize, &'static str, &'static str);

pub(super) fn parse(classic: Classic<'_>, ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    // Adds the authority (or multisig and signers) at `last` and finishes.
    let signed = |kind: &'static str, mut info: Map<String, Value>, last, owner, multisig| {
        signers(&mut info, ix.accounts, last, owner, multisig)?;
        Parsed::new(kind, info.into())
    };
    match classic {
        Classic::InitializeMint {
            v2,
            decimals,
            mint_authority,
            freeze_authority,
        } => {
            ix.need(if v2 { 1 } else { 2 })?;
            let mut info = object(json!({
                "mint": k(0)?,
                "decimals": decimals,
                "mintAuthority": b58(&mint_authority),
            }));
            if !v2 {
                info.insert("rentSysvar".into(), k(1)?.into());
            }
            if let Some(freeze) = freeze_authority {
                info.insert("freezeAuthority".into(), b58(&freeze).into());
            }
            let kind = if v2 {
                "initializeMint2"
            } else {
                "initializeMint"
            };
            Parsed::new(kind, info.into())
        }
        Classic::InitializeAccount(tag, owner) => {
            let (kind, n) = match tag {
                1 => ("initializeAccount", 4),
                16 => ("initializeAccount2", 3),
                _ => ("initializeAccount3", 2),
            };
            ix.need(n)?;
            let mut info = object(json!({"account": k(0)?, "mint": k(1)?}));
            let owner = match owner {
                Some(owner) => b58(&owner),
                None => k(2)?,
            };
            info.insert("owner".into(), owner.into());
            if n > 2 {
                info.insert("rentSysvar".into(), k(n - 1)?.into());
            }
            Parsed::new(kind, info.into())
        }
        Classic::InitializeMultisig { v2, m } => {
            let first_signer = if v2 { 1 } else { 2 };
            ix.need(first_signer + 1)?;
            let mut info = object(json!({
                "multisig": k(0)?,
                "signers": ix.keys_from(first_signer),
                "m": m,
            }));
            if !v2 {
                info.insert("rentSysvar".into(), k(1)?.into());
            }
            let kind = if v2 {
                "initializeMultisig2"
            } else {
                "initializeMultisig"
            };
            Parsed::new(kind, info.into())
        }
        Classic::Amount(23, amount) => Parsed::new(
            "amountToUiAmount",
            json!({"mint": k(0)?, "amount": amount.to_string()}),
        ),
        Classic::Amount(tag, amount) => {
            let (kind, first, second, owner, multisig) = match tag {
                3 => (
                    "transfer",
                    "source",
                    "destination",
                    "authority",
                    "multisigAuthority",
                ),
                4 => ("approve", "source", "delegate", "owner", "multisigOwner"),
                7 => (
                    "mintTo",
                    "mint",
                    "account",
                    "mintAuthority",
                    "multisigMintAuthority",
                ),
                _ => ("burn", "account", "mint", "authority", "multisigAuthority"),
            };
            ix.need(3)?;
            let info = object(json!({first: k(0)?, second: k(1)?, "amount": amount.to_string()}));
            signed(kind, info, 2, owner, multisig)
        }
        Classic::Checked(tag, amount, decimals) => {
            let token_amount = token_amount(amount, decimals);
            if tag == 14 || tag == 15 {
                let (kind, first, second, owner, multisig) = if tag == 14 {
                    (
                        "mintToChecked",
                        "mint",
                        "account",
                        "mintAuthority",
                        "multisigMintAuthority",
                    )
                } else {
                    (
                        "burnChecked",
                        "account",
                        "mint",
                        "authority",
                        "multisigAuthority",
                    )
                };
                ix.need(3)?;
                let info =
                    object(json!({first: k(0)?, second: k(1)?, "tokenAmount": token_amount}));
                return signed(kind, info, 2, owner, multisig);
            }
            let (kind, third, owner, multisig) = if tag == 12 {
                (
                    "transferChecked",
                    "destination",
                    "authority",
                    "multisigAuthority",
                )
            } else {
                ("approveChecked", "delegate", "owner", "multisigOwner")
            };
            ix.need(4)?;
            let info = object(json!({
                "source": k(0)?,
                "mint": k(1)?,
                third: k(2)?,
                "tokenAmount": token_amount,
            }));
            signed(kind, info, 3, owner, multisig)
        }
        Classic::Bare(tag) => bare(tag, ix),
        Classic::SetAuthority(t, new_authority) => {
            let (name, owned) = authority_type(t)?;
            ix.need(2)?;
            let info = object(json!({
                owned: k(0)?,
                "authorityType": name,
                "newAuthority": new_authority.map(|key| b58(&key)),
            }));
            signed("setAuthority", info, 1, "authority", "multisigAuthority")
        }
        Classic::ExtensionTypes(21, types) => {
            let mut info = object(json!({"mint": k(0)?}));
            if !types.is_empty() {
                info.insert("extensionTypes".into(), types.into());
            }
            Parsed::new("getAccountDataSize", info.into())
        }
        Classic::ExtensionTypes(_, types) => {
            ix.need(4)?;
            let info = object(json!({
                "account": k(0)?,
                "payer": k(1)?,
                "systemProgram": k(2)?,
                "extensionTypes": types,
            }));
            signed("reallocate", info, 3, "owner", "multisigOwner")
        }
        Classic::UiAmountToAmount(ui_amount) => Parsed::new(
            "uiAmountToAmount",
            json!({"mint": k(0)?, "uiAmount": ui_amount}),
        ),
        Classic::InitializeMintCloseAuthority(authority) => Parsed::new(
            "initializeMintCloseAuthority",
            json!({"mint": k(0)?, "newAuthority": authority.map(|key| b58(&key))}),
        ),
        Classic::InitializePermanentDelegate(delegate) => Parsed::new(
            "initializePermanentDelegate",
            json!({"mint": k(0)?, "delegate": b58(&delegate)}),
        ),
    }
}

/// The instructions with no data of their own.
fn bare(tag: u8, ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    let shape: Shape = match tag {
        // Single-account instructions (the program's own guard already asked for one).
        17 => return Parsed::new("syncNative", json!({"account": k(0)?})),
        22 => return Parsed::new("initializeImmutableOwner", json!({"account": k(0)?})),
        32 => return Parsed::new("initializeNonTransferableMint", json!({"mint": k(0)?})),
        31 => {
            ix.need(3)?;
            return Parsed::new(
                "createNativeMint",
                json!({"payer": k(0)?, "nativeMint": k(1)?, "systemProgram": k(2)?}),
            );
        }
        5 => ("revoke", 1, "owner", "multisigOwner"),
        9 => ("closeAccount", 2, "owner", "multisigOwner"),
        10 => (
            "freezeAccount",
            2,
            "freezeAuthority",
            "multisigFreezeAuthority",
        ),
        11 => (
            "thawAccount",
            2,
            "freezeAuthority",
            "multisigFreezeAuthority",
        ),
        _ => (
            "withdrawExcessLamports",
            2,
            "authority",
            "multisigAuthority",
        ),
    };
    let (kind, last, owner, multisig) = shape;
    ix.need(last + 1)?;
    let mut info = object(match tag {
        5 => json!({"source": k(0)?}),
        9 => json!({"account": k(0)?, "destination": k(1)?}),
        10 | 11 => json!({"account": k(0)?, "mint": k(1)?}),
        _ => json!({"source": k(0)?, "destination": k(1)?}),
    });
    signers(&mut info, ix.accounts, last, owner, multisig)?;
    Parsed::new(kind, info.into())
}

#[cfg(test)]
#[path = "../tests/token_classic.rs"]
mod tests;
