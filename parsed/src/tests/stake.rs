//! Agave's `parse_stake.rs` tests, transcribed (accounts in the builders' order): the older
//! layout (with the sysvars, recognised by the sysvar's key) and the current builders' layout
//! without them, both parsed as Agave 4.4 does.

use serde_json::{Value, json};

use crate::ids::{CLOCK_SYSVAR, RENT_SYSVAR, STAKE};
use crate::tests::{Data, info, key, keys, parsed, s};

fn check(accounts: &[[u8; 32]], data: &[u8], kind: &str, expected: Value) {
    assert_eq!(info(&STAKE, accounts, data, kind), expected);
}

fn none(accounts: &[[u8; 32]], data: &[u8]) {
    assert_eq!(parsed(&STAKE, accounts, data), None);
}

#[test]
fn initialize() {
    let (stake, rent, staker, withdrawer, custodian) =
        (key(1), RENT_SYSVAR, key(3), key(4), key(5));
    let data = Data::new()
        .u32(0)
        .key(&staker)
        .key(&withdrawer)
        .i64(1_234_567_890)
        .u64(11)
        .key(&custodian)
        .0;
    check(
        &[stake, rent],
        &data,
        "initialize",
        json!({
            "stakeAccount": s(&stake),
            "rentSysvar": s(&rent),
            "authorized": {"staker": s(&staker), "withdrawer": s(&withdrawer)},
            "lockup": {"unixTimestamp": 1_234_567_890, "epoch": 11, "custodian": s(&custodian)},
        }),
    );
    // Without the rent sysvar: the current layout, one account.
    check(
        &[stake],
        &data,
        "initialize",
        json!({
            "stakeAccount": s(&stake),
            "authorized": {"staker": s(&staker), "withdrawer": s(&withdrawer)},
            "lockup": {"unixTimestamp": 1_234_567_890, "epoch": 11, "custodian": s(&custodian)},
        }),
    );
    none(&[], &data);
}

#[test]
fn authorize_staker_and_withdrawer_with_custodian() {
    let (stake, clock, authority, new, custodian) = (key(1), CLOCK_SYSVAR, key(3), key(4), key(5));
    let data = Data::new().u32(1).key(&new).u32(0).0;
    let base = json!({
        "stakeAccount": s(&stake),
        "clockSysvar": s(&clock),
        "authority": s(&authority),
        "newAuthority": s(&new),
        "authorityType": "Staker",
    });
    check(&[stake, clock, authority], &data, "authorize", base);
    none(&[stake, clock], &data);

    let data = Data::new().u32(1).key(&new).u32(1).0;
    check(
        &[stake, clock, authority, custodian],
        &data,
        "authorize",
        json!({
            "stakeAccount": s(&stake),
            "clockSysvar": s(&clock),
            "authority": s(&authority),
            "newAuthority": s(&new),
            "authorityType": "Withdrawer",
            "custodian": s(&custodian),
        }),
    );
    none(
        &[stake, clock, authority],
        &Data::new().u32(1).key(&new).u32(2).0,
    );
}

#[test]
fn delegate_split_deactivate_merge() {
    let mut a = keys(6);
    a[2] = CLOCK_SYSVAR;
    check(
        &a,
        &Data::new().u32(2).0,
        "delegate",
        json!({
            "stakeAccount": s(&a[0]),
            "voteAccount": s(&a[1]),
            "clockSysvar": s(&a[2]),
            "stakeHistorySysvar": s(&a[3]),
            "stakeConfigAccount": s(&a[4]),
            "stakeAuthority": s(&a[5]),
        }),
    );
    none(&a[..5], &Data::new().u32(2).0);

    let split = Data::new().u32(3).u64(55).0;
    check(
        &a[..3],
        &split,
        "split",
        json!({
            "stakeAccount": s(&a[0]),
            "newSplitAccount": s(&a[1]),
            "stakeAuthority": s(&a[2]),
            "lamports": 55,
        }),
    );
    none(&a[..2], &split);

    let d = [a[0], CLOCK_SYSVAR, a[3]];
    check(
        &d,
        &Data::new().u32(5).0,
        "deactivate",
        json!({"stakeAccount": s(&d[0]), "clockSysvar": s(&d[1]), "stakeAuthority": s(&d[2])}),
    );
    none(&d[..2], &Data::new().u32(5).0);

    check(
        &a[..5],
        &Data::new().u32(7).0,
        "merge",
        json!({
            "destination": s(&a[0]),
            "source": s(&a[1]),
            "clockSysvar": s(&a[2]),
            "stakeHistorySysvar": s(&a[3]),
            "stakeAuthority": s(&a[4]),
        }),
    );
    none(&a[..4], &Data::new().u32(7).0);
}

