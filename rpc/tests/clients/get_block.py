#!/usr/bin/env python3
"""Calls a bstore RPC server with the real Python `solana` client (`solana.rpc.async_api.
AsyncClient`, responses parsed by `solders` into typed objects) and prints what it got as
JSON for the Rust test to check.

usage: get_block.py URL PLAN_JSON
PLAN_JSON: {"cases": [{"slot": N, "encoding": "json|base58|base64",
                       "details": "full|signatures|none|accounts", "rewards": bool|null,
                       "max_version": 0|null, "commitment": "confirmed|finalized|null"}],
            "first_slot": N}
            "history": {"signatures": [B58...], "address": B58}
Output: {"cases": [...one result per case...], "slots": {...slot methods...},
         "history": {...getTransaction, getSignaturesForAddress, getSignatureStatuses...}}
"""
import asyncio
import base64
import json
import sys

from solana.rpc.async_api import AsyncClient
from solana.rpc.commitment import Commitment
from solana.rpc.core import RPCException
from solders.pubkey import Pubkey
from solders.rpc.responses import GetBlockResp
from solders.signature import Signature
from solders.transaction import VersionedTransaction
from solders.transaction_status import (
    EncodedTransactionWithStatusMeta,
    TransactionDetails,
    UiAccountsList,
    UiConfirmedBlock,
    UiTransaction,
)

DETAILS = {
    "full": TransactionDetails.Full,
    "signatures": TransactionDetails.Signatures,
    "none": TransactionDetails.None_,
    "accounts": TransactionDetails.Accounts,
}


B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58decode(text: str) -> bytes:
    """Plain base58 (Bitcoin alphabet), as Solana uses it."""
    n = 0
    for ch in text:
        n = n * 58 + B58.index(ch)
    body = n.to_bytes((n.bit_length() + 7) // 8, "big") if n else b""
    zeros = len(text) - len(text.lstrip("1"))
    return b"\0" * zeros + body


def describe_tx(tx: EncodedTransactionWithStatusMeta) -> dict:
    """One transaction, from solders' typed objects."""
    out = {"meta_is_none": tx.meta is None, "version": str(tx.version) if tx.version is not None else None}
    if tx.meta is not None:
        out["fee"] = tx.meta.fee
        out["failed"] = tx.meta.err is not None
    raw = json.loads(tx.to_json())["transaction"]
    if isinstance(raw, list):
        # Binary encodings: solders' `.transaction` getter decodes *and sanitizes*, and
        # panics on a transaction that does not sanitize (Agave's test transactions call a
        # program at index 0); decode the blob with solders' bincode codec instead.
        blob, encoding = raw
        data = base64.b64decode(blob) if encoding == "base64" else b58decode(blob)
        inner = VersionedTransaction.from_bytes(data)
        out["kind"] = "binary"
        out["encoding"] = encoding
        out["bytes_b64"] = base64.b64encode(bytes(inner)).decode()
        out["first_signature"] = str(inner.signatures[0])
        return out
    inner = tx.transaction
    if isinstance(inner, UiTransaction):
        out["kind"] = "json"
        out["first_signature"] = str(inner.signatures[0])
        msg = inner.message
        out["num_account_keys"] = len(msg.account_keys)
        out["recent_blockhash"] = str(msg.recent_blockhash)
        out["num_instructions"] = len(msg.instructions)
    elif isinstance(inner, UiAccountsList):
        out["kind"] = "accounts"
        out["first_signature"] = str(inner.signatures[0])
        keys = inner.account_keys
        out["payer"] = {"signer": keys[0].signer, "writable": keys[0].writable}
    else:
        out["kind"] = type(inner).__name__
    return out


def describe_block(block: UiConfirmedBlock) -> dict:
    out = {
        "blockhash": str(block.blockhash),
        "previousBlockhash": str(block.previous_blockhash),
        "parentSlot": block.parent_slot,
        "blockTime": block.block_time,
        "blockHeight": block.block_height,
        "rewards": None if block.rewards is None else len(block.rewards),
    }
    if block.transactions is not None:
        out["transactions"] = [describe_tx(t) for t in block.transactions]
    if block.signatures is not None:
        out["signatures"] = [str(s) for s in block.signatures]
    return out


async def run_case(client: AsyncClient, case: dict) -> dict:
    try:
        resp = await client.get_block(
            case["slot"],
            encoding=case["encoding"],
            max_supported_transaction_version=case.get("max_version"),
            transaction_details=DETAILS[case["details"]],
            rewards=case.get("rewards"),
            commitment=Commitment(case["commitment"]) if case.get("commitment") else None,
        )
    except RPCException as e:
        err = e.args[0] if e.args else e
        # solders parses Solana's error codes into typed messages (e.g.
        # UnsupportedTransactionVersionMessage); `message` is the server's text.
        return {"ok": False, "error_type": type(err).__name__, "error": getattr(err, "message", str(err))}
    assert isinstance(resp, GetBlockResp), type(resp)
    return {"ok": True, "block": describe_block(resp.value)}


async def history(client: AsyncClient, plan: dict) -> dict:
    """The history methods, parsed by solders into typed objects."""
    sigs = [Signature.from_string(s) for s in plan["signatures"]]
    tx = (await client.get_transaction(sigs[0], max_supported_transaction_version=0)).value
    parsed = (
        await client.get_transaction(sigs[0], encoding="jsonParsed", max_supported_transaction_version=0)
    ).value
    for_address = (
        await client.get_signatures_for_address(Pubkey.from_string(plan["address"]), limit=5)
    ).value
    statuses = (await client.get_signature_statuses(sigs, search_transaction_history=True)).value
    return {
        "tx_slot": tx.slot,
        "tx_block_time": tx.block_time,
        "tx_fee": tx.transaction.meta.fee,
        "tx_failed": tx.transaction.meta.err is not None,
        "tx_logs": len(tx.transaction.meta.log_messages or []),
        "parsed_instructions": len(parsed.transaction.transaction.message.instructions),
        "parsed_keys": len(parsed.transaction.transaction.message.account_keys),
        "for_address": [{"signature": str(e.signature), "slot": e.slot, "failed": e.err is not None,
                         "memo": e.memo} for e in for_address],
        "statuses": [None if st is None else {"slot": st.slot, "failed": st.err is not None,
                                              "finalized": st.confirmations is None} for st in statuses],
    }


async def main() -> None:
    url, plan = sys.argv[1], json.loads(sys.argv[2])
    async with AsyncClient(url, timeout=60) as client:
        cases = [await run_case(client, c) for c in plan["cases"]]
        slots = {
            "getSlot": (await client.get_slot()).value,
            "getSlotConfirmed": (await client.get_slot(Commitment("confirmed"))).value,
            "getBlocks": list((await client.get_blocks(plan["first_slot"])).value),
            "getFirstAvailableBlock": (await client.get_first_available_block()).value,
            "getBlockTime": (await client.get_block_time(plan["time_slot"])).value,
            "getBlockHeight": (await client.get_block_height()).value,
            "getVersion": (await client.get_version()).value.solana_core,
        }
        hist = await history(client, plan["history"])
    print(json.dumps({"cases": cases, "slots": slots, "history": hist}))


if __name__ == "__main__":
    asyncio.run(main())
