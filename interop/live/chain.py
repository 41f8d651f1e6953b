"""Sending the workload's transactions to a live validator and recording them.

Every transaction sent is recorded with its label, version and whether it was meant to
fail; a transaction the cluster refuses at submission (no signature lands) is recorded
under `refused` with the error, never silently dropped.
"""

import base64
import json
import time

from solders.hash import Hash
from solders.keypair import Keypair
from solders.message import Message, MessageV0, MessageV1
from solders.transaction import Transaction, VersionedTransaction

from rpc import RpcError

LEVELS = {"processed": 0, "confirmed": 1, "finalized": 2}


def load_keypair(path):
    """A keypair file in the Solana CLI's format (a JSON array of 64 bytes)."""
    with open(path) as f:
        return Keypair.from_bytes(bytes(json.load(f)))


class WorkloadError(Exception):
    """A workload step did not do what it was meant to (names the step and the cause)."""


class Chain:
    def __init__(self, client, payer, log):
        self.client = client
        self.payer = payer
        self.log = log
        self.transactions = []
        self.refused = []

    def blockhash(self):
        result = self.client.result("getLatestBlockhash", [{"commitment": "confirmed"}])
        return Hash.from_string(result["value"]["blockhash"])

    def legacy(self, label, instructions, signers, **kw):
        blockhash = self.blockhash()
        message = Message.new_with_blockhash(instructions, self.payer.pubkey(), blockhash)
        tx = Transaction([self.payer, *signers], message, blockhash)
        return self.submit(label, bytes(tx), "legacy", **kw)

    def v0(self, label, instructions, signers, tables, **kw):
        message = MessageV0.try_compile(self.payer.pubkey(), instructions, tables, self.blockhash())
        tx = VersionedTransaction(message, [self.payer, *signers])
        return self.submit(label, bytes(tx), 0, **kw)

    def v1(self, label, instructions, signers, config, **kw):
        message = MessageV1.try_compile(self.payer.pubkey(), instructions, self.blockhash(), config)
        tx = VersionedTransaction(message, [self.payer, *signers])
        return self.submit(label, bytes(tx), 1, **kw)

    def submit(self, label, wire, version, expect_error=False, may_refuse=False, timeout=120.0):
        """Sends `wire` and waits until it is confirmed; returns its signature, or None
        when the cluster refused it and `may_refuse` allows that."""
        config = {
            "encoding": "base64",
            "skipPreflight": expect_error,
            "preflightCommitment": "confirmed",
        }
        answer = self.client.call("sendTransaction", [base64.b64encode(wire).decode(), config])
        if "error" in answer:
            if may_refuse:
                self.refused.append({"label": label, "version": version, "error": answer["error"]})
                self.log(f"refused {label}: {answer['error'].get('message')}")
                return None
            raise WorkloadError(f"{label}: sendTransaction refused: {answer['error']}")
        signature = answer["result"]
        status = self.wait([signature], "confirmed", timeout)[signature]
        failed = status.get("err") is not None
        # Recorded either way: a transaction that landed is part of the ledger to compare.
        self.transactions.append(
            {"signature": signature, "label": label, "version": version, "expect_error": failed}
        )
        if failed != expect_error:
            want = "fail" if expect_error else "succeed"
            raise WorkloadError(f"{label} ({signature}) was meant to {want}: {status.get('err')}")
        self.log(
            f"{label}: {signature} slot {status.get('slot')}" + (" (failed)" if failed else "")
        )
        return signature

    def wait(self, signatures, level, timeout=120.0):
        """Polls until every signature reached `level`; returns their statuses by signature."""
        deadline = time.monotonic() + timeout
        done = {}
        while True:
            pending = [s for s in signatures if s not in done]
            for start in range(0, len(pending), 256):
                chunk = pending[start : start + 256]
                statuses = self.client.result(
                    "getSignatureStatuses", [chunk, {"searchTransactionHistory": True}]
                )["value"]
                for signature, status in zip(chunk, statuses):
                    reached = status and LEVELS.get(status.get("confirmationStatus"), -1)
                    if status and reached >= LEVELS[level]:
                        done[signature] = status
            if len(done) == len(signatures):
                return done
            if time.monotonic() > deadline:
                missing = [s for s in signatures if s not in done]
                raise WorkloadError(
                    f"{len(missing)} signatures not {level} in {timeout} s: {missing[:3]}"
                )
            time.sleep(0.1)

    def finalize_all(self, timeout=180.0):
        """Waits until every recorded transaction is finalized and notes its slot."""
        statuses = self.wait([t["signature"] for t in self.transactions], "finalized", timeout)
        for t in self.transactions:
            t["slot"] = statuses[t["signature"]]["slot"]

    def send_or_log(self, label, send):
        """Runs one optional step; a refusal or error is recorded, not raised."""
        try:
            return send()
        except (WorkloadError, RpcError, ValueError) as e:
            self.refused.append({"label": label, "error": str(e)})
            self.log(f"optional step {label} did not run: {e}")
            return None
