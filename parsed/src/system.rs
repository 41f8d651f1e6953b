//! The system program (`parse_system.rs`): `SystemInstruction`, bincode-encoded (a `u32`
//! variant index, fixint integers, `u64`-prefixed UTF-8 seeds, trailing bytes allowed).

use serde_json::json;

use super::reader::Reader;
use super::{Ix, Parsed, b58};

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    let mut r = Reader::new(ix.data);
    let variant = r.variant()?;
    // Decode the whole instruction before looking at the accounts, as Agave does.
    let body = Body::decode(variant, &mut r)?;
    ix.any_accounts()?;
    let k = |i| ix.key(i);
    match body {
        Body::CreateAccount {
            lamports,
            space,
            owner,
        } => {
            ix.need(2)?;
            Parsed::new(
                "createAccount",
                json!({
                    "source": k(0)?,
                    "newAccount": k(1)?,
                    "lamports": lamports,
                    "space": space,
                    "owner": b58(&owner),
                }),
            )
        }
        Body::Assign { owner } => {
            ix.need(1)?;
            Parsed::new("assign", json!({"account": k(0)?, "owner": b58(&owner)}))
        }
        Body::Transfer { lamports } => {
            ix.need(2)?;
            Parsed::new(
                "transfer",
                json!({"source": k(0)?, "destination": k(1)?, "lamports": lamports}),
            )
        }
        Body::CreateAccountWithSeed {
            base,
            seed,
            lamports,
            space,
            owner,
        } => {
            ix.need(2)?;
            Parsed::new(
                "createAccountWithSeed",
                json!({
                    "source": k(0)?,
                    "newAccount": k(1)?,
                    "base": b58(&base),
                    "seed": seed,
                    "lamports": lamports,
                    "space": space,
                    "owner": b58(&owner),
                }),
            )
        }
        Body::AdvanceNonce => {
            ix.need(3)?;
            Parsed::new(
                "advanceNonce",
                json!({
                    "nonceAccount": k(0)?,
                    "recentBlockhashesSysvar": k(1)?,
                    "nonceAuthority": k(2)?,
                }),
            )
        }
        Body::WithdrawNonce { lamports } => {
            ix.need(5)?;
            Parsed::new(
                "withdrawFromNonce",
                json!({
                    "nonceAccount": k(0)?,
                    "destination": k(1)?,
                    "recentBlockhashesSysvar": k(2)?,
                    "rentSysvar": k(3)?,
                    "nonceAuthority": k(4)?,
                    "lamports": lamports,
                }),
            )
        }
        Body::InitializeNonce { authority } => {
            ix.need(3)?;
            Parsed::new(
                "initializeNonce",
                json!({
                    "nonceAccount": k(0)?,
                    "recentBlockhashesSysvar": k(1)?,
                    "rentSysvar": k(2)?,
                    "nonceAuthority": b58(&authority),
                }),
            )
        }
        Body::AuthorizeNonce { authority } => {
            ix.need(2)?;
            Parsed::new(
                "authorizeNonce",
                json!({
                    "nonceAccount": k(0)?,
                    "nonceAuthority": k(1)?,
                    "newAuthorized": b58(&authority),
                }),
            )
        }
        Body::UpgradeNonce => {
            ix.need(1)?;
            Parsed::new("upgradeNonce", json!({"nonceAccount": k(0)?}))
        }
        Body::Allocate { space } => {
            ix.need(1)?;
            Parsed::new("allocate", json!({"account": k(0)?, "space": space}))
        }
        Body::AllocateWithSeed {
            base,
            seed,
            space,
            owner,
        } => {
            ix.need(2)?;
            Parsed::new(
                "allocateWithSeed",
                json!({
                    "account": k(0)?,
                    "base": b58(&base),
                    "seed": seed,
                    "space": space,
                    "owner": b58(&owner),
                }),
            )
        }
        Body::AssignWithSeed { base, seed, owner } => {
            ix.need(2)?;
            Parsed::new(
                "assignWithSeed",
                json!({
                    "account": k(0)?,
                    "base": b58(&base),
                    "seed": seed,
                    "owner": b58(&owner),
                }),
            )
        }
        Body::TransferWithSeed {
            lamports,
            seed,
            owner,
        } => {
            ix.need(3)?;
            Parsed::new(
                "transferWithSeed",
                json!({
                    "source": k(0)?,
                    "sourceBase": k(1)?,
                    "destination": k(2)?,
                    "lamports": lamports,
                    "sourceSeed": seed,
                    "sourceOwner": b58(&owner),
                }),
            )
        }
    }
}

/// `SystemInstruction`, in variant-index order.
enum Body<'a> {
    CreateAccount {
        lamports: u64,
        space: u64,
        owner: [u8; 32],
    },
    Assign {
        owner: [u8; 32],
    },
    Transfer {
        lamports: u64,
    },
    CreateAccountWithSeed {
        base: [u8; 32],
        seed: &'a str,
        lamports: u64,
        space: u64,
        owner: [u8; 32],
    },
    AdvanceNonce,
    WithdrawNonce {
        lamports: u64,
    },
    InitializeNonce {
        authority: [u8; 32],
    },
    AuthorizeNonce {
        authority: [u8; 32],
    },
    Allocate {
        space: u64,
    },
    AllocateWithSeed {
        base: [u8; 32],
        seed: &'a str,
        space: u64,
        owner: [u8; 32],
    },
    AssignWithSeed {
        base: [u8; 32],
        seed: &'a str,
        owner: [u8; 32],
    },
    TransferWithSeed {
        lamports: u64,
        seed: &'a str,
        owner: [u8; 32],
    },
    UpgradeNonce,
}

impl<'a> Body<'a> {
    fn decode(variant: u32, r: &mut Reader<'a>) -> Option<Self> {
        Some(match variant {
            0 => Self::CreateAccount {
                lamports: r.u64()?,
                space: r.u64()?,
                owner: r.pubkey()?,
            },
            1 => Self::Assign { owner: r.pubkey()? },
            2 => Self::Transfer { lamports: r.u64()? },
            3 => Self::CreateAccountWithSeed {
                base: r.pubkey()?,
                seed: r.bincode_string()?,
                lamports: r.u64()?,
                space: r.u64()?,
                owner: r.pubkey()?,
            },
            4 => Self::AdvanceNonce,
            5 => Self::WithdrawNonce { lamports: r.u64()? },
            6 => Self::InitializeNonce {
                authority: r.pubkey()?,
            },
            7 => Self::AuthorizeNonce {
                authority: r.pubkey()?,
            },
            8 => Self::Allocate { space: r.u64()? },
            9 => Self::AllocateWithSeed {
                base: r.pubkey()?,
                seed: r.bincode_string()?,
                space: r.u64()?,
                owner: r.pubkey()?,
            },
            10 => Self::AssignWithSeed {
                base: r.pubkey()?,
                seed: r.bincode_string()?,
                owner: r.pubkey()?,
            },
            11 => Self::TransferWithSeed {
                lamports: r.u64()?,
                seed: r.bincode_string()?,
                owner: r.pubkey()?,
            },
            12 => Self::UpgradeNonce,
            _ => return None,
        })
    }
}

#[cfg(test)]
#[path = "tests/system.rs"]
mod tests;
