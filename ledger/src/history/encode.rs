//! The writing side of `status.rs` / `rewards.rs` / `tx_error.rs`: Agave's protobuf and
//! bincode forms of a transaction status, rewards and a transaction error, byte for byte
//! as prost and bincode write them (proto3: default scalars and empty lists are left out,
//! packed repeated integers). bstore never writes history into a validator's ledger; this
//! serves synthetic ledgers (`synth`), tests and tools.

use super::rewards::{Reward, RewardType, SlotRewards};
use super::status::{InnerInstruction, InnerInstructions, StatusMeta, TokenBalance};
use super::tx_error::{IX_UNIT, IxError, TX_UNIT, TxError};

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn tag(out: &mut Vec<u8>, field: u32, wire: u8) {
    varint(out, (u64::from(field) << 3) | u64::from(wire));
}

fn put_varint(out: &mut Vec<u8>, field: u32, v: u64) {
    if v != 0 {
        tag(out, field, 0);
        varint(out, v);
    }
}

/// An `optional` scalar: written whenever present, zero included.
fn put_optional(out: &mut Vec<u8>, field: u32, v: Option<u64>) {
    if let Some(v) = v {
        tag(out, field, 0);
        varint(out, v);
    }
}

fn put_bytes(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    tag(out, field, 2);
    varint(out, bytes.len() as u64);
    out.extend_from_slice(bytes);
}

fn put_nonempty(out: &mut Vec<u8>, field: u32, bytes: &[u8]) {
    if !bytes.is_empty() {
        put_bytes(out, field, bytes);
    }
}

fn put_packed(out: &mut Vec<u8>, field: u32, values: &[u64]) {
    if values.is_empty() {
        return;
    }
    let mut run = Vec::with_capacity(values.len() * 2);
    for &v in values {
        varint(&mut run, v);
    }
    put_bytes(out, field, &run);
}

impl TxError {
    /// The bincode form (variant index u32 LE, then the fields).
    pub fn encode(&self) -> Vec<u8> {
        let index = |table: &[Option<&str>], name: &str| {
            table
                .iter()
                .position(|n| *n == Some(name))
                .unwrap_or_default() as u32
        };
        let mut out = Vec::with_capacity(13);
        match *self {
            TxError::Unit(name) => out.extend_from_slice(&index(&TX_UNIT, name).to_le_bytes()),
            TxError::Instruction { index: ix, error } => {
                out.extend_from_slice(&8u32.to_le_bytes());
                out.push(ix);
                match error {
                    IxError::Unit(name) => {
                        out.extend_from_slice(&index(&IX_UNIT, name).to_le_bytes())
                    }
                    IxError::Custom(code) => {
                        out.extend_from_slice(&25u32.to_le_bytes());
                        out.extend_from_slice(&code.to_le_bytes());
                    }
                }
            }
            TxError::DuplicateInstruction(i) => {
                out.extend_from_slice(&30u32.to_le_bytes());
                out.push(i);
            }
            TxError::InsufficientFundsForRent { account_index } => {
                out.extend_from_slice(&31u32.to_le_bytes());
                out.push(account_index);
            }
            TxError::ProgramExecutionTemporarilyRestricted { account_index } => {
                out.extend_from_slice(&35u32.to_le_bytes());
                out.push(account_index);
            }
        }
        out
    }
}

fn reward_message(r: &Reward<'_>) -> Vec<u8> {
    let mut m = Vec::with_capacity(r.pubkey.len() + 32);
    put_nonempty(&mut m, 1, r.pubkey.as_bytes());
    put_varint(&mut m, 2, r.lamports as u64);
    put_varint(&mut m, 3, r.post_balance);
    put_varint(&mut m, 4, r.reward_type.map_or(0, RewardType::to_wire));
    if let Some(c) = r.commission {
        put_bytes(&mut m, 5, c.to_string().as_bytes());
    }
    if let Some(bps) = r.commission_bps {
        put_bytes(&mut m, 6, bps.to_string().as_bytes());
    }
    m
}

