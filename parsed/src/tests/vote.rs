//! Agave's `parse_vote.rs` tests, transcribed (accounts in the builders' order).

use serde_json::{Value, json};

use crate::ids::VOTE;
use crate::tests::{Data, info, key, keys, parsed, s};

/// `Hash::default()` in base58.
const ZERO_HASH: &str = "11111111111111111111111111111111";

fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: Value) {
    assert_eq!(info(&VOTE, accounts, data, kind), expected);
    let fewer = &accounts[..accounts.len() - 1];
    assert_eq!(
        parsed(&VOTE, fewer, data),
        None,
        "{kind} with one account less"
    );
}

/// The lockouts `[(0, 3), (1, 2), (2, 1)]` of Agave's vote-state tests, as JSON.
fn lockouts() -> Value {
    json!([
        {"slot": 0, "confirmation_count": 3},
        {"slot": 1, "confirmation_count": 2},
        {"slot": 2, "confirmation_count": 1},
    ])
}

/// The same lockouts in plain bincode: `u64` count, then `(u64 slot, u32 count)`, no
/// root, a zero hash, no timestamp.
fn plain_update() -> Data {
    Data::new()
        .u64(3)
        .u64(0)
        .u32(3)
        .u64(1)
        .u32(2)
        .u64(2)
        .u32(1)
        .u8(0)
        .bytes(&[0; 32])
        .u8(0)
}

/// The same lockouts compactly: root `u64::MAX` (none), `ShortU16` count, `(VarInt
/// offset, u8 count)` pairs, a zero hash, no timestamp.
fn compact_update() -> Data {
    Data::new()
        .u64(u64::MAX)
        .u8(3)
        .bytes(&[0, 3, 1, 2, 1, 1])
        .bytes(&[0; 32])
        .u8(0)
}

#[test]
fn initialize() {
    let a = keys(4);
    let (node, voter, withdrawer) = (a[3], key(7), key(8));
    let data = Data::new()
        .u32(0)
        .key(&node)
        .key(&voter)
        .key(&withdrawer)
        .u8(10)
        .0;
    check(
        &a,
        &data,
        "initialize",
        json!({
            "voteAccount": s(&a[0]),
            "rentSysvar": s(&a[1]),
            "clockSysvar": s(&a[2]),
            "node": s(&node),
            "authorizedVoter": s(&voter),
            "authorizedWithdrawer": s(&withdrawer),
            "commission": 10,
        }),
    );
}

#[test]
fn authorize_and_seeded_forms() {
    let a = keys(4);
    let new = key(9);
    check(
        &a[..3],
        &Data::new().u32(1).key(&new).u32(0).0,
        "authorize",
        json!({
            "voteAccount": s(&a[0]),
            "clockSysvar": s(&a[1]),
            "authority": s(&a[2]),
            "newAuthority": s(&new),
            "authorityType": "Voter",
        }),
    );
    let owner = key(8);
    let data = Data::new()
        .u32(10)
        .u32(0)
        .key(&owner)
        .bincode_bytes(b"AUTHORITY_SEED")
        .key(&new)
        .0;
    check(
        &a[..3],
        &data,
        "authorizeWithSeed",
        json!({
            "voteAccount": s(&a[0]),
            "clockSysvar": s(&a[1]),
            "authorityBaseKey": s(&a[2]),
            "authorityOwner": s(&owner),
            "authoritySeed": "AUTHORITY_SEED",
            "newAuthority": s(&new),
            "authorityType": "Voter",
        }),
    );
    let data = Data::new()
        .u32(11)
        .u32(1)
        .key(&owner)
        .bincode_bytes(b"AUTHORITY_SEED")
        .0;
    check(
        &a,
        &data,
        "authorizeCheckedWithSeed",
        json!({
            "voteAccount": s(&a[0]),
            "clockSysvar": s(&a[1]),
            "authorityBaseKey": s(&a[2]),
            "authorityOwner": s(&owner),
            "authoritySeed": "AUTHORITY_SEED",
            "newAuthority": s(&a[3]),
            "authorityType": "Withdrawer",
        }),
    );
    check(
        &a,
        &Data::new().u32(7).u32(0).0,
        "authorizeChecked",
        json!({
            "voteAccount": s(&a[0]),
            "clockSysvar": s(&a[1]),
            "authority": s(&a[2]),
            "newAuthority": s(&a[3]),
            "authorityType": "Voter",
        }),
    );
}

