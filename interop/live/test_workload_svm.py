"""Runs the whole workload against LiteSVM (solders' in-process runtime with the SPL Token,
Token-2022, ATA, memo, stake and lookup-table programs) behind a small JSON-RPC front, so
every instruction the workload builds is executed by the real programs before a validator
is ever started:
    cd interop/live && python3 -m unittest test_workload_svm

The front answers only what workload.py asks; each accepted transaction and each getSlot
is one new slot (everything is finalized at once), and 32 slots make an epoch. The vote account the stake is delegated to
is made by the vote program itself at start.
"""

import base64
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import solders.system_program as system
from solders.account import Account
from solders.hash import Hash
from solders.instruction import AccountMeta, Instruction
from solders.keypair import Keypair
from solders.litesvm import LiteSVM
from solders.message import Message
from solders.pubkey import Pubkey
from solders.transaction import Transaction, VersionedTransaction

import programs as p
from test_live import Stub

VOTE = Pubkey.from_string("Vote111111111111111111111111111111111111111")
VOTE_STATE_SIZE = 3762
SOL = 1_000_000_000


class SvmFront:
    def __init__(self, payer):
        self.svm = LiteSVM()
        self.svm.set_account(payer.pubkey(), Account(1_000_000 * SOL, b"", p.SYSTEM, False, 0))
        self.slot = self.svm.get_clock().slot
        self.statuses = {}
        self.lock = threading.Lock()
        self.vote = self.make_vote_account(payer)

    def make_vote_account(self, payer):
        node, vote = Keypair(), Keypair()
        space = VOTE_STATE_SIZE
        create = system.create_account(
            system.CreateAccountParams(
                from_pubkey=payer.pubkey(),
                to_pubkey=vote.pubkey(),
                lamports=self.svm.minimum_balance_for_rent_exemption(space),
                space=space,
                owner=VOTE,
            )
        )
        # VoteInstruction::InitializeAccount (0): node, authorized voter, withdrawer, commission.
        data = (
            (0).to_bytes(4, "little")
            + bytes(node.pubkey())
            + bytes(node.pubkey())
            + bytes(node.pubkey())
            + b"\x0a"
        )
        init = Instruction(
            VOTE,
            data,
            [
                AccountMeta(vote.pubkey(), False, True),
                AccountMeta(p.RENT, False, False),
                AccountMeta(p.CLOCK, False, False),
                AccountMeta(node.pubkey(), True, False),
            ],
        )
        blockhash = self.svm.latest_blockhash()
        tx = Transaction(
            [payer, vote, node],
            Message.new_with_blockhash([create, init], payer.pubkey(), blockhash),
            blockhash,
        )
        result = self.svm.send_transaction(tx)
        if not hasattr(result, "signature") or "Failed" in type(result).__name__:
            raise AssertionError(f"vote account not made: {result}")
        return vote.pubkey()

    def advance(self):
        self.slot += 1
        self.svm.warp_to_slot(self.slot)
        hashes = [(s, Hash.new_unique()) for s in range(self.slot, max(self.slot - 100, 0), -1)]
        self.svm.set_slot_hashes(hashes)
        self.svm.expire_blockhash()

    def answer(self, method, params):
        with self.lock:
            return self._answer(method, params or [])

    def _answer(self, method, params):
        context = {"slot": self.slot}
        if method == "getLatestBlockhash":
            return {
                "result": {
                    "context": context,
                    "value": {
                        "blockhash": str(self.svm.latest_blockhash()),
                        "lastValidBlockHeight": 0,
                    },
                }
            }
        if method == "getMinimumBalanceForRentExemption":
            return {"result": self.svm.minimum_balance_for_rent_exemption(params[0])}
        if method == "getSlot":
            # Time passes for whoever waits for a later slot.
            self.advance()
            return {"result": self.slot - 1}
        if method == "getBlocks":
            return {"result": list(range(params[0], min(params[1], self.slot) + 1))}
        if method == "getEpochInfo":
            info = {"epoch": self.slot // 32, "slotIndex": self.slot % 32, "slotsInEpoch": 32}
            self.advance()
            return {"result": info}
        if method == "getVoteAccounts":
            return {"result": {"current": [{"votePubkey": str(self.vote)}], "delinquent": []}}
        if method == "getSignatureStatuses":
            return {
                "result": {"context": context, "value": [self.statuses.get(s) for s in params[0]]}
            }
        if method == "sendTransaction":
            return self.send(params)
        return {"error": {"code": -32601, "message": f"Method not found: {method}"}}

    def send(self, params):
        tx = VersionedTransaction.from_bytes(base64.b64decode(params[0]))
        if tx.version() not in (0,) and str(tx.version()) != "Legacy.Legacy":
            return {"error": {"code": -32602, "message": f"unsupported version {tx.version()}"}}
        if not params[1].get("skipPreflight"):
            simulated = self.svm.simulate_transaction(tx)
            if "Failed" in type(simulated).__name__:
                return {
                    "error": {
                        "code": -32002,
                        "message": f"preflight failed: {simulated.err()}",
                        "data": {"logs": simulated.meta().logs},
                    }
                }
        result = self.svm.send_transaction(tx)
        failed = "Failed" in type(result).__name__
        signature = str(tx.signatures[0])
        err = str(result.err()) if failed else None
        if (
            failed
            and result.meta().compute_units_consumed == 0
            and not params[1].get("skipPreflight")
        ):
            return {"error": {"code": -32002, "message": err}}
        self.statuses[signature] = {
            "slot": self.slot,
            "confirmations": None,
            "err": err,
            "confirmationStatus": "finalized",
        }
        self.advance()
        return {"result": signature}


class WorkloadOnSvm(unittest.TestCase):
    def test_every_step_runs(self):
        payer = Keypair()
        front = SvmFront(payer)
        stub = Stub(front.answer)
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            payer_path = os.path.join(tmp, "payer.json")
            with open(payer_path, "w") as f:
                json.dump(list(bytes(payer)), f)
            out = os.path.join(tmp, "record.json")
            try:
                run = subprocess.run(
                    [
                        sys.executable,
                        os.path.join(here, "workload.py"),
                        "--rpc",
                        stub.url,
                        "--payer",
                        payer_path,
                        "--out",
                        out,
                        "--wait-epochs",
                        "0",
                    ],
                    capture_output=True,
                    text=True,
                    timeout=120,
                )
            finally:
                stub.close()
            self.assertEqual(run.returncode, 0, run.stderr[-3000:])
            with open(out) as f:
                record = json.load(f)
        labels = [t["label"] for t in record["transactions"]]
        failed = sorted(t["label"] for t in record["transactions"] if t["expect_error"])
        self.assertEqual(failed, ["b overdraws", "token wrong decimals", "v0 failing"])
        for label in [
            "token-2022 transfer with memo",
            "v0 with lookups",
            "stake create and delegate",
        ]:
            self.assertIn(label, labels)
        self.assertEqual(len(set(record["addresses"].values())), len(record["addresses"]))


if __name__ == "__main__":
    unittest.main()
