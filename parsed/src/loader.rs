//! The BPF loaders (`parse_bpf_loader.rs`): loader v2's `LoaderInstruction` and the
//! upgradeable loader's `UpgradeableLoaderInstruction`, both bincode-encoded. Written
//! bytes are reported in standard base64.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::reader::Reader;
use super::{Ix, Parsed, object};

/// Loader v2 (`BPFLoader2111…`).
pub(super) fn parse_v2(ix: &Ix<'_>) -> Option<Parsed> {
    let mut r = Reader::new(ix.data);
    let write = match r.variant()? {
        0 => Some((r.u32()?, r.bincode_bytes()?)),
        1 => None,
        _ => return None,
    };
    ix.any_accounts()?;
    match write {
        Some((offset, bytes)) => Parsed::new(
            "write",
            json!({
                "offset": offset,
                "bytes": BASE64.encode(bytes),
                "account": ix.key(0)?,
            }),
        ),
        None => {
            ix.need(2)?;
            Parsed::new("finalize", json!({"account": ix.key(0)?}))
        }
    }
}

/// The upgradeable loader (`BPFLoaderUpgradeab1e…`).
pub(super) fn parse_upgradeable(ix: &Ix<'_>) -> Option<Parsed> {
    let mut r = Reader::new(ix.data);
    let variant = r.variant()?;
    // The variants' own fields, decoded before the accounts are looked at.
    let (write, number) = match variant {
        1 => (Some((r.u32()?, r.bincode_bytes()?)), 0),
        2 => (None, r.u64()?),
        6 | 9 => (None, u64::from(r.u32()?)),
        0 | 3 | 4 | 5 | 7 | 8 => (None, 0),
        _ => return None,
    };
    ix.any_accounts()?;
    let k = |i| ix.key(i);
    // An optional trailing account: its key, or `null`.
    let opt = |i: usize| -> Value { ix.key(i).map_or(Value::Null, Value::from) };
    match variant {
        0 => {
            let mut info = object(json!({"account": k(0)?}));
            if ix.accounts.len() > 1 {
                info.insert("authority".into(), k(1)?.into());
            }
            Parsed::new("initializeBuffer", info.into())
        }
        1 => {
            ix.need(2)?;
            let (offset, bytes) = write?;
            Parsed::new(
                "write",
                json!({
                    "offset": offset,
                    "bytes": BASE64.encode(bytes),
                    "account": k(0)?,
                    "authority": k(1)?,
                }),
            )
        }
        2 => {
            ix.need(8)?;
            Parsed::new(
                "deployWithMaxDataLen",
                json!({
                    "maxDataLen": number,
                    "payerAccount": k(0)?,
                    "programDataAccount": k(1)?,
                    "programAccount": k(2)?,
                    "bufferAccount": k(3)?,
                    "rentSysvar": k(4)?,
                    "clockSysvar": k(5)?,
                    "systemProgram": k(6)?,
                    "authority": k(7)?,
                }),
            )
        }
        3 => {
            ix.need(7)?;
            Parsed::new(
                "upgrade",
                json!({
                    "programDataAccount": k(0)?,
                    "programAccount": k(1)?,
                    "bufferAccount": k(2)?,
                    "spillAccount": k(3)?,
                    "rentSysvar": k(4)?,
                    "clockSysvar": k(5)?,
                    "authority": k(6)?,
                }),
            )
        }
        4 => {
            ix.need(2)?;
            Parsed::new(
                "setAuthority",
                json!({"account": k(0)?, "authority": k(1)?, "newAuthority": opt(2)}),
            )
        }
        5 => {
            ix.need(3)?;
            Parsed::new(
                "close",
                json!({
                    "account": k(0)?,
                    "recipient": k(1)?,
                    "authority": k(2)?,
                    "programAccount": opt(3),
                }),
            )
        }
        6 => {
            ix.need(2)?;
            Parsed::new(
                "extendProgram",
                json!({
                    "additionalBytes": number,
                    "programDataAccount": k(0)?,
                    "programAccount": k(1)?,
                    "systemProgram": opt(2),
                    "payerAccount": opt(3),
                }),
            )
        }
        7 => {
            ix.need(3)?;
            Parsed::new(
                "setAuthorityChecked",
                json!({"account": k(0)?, "authority": k(1)?, "newAuthority": k(2)?}),
            )
        }
        8 => {
            ix.need(3)?;
            Parsed::new(
                "migrate",
                json!({
                    "programDataAccount": k(0)?,
                    "programAccount": k(1)?,
                    "authority": k(2)?,
                }),
            )
        }
        _ => {
            ix.need(3)?;
            Parsed::new(
                "extendProgramChecked",
                json!({
                    "additionalBytes": number,
                    "programDataAccount": k(0)?,
                    "programAccount": k(1)?,
                    "authority": k(2)?,
                    "systemProgram": opt(3),
                    "payerAccount": opt(4),
                }),
            )
        }
    }
}

#[cfg(test)]
#[path = "tests/loader.rs"]
mod tests;