#[test]
fn withdraw_with_and_without_custodian() {
    let mut a = keys(6);
    a[2] = CLOCK_SYSVAR;
    let data = Data::new().u32(4).u64(55).0;
    let mut expected = json!({
        "stakeAccount": s(&a[0]),
        "destination": s(&a[1]),
        "clockSysvar": s(&a[2]),
        "stakeHistorySysvar": s(&a[3]),
        "withdrawAuthority": s(&a[4]),
        "lamports": 55,
    });
    check(&a[..5], &data, "withdraw", expected.clone());
    expected["custodian"] = json!(s(&a[5]));
    check(&a, &data, "withdraw", expected);
    none(&a[..4], &data);
}

#[test]
fn authorize_with_seed() {
    let (stake, base, clock, custodian, owner, new) =
        (key(1), key(2), CLOCK_SYSVAR, key(4), key(5), key(6));
    let data = |t: u32| {
        Data::new()
            .u32(8)
            .key(&new)
            .u32(t)
            .bincode_bytes(b"test_seed")
            .key(&owner)
            .0
    };
    let mut expected = json!({
        "stakeAccount": s(&stake),
        "authorityOwner": s(&owner),
        "newAuthorized": s(&new),
        "authorityBase": s(&base),
        "authoritySeed": "test_seed",
        "authorityType": "Staker",
        "clockSysvar": s(&clock),
    });
    check(
        &[stake, base, clock],
        &data(0),
        "authorizeWithSeed",
        expected.clone(),
    );
    expected["authorityType"] = json!("Withdrawer");
    expected["custodian"] = json!(s(&custodian));
    check(
        &[stake, base, clock, custodian],
        &data(1),
        "authorizeWithSeed",
        expected,
    );
    // Two accounts are enough; the clock is then left out.
    let two = info(&STAKE, &[stake, base], &data(0), "authorizeWithSeed");
    assert_eq!(two.get("clockSysvar"), None);
    none(&[stake], &data(0));
}

#[test]
fn set_lockup_and_set_lockup_checked() {
    let a = keys(3);
    let (custodian, stake, new_custodian) = (a[0], a[1], a[2]);
    // Only the set fields appear in `lockup`.
    let data = Data::new().u32(6).u8(1).i64(1_234_567_890).u8(0).u8(0).0;
    check(
        &[stake, custodian],
        &data,
        "setLockup",
        json!({
            "stakeAccount": s(&stake),
            "custodian": s(&custodian),
            "lockup": {"unixTimestamp": 1_234_567_890},
        }),
    );
    let data = Data::new()
        .u32(6)
        .u8(1)
        .i64(1_234_567_890)
        .u8(1)
        .u64(11)
        .u8(1);
    let data = data.key(&new_custodian).0;
    check(
        &[stake, custodian],
        &data,
        "setLockup",
        json!({
            "stakeAccount": s(&stake),
            "custodian": s(&custodian),
            "lockup": {
                "unixTimestamp": 1_234_567_890,
                "epoch": 11,
                "custodian": s(&new_custodian),
            },
        }),
    );
    none(&[stake], &data);
    // A bad option tag fails the decoding.
    none(&[stake, custodian], &Data::new().u32(6).u8(2).0);

    // Checked: the new custodian is an account.
    let data = Data::new().u32(12).u8(1).i64(1_234_567_890).u8(1).u64(11).0;
    check(
        &[stake, custodian, new_custodian],
        &data,
        "setLockupChecked",
        json!({
            "stakeAccount": s(&stake),
            "custodian": s(&custodian),
            "lockup": {
                "unixTimestamp": 1_234_567_890,
                "epoch": 11,
                "custodian": s(&new_custodian),
            },
        }),
    );
    let data = Data::new().u32(12).u8(1).i64(1_234_567_890).u8(0).0;
    check(
        &[stake, custodian],
        &data,
        "setLockupChecked",
        json!({
            "stakeAccount": s(&stake),
            "custodian": s(&custodian),
            "lockup": {"unixTimestamp": 1_234_567_890},
        }),
    );
    none(&[stake], &data);
}