impl SlotRewards<'_> {
    /// The `rewards` column value.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::new();
        for r in &self.rewards {
            put_bytes(&mut out, 1, &reward_message(r));
        }
        if let Some(n) = self.num_partitions {
            let mut m = Vec::new();
            put_varint(&mut m, 1, n);
            put_bytes(&mut out, 2, &m);
        }
        out
    }
}

fn inner_message(inner: &InnerInstructions<'_>) -> Vec<u8> {
    let mut m = Vec::new();
    put_varint(&mut m, 1, u64::from(inner.index));
    for ix in &inner.instructions {
        put_bytes(&mut m, 2, &instruction_message(ix));
    }
    m
}

fn instruction_message(ix: &InnerInstruction<'_>) -> Vec<u8> {
    let mut m = Vec::with_capacity(ix.accounts.len() + ix.data.len() + 12);
    put_varint(&mut m, 1, u64::from(ix.program_id_index));
    put_nonempty(&mut m, 2, ix.accounts);
    put_nonempty(&mut m, 3, ix.data);
    put_optional(&mut m, 4, ix.stack_height.map(u64::from));
    m
}

fn token_balance_message(b: &TokenBalance<'_>) -> Vec<u8> {
    let mut amount = Vec::new();
    let ui = b.ui_amount.unwrap_or_default();
    if ui != 0.0 {
        tag(&mut amount, 1, 1);
        amount.extend_from_slice(&ui.to_bits().to_le_bytes());
    }
    put_varint(&mut amount, 2, u64::from(b.decimals));
    put_nonempty(&mut amount, 3, b.amount.as_bytes());
    put_nonempty(
        &mut amount,
        4,
        b.stored_ui_amount_string.unwrap_or_default().as_bytes(),
    );
    let mut m = Vec::new();
    put_varint(&mut m, 1, u64::from(b.account_index));
    put_nonempty(&mut m, 2, b.mint.as_bytes());
    put_bytes(&mut m, 3, &amount);
    put_nonempty(&mut m, 4, b.owner.as_bytes());
    put_nonempty(&mut m, 5, b.program_id.as_bytes());
    m
}

impl StatusMeta<'_> {
    /// The `transaction_status` column value.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(256);
        if let Some(err) = &self.err {
            let mut m = Vec::new();
            put_bytes(&mut m, 1, &err.encode());
            put_bytes(&mut out, 1, &m);
        }
        put_varint(&mut out, 2, self.fee);
        put_packed(&mut out, 3, &self.pre_balances);
        put_packed(&mut out, 4, &self.post_balances);
        // prost writes fields in the schema's declaration order: each `*_none` flag
        // follows its list.
        for inner in self.inner_instructions.iter().flatten() {
            put_bytes(&mut out, 5, &inner_message(inner));
        }
        put_varint(&mut out, 10, u64::from(self.inner_instructions.is_none()));
        for line in self.log_messages.iter().flatten() {
            put_bytes(&mut out, 6, line.as_bytes());
        }
        put_varint(&mut out, 11, u64::from(self.log_messages.is_none()));
        for b in &self.pre_token_balances {
            put_bytes(&mut out, 7, &token_balance_message(b));
        }
        for b in &self.post_token_balances {
            put_bytes(&mut out, 8, &token_balance_message(b));
        }
        for r in &self.rewards {
            put_bytes(&mut out, 9, &reward_message(r));
        }
        for key in &self.loaded_writable {
            put_bytes(&mut out, 12, *key);
        }
        for key in &self.loaded_readonly {
            put_bytes(&mut out, 13, *key);
        }
        match &self.return_data {
            Some(ret) => {
                let mut m = Vec::new();
                put_bytes(&mut m, 1, ret.program_id);
                put_nonempty(&mut m, 2, ret.data);
                put_bytes(&mut out, 14, &m);
            }
            None => put_varint(&mut out, 15, 1),
        }
        put_optional(&mut out, 16, self.compute_units_consumed);
        put_optional(&mut out, 17, self.cost_units);
        out
    }
}

/// A `transaction_memos` value (bincode `String`).
pub fn encode_memo(memo: &str) -> Vec<u8> {
    let mut out = (memo.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(memo.as_bytes());
    out
}

#[cfg(test)]
#[path = "encode_tests.rs"]
mod tests;
