//! The stake program (`parse_stake.rs`): `StakeInstruction`, bincode-encoded.
//! `authorityType` is `StakeAuthorize` as serde names it (`"Staker"`, `"Withdrawer"`).
//!
//! Two account layouts are on chain, and Agave 4.4 parses both: older builders pass the
//! clock, rent, stake-history and stake-config accounts the program no longer reads, newer
//! ones (`solana-stake-interface` 5) leave them out. The account count cannot tell them
//! apart (an `authorize` with a custodian has the older length either way), so the older
//! layout is recognised by its sysvar's key at its place: the clock (or, for the two
//! initializes, the rent sysvar). Only the older layout reports the sysvar fields.

use serde_json::{Map, Value, json};

use super::ids::{CLOCK_SYSVAR, RENT_SYSVAR};
use super::reader::Reader;
use super::{Ix, Parsed, b58, object};

/// `StakeInstruction`, in variant-index order.
enum Body<'a> {
    Initialize {
        staker: [u8; 32],
        withdrawer: [u8; 32],
        unix_timestamp: i64,
        epoch: u64,
        custodian: [u8; 32],
    },
    Authorize([u8; 32], &'static str),
    Delegate,
    Split(u64),
    Withdraw(u64),
    Deactivate,
    SetLockup(Lockup),
    Merge,
    AuthorizeWithSeed(SeedArgs<'a>, [u8; 32]),
    InitializeChecked,
    AuthorizeChecked(&'static str),
    AuthorizeCheckedWithSeed(SeedArgs<'a>),
    SetLockupChecked(Lockup),
    GetMinimumDelegation,
    DeactivateDelinquent,
    Redelegate,
    MoveStake(u64),
    MoveLamports(u64),
}

/// `LockupArgs` / `LockupCheckedArgs` (the latter without a custodian).
struct Lockup {
    unix_timestamp: Option<i64>,
    epoch: Option<u64>,
    custodian: Option<[u8; 32]>,
}

/// The seed arguments shared by the two `…WithSeed` variants.
struct SeedArgs<'a> {
    authority_type: &'static str,
    seed: &'a str,
    owner: [u8; 32],
}

fn stake_authorize(r: &mut Reader<'_>) -> Option<&'static str> {
    match r.variant()? {
        0 => Some("Staker"),
        1 => Some("Withdrawer"),
        _ => None,
    }
}

fn decode(data: &[u8]) -> Option<Body<'_>> {
    let mut r = Reader::new(data);
    let r = &mut r;
    Some(match r.variant()? {
        0 => Body::Initialize {
            staker: r.pubkey()?,
            withdrawer: r.pubkey()?,
            unix_timestamp: r.i64()?,
            epoch: r.u64()?,
            custodian: r.pubkey()?,
        },
        1 => Body::Authorize(r.pubkey()?, stake_authorize(r)?),
        2 => Body::Delegate,
        3 => Body::Split(r.u64()?),
        4 => Body::Withdraw(r.u64()?),
        5 => Body::Deactivate,
        6 => Body::SetLockup(Lockup {
            unix_timestamp: r.option(Reader::i64)?,
            epoch: r.option(Reader::u64)?,
            custodian: r.option(Reader::pubkey)?,
        }),
        7 => Body::Merge,
        8 => {
            let new_authorized = r.pubkey()?;
            let args = SeedArgs {
                authority_type: stake_authorize(r)?,
                seed: r.bincode_string()?,
                owner: r.pubkey()?,
            };
            Body::AuthorizeWithSeed(args, new_authorized)
        }
        9 => Body::InitializeChecked,
        10 => Body::AuthorizeChecked(stake_authorize(r)?),
        11 => Body::AuthorizeCheckedWithSeed(SeedArgs {
            authority_type: stake_authorize(r)?,
            seed: r.bincode_string()?,
            owner: r.pubkey()?,
        }),
        12 => Body::SetLockupChecked(Lockup {
            unix_timestamp: r.option(Reader::i64)?,
            epoch: r.option(Reader::u64)?,
            custodian: None,
        }),
        13 => Body::GetMinimumDelegation,
        14 => Body::DeactivateDelinquent,
        15 => Body::Redelegate,
        16 => Body::MoveStake(r.u64()?),
        17 => Body::MoveLamports(r.u64()?),
        _ => return None,
    })
}

/// An instruction's account layout (module docs): in the older one, the sysvar accounts
/// named `sysvars` stand from index `at` on, the first being `sysvar`; every account after
/// them stands that many places later than in the current layout.
struct Layout {
    older: bool,
    at: usize,
    sysvars: &'static [&'static str],
}

impl Layout {
    /// The layout of `ix`, which must hold `needs` accounts in the current layout (and the
    /// sysvars besides in the older one: Agave's account-count check of each layout).
    fn of(
        ix: &Ix<'_>,
        at: usize,
        sysvar: &[u8; 32],
        sysvars: &'static [&'static str],
        needs: usize,
    ) -> Option<Self> {
        let older = ix.accounts.get(at) == Some(sysvar);
        ix.need(if older { needs + sysvars.len() } else { needs })?;
        Some(Self { older, at, sysvars })
    }

    /// Where account `i` of the current layout stands in this instruction.
    fn index(&self, i: usize) -> usize {
        if self.older && i >= self.at {
            i + self.sysvars.len()
        } else {
            i
        }
    }

    /// Adds the older layout's sysvar fields to `info` (nothing in the current layout).
    fn add_sysvars(&self, ix: &Ix<'_>, info: &mut Map<String, Value>) -> Option<()> {
        if self.older {
            for (n, name) in self.sysvars.iter().enumerate() {
                info.insert((*name).into(), ix.key(self.at + n)?.into());
            }
        }
        Some(())
    }
}