#[test]
fn initialize_checked_and_authorize_checked() {
    let mut a = keys(5);
    a[1] = RENT_SYSVAR;
    check(
        &a[..4],
        &Data::new().u32(9).0,
        "initializeChecked",
        json!({
            "stakeAccount": s(&a[0]),
            "rentSysvar": s(&a[1]),
            "staker": s(&a[2]),
            "withdrawer": s(&a[3]),
        }),
    );
    none(&a[..3], &Data::new().u32(9).0);

    a[1] = CLOCK_SYSVAR;
    let mut expected = json!({
        "stakeAccount": s(&a[0]),
        "clockSysvar": s(&a[1]),
        "authority": s(&a[2]),
        "newAuthority": s(&a[3]),
        "authorityType": "Staker",
    });
    check(
        &a[..4],
        &Data::new().u32(10).u32(0).0,
        "authorizeChecked",
        expected.clone(),
    );
    expected["authorityType"] = json!("Withdrawer");
    expected["custodian"] = json!(s(&a[4]));
    check(
        &a,
        &Data::new().u32(10).u32(1).0,
        "authorizeChecked",
        expected,
    );
    none(&a[..3], &Data::new().u32(10).u32(0).0);
}

#[test]
fn authorize_checked_with_seed() {
    let a = keys(6);
    let (stake, base, clock, new, custodian, owner) = (a[0], a[1], CLOCK_SYSVAR, a[3], a[4], a[5]);
    let data = |t: u32| {
        Data::new()
            .u32(11)
            .u32(t)
            .bincode_bytes(b"test_seed")
            .key(&owner)
            .0
    };
    let mut expected = json!({
        "stakeAccount": s(&stake),
        "authorityOwner": s(&owner),
        "newAuthorized": s(&new),
        "authorityBase": s(&base),
        "authoritySeed": "test_seed",
        "authorityType": "Staker",
        "clockSysvar": s(&clock),
    });
    check(
        &[stake, base, clock, new],
        &data(0),
        "authorizeCheckedWithSeed",
        expected.clone(),
    );
    expected["authorityType"] = json!("Withdrawer");
    expected["custodian"] = json!(s(&custodian));
    check(
        &[stake, base, clock, new, custodian],
        &data(1),
        "authorizeCheckedWithSeed",
        expected,
    );
    none(&[stake, base, clock], &data(0));
}

#[test]
fn move_stake_and_move_lamports() {
    let a = keys(3);
    for (variant, kind) in [(16, "moveStake"), (17, "moveLamports")] {
        let data = Data::new().u32(variant).u64(1_000_000).0;
        check(
            &a,
            &data,
            kind,
            json!({
                "source": s(&a[0]),
                "destination": s(&a[1]),
                "stakeAuthority": s(&a[2]),
                "lamports": 1_000_000,
            }),
        );
        none(&a[..2], &data);
    }
}

#[test]
fn get_minimum_delegation_has_no_info_but_needs_an_account() {
    let data = Data::new().u32(13).0;
    assert_eq!(
        parsed(&STAKE, &keys(1), &data),
        Some(json!({"type": "getMinimumDelegation"}))
    );
    none(&[], &data);
}

#[test]
fn deactivate_delinquent_and_redelegate() {
    let a = keys(5);
    check(
        &a[..3],
        &Data::new().u32(14).0,
        "deactivateDelinquent",
        json!({
            "stakeAccount": s(&a[0]),
            "voteAccount": s(&a[1]),
            "referenceVoteAccount": s(&a[2]),
        }),
    );
    check(
        &a,
        &Data::new().u32(15).0,
        "redelegate",
        json!({
            "stakeAccount": s(&a[0]),
            "newStakeAccount": s(&a[1]),
            "voteAccount": s(&a[2]),
            "stakeConfigAccount": s(&a[3]),
            "stakeAuthority": s(&a[4]),
        }),
    );
    none(&a[..4], &Data::new().u32(15).0);
    none(&a, &Data::new().u32(18).0);
}

