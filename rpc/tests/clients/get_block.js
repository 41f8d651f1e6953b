#!/usr/bin/env node
// Calls a bstore RPC server with @solana/web3.js 1.x `Connection` (whose superstruct
// response validation must accept every answer) and prints what it got as JSON for the
// Rust test to check. Transactions from `getBlock` (json encoding) are re-serialized from
// web3.js's parsed Message / MessageV0 plus signatures, so the test can compare bytes.
//
// usage: get_block.js URL PLAN_JSON   (PLAN_JSON as for get_block.py)
'use strict';

const web3 = require('@solana/web3.js');
const bs58 = require('bs58');

function txBytes(tx) {
  // web3.js: { message: Message | MessageV0, signatures: string[] }
  const message = tx.message.serialize();
  const sigs = tx.signatures.map((s) => Buffer.from((bs58.default || bs58).decode(s)));
  const count = sigs.length; // < 128 in every test block: one short_vec byte
  return Buffer.concat([Buffer.from([count]), ...sigs, Buffer.from(message)]).toString('base64');
}

function describeBlock(block, details) {
  const out = {
    blockhash: block.blockhash,
    previousBlockhash: block.previousBlockhash,
    parentSlot: block.parentSlot,
    blockTime: block.blockTime,
    blockHeight: block.blockHeight === undefined ? null : block.blockHeight,
    rewards: block.rewards === undefined ? null : block.rewards.length,
  };
  if (block.transactions) {
    out.transactions = block.transactions.map((t) => {
      const d = { meta_is_none: t.meta === null, version: t.version === undefined ? null : String(t.version) };
      if (t.meta !== null) {
        d.fee = t.meta.fee;
        d.failed = t.meta.err !== null;
      }
      if (details === 'accounts') {
        d.kind = 'accounts';
        d.first_signature = t.transaction.signatures[0];
        d.payer = { signer: t.transaction.accountKeys[0].signer, writable: t.transaction.accountKeys[0].writable };
      } else {
        d.kind = 'json';
        d.first_signature = t.transaction.signatures[0];
        d.bytes_b64 = txBytes(t.transaction);
      }
      return d;
    });
  }
  if (block.signatures) out.signatures = block.signatures;
  return out;
}

async function runCase(conn, c) {
  const config = { transactionDetails: c.details };
  if (c.max_version !== null && c.max_version !== undefined) config.maxSupportedTransactionVersion = c.max_version;
  if (c.rewards !== null && c.rewards !== undefined) config.rewards = c.rewards;
  if (c.commitment) config.commitment = c.commitment;
  try {
    // web3.js 1.x serves the signatures detail level through getBlockSignatures (which
    // always asks for rewards: false); getBlock validates full, accounts and none.
    const block =
      c.details === 'signatures'
        ? await conn.getBlockSignatures(c.slot, c.commitment || undefined)
        : await conn.getBlock(c.slot, config);
    return { ok: true, block: describeBlock(block, c.details) };
  } catch (e) {
    return { ok: false, error_type: e.constructor.name, code: e.code === undefined ? null : e.code, error: e.message };
  }
}

// The history methods; web3.js validates each response with its own schema.
async function history(conn, plan) {
  const sigs = plan.signatures;
  const tx = await conn.getTransaction(sigs[0], { maxSupportedTransactionVersion: 0 });
  const parsed = await conn.getParsedTransaction(sigs[0], { maxSupportedTransactionVersion: 0 });
  const forAddress = await conn.getSignaturesForAddress(new web3.PublicKey(plan.address), { limit: 5 });
  const statuses = await conn.getSignatureStatuses(sigs, { searchTransactionHistory: true });
  return {
    tx_slot: tx.slot,
    tx_block_time: tx.blockTime,
    tx_fee: tx.meta.fee,
    tx_failed: tx.meta.err !== null,
    tx_logs: (tx.meta.logMessages || []).length,
    parsed_instructions: parsed.transaction.message.instructions.length,
    parsed_keys: parsed.transaction.message.accountKeys.length,
    for_address: forAddress.map((e) => ({ signature: e.signature, slot: e.slot, failed: e.err !== null, memo: e.memo })),
    statuses: statuses.value.map((st) =>
      st === null ? null : { slot: st.slot, failed: st.err !== null, finalized: st.confirmations === null },
    ),
  };
}

async function main() {
  const [url, planText] = process.argv.slice(2);
  const plan = JSON.parse(planText);
  const conn = new web3.Connection(url, 'finalized');
  const cases = [];
  for (const c of plan.cases) {
    if (c.encoding !== 'json') continue; // Connection.getBlock always asks for json
    cases.push(await runCase(conn, c));
  }
  const slots = {
    getSlot: await conn.getSlot(),
    getSlotConfirmed: await conn.getSlot('confirmed'),
    getBlocks: await conn.getBlocks(plan.first_slot),
    getFirstAvailableBlock: await conn.getFirstAvailableBlock(),
    getBlockTime: await conn.getBlockTime(plan.time_slot),
    getBlockHeight: await conn.getBlockHeight(),
    getVersion: (await conn.getVersion())['solana-core'],
  };
  const hist = await history(conn, plan.history);
  process.stdout.write(JSON.stringify({ cases, slots, history: hist }) + '\n');
}

main().catch((e) => {
  process.stderr.write(`${e.stack || e}\n`);
  process.exit(1);
});