const CLOCK: &[&str] = &["clockSysvar"];
const CLOCK_AND_HISTORY: &[&str] = &["clockSysvar", "stakeHistorySysvar"];
const RENT: &[&str] = &["rentSysvar"];

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    let body = decode(ix.data)?;
    // Even `getMinimumDelegation` needs an account to pass Agave's index guard.
    ix.any_accounts()?;
    let k = |i| ix.key(i);
    // Optional trailing accounts are added only when present.
    let extra = |info: &mut Map<String, Value>, name: &str, i: usize| {
        if let Some(key) = ix.key(i) {
            info.insert(name.into(), key.into());
        }
    };
    // Accounts by their index in the current layout.
    let at = |layout: &Layout, i: usize| ix.key(layout.index(i));
    match body {
        Body::Initialize {
            staker,
            withdrawer,
            unix_timestamp,
            epoch,
            custodian,
        } => {
            let layout = Layout::of(ix, 1, &RENT_SYSVAR, RENT, 1)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "authorized": {"staker": b58(&staker), "withdrawer": b58(&withdrawer)},
                "lockup": {
                    "unixTimestamp": unix_timestamp,
                    "epoch": epoch,
                    "custodian": b58(&custodian),
                },
            }));
            layout.add_sysvars(ix, &mut info)?;
            Parsed::new("initialize", info.into())
        }
        Body::Authorize(new_authority, authority_type) => {
            let layout = Layout::of(ix, 1, &CLOCK_SYSVAR, CLOCK, 2)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "authority": at(&layout, 1)?,
                "newAuthority": b58(&new_authority),
                "authorityType": authority_type,
            }));
            layout.add_sysvars(ix, &mut info)?;
            extra(&mut info, "custodian", layout.index(2));
            Parsed::new("authorize", info.into())
        }
        Body::Delegate => {
            let sysvars = &["clockSysvar", "stakeHistorySysvar", "stakeConfigAccount"];
            let layout = Layout::of(ix, 2, &CLOCK_SYSVAR, sysvars, 3)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "voteAccount": k(1)?,
                "stakeAuthority": at(&layout, 2)?,
            }));
            layout.add_sysvars(ix, &mut info)?;
            Parsed::new("delegate", info.into())
        }
        Body::Split(lamports) => {
            ix.need(3)?;
            Parsed::new(
                "split",
                json!({
                    "stakeAccount": k(0)?,
                    "newSplitAccount": k(1)?,
                    "stakeAuthority": k(2)?,
                    "lamports": lamports,
                }),
            )
        }
        Body::Withdraw(lamports) => {
            let layout = Layout::of(ix, 2, &CLOCK_SYSVAR, CLOCK_AND_HISTORY, 3)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "destination": k(1)?,
                "withdrawAuthority": at(&layout, 2)?,
                "lamports": lamports,
            }));
            layout.add_sysvars(ix, &mut info)?;
            extra(&mut info, "custodian", layout.index(3));
            Parsed::new("withdraw", info.into())
        }
        Body::Deactivate => {
            let layout = Layout::of(ix, 1, &CLOCK_SYSVAR, CLOCK, 2)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "stakeAuthority": at(&layout, 1)?,
            }));
            layout.add_sysvars(ix, &mut info)?;
            Parsed::new("deactivate", info.into())
        }
        Body::SetLockup(lockup) => {
            ix.need(2)?;
            let mut map = lockup_map(&lockup);
            if let Some(custodian) = lockup.custodian {
                map.insert("custodian".into(), b58(&custodian).into());
            }
            Parsed::new(
                "setLockup",
                json!({"stakeAccount": k(0)?, "custodian": k(1)?, "lockup": map}),
            )
        }
        Body::Merge => {
            let layout = Layout::of(ix, 2, &CLOCK_SYSVAR, CLOCK_AND_HISTORY, 3)?;
            let mut info = object(json!({
                "destination": k(0)?,
                "source": k(1)?,
                "stakeAuthority": at(&layout, 2)?,
            }));
            layout.add_sysvars(ix, &mut info)?;
            Parsed::new("merge", info.into())
        }
        Body::AuthorizeWithSeed(args, new_authorized) => {
            let layout = Layout::of(ix, 2, &CLOCK_SYSVAR, CLOCK, 2)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "authorityBase": k(1)?,
                "newAuthorized": b58(&new_authorized),
                "authorityType": args.authority_type,
                "authoritySeed": args.seed,
                "authorityOwner": b58(&args.owner),
            }));
            layout.add_sysvars(ix, &mut info)?;
            extra(&mut info, "custodian", layout.index(2));
            Parsed::new("authorizeWithSeed", info.into())
        }
        Body::InitializeChecked => {
            let layout = Layout::of(ix, 1, &RENT_SYSVAR, RENT, 3)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "staker": at(&layout, 1)?,
                "withdrawer": at(&layout, 2)?,
            }));
            layout.add_sysvars(ix, &mut info)?;
            Parsed::new("initializeChecked", info.into())
        }
        Body::AuthorizeChecked(authority_type) => {
            let layout = Layout::of(ix, 1, &CLOCK_SYSVAR, CLOCK, 3)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "authority": at(&layout, 1)?,
                "newAuthority": at(&layout, 2)?,
                "authorityType": authority_type,
            }));
            layout.add_sysvars(ix, &mut info)?;
            extra(&mut info, "custodian", layout.index(3));
            Parsed::new("authorizeChecked", info.into())
        }
        Body::AuthorizeCheckedWithSeed(args) => {
            let layout = Layout::of(ix, 2, &CLOCK_SYSVAR, CLOCK, 3)?;
            let mut info = object(json!({
                "stakeAccount": k(0)?,
                "authorityBase": k(1)?,
                "newAuthorized": at(&layout, 2)?,
                "authorityType": args.authority_type,
                "authoritySeed": args.seed,
                "authorityOwner": b58(&args.owner),
            }));
            layout.add_sysvars(ix, &mut info)?;
            extra(&mut info, "custodian", layout.index(3));
            Parsed::new("authorizeCheckedWithSeed", info.into())
        }
        Body::SetLockupChecked(lockup) => {
            ix.need(2)?;
            let mut map = lockup_map(&lockup);
            extra(&mut map, "custodian", 2);
            Parsed::new(
                "setLockupChecked",
                json!({"stakeAccount": k(0)?, "custodian": k(1)?, "lockup": map}),
            )
        }
        Body::GetMinimumDelegation => Parsed::new("getMinimumDelegation", Value::Null),
        Body::DeactivateDelinquent => {
            ix.need(3)?;
            Parsed::new(
                "deactivateDelinquent",
                json!({
                    "stakeAccount": k(0)?,
                    "voteAccount": k(1)?,
                    "referenceVoteAccount": k(2)?,
                }),
            )
        }
        Body::Redelegate => {
            ix.need(5)?;
            Parsed::new(
                "redelegate",
                json!({
                    "stakeAccount": k(0)?,
                    "newStakeAccount": k(1)?,
                    "voteAccount": k(2)?,
                    "stakeConfigAccount": k(3)?,
                    "stakeAuthority": k(4)?,
                }),
            )
        }
        Body::MoveStake(lamports) | Body::MoveLamports(lamports) => {
            ix.need(3)?;
            let kind = if matches!(body, Body::MoveStake(_)) {
                "moveStake"
            } else {
                "moveLamports"
            };
            Parsed::new(
                kind,
                json!({
                    "source": k(0)?,
                    "destination": k(1)?,
                    "stakeAuthority": k(2)?,
                    "lamports": lamports,
                }),
            )
        }
    }
}

/// The lockup's timestamp and epoch, each only when set.
fn lockup_map(lockup: &Lockup) -> Map<String, Value> {
    let mut map = Map::new();
    if let Some(t) = lockup.unix_timestamp {
        map.insert("unixTimestamp".into(), t.into());
    }
    if let Some(e) = lockup.epoch {
        map.insert("epoch".into(), e.into());
    }
    map
}

#[cfg(test)]
#[path = "tests/stake.rs"]
mod tests;