/// The current builders' layout (`solana-stake-interface` 5): no sysvar accounts, every later
/// account one or more places earlier, and no sysvar field in the answer (Agave 4.4). A
/// key other than the sysvar where it would stand means the current layout, whatever the
/// count: an `authorize` with a custodian has the older layout's length.
#[test]
fn current_layouts_without_sysvars() {
    let a = keys(4);
    let (stake, authority, new, custodian) = (a[0], a[1], a[2], a[3]);
    let staker = Data::new().u32(1).key(&new).u32(0).0;
    let base = json!({
        "stakeAccount": s(&stake),
        "authority": s(&authority),
        "newAuthority": s(&new),
        "authorityType": "Staker",
    });
    check(&[stake, authority], &staker, "authorize", base.clone());
    let mut with_custodian = base;
    with_custodian["custodian"] = json!(s(&custodian));
    check(
        &[stake, authority, custodian],
        &staker,
        "authorize",
        with_custodian,
    );
    none(&[stake], &staker);

    let (vote, destination) = (a[1], a[1]);
    check(
        &[stake, vote, authority],
        &Data::new().u32(2).0,
        "delegate",
        json!({
            "stakeAccount": s(&stake),
            "voteAccount": s(&vote),
            "stakeAuthority": s(&authority),
        }),
    );
    none(&[stake, vote], &Data::new().u32(2).0);

    let withdraw = Data::new().u32(4).u64(55).0;
    let mut expected = json!({
        "stakeAccount": s(&stake),
        "destination": s(&destination),
        "withdrawAuthority": s(&a[2]),
        "lamports": 55,
    });
    check(&a[..3], &withdraw, "withdraw", expected.clone());
    expected["custodian"] = json!(s(&a[3]));
    check(&a, &withdraw, "withdraw", expected);
    none(&a[..2], &withdraw);

    check(
        &[stake, authority],
        &Data::new().u32(5).0,
        "deactivate",
        json!({"stakeAccount": s(&stake), "stakeAuthority": s(&authority)}),
    );
    none(&[stake], &Data::new().u32(5).0);

    check(
        &a[..3],
        &Data::new().u32(7).0,
        "merge",
        json!({"destination": s(&a[0]), "source": s(&a[1]), "stakeAuthority": s(&a[2])}),
    );
    none(&a[..2], &Data::new().u32(7).0);

    let owner = key(9);
    let seed = Data::new()
        .u32(8)
        .key(&new)
        .u32(1)
        .bincode_bytes(b"test_seed")
        .key(&owner)
        .0;
    check(
        &[stake, a[1], custodian],
        &seed,
        "authorizeWithSeed",
        json!({
            "stakeAccount": s(&stake),
            "authorityBase": s(&a[1]),
            "newAuthorized": s(&new),
            "authorityType": "Withdrawer",
            "authoritySeed": "test_seed",
            "authorityOwner": s(&owner),
            "custodian": s(&custodian),
        }),
    );

    check(
        &a[..3],
        &Data::new().u32(9).0,
        "initializeChecked",
        json!({"stakeAccount": s(&a[0]), "staker": s(&a[1]), "withdrawer": s(&a[2])}),
    );
    none(&a[..2], &Data::new().u32(9).0);

    check(
        &a,
        &Data::new().u32(10).u32(1).0,
        "authorizeChecked",
        json!({
            "stakeAccount": s(&a[0]),
            "authority": s(&a[1]),
            "newAuthority": s(&a[2]),
            "authorityType": "Withdrawer",
            "custodian": s(&a[3]),
        }),
    );
    none(&a[..2], &Data::new().u32(10).u32(1).0);

    let checked_seed = Data::new()
        .u32(11)
        .u32(0)
        .bincode_bytes(b"test_seed")
        .key(&owner)
        .0;
    check(
        &a,
        &checked_seed,
        "authorizeCheckedWithSeed",
        json!({
            "stakeAccount": s(&a[0]),
            "authorityBase": s(&a[1]),
            "newAuthorized": s(&a[2]),
            "authorityType": "Staker",
            "authoritySeed": "test_seed",
            "authorityOwner": s(&owner),
            "custodian": s(&a[3]),
        }),
    );
    none(&a[..2], &checked_seed);
}
