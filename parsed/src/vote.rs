//! The vote program (`parse_vote.rs`): `VoteInstruction`, bincode-encoded. The payloads
//! are in [`super::vote_state`]. `authorityType` is `VoteAuthorize` as serde names it
//! (`"Voter"`, `"Withdrawer"`); the vote-state instruction types are all lower case, as
//! Agave spells them.

use serde_json::{Value, json};

use super::reader::Reader;
use super::vote_state::{compact_vote_state_update, tower_sync, vote, vote_state_update};
use super::{Ix, Parsed, b58};

/// `VoteInstruction`, in variant-index order, with its payloads already as JSON.
enum Body<'a> {
    Initialize {
        voter: [u8; 32],
        withdrawer: [u8; 32],
        commission: u8,
    },
    Authorize([u8; 32], &'static str),
    Vote(Value),
    Withdraw(u64),
    UpdateValidatorIdentity,
    UpdateCommission(u8),
    VoteSwitch(Value, [u8; 32]),
    AuthorizeChecked(&'static str),
    /// `UpdateVoteState`, `CompactUpdateVoteState` (no switch hash) and their `Switch`
    /// forms: the instruction type, the payload, the switch hash.
    StateUpdate(&'static str, Value, Option<[u8; 32]>),
    AuthorizeWithSeed(SeedArgs<'a>, [u8; 32]),
    AuthorizeCheckedWithSeed(SeedArgs<'a>),
    TowerSync(&'static str, Value, Option<[u8; 32]>),
}

struct SeedArgs<'a> {
    authority_type: &'static str,
    owner: [u8; 32],
    seed: &'a str,
}

fn vote_authorize(r: &mut Reader<'_>) -> Option<&'static str> {
    match r.variant()? {
        0 => Some("Voter"),
        1 => Some("Withdrawer"),
        _ => None,
    }
}

fn seed_args<'a>(r: &mut Reader<'a>) -> Option<SeedArgs<'a>> {
    Some(SeedArgs {
        authority_type: vote_authorize(r)?,
        owner: r.pubkey()?,
        seed: r.bincode_string()?,
    })
}

fn decode(data: &[u8]) -> Option<Body<'_>> {
    let mut r = Reader::new(data);
    let r = &mut r;
    Some(match r.variant()? {
        0 => {
            let _node = r.pubkey()?;
            Body::Initialize {
                voter: r.pubkey()?,
                withdrawer: r.pubkey()?,
                commission: r.u8()?,
            }
        }
        1 => Body::Authorize(r.pubkey()?, vote_authorize(r)?),
        2 => Body::Vote(vote(r)?),
        3 => Body::Withdraw(r.u64()?),
        4 => Body::UpdateValidatorIdentity,
        5 => Body::UpdateCommission(r.u8()?),
        6 => Body::VoteSwitch(vote(r)?, r.pubkey()?),
        7 => Body::AuthorizeChecked(vote_authorize(r)?),
        8 => Body::StateUpdate("updatevotestate", vote_state_update(r)?, None),
        9 => Body::StateUpdate(
            "updatevotestateswitch",
            vote_state_update(r)?,
            Some(r.pubkey()?),
        ),
        10 => {
            let args = seed_args(r)?;
            Body::AuthorizeWithSeed(args, r.pubkey()?)
        }
        11 => Body::AuthorizeCheckedWithSeed(seed_args(r)?),
        12 => Body::StateUpdate(
            "compactupdatevotestate",
            compact_vote_state_update(r)?,
            None,
        ),
        13 => Body::StateUpdate(
            "compactupdatevotestateswitch",
            compact_vote_state_update(r)?,
            Some(r.pubkey()?),
        ),
        14 => Body::TowerSync("towersync", tower_sync(r)?, None),
        15 => Body::TowerSync("towersyncswitch", tower_sync(r)?, Some(r.pubkey()?)),
        _ => return None,
    })
}

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    let body = decode(ix.data)?;
    ix.any_accounts()?;
    let k = |i| ix.key(i);
    match body {
        Body::Initialize {
            voter,
            withdrawer,
            commission,
        } => {
            ix.need(4)?;
            Parsed::new(
                "initialize",
                json!({
                    "voteAccount": k(0)?,
                    "rentSysvar": k(1)?,
                    "clockSysvar": k(2)?,
                    "node": k(3)?,
                    "authorizedVoter": b58(&voter),
                    "authorizedWithdrawer": b58(&withdrawer),
                    "commission": commission,
                }),
            )
        }
        Body::Authorize(new_authority, authority_type) => {
            ix.need(3)?;
            Parsed::new(
                "authorize",
                json!({
                    "voteAccount": k(0)?,
                    "clockSysvar": k(1)?,
                    "authority": k(2)?,
                    "newAuthority": b58(&new_authority),
                    "authorityType": authority_type,
                }),
            )
        }
        Body::AuthorizeWithSeed(args, new_authority) => {
            ix.need(3)?;
            Parsed::new(
                "authorizeWithSeed",
                json!({
                    "voteAccount": k(0)?,
                    "clockSysvar": k(1)?,
                    "authorityBaseKey": k(2)?,
                    "authorityOwner": b58(&args.owner),
                    "authoritySeed": args.seed,
                    "newAuthority": b58(&new_authority),
                    "authorityType": args.authority_type,
                }),
            )
        }
        Body::AuthorizeCheckedWithSeed(args) => {
            ix.need(4)?;
            Parsed::new(
                "authorizeCheckedWithSeed",
                json!({
                    "voteAccount": k(0)?,
                    "clockSysvar": k(1)?,
                    "authorityBaseKey": k(2)?,
                    "authorityOwner": b58(&args.owner),
                    "authoritySeed": args.seed,
                    "newAuthority": k(3)?,
                    "authorityType": args.authority_type,
                }),
            )
        }
        Body::Vote(vote) => {
            ix.need(4)?;
            Parsed::new(
                "vote",
                json!({
                    "voteAccount": k(0)?,
                    "slotHashesSysvar": k(1)?,
                    "clockSysvar": k(2)?,
                    "voteAuthority": k(3)?,
                    "vote": vote,
                }),
            )
        }
        Body::VoteSwitch(vote, hash) => {
            ix.need(4)?;
            Parsed::new(
                "voteSwitch",
                json!({
                    "voteAccount": k(0)?,
                    "slotHashesSysvar": k(1)?,
                    "clockSysvar": k(2)?,
                    "voteAuthority": k(3)?,
                    "vote": vote,
                    "hash": b58(&hash),
                }),
            )
        }
        Body::StateUpdate(kind, update, hash) => {
            ix.need(2)?;
            let mut info = super::object(json!({
                "voteAccount": k(0)?,
                "voteAuthority": k(1)?,
                "voteStateUpdate": update,
            }));
            if let Some(hash) = hash {
                info.insert("hash".into(), b58(&hash).into());
            }
            Parsed::new(kind, info.into())
        }
        Body::TowerSync(kind, tower, hash) => {
            ix.need(2)?;
            let mut info = super::object(json!({
                "voteAccount": k(0)?,
                "voteAuthority": k(1)?,
                "towerSync": tower,
            }));
            if let Some(hash) = hash {
                info.insert("hash".into(), b58(&hash).into());
            }
            Parsed::new(kind, info.into())
        }
        Body::Withdraw(lamports) => {
            ix.need(3)?;
            Parsed::new(
                "withdraw",
                json!({
                    "voteAccount": k(0)?,
                    "destination": k(1)?,
                    "withdrawAuthority": k(2)?,
                    "lamports": lamports,
                }),
            )
        }
        Body::UpdateValidatorIdentity => {
            ix.need(3)?;
            Parsed::new(
                "updateValidatorIdentity",
                json!({
                    "voteAccount": k(0)?,
                    "newValidatorIdentity": k(1)?,
                    "withdrawAuthority": k(2)?,
                }),
            )
        }
        Body::UpdateCommission(commission) => {
            ix.need(2)?;
            Parsed::new(
                "updateCommission",
                json!({
                    "voteAccount": k(0)?,
                    "withdrawAuthority": k(1)?,
                    "commission": commission,
                }),
            )
        }
        Body::AuthorizeChecked(authority_type) => {
            ix.need(4)?;
            Parsed::new(
                "authorizeChecked",
                json!({
                    "voteAccount": k(0)?,
                    "clockSysvar": k(1)?,
                    "authority": k(2)?,
                    "newAuthority": k(3)?,
                    "authorityType": authority_type,
                }),
            )
        }
    }
}

#[cfg(test)]
#[path = "tests/vote.rs"]
mod tests;
