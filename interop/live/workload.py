#!/usr/bin/env python3
"""Drives a live validator with a varied set of transactions and records them.

usage: workload.py --rpc URL --payer DIR/payer.json --out workload.json [--wait-epochs N]

Steps: system transfers; failing transactions that land (more lamports than the balance,
a token transfer with the wrong decimals, both with skipPreflight); memo v1 and v3;
compute-budget limit + price; SPL Token (mint, associated accounts, mint_to,
transfer_checked); Token-2022 with mint-close-authority and transfer-fee extensions
(transfer_checked, transfer_checked_with_fee) and required memos on an account; an address
lookup table (create, extend, wait for activation) used by v0 transactions; a stake account
delegated to the validator's vote account, then a wait for epoch rewards; a v1 transaction
(recorded as refused when the cluster does not take it). Every transaction is waited for
until finalized; signatures and the addresses they touch go to `--out` as JSON.
"""

import argparse
import json
import sys
import time

import solders.system_program as system
from solders.address_lookup_table_account import AddressLookupTableAccount
from solders.compute_budget import set_compute_unit_limit, set_compute_unit_price
from solders.keypair import Keypair
from solders.message import TransactionConfig
from solders.pubkey import Pubkey

import programs as p
from chain import Chain, WorkloadError, load_keypair
from rpc import Client

SOL = 1_000_000_000
DECIMALS = 6


def log(line):
    print(f"workload: {line}", file=sys.stderr, flush=True)


def transfer(source, destination, lamports):
    return system.transfer(
        system.TransferParams(from_pubkey=source, to_pubkey=destination, lamports=lamports)
    )


def create_account(chain, new, space, owner):
    lamports = chain.client.result("getMinimumBalanceForRentExemption", [space])
    return system.create_account(
        system.CreateAccountParams(
            from_pubkey=chain.payer.pubkey(),
            to_pubkey=new.pubkey(),
            lamports=lamports,
            space=space,
            owner=owner,
        )
    )


