//! Agave's `token_group.rs` and `token_metadata.rs` tests, transcribed. The data is the
//! interface's 8-byte discriminator then its payload (`bytemuck` for groups, borsh for
//! metadata).

use serde_json::{Value, json};

use super::{
    INITIALIZE_GROUP, INITIALIZE_MEMBER, METADATA_EMIT, METADATA_INITIALIZE, METADATA_REMOVE_KEY,
    METADATA_UPDATE_AUTHORITY, METADATA_UPDATE_FIELD, UPDATE_GROUP_AUTHORITY,
    UPDATE_GROUP_MAX_SIZE,
};
use crate::ids::{SPL_TOKEN, SPL_TOKEN_2022 as T22};
use crate::tests::{Data, info, key, parsed, s};

fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: Value) {
    assert_eq!(info(&T22, accounts, data, kind), expected, "{kind}");
    // Both token program ids parse the interfaces.
    assert_eq!(info(&SPL_TOKEN, accounts, data, kind), expected, "{kind}");
}

#[test]
fn discriminators_do_not_collide_with_token_tags() {
    for d in [
        INITIALIZE_GROUP,
        UPDATE_GROUP_MAX_SIZE,
        UPDATE_GROUP_AUTHORITY,
        INITIALIZE_MEMBER,
        METADATA_INITIALIZE,
        METADATA_UPDATE_FIELD,
        METADATA_REMOVE_KEY,
        METADATA_UPDATE_AUTHORITY,
        METADATA_EMIT,
    ] {
        assert!(d[0] > 44, "{d:x?}");
    }
}

#[test]
fn token_group() {
    let (group, mint, mint_authority, update_authority) = (key(1), key(2), key(3), key(4));
    let data = Data::new()
        .bytes(&INITIALIZE_GROUP)
        .key(&update_authority)
        .u64(300)
        .0;
    let accounts = [group, mint, mint_authority];
    check(
        &accounts,
        &data,
        "initializeTokenGroup",
        json!({
            "group": s(&group),
            "maxSize": 300,
            "mint": s(&mint),
            "mintAuthority": s(&mint_authority),
            "updateAuthority": s(&update_authority),
        }),
    );
    assert_eq!(parsed(&T22, &accounts[..2], &data), None);
    let data = Data::new()
        .bytes(&INITIALIZE_GROUP)
        .key(&[0; 32])
        .u64(300)
        .0;
    check(
        &accounts,
        &data,
        "initializeTokenGroup",
        json!({
            "group": s(&group),
            "maxSize": 300,
            "mint": s(&mint),
            "mintAuthority": s(&mint_authority),
            "updateAuthority": null,
        }),
    );
    // The payload size must be exact.
    assert_eq!(parsed(&T22, &accounts, &data[..47]), None);
    assert_eq!(
        parsed(&T22, &accounts, &Data::new().bytes(&data).u8(0).0),
        None
    );

    let data = Data::new().bytes(&UPDATE_GROUP_MAX_SIZE).u64(500).0;
    check(
        &[group, update_authority],
        &data,
        "updateTokenGroupMaxSize",
        json!({"group": s(&group), "maxSize": 500, "updateAuthority": s(&update_authority)}),
    );
    let new_authority = key(5);
    let data = Data::new()
        .bytes(&UPDATE_GROUP_AUTHORITY)
        .key(&new_authority)
        .0;
    check(
        &[group, update_authority],
        &data,
        "updateTokenGroupAuthority",
        json!({
            "group": s(&group),
            "updateAuthority": s(&update_authority),
            "newAuthority": s(&new_authority),
        }),
    );
    let data = Data::new().bytes(&UPDATE_GROUP_AUTHORITY).key(&[0; 32]).0;
    check(
        &[group, update_authority],
        &data,
        "updateTokenGroupAuthority",
        json!({
            "group": s(&group),
            "updateAuthority": s(&update_authority),
            "newAuthority": null,
        }),
    );

    let (member, member_mint, member_mint_authority) = (key(6), key(7), key(8));
    let accounts = [
        member,
        member_mint,
        member_mint_authority,
        group,
        update_authority,
    ];
    check(
        &accounts,
        &INITIALIZE_MEMBER,
        "initializeTokenGroupMember",
        json!({
            "member": s(&member),
            "memberMint": s(&member_mint),
            "memberMintAuthority": s(&member_mint_authority),
            "group": s(&group),
            "groupUpdateAuthority": s(&update_authority),
        }),
    );
    assert_eq!(parsed(&T22, &accounts[..4], &INITIALIZE_MEMBER), None);
}

