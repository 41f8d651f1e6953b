//! SPL Token and Token-2022 (`parse_token.rs`, `parse_token/extension/`): both programs
//! are parsed with Token-2022's instruction set, as in Agave.
//!
//! The data is tried as a `TokenInstruction` (a one-byte tag, then the `pack` layout:
//! little-endian integers, 32-byte keys, `COption` keys as a 0/1 byte then the key,
//! trailing bytes ignored), then as a token-group instruction, then as a token-metadata
//! instruction (8-byte discriminators). The first decoding that succeeds decides: if its
//! parse then fails (too few accounts, a bad extension payload) the instruction is not
//! parsable, with no further attempt.

mod amount;
mod classic;
mod confidential;
mod confidential_fee;
mod confidential_mint_burn;
mod extensions;
mod interface;
mod pointers;
mod transfer_fee;

use super::reader::Reader;
use super::{Ix, Parsed};

pub(super) fn parse(ix: &Ix<'_>) -> Option<Parsed> {
    ix.any_accounts()?;
    if let Some(token) = TokenIx::unpack(ix.data) {
        return match token {
            TokenIx::Classic(classic) => classic::parse(classic, ix),
            TokenIx::Extension(tag, rest) => parse_extension(tag, rest, ix),
        };
    }
    if let Some(group) = interface::unpack_group(ix.data) {
        return interface::parse_group(group, ix);
    }
    let metadata = interface::unpack_metadata(ix.data)?;
    interface::parse_metadata(metadata, ix)
}

/// A decoded `TokenInstruction`: the classic instructions with their fields, or an
/// extension tag with the bytes after it (decoded by the extension's own parser).
enum TokenIx<'a> {
    Classic(classic::Classic<'a>),
    Extension(u8, &'a [u8]),
}

impl<'a> TokenIx<'a> {
    fn unpack(data: &'a [u8]) -> Option<Self> {
        let (&tag, rest) = data.split_first()?;
        match tag {
            26..=28 | 30 | 33 | 34 | 36 | 37 | 39..=44 => Some(Self::Extension(tag, rest)),
            _ => classic::Classic::unpack(tag, &mut Reader::new(rest)).map(Self::Classic),
        }
    }
}

/// The extension instructions that carry their own sub-instruction in `rest`.
fn parse_extension(tag: u8, rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    match tag {
        26 => transfer_fee::parse(rest, ix),
        27 => confidential::parse(rest, ix),
        // Agave wants more than two bytes of data here, then exactly two after the tag.
        28 => extensions::default_account_state(rest, ix),
        30 => extensions::memo_transfer(rest, ix),
        33 => extensions::interest_bearing(rest, ix),
        34 => extensions::cpi_guard(rest, ix),
        36 => pointers::transfer_hook(rest, ix),
        37 => confidential_fee::parse(rest, ix),
        39 => pointers::pointer(pointers::METADATA, rest, ix),
        40 => pointers::pointer(pointers::GROUP, rest, ix),
        41 => pointers::pointer(pointers::GROUP_MEMBER, rest, ix),
        42 => confidential_mint_burn::parse(rest, ix),
        43 => extensions::scaled_ui_amount(rest, ix),
        _ => extensions::pausable(rest, ix),
    }
}

/// `decode_instruction_data`: the sub-instruction's payload after its type byte, which
/// must be exactly `N` bytes (`bytemuck` of a packed struct).
fn exact<const N: usize>(rest: &[u8]) -> Option<[u8; N]> {
    rest.get(1..)?.try_into().ok()
}

#[cfg(test)]
#[path = "../tests/token.rs"]
mod tests;