def system_steps(chain, a, b, c):
    payer = chain.payer.pubkey()
    chain.legacy("fund a", [transfer(payer, a.pubkey(), 50 * SOL)], [])
    chain.legacy(
        "fund b and c",
        [transfer(payer, b.pubkey(), SOL), transfer(payer, c.pubkey(), SOL // 2)],
        [],
    )
    chain.legacy("a pays b", [transfer(a.pubkey(), b.pubkey(), 12_345)], [a])
    # Lands (skipPreflight) and fails: b holds about 1 SOL.
    chain.legacy(
        "b overdraws",
        [transfer(b.pubkey(), a.pubkey(), 5 * SOL)],
        [b],
        expect_error=True,
    )


def memo_steps(chain, a):
    payer = chain.payer.pubkey()
    chain.legacy("memo v1", [p.memo(p.MEMO_V1, "bstore live: memo v1", [])], [])
    chain.legacy(
        "memo v3 with transfer",
        [
            p.memo(p.MEMO_V3, "bstore live: memo v3 \u2713", [payer]),
            transfer(payer, a.pubkey(), 777),
        ],
        [],
    )
    chain.legacy(
        "compute budget",
        [
            set_compute_unit_limit(50_000),
            set_compute_unit_price(12_000),
            transfer(payer, a.pubkey(), 1_000),
            p.memo(p.MEMO_V3, "priced", [payer]),
        ],
        [],
    )


def token_steps(chain, a, b, addresses):
    """Classic SPL Token: mint, two associated accounts, mint_to, transfer_checked."""
    payer = chain.payer.pubkey()
    mint = Keypair()
    chain.legacy(
        "token mint",
        [
            create_account(chain, mint, p.MINT_SIZE, p.TOKEN),
            p.initialize_mint(p.TOKEN, mint.pubkey(), DECIMALS, payer),
        ],
        [mint],
    )
    ata_a = p.associated_token_address(a.pubkey(), mint.pubkey(), p.TOKEN)
    ata_b = p.associated_token_address(b.pubkey(), mint.pubkey(), p.TOKEN)
    chain.legacy(
        "token accounts",
        [
            p.create_associated_token_account(payer, a.pubkey(), mint.pubkey(), p.TOKEN),
            p.create_associated_token_account(payer, b.pubkey(), mint.pubkey(), p.TOKEN, True),
        ],
        [],
    )
    chain.legacy("token mint_to", [p.mint_to(p.TOKEN, mint.pubkey(), ata_a, payer, 10**9)], [])
    chain.legacy(
        "token transfer_checked",
        [p.transfer_checked(p.TOKEN, ata_a, mint.pubkey(), ata_b, a.pubkey(), 250_000, DECIMALS)],
        [a],
    )
    chain.legacy(
        "token wrong decimals",
        [p.transfer_checked(p.TOKEN, ata_a, mint.pubkey(), ata_b, a.pubkey(), 1, DECIMALS + 1)],
        [a],
        expect_error=True,
    )
    addresses.update(token_mint=mint.pubkey(), token_ata_a=ata_a, token_ata_b=ata_b)
    return mint.pubkey(), ata_a, ata_b


def token_2022_steps(chain, a, b, addresses):
    """Token-2022: a mint with close authority and transfer fee; required memos on b."""
    payer = chain.payer.pubkey()
    mint = Keypair()
    chain.legacy(
        "token-2022 mint",
        [
            create_account(chain, mint, p.MINT_2022_SIZE, p.TOKEN_2022),
            p.initialize_mint_close_authority(mint.pubkey(), payer),
            p.initialize_transfer_fee_config(mint.pubkey(), payer, 50, 5_000),
            p.initialize_mint2(p.TOKEN_2022, mint.pubkey(), DECIMALS, payer, payer),
        ],
        [mint],
    )
    ata_a = p.associated_token_address(a.pubkey(), mint.pubkey(), p.TOKEN_2022)
    ata_b = p.associated_token_address(b.pubkey(), mint.pubkey(), p.TOKEN_2022)
    chain.legacy(
        "token-2022 accounts",
        [
            p.create_associated_token_account(payer, a.pubkey(), mint.pubkey(), p.TOKEN_2022),
            p.create_associated_token_account(payer, b.pubkey(), mint.pubkey(), p.TOKEN_2022),
        ],
        [],
    )
    chain.legacy(
        "token-2022 mint_to",
        [p.mint_to(p.TOKEN_2022, mint.pubkey(), ata_a, payer, 10**9)],
        [],
    )
    chain.legacy(
        "token-2022 transfer_checked",
        [
            p.transfer_checked(
                p.TOKEN_2022, ata_a, mint.pubkey(), ata_b, a.pubkey(), 100_000, DECIMALS
            )
        ],
        [a],
    )
    chain.legacy(
        "token-2022 transfer_checked_with_fee",
        [
            p.transfer_checked_with_fee(
                ata_a, mint.pubkey(), ata_b, a.pubkey(), 100_000, DECIMALS, 500
            )
        ],
        [a],
    )
    chain.legacy(
        "token-2022 require memos on b",
        [
            p.reallocate(ata_b, payer, b.pubkey(), [p.EXTENSION_MEMO_TRANSFER]),
            p.enable_required_memo_transfers(ata_b, b.pubkey()),
        ],
        [b],
    )
    chain.legacy(
        "token-2022 transfer with memo",
        [
            p.memo(p.MEMO_V3, "required memo", [a.pubkey()]),
            p.transfer_checked(
                p.TOKEN_2022, ata_a, mint.pubkey(), ata_b, a.pubkey(), 4_000, DECIMALS
            ),
        ],
        [a],
    )
    addresses.update(token22_mint=mint.pubkey(), token22_ata_a=ata_a, token22_ata_b=ata_b)


def wait_for_slot_after(chain, slot):
    while chain.client.result("getSlot", [{"commitment": "confirmed"}]) <= slot:
        time.sleep(0.1)


def lookup_table_steps(chain, a, b, c, token, addresses):
    """A lookup table holding a, b, c and the token accounts, then v0 transactions using it."""
    payer = chain.payer.pubkey()
    mint, ata_a, ata_b = token
    # The slot must be in the SlotHashes of the bank that runs the transaction: a block
    # strictly below the finalized slot (with Alpenglow the finalized slot is often the
    # newest one, not yet in any bank's SlotHashes).
    finalized = chain.client.result("getSlot", [{"commitment": "finalized"}])
    below = chain.client.result("getBlocks", [max(finalized - 16, 0), max(finalized - 1, 0)])
    if not below:
        raise WorkloadError(f"lookup table: no block below the finalized slot {finalized}")
    recent = below[-1]
    create, table = system.create_lookup_table(
        system.CreateLookupTableParams(
            authority_address=payer, payer_address=payer, recent_slot=recent
        )
    )
    chain.legacy("lookup table create", [create], [])
    held = [a.pubkey(), b.pubkey(), c.pubkey(), mint, ata_a, ata_b]
    extend = system.extend_lookup_table(
        system.ExtendLookupTableParams(
            payer_address=payer,
            lookup_table_address=table,
            authority_address=payer,
            new_addresses=held,
        )
    )
    signature = chain.legacy("lookup table extend", [extend], [])
    extended_at = chain.wait([signature], "confirmed")[signature]["slot"]
    # Addresses added in slot N are usable from slot N + 1 on.
    wait_for_slot_after(chain, extended_at + 1)
    tables = [AddressLookupTableAccount(key=table, addresses=held)]
    chain.v0(
        "v0 with lookups",
        [
            transfer(payer, a.pubkey(), 1_001),
            transfer(payer, b.pubkey(), 1_002),
            transfer(payer, c.pubkey(), 1_003),
            p.transfer_checked(p.TOKEN, ata_a, mint, ata_b, a.pubkey(), 3_000, DECIMALS),
            p.memo(p.MEMO_V1, "v0 through a lookup table", []),
        ],
        [a],
        tables,
    )
    chain.v0("v0 without lookups", [transfer(payer, c.pubkey(), 2_002)], [], [])
    chain.v0(
        "v0 failing",
        [transfer(c.pubkey(), a.pubkey(), 40 * SOL)],
        [c],
        tables,
        expect_error=True,
    )
    addresses.update(lookup_table=table)


def stake_steps(chain, addresses):
    """Creates and delegates a stake account; returns the epoch it was delegated in."""
    accounts = chain.client.result("getVoteAccounts", [{"commitment": "confirmed"}])
    votes = accounts["current"] + accounts["delinquent"]
    if not votes:
        raise WorkloadError("stake: getVoteAccounts lists no vote account")
    vote = Pubkey.from_string(votes[0]["votePubkey"])
    payer = chain.payer.pubkey()
    stake = Keypair()
    create = create_account(chain, stake, p.STAKE_SIZE, p.STAKE)
    fund = transfer(payer, stake.pubkey(), 1_000 * SOL)
    instructions = [
        create,
        fund,
        p.stake_initialize(stake.pubkey(), payer, payer),
        p.stake_delegate(stake.pubkey(), vote, payer),
    ]
    # The stake program refuses every instruction while epoch rewards are being paid out
    # (StakeError::EpochRewardsActive, custom 16), the first slots of each epoch: send in
    # the middle of an epoch, and once more if it still lands in a payout.
    for attempt in range(3):
        wait_mid_epoch(chain)
        try:
            chain.legacy("stake create and delegate", instructions, [stake])
            break
        except WorkloadError as e:
            if "'Custom': 16" not in str(e) or attempt == 2:
                raise
            log(f"stake refused during the epoch rewards payout, again: {e}")
    addresses.update(stake=stake.pubkey())
    return chain.client.result("getEpochInfo", [{"commitment": "confirmed"}])["epoch"], vote


def wait_mid_epoch(chain):
    """Waits until the confirmed slot is past the first quarter of its epoch (and more than
    a quarter from its end)."""
    while True:
        info = chain.client.result("getEpochInfo", [{"commitment": "confirmed"}])
        quarter = max(info["slotsInEpoch"] // 4, 1)
        if quarter <= info["slotIndex"] < info["slotsInEpoch"] - quarter:
            return
        time.sleep(0.2)


def wait_epochs(chain, start, count):
    target = start + count
    log(f"waiting for epoch {target} (delegated in {start}) for epoch rewards")
    while True:
        epoch = chain.client.result("getEpochInfo", [{"commitment": "finalized"}])["epoch"]
        if epoch >= target:
            return
        time.sleep(1.0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    parser.add_argument("--rpc", required=True, help="the validator's RPC URL")
    parser.add_argument("--payer", required=True, help="payer keypair (Solana CLI JSON)")
    parser.add_argument("--out", required=True, help="where to write the record (JSON)")
    parser.add_argument(
        "--wait-epochs", type=int, default=3, help="epochs to wait after the stake delegation"
    )
    args = parser.parse_args()
    payer = load_keypair(args.payer)
    client = Client(args.rpc)
    chain = Chain(client, payer, log)
    a, b, c = Keypair(), Keypair(), Keypair()
    addresses = {"payer": payer.pubkey(), "a": a.pubkey(), "b": b.pubkey(), "c": c.pubkey()}
    system_steps(chain, a, b, c)
    memo_steps(chain, a)
    token = token_steps(chain, a, b, addresses)
    token_2022_steps(chain, a, b, addresses)
    lookup_table_steps(chain, a, b, c, token, addresses)
    delegated_epoch, vote = stake_steps(chain, addresses)
    # An unset loaded-accounts-data limit is 0 in a v1 message, which no transaction fits.
    v1_config = TransactionConfig(
        priority_fee=5_000, compute_unit_limit=40_000, loaded_accounts_data_size_limit=1 << 20
    )
    # Refused at submission, or taken and never executed: either way recorded, not fatal.
    chain.send_or_log(
        "v1 transfer",
        lambda: chain.v1(
            "v1 transfer",
            [transfer(payer.pubkey(), c.pubkey(), 4_242)],
            [],
            v1_config,
            may_refuse=True,
            timeout=30.0,
        ),
    )
    wait_epochs(chain, delegated_epoch, args.wait_epochs)
    log(f"waiting for {len(chain.transactions)} transactions to be finalized")
    chain.finalize_all()
    programs = {
        "memo_v1": p.MEMO_V1,
        "memo_v3": p.MEMO_V3,
        "token": p.TOKEN,
        "token_2022": p.TOKEN_2022,
        "ata": p.ATA,
        "stake": p.STAKE,
    }
    addresses.update(programs)
    record = {
        "rpc_url": args.rpc,
        "transactions": chain.transactions,
        "refused": chain.refused,
        "addresses": {k: str(v) for k, v in addresses.items()},
        # Written to every slot by votes: their history moves while the comparison runs.
        "excluded_addresses": {"vote": str(vote)},
        "delegated_epoch": delegated_epoch,
    }
    with open(args.out, "w") as f:
        json.dump(record, f, indent=1)
    log(
        f"{len(chain.transactions)} transactions, {len(chain.refused)} refused; record in {args.out}"
    )


if __name__ == "__main__":
    try:
        main()
    except WorkloadError as e:
        log(f"error: {e}")
        sys.exit(1)