#[test]
fn vote_and_vote_switch() {
    let a = keys(4);
    let hash = [1u8; 32];
    let vote = Data::new()
        .u64(3)
        .u64(1)
        .u64(2)
        .u64(4)
        .key(&hash)
        .u8(1)
        .i64(1_234_567_890);
    let expected_vote = json!({"slots": [1, 2, 4], "hash": s(&hash), "timestamp": 1_234_567_890});
    let accounts = json!({
        "voteAccount": s(&a[0]),
        "slotHashesSysvar": s(&a[1]),
        "clockSysvar": s(&a[2]),
        "voteAuthority": s(&a[3]),
    });
    let mut expected = accounts.clone();
    expected["vote"] = expected_vote.clone();
    check(&a, &Data::new().u32(2).bytes(&vote.0).0, "vote", expected);

    let switch = key(5);
    let mut expected = accounts;
    expected["vote"] = expected_vote;
    expected["hash"] = json!(s(&switch));
    let data = Data::new().u32(6).bytes(&vote.0).key(&switch).0;
    check(&a, &data, "voteSwitch", expected);
}

#[test]
fn withdraw_identity_commission() {
    let a = keys(3);
    check(
        &a,
        &Data::new().u32(3).u64(55).0,
        "withdraw",
        json!({
            "voteAccount": s(&a[0]),
            "destination": s(&a[1]),
            "withdrawAuthority": s(&a[2]),
            "lamports": 55,
        }),
    );
    check(
        &a,
        &Data::new().u32(4).0,
        "updateValidatorIdentity",
        json!({
            "voteAccount": s(&a[0]),
            "newValidatorIdentity": s(&a[1]),
            "withdrawAuthority": s(&a[2]),
        }),
    );
    check(
        &a[..2],
        &Data::new().u32(5).u8(10).0,
        "updateCommission",
        json!({"voteAccount": s(&a[0]), "withdrawAuthority": s(&a[1]), "commission": 10}),
    );
}

#[test]
fn vote_state_updates_plain_and_compact() {
    let a = keys(2);
    let update = json!({
        "lockouts": lockouts(),
        "root": null,
        "hash": ZERO_HASH,
        "timestamp": null,
    });
    let plain = json!({
        "voteAccount": s(&a[0]),
        "voteAuthority": s(&a[1]),
        "voteStateUpdate": update,
    });
    let switch = key(6);
    let mut switched = plain.clone();
    switched["hash"] = json!(s(&switch));
    let cases = [
        (8, plain_update(), None, "updatevotestate"),
        (9, plain_update(), Some(switch), "updatevotestateswitch"),
        (12, compact_update(), None, "compactupdatevotestate"),
        (
            13,
            compact_update(),
            Some(switch),
            "compactupdatevotestateswitch",
        ),
    ];
    for (variant, payload, hash, kind) in cases {
        let mut data = Data::new().u32(variant).bytes(&payload.0);
        if let Some(hash) = hash {
            data = data.key(&hash);
        }
        let expected = if hash.is_some() { &switched } else { &plain };
        check(&a, &data.0, kind, expected.clone());
    }
}

#[test]
fn tower_sync_and_switch() {
    let a = keys(2);
    let tower = compact_update().bytes(&[0; 32]);
    let mut expected = json!({
        "voteAccount": s(&a[0]),
        "voteAuthority": s(&a[1]),
        "towerSync": {
            "lockouts": lockouts(),
            "root": null,
            "hash": ZERO_HASH,
            "timestamp": null,
            "blockId": ZERO_HASH,
        },
    });
    check(
        &a,
        &Data::new().u32(14).bytes(&tower.0).0,
        "towersync",
        expected.clone(),
    );
    let switch = key(6);
    expected["hash"] = json!(s(&switch));
    let data = Data::new().u32(15).bytes(&tower.0).key(&switch).0;
    check(&a, &data, "towersyncswitch", expected);
    // Without its block id the tower sync does not decode.
    let data = Data::new().u32(14).bytes(&compact_update().0).0;
    assert_eq!(parsed(&VOTE, &a, &data), None);
}

#[test]
fn unknown_variant_and_empty_accounts_fall_back() {
    assert_eq!(parsed(&VOTE, &keys(4), &Data::new().u32(16).0), None);
    assert_eq!(parsed(&VOTE, &[], &Data::new().u32(4).0), None);
}