#[test]
fn token_metadata() {
    let (metadata, update_authority, mint, mint_authority) = (key(1), key(2), key(3), key(4));
    let data = Data::new()
        .bytes(&METADATA_INITIALIZE)
        .borsh_str("Mega Token")
        .borsh_str("MEGA")
        .borsh_str("https://mega.com")
        .0;
    let accounts = [metadata, update_authority, mint, mint_authority];
    check(
        &accounts,
        &data,
        "initializeTokenMetadata",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "mint": s(&mint),
            "mintAuthority": s(&mint_authority),
            "name": "Mega Token",
            "symbol": "MEGA",
            "uri": "https://mega.com",
        }),
    );
    assert_eq!(parsed(&T22, &accounts[..3], &data), None);
    // borsh consumes the payload exactly.
    assert_eq!(
        parsed(&T22, &accounts, &Data::new().bytes(&data).u8(0).0),
        None
    );

    let two = [metadata, update_authority];
    let data = Data::new()
        .bytes(&METADATA_UPDATE_FIELD)
        .u8(2)
        .borsh_str("https://ultra-mega.com")
        .0;
    check(
        &two,
        &data,
        "updateTokenMetadataField",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "field": "uri",
            "value": "https://ultra-mega.com",
        }),
    );
    let data = Data::new()
        .bytes(&METADATA_UPDATE_FIELD)
        .u8(3)
        .borsh_str("new_field")
        .borsh_str("new_value")
        .0;
    check(
        &two,
        &data,
        "updateTokenMetadataField",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "field": "new_field",
            "value": "new_value",
        }),
    );

    let data = Data::new()
        .bytes(&METADATA_REMOVE_KEY)
        .u8(1)
        .borsh_str("new_field")
        .0;
    check(
        &two,
        &data,
        "removeTokenMetadataKey",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "key": "new_field",
            "idempotent": true,
        }),
    );
    let bad_bool = Data::new()
        .bytes(&METADATA_REMOVE_KEY)
        .u8(2)
        .borsh_str("k")
        .0;
    assert_eq!(parsed(&T22, &two, &bad_bool), None);

    let new_authority = key(5);
    let data = Data::new()
        .bytes(&METADATA_UPDATE_AUTHORITY)
        .key(&new_authority)
        .0;
    check(
        &two,
        &data,
        "updateTokenMetadataAuthority",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "newAuthority": s(&new_authority),
        }),
    );
    let data = Data::new()
        .bytes(&METADATA_UPDATE_AUTHORITY)
        .key(&[0; 32])
        .0;
    check(
        &two,
        &data,
        "updateTokenMetadataAuthority",
        json!({
            "metadata": s(&metadata),
            "updateAuthority": s(&update_authority),
            "newAuthority": null,
        }),
    );

    let emits = [
        (
            Some(1),
            Some(2),
            json!({"metadata": s(&metadata), "start": 1, "end": 2}),
        ),
        (Some(1), None, json!({"metadata": s(&metadata), "start": 1})),
        (None, Some(2), json!({"metadata": s(&metadata), "end": 2})),
        (None, None, json!({"metadata": s(&metadata)})),
    ];
    for (start, end, expected) in emits {
        let mut data = Data::new().bytes(&METADATA_EMIT);
        for bound in [start, end] {
            data = match bound {
                Some(v) => data.u8(1).u64(v),
                None => data.u8(0),
            };
        }
        check(&[metadata], &data.0, "emitTokenMetadata", expected);
    }
}
