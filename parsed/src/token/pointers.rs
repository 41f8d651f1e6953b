//! Token-2022's transfer hook and the three pointer extensions (metadata, group, group
//! member): `Initialize { authority, <address> }` and `Update { <address> }`, each address
//! an optional non-zero key that is left out of `info` when unset.

use serde_json::{Map, Value, json};

use super::exact;
use crate::{Ix, Parsed, nonzero_key, object, signers};

/// The names one pointer extension prints.
pub(super) struct Pointer {
    address: &'static str,
    initialize: &'static str,
    update: &'static str,
}

pub(super) const METADATA: Pointer = Pointer {
    address: "metadataAddress",
    initialize: "initializeMetadataPointer",
    update: "updateMetadataPointer",
};

pub(super) const GROUP: Pointer = Pointer {
    address: "groupAddress",
    initialize: "initializeGroupPointer",
    update: "updateGroupPointer",
};

pub(super) const GROUP_MEMBER: Pointer = Pointer {
    address: "memberAddress",
    initialize: "initializeGroupMemberPointer",
    update: "updateGroupMemberPointer",
};

/// Tag 36: the transfer hook, whose address is the hook's `programId`.
pub(super) fn transfer_hook(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    const HOOK: Pointer = Pointer {
        address: "programId",
        initialize: "initializeTransferHook",
        update: "updateTransferHook",
    };
    pointer(HOOK, rest, ix)
}

/// Tags 39 to 41 (and 36 through [`transfer_hook`]).
pub(super) fn pointer(names: Pointer, rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    match rest.first()? {
        0 => {
            let data: [u8; 64] = exact(rest)?;
            let (authority, address) = data.split_at(32);
            let mut info = object(json!({"mint": ix.key(0)?}));
            insert_key(&mut info, "authority", authority)?;
            insert_key(&mut info, names.address, address)?;
            Parsed::new(names.initialize, info.into())
        }
        1 => {
            ix.need(2)?;
            let address: [u8; 32] = exact(rest)?;
            let mut info = object(json!({"mint": ix.key(0)?}));
            insert_key(&mut info, names.address, &address)?;
            signers(&mut info, ix.accounts, 1, "authority", "multisigAuthority")?;
            Parsed::new(names.update, info.into())
        }
        _ => None,
    }
}

/// Adds `name` when the 32-byte `key` is not all zeros.
fn insert_key(info: &mut Map<String, Value>, name: &str, key: &[u8]) -> Option<()> {
    let key: [u8; 32] = key.try_into().ok()?;
    if let Some(key) = nonzero_key(&key) {
        info.insert(name.into(), key.into());
    }
    Some(())
}
