//! The address lookup table program (`parse_address_lookup_table.rs`): `ProgramInstruction`,
//! bincode-encoded.

use serde_json::json;

use super::reader::Reader;
use super::{Ix, Parsed, b58, object};

/// `ProgramInstruction`, in variant-index order.
enum Body {
    Create { recent_slot: u64, bump_seed: u8 },
    Freeze,
    Extend { new_addresses: Vec<String> },
    Deactivate,
    Close,
}

fn decode(data: &[u8]) -> Option<Body> {
    let mut r = Reader::new(data);
    Some(match r.variant()? {
        0 => Body::Create {
            recent_slot: r.u64()?,
            bump_seed: r.u8()?,
        },
        1 => Body::Freeze,
        2 => {
            let n = r.bincode_len(32)?;
            let mut new_addresses = Vec::with_capacity(n);
            for _ in 0..n {
                new_addresses.push(b58(&r.pubkey()?));
            }
            Body::Extend { new_addresses }
        }
        3 => Body::Deactivate,
        4 => Body::Close,
        _ => return None,
    })
}

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    let body = decode(ix.data)?;
    ix.any_accounts()?;
    let k = |i| ix.key(i);
    match body {
        Body::Create {
            recent_slot,
            bump_seed,
        } => {
            ix.need(4)?;
            Parsed::new(
                "createLookupTable",
                json!({
                    "lookupTableAccount": k(0)?,
                    "lookupTableAuthority": k(1)?,
                    "payerAccount": k(2)?,
                    "systemProgram": k(3)?,
                    "recentSlot": recent_slot,
                    "bumpSeed": bump_seed,
                }),
            )
        }
        Body::Freeze => {
            ix.need(2)?;
            Parsed::new(
                "freezeLookupTable",
                json!({"lookupTableAccount": k(0)?, "lookupTableAuthority": k(1)?}),
            )
        }
        Body::Extend { new_addresses } => {
            ix.need(2)?;
            let mut info = object(json!({
                "lookupTableAccount": k(0)?,
                "lookupTableAuthority": k(1)?,
                "newAddresses": new_addresses,
            }));
            if ix.accounts.len() >= 4 {
                info.insert("payerAccount".into(), k(2)?.into());
                info.insert("systemProgram".into(), k(3)?.into());
            }
            Parsed::new("extendLookupTable", info.into())
        }
        Body::Deactivate => {
            ix.need(2)?;
            Parsed::new(
                "deactivateLookupTable",
                json!({"lookupTableAccount": k(0)?, "lookupTableAuthority": k(1)?}),
            )
        }
        Body::Close => {
            ix.need(3)?;
            Parsed::new(
                "closeLookupTable",
                json!({
                    "lookupTableAccount": k(0)?,
                    "lookupTableAuthority": k(1)?,
                    "recipient": k(2)?,
                }),
            )
        }
    }
}

#[cfg(test)]
#[path = "tests/alt.rs"]
mod tests;
