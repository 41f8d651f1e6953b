//! Agave's `jsonParsed` instruction and account-key encoding (`solana-transaction-status`
//! 3.1: `parse_instruction.rs`, `parse_*.rs`, `parse_token/`, `parse_accounts.rs`),
//! rebuilt value for value over bstore's resolved keys.
//!
//! Start at [`parse_ui_instruction`]: it looks the program up in [`ids`], runs that
//! program's parser, and falls back to Agave's partially decoded form whenever the
//! program is not one Agave parses, the data does not decode, or there are too few
//! accounts. The message's `accountKeys` list is written by the rpc crate
//! (`bstore-rpc`, `encode/accounts.rs`), which calls [`parse_known`] per instruction.
//!
//! Invariants of every parser here: instruction data is hostile, so nothing panics on it,
//! no length field makes anything allocate beyond the bytes actually present (`reader.rs`),
//! and each decoding accepts exactly what Agave's decoder accepts (trailing bytes where
//! bincode allows them, exact lengths where `bytemuck`/borsh demand them).
//!
//! Key order inside objects follows `serde_json::Map` (sorted, as without
//! `preserve_order`), which is also how Agave's RPC answer is written.

mod alt;
mod ata;
pub mod ids;
mod loader;
mod reader;
mod stake;
mod system;
mod token;
mod vote;
mod vote_state;

use serde_json::{Map, Value, json};

use ids::Program;

/// Agave's `UiInstruction` for one instruction, as JSON: the parsed form
/// `{"program", "programId", "parsed", "stackHeight"}` when Agave parses it, else the
/// partially decoded form `{"programId", "accounts", "data", "stackHeight"}` (data in
/// base58). `accounts` are the instruction's account keys, resolved, in instruction order.
/// `stackHeight` is always present (`null` when unknown), as in Agave.
pub fn parse_ui_instruction(
    program_id: &[u8; 32],
    accounts: &[[u8; 32]],
    data: &[u8],
    stack_height: Option<u32>,
) -> Value {
    match parse_known(program_id, accounts, data, stack_height) {
        Some(parsed) => parsed,
        None => json!({
            "programId": b58(program_id),
            "accounts": accounts.iter().map(b58).collect::<Vec<_>>(),
            "data": bs58::encode(data).into_string(),
            "stackHeight": stack_height,
        }),
    }
}

/// The parsed form alone (`ParsedInstruction`), or `None` where Agave falls back to the
/// partially decoded form (which the block encoder writes itself).
pub fn parse_known(
    program_id: &[u8; 32],
    accounts: &[[u8; 32]],
    data: &[u8],
    stack_height: Option<u32>,
) -> Option<Value> {
    let ix = Ix { accounts, data };
    let program = Program::of(program_id)?;
    let parsed = parse(program, &ix)?;
    Some(json!({
        "program": program.name(),
        "programId": b58(program_id),
        "parsed": parsed,
        "stackHeight": stack_height,
    }))
}

/// The `"parsed"` member, or `None` when Agave falls back.
fn parse(program: Program, ix: &Ix<'_>) -> Option<Value> {
    let parsed = match program {
        // spl-memo: the data as UTF-8 text; invalid UTF-8 is not parsable.
        Program::SplMemo => return std::str::from_utf8(ix.data).ok().map(Value::from),
        Program::AddressLookupTable => alt::parse(ix)?,
        Program::SplAssociatedTokenAccount => ata::parse(ix)?,
        Program::SplToken => token::parse(ix)?,
        Program::BpfLoader => loader::parse_v2(ix)?,
        Program::BpfUpgradeableLoader => loader::parse_upgradeable(ix)?,
        Program::Stake => stake::parse(ix)?,
        Program::System => system::parse(ix)?,
        Program::Vote => vote::parse(ix)?,
    };
    let mut out = Map::new();
    out.insert("type".into(), parsed.kind.into());
    // Agave's `ParsedInstructionEnum` skips a null `info`.
    if !parsed.info.is_null() {
        out.insert("info".into(), parsed.info);
    }
    Some(Value::Object(out))
}

/// A program parser's result: Agave's `ParsedInstructionEnum` (`type` and `info`).
#[derive(Debug)]
struct Parsed {
    kind: &'static str,
    info: Value,
}

impl Parsed {
    fn new(kind: &'static str, info: Value) -> Option<Self> {
        Some(Self { kind, info })
    }
}

/// One instruction: its resolved account keys and its data.
#[derive(Debug, Clone, Copy)]
struct Ix<'a> {
    accounts: &'a [[u8; 32]],
    data: &'a [u8],
}

impl Ix<'_> {
    /// Agave's `check_num_accounts`: at least `n` accounts.
    fn need(&self, n: usize) -> Option<()> {
        (self.accounts.len() >= n).then_some(())
    }

    /// Agave's guard `accounts.iter().max() < account_keys.len()` seen from resolved keys:
    /// it fails only when there are no accounts at all.
    fn any_accounts(&self) -> Option<()> {
        self.need(1)
    }

    /// The base58 key of account `i`.
    fn key(&self, i: usize) -> Option<String> {
        self.accounts.get(i).map(b58)
    }

    /// The keys of the accounts from `from` on (empty when there are fewer).
    fn keys_from(&self, from: usize) -> Vec<String> {
        self.accounts.iter().skip(from).map(b58).collect()
    }
}

/// Agave's `parse_signers`: with more accounts than `last_nonsigner + 1`, the account at
/// `last_nonsigner` is a multisig (`multisig_name`) and the rest are its `signers`;
/// otherwise that account is the single authority (`owner_name`).
fn signers(
    map: &mut Map<String, Value>,
    accounts: &[[u8; 32]],
    last_nonsigner: usize,
    owner_name: &str,
    multisig_name: &str,
) -> Option<()> {
    let authority = b58(accounts.get(last_nonsigner)?);
    if accounts.len() > last_nonsigner + 1 {
        let rest = accounts.get(last_nonsigner + 1..).unwrap_or_default();
        map.insert(multisig_name.into(), authority.into());
        map.insert(
            "signers".into(),
            rest.iter().map(b58).collect::<Vec<_>>().into(),
        );
    } else {
        map.insert(owner_name.into(), authority.into());
    }
    Some(())
}

/// The object inside a `json!({...})` value (always an object by construction).
fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A 32-byte key (or hash) in base58, as Agave's `Pubkey`/`Hash` `to_string`.
fn b58(key: &[u8; 32]) -> String {
    bs58::encode(key).into_string()
}

/// An SPL "optional non-zero" key (`OptionalNonZeroPubkey`, `MaybeNull`): all zeros is
/// `None`.
fn nonzero_key(key: &[u8; 32]) -> Option<String> {
    (key != &[0u8; 32]).then(|| b58(key))
}

#[cfg(test)]
#[path = "tests/mod.rs"]
mod tests;
