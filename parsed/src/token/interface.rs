//! The token-group and token-metadata interface instructions Token-2022 implements
//! (`token_group.rs`, `token_metadata.rs`): an 8-byte discriminator (the first bytes of
//! the SHA-256 of the hash input named beside each constant), then a `bytemuck` payload
//! of exact size (group) or a borsh payload that must be consumed exactly (metadata).

use serde_json::json;

use crate::reader::Reader;
use crate::{Ix, Parsed, nonzero_key, object};

/// "spl_token_group_interface:initialize_token_group"
const INITIALIZE_GROUP: [u8; 8] = [0x79, 0x71, 0x6c, 0x27, 0x36, 0x33, 0x00, 0x04];
/// "spl_token_group_interface:update_group_max_size"
const UPDATE_GROUP_MAX_SIZE: [u8; 8] = [0x6c, 0x25, 0xab, 0x8f, 0xf8, 0x1e, 0x12, 0x6e];
/// "spl_token_group_interface:update_authority"
const UPDATE_GROUP_AUTHORITY: [u8; 8] = [0xa1, 0x69, 0x58, 0x01, 0xed, 0xdd, 0xd8, 0xcb];
/// "spl_token_group_interface:initialize_member"
const INITIALIZE_MEMBER: [u8; 8] = [0x98, 0x20, 0xde, 0xb0, 0xdf, 0xed, 0x74, 0x86];
/// "spl_token_metadata_interface:initialize_account"
const METADATA_INITIALIZE: [u8; 8] = [0xd2, 0xe1, 0x1e, 0xa2, 0x58, 0xb8, 0x4d, 0x8d];
/// "spl_token_metadata_interface:updating_field"
const METADATA_UPDATE_FIELD: [u8; 8] = [0xdd, 0xe9, 0x31, 0x2d, 0xb5, 0xca, 0xdc, 0xc8];
/// "spl_token_metadata_interface:remove_key_ix"
const METADATA_REMOVE_KEY: [u8; 8] = [0xea, 0x12, 0x20, 0x38, 0x59, 0x8d, 0x25, 0xb5];
/// "spl_token_metadata_interface:update_the_authority"
const METADATA_UPDATE_AUTHORITY: [u8; 8] = [0xd7, 0xe4, 0xa6, 0xe4, 0x54, 0x64, 0x56, 0x7b];
/// "spl_token_metadata_interface:emitter"
const METADATA_EMIT: [u8; 8] = [0xfa, 0xa6, 0xb4, 0xfa, 0x0d, 0x0c, 0xb8, 0x46];

/// A decoded `TokenGroupInstruction`.
pub(super) enum Group {
    Initialize {
        update_authority: [u8; 32],
        max_size: u64,
    },
    UpdateMaxSize(u64),
    UpdateAuthority([u8; 32]),
    InitializeMember,
}

pub(super) fn unpack_group(data: &[u8]) -> Option<Group> {
    let (discriminator, rest) = data.split_first_chunk::<8>()?;
    Some(match *discriminator {
        INITIALIZE_GROUP => {
            let rest: &[u8; 40] = rest.try_into().ok()?;
            let (authority, size) = rest.split_first_chunk::<32>()?;
            Group::Initialize {
                update_authority: *authority,
                max_size: u64::from_le_bytes(size.try_into().ok()?),
            }
        }
        UPDATE_GROUP_MAX_SIZE => Group::UpdateMaxSize(u64::from_le_bytes(rest.try_into().ok()?)),
        UPDATE_GROUP_AUTHORITY => Group::UpdateAuthority(rest.try_into().ok()?),
        INITIALIZE_MEMBER if rest.is_empty() => Group::InitializeMember,
        _ => return None,
    })
}

