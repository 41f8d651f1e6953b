"""Instruction builders for the programs the live workload drives, written from each
program's instruction layout (SPL Token and Token-2022, associated token accounts, memo,
stake). System, compute-budget and lookup-table instructions come from solders itself.

Layouts (little-endian throughout):
- SPL Token / Token-2022: one tag byte, then the fields; `COption<Pubkey>` is one byte
  (0 none, 1 some) followed by the 32-byte key when some.
- Token-2022 extension instructions: the extension's tag byte, a sub-instruction byte, then
  its fields.
- Stake: bincode, a u32 variant index then the fields.
"""

import struct

from solders.instruction import AccountMeta, Instruction
from solders.pubkey import Pubkey

TOKEN = Pubkey.from_string("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
TOKEN_2022 = Pubkey.from_string("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
ATA = Pubkey.from_string("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")
MEMO_V1 = Pubkey.from_string("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo")
MEMO_V3 = Pubkey.from_string("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
STAKE = Pubkey.from_string("Stake11111111111111111111111111111111111111")
STAKE_CONFIG = Pubkey.from_string("StakeConfig11111111111111111111111111111111")
SYSTEM = Pubkey.from_string("11111111111111111111111111111111")
RENT = Pubkey.from_string("SysvarRent111111111111111111111111111111111")
CLOCK = Pubkey.from_string("SysvarC1ock11111111111111111111111111111111")
STAKE_HISTORY = Pubkey.from_string("SysvarStakeHistory1111111111111111111111111")

MINT_SIZE = 82
STAKE_SIZE = 200
# Token-2022 mint with MintCloseAuthority (32 bytes) and TransferFeeConfig (108 bytes):
# the base mint padded to an account's 165 bytes, one account-type byte, then each
# extension as type u16 + length u16 + value.
MINT_2022_SIZE = 165 + 1 + (4 + 32) + (4 + 108)
EXTENSION_MEMO_TRANSFER = 8


def _w(key, signer=False):
    return AccountMeta(key, signer, True)


def _r(key, signer=False):
    return AccountMeta(key, signer, False)


def _coption(key):
    return b"\x00" if key is None else b"\x01" + bytes(key)


def initialize_mint(program, mint, decimals, authority, freeze=None):
    """InitializeMint (tag 0; reads the rent sysvar)."""
    data = bytes([0, decimals]) + bytes(authority) + _coption(freeze)
    return Instruction(program, data, [_w(mint), _r(RENT)])


def initialize_mint2(program, mint, decimals, authority, freeze=None):
    """InitializeMint2 (tag 20; no sysvar account)."""
    data = bytes([20, decimals]) + bytes(authority) + _coption(freeze)
    return Instruction(program, data, [_w(mint)])


def mint_to(program, mint, destination, authority, amount):
    """MintTo (tag 7)."""
    data = bytes([7]) + struct.pack("<Q", amount)
    return Instruction(program, data, [_w(mint), _w(destination), _r(authority, True)])


def transfer_checked(program, source, mint, destination, owner, amount, decimals):
    """TransferChecked (tag 12)."""
    data = bytes([12]) + struct.pack("<QB", amount, decimals)
    accounts = [_w(source), _r(mint), _w(destination), _r(owner, True)]
    return Instruction(program, data, accounts)


def initialize_mint_close_authority(mint, authority):
    """Token-2022 InitializeMintCloseAuthority (tag 25), before InitializeMint."""
    return Instruction(TOKEN_2022, bytes([25]) + _coption(authority), [_w(mint)])


def initialize_transfer_fee_config(mint, authority, basis_points, maximum_fee):
    """Token-2022 TransferFeeExtension (26) / InitializeTransferFeeConfig (0)."""
    data = (
        bytes([26, 0])
        + _coption(authority)
        + _coption(authority)
        + struct.pack("<HQ", basis_points, maximum_fee)
    )
    return Instruction(TOKEN_2022, data, [_w(mint)])


def transfer_checked_with_fee(source, mint, destination, owner, amount, decimals, fee):
    """Token-2022 TransferFeeExtension (26) / TransferCheckedWithFee (1)."""
    data = bytes([26, 1]) + struct.pack("<QBQ", amount, decimals, fee)
    accounts = [_w(source), _r(mint), _w(destination), _r(owner, True)]
    return Instruction(TOKEN_2022, data, accounts)


def reallocate(account, payer, owner, extension_types):
    """Token-2022 Reallocate (tag 29): room for more account extensions."""
    data = bytes([29]) + b"".join(struct.pack("<H", t) for t in extension_types)
    accounts = [_w(account), _w(payer, True), _r(SYSTEM), _r(owner, True)]
    return Instruction(TOKEN_2022, data, accounts)


def enable_required_memo_transfers(account, owner):
    """Token-2022 MemoTransferExtension (30) / Enable (0)."""
    return Instruction(TOKEN_2022, bytes([30, 0]), [_w(account), _r(owner, True)])


def associated_token_address(owner, mint, program):
    """The associated token account of `owner` for `mint` under token `program`."""
    address, _bump = Pubkey.find_program_address([bytes(owner), bytes(program), bytes(mint)], ATA)
    return address


def create_associated_token_account(payer, owner, mint, program, idempotent=False):
    """Create (empty data) or CreateIdempotent ([1]) of the associated token account."""
    address = associated_token_address(owner, mint, program)
    accounts = [_w(payer, True), _w(address), _r(owner), _r(mint), _r(SYSTEM), _r(program)]
    return Instruction(ATA, b"\x01" if idempotent else b"", accounts)


def memo(program, text, signers):
    """A memo of either program; v3 checks that each listed account signed."""
    return Instruction(program, text.encode(), [_r(s, True) for s in signers])


def stake_initialize(stake, staker, withdrawer):
    """StakeInstruction::Initialize (0): authorities, and a lockup of all zeroes."""
    lockup = struct.pack("<qQ", 0, 0) + bytes(32)
    data = struct.pack("<I", 0) + bytes(staker) + bytes(withdrawer) + lockup
    return Instruction(STAKE, data, [_w(stake), _r(RENT)])


def stake_delegate(stake, vote, staker):
    """StakeInstruction::DelegateStake (2)."""
    accounts = [
        _w(stake),
        _r(vote),
        _r(CLOCK),
        _r(STAKE_HISTORY),
        _r(STAKE_CONFIG),
        _r(staker, True),
    ]
    return Instruction(STAKE, struct.pack("<I", 2), accounts)
