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
import sys
import threading
import time

from solders.keypair import Keypair
from solders.message import Message
from solders.transaction import Transaction

from chain import Chain
from rpc import Client, RpcError, RpcTransportError
from workload import transfer

# How long one blockhash is used before a new one is fetched (it stays valid ~60 s).
BLOCKHASH_SECONDS = 5.0


def log(line):
    print(f"ticker: {line}", file=sys.stderr, flush=True)


class Ticker:
    def __init__(self, url, payer, period=0.4):
        self.chain = Chain(Client(url), payer, log)
        self.payer = payer
        self.address = Keypair().pubkey()
        self.period = period
        self.sent = 0
        self.refused = 0
        self.stopping = threading.Event()
        self.thread = None

    def send(self, lamports, blockhash):
        """One transfer, sent without preflight and not waited for."""
        payer = self.payer.pubkey()
        message = Message.new_with_blockhash(
            [transfer(payer, self.address, lamports)], payer, blockhash
        )
        wire = bytes(Transaction([self.payer], message, blockhash))
        config = {"encoding": "base64", "skipPreflight": True}
        return self.chain.client.call("sendTransaction", [base64.b64encode(wire).decode(), config])

    def run(self):
        lamports, blockhash, fetched = 0, None, 0.0
        while not self.stopping.wait(self.period):
            try:
                if blockhash is None or time.monotonic() - fetched > BLOCKHASH_SECONDS:
                    blockhash, fetched = self.chain.blockhash(), time.monotonic()
                lamports += 1
                answer = self.send(lamports, blockhash)
            except (RpcError, RpcTransportError):
                self.refused += 1
                continue
            if "error" in answer:
                self.refused += 1
            else:
                self.sent += 1

    def __enter__(self):
        # The address made rent-exempt first, waited for until confirmed (`Chain.legacy`).
        rent = self.chain.client.result("getMinimumBalanceForRentExemption", [0])
        self.chain.legacy("funding", [transfer(self.payer.pubkey(), self.address, rent)], [])
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        if self.thread is not None:
            self.thread.join()
        self.chain.client.close()