pub(super) fn parse_group(group: Group, ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    match group {
        Group::Initialize {
            update_authority,
            max_size,
        } => {
            ix.need(3)?;
            Parsed::new(
                "initializeTokenGroup",
                json!({
                    "group": k(0)?,
                    "maxSize": max_size,
                    "mint": k(1)?,
                    "mintAuthority": k(2)?,
                    "updateAuthority": nonzero_key(&update_authority),
                }),
            )
        }
        Group::UpdateMaxSize(max_size) => {
            ix.need(2)?;
            Parsed::new(
                "updateTokenGroupMaxSize",
                json!({"group": k(0)?, "maxSize": max_size, "updateAuthority": k(1)?}),
            )
        }
        Group::UpdateAuthority(new_authority) => {
            ix.need(2)?;
            Parsed::new(
                "updateTokenGroupAuthority",
                json!({
                    "group": k(0)?,
                    "updateAuthority": k(1)?,
                    "newAuthority": nonzero_key(&new_authority),
                }),
            )
        }
        Group::InitializeMember => {
            ix.need(5)?;
            Parsed::new(
                "initializeTokenGroupMember",
                json!({
                    "member": k(0)?,
                    "memberMint": k(1)?,
                    "memberMintAuthority": k(2)?,
                    "group": k(3)?,
                    "groupUpdateAuthority": k(4)?,
                }),
            )
        }
    }
}

/// A decoded `TokenMetadataInstruction`.
pub(super) enum Metadata<'a> {
    Initialize {
        name: &'a str,
        symbol: &'a str,
        uri: &'a str,
    },
    /// The field's name (`name`, `symbol`, `uri` or the custom key) and the new value.
    UpdateField(&'a str, &'a str),
    RemoveKey {
        idempotent: bool,
        key: &'a str,
    },
    UpdateAuthority([u8; 32]),
    Emit {
        start: Option<u64>,
        end: Option<u64>,
    },
}

pub(super) fn unpack_metadata(data: &[u8]) -> Option<Metadata<'_>> {
    let (discriminator, rest) = data.split_first_chunk::<8>()?;
    let mut r = Reader::new(rest);
    let metadata = match *discriminator {
        METADATA_INITIALIZE => Metadata::Initialize {
            name: r.borsh_string()?,
            symbol: r.borsh_string()?,
            uri: r.borsh_string()?,
        },
        METADATA_UPDATE_FIELD => {
            let field = match r.u8()? {
                0 => "name",
                1 => "symbol",
                2 => "uri",
                3 => r.borsh_string()?,
                _ => return None,
            };
            Metadata::UpdateField(field, r.borsh_string()?)
        }
        METADATA_REMOVE_KEY => Metadata::RemoveKey {
            idempotent: r.bool()?,
            key: r.borsh_string()?,
        },
        METADATA_UPDATE_AUTHORITY => Metadata::UpdateAuthority(r.pubkey()?),
        METADATA_EMIT => Metadata::Emit {
            start: r.option(Reader::u64)?,
            end: r.option(Reader::u64)?,
        },
        _ => return None,
    };
    // borsh's `try_from_slice` refuses unread bytes.
    r.is_empty().then_some(metadata)
}

pub(super) fn parse_metadata(metadata: Metadata<'_>, ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    match metadata {
        Metadata::Initialize { name, symbol, uri } => {
            ix.need(4)?;
            Parsed::new(
                "initializeTokenMetadata",
                json!({
                    "metadata": k(0)?,
                    "updateAuthority": k(1)?,
                    "mint": k(2)?,
                    "mintAuthority": k(3)?,
                    "name": name,
                    "symbol": symbol,
                    "uri": uri,
                }),
            )
        }
        Metadata::UpdateField(field, value) => {
            ix.need(2)?;
            Parsed::new(
                "updateTokenMetadataField",
                json!({
                    "metadata": k(0)?,
                    "updateAuthority": k(1)?,
                    "field": field,
                    "value": value,
                }),
            )
        }
        Metadata::RemoveKey { idempotent, key } => {
            ix.need(2)?;
            Parsed::new(
                "removeTokenMetadataKey",
                json!({
                    "metadata": k(0)?,
                    "updateAuthority": k(1)?,
                    "key": key,
                    "idempotent": idempotent,
                }),
            )
        }
        Metadata::UpdateAuthority(new_authority) => {
            ix.need(2)?;
            Parsed::new(
                "updateTokenMetadataAuthority",
                json!({
                    "metadata": k(0)?,
                    "updateAuthority": k(1)?,
                    "newAuthority": nonzero_key(&new_authority),
                }),
            )
        }
        Metadata::Emit { start, end } => {
            let mut info = object(json!({"metadata": k(0)?}));
            if let Some(start) = start {
                info.insert("start".into(), start.into());
            }
            if let Some(end) = end {
                info.insert("end".into(), end.into());
            }
            Parsed::new("emitTokenMetadata", info.into())
        }
    }
}

#[cfg(test)]
#[path = "../tests/token_interface.rs"]
mod tests;
