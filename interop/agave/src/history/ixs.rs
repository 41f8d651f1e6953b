//! Instructions built by hand where no builder fits: memos (any bytes, UTF-8 or not)
//! and a program no parser knows; and what the scenario reads back from built ones.

use solana_instruction::{AccountMeta, Instruction};
use solana_pubkey::Pubkey;

use super::keys::Keys;
use crate::error::{Error, Result};

/// Rent-exempt lamports and size of a token account.
pub const TOKEN_ACCOUNT_LAMPORTS: u64 = 2_039_280;
pub const TOKEN_ACCOUNT_LEN: u64 = 165;

/// A memo of `program` (v1 or v3): `data` as is, `signers` as read-only signer accounts.
pub fn memo(program: Pubkey, data: &[u8], signers: &[Pubkey]) -> Instruction {
    let accounts = signers
        .iter()
        .map(|s| AccountMeta::new_readonly(*s, true))
        .collect();
    Instruction::new_with_bytes(program, data, accounts)
}

/// An instruction of a program no parser knows, naming `readonly` accounts.
pub fn unknown(keys: &Keys, readonly: &[Pubkey], data: &[u8]) -> Instruction {
    let accounts = readonly
        .iter()
        .map(|k| AccountMeta::new_readonly(*k, false))
        .collect();
    Instruction::new_with_bytes(keys.unknown_program, data, accounts)
}

/// The associated token account an `ata` create instruction names (its second account).
pub fn created_account(ix: &Instruction) -> Result<Pubkey> {
    ix.accounts
        .get(1)
        .map(|meta| meta.pubkey)
        .ok_or_else(|| Error::new("an associated-token-account create names no account"))
}
