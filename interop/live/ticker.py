"""An address that gains a new entry every few slots, made by sending it transfers.

compare.py checks bstore's kept `getSignaturesForAddress` answers on an address whose
newest entries change as roots advance. The validator's vote account is such an address
while votes are transactions; with Alpenglow they are not, and no address moves on its
own. A `Ticker` then funds a new address (rent-exempt, waited for until confirmed) and,
from its own thread and connection, sends it a transfer from the payer every `period`
seconds until stopped, each with its own amount (1, 2, 3 ... lamports), so no two
transactions share a signature under one blockhash.
"""

import base64
import threading
import time

import solders.system_program as system
from solders.hash import Hash
from solders.keypair import Keypair
from solders.message import Message
from solders.transaction import Transaction

from rpc import Client, RpcError, RpcTransportError

# How long one blockhash is used before a new one is fetched (it stays valid ~60 s).
BLOCKHASH_SECONDS = 5.0


def transfer(payer, to, lamports):
    return system.transfer(
        system.TransferParams(from_pubkey=payer.pubkey(), to_pubkey=to, lamports=lamports)
    )


class Ticker:
    def __init__(self, url, payer, period=0.4, confirm_seconds=60.0):
        self.client = Client(url)
        self.payer = payer
        self.address = Keypair().pubkey()
        self.period = period
        self.confirm_seconds = confirm_seconds
        self.sent = 0
        self.refused = 0
        self.stopping = threading.Event()
        self.thread = None

    def blockhash(self):
        result = self.client.result("getLatestBlockhash", [{"commitment": "confirmed"}])
        return Hash.from_string(result["value"]["blockhash"])

    def send(self, lamports, blockhash, skip_preflight):
        message = Message.new_with_blockhash(
            [transfer(self.payer, self.address, lamports)], self.payer.pubkey(), blockhash
        )
        wire = bytes(Transaction([self.payer], message, blockhash))
        config = {"encoding": "base64", "skipPreflight": skip_preflight}
        return self.client.call("sendTransaction", [base64.b64encode(wire).decode(), config])

    def fund(self):
        """Makes the address rent-exempt and waits until that is confirmed."""
        rent = self.client.result("getMinimumBalanceForRentExemption", [0])
        answer = self.send(rent, self.blockhash(), False)
        if "error" in answer:
            raise RpcError("sendTransaction", ["ticker funding"], answer["error"])
        signature = answer["result"]
        deadline = time.monotonic() + self.confirm_seconds
        while time.monotonic() < deadline:
            status = self.client.result("getSignatureStatuses", [[signature]])["value"][0]
            if status and status.get("confirmationStatus") in ("confirmed", "finalized"):
                if status.get("err") is not None:
                    raise RpcError("sendTransaction", ["ticker funding"], status["err"])
                return
            time.sleep(0.1)
        raise RpcError("getSignatureStatuses", [signature], "not confirmed in time")

    def run(self):
        lamports, blockhash, fetched = 0, None, 0.0
        while not self.stopping.wait(self.period):
            try:
                if blockhash is None or time.monotonic() - fetched > BLOCKHASH_SECONDS:
                    blockhash, fetched = self.blockhash(), time.monotonic()
                lamports += 1
                answer = self.send(lamports, blockhash, True)
            except (RpcError, RpcTransportError):
                self.refused += 1
                continue
            if "error" in answer:
                self.refused += 1
            else:
                self.sent += 1

    def __enter__(self):
        self.fund()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        if self.thread is not None:
            self.thread.join()
        self.client.close()
