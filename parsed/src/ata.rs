//! The associated token account program (`parse_associated_token.rs`):
//! `AssociatedTokenAccountInstruction`, borsh-encoded (a one-byte variant and nothing
//! after it); empty data is the original `Create`.

use serde_json::json;

use super::{Ix, Parsed};

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    ix.any_accounts()?;
    // borsh's `try_from_slice` rejects trailing bytes, so the data is exactly one byte.
    let variant = match ix.data {
        [] => 0,
        [v @ 0..=2] => *v,
        _ => return None,
    };
    let k = |i| ix.key(i);
    if variant == 2 {
        ix.need(7)?;
        return Parsed::new(
            "recoverNested",
            json!({
                "nestedSource": k(0)?,
                "nestedMint": k(1)?,
                "destination": k(2)?,
                "nestedOwner": k(3)?,
                "ownerMint": k(4)?,
                "wallet": k(5)?,
                "tokenProgram": k(6)?,
            }),
        );
    }
    ix.need(6)?;
    let kind = if variant == 0 {
        "create"
    } else {
        "createIdempotent"
    };
    Parsed::new(
        kind,
        json!({
            "source": k(0)?,
            "account": k(1)?,
            "wallet": k(2)?,
            "mint": k(3)?,
            "systemProgram": k(4)?,
            "tokenProgram": k(5)?,
        }),
    )
}

#[cfg(test)]
#[path = "tests/ata.rs"]
mod tests;
