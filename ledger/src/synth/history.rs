//! Synthetic transaction history for generated slots: what a validator would write after
//! executing them (`transaction_status`, `address_signatures`, `transaction_memos`,
//! `rewards`), in Agave's encodings (`crate::history::encode`). Deterministic per slot; the
//! mix covers failed transactions, inner instructions, logs, token balances, loaded
//! addresses of v0 transactions, return data, compute units and memos, so RPC tests and the
//! demo have real-shaped metas to serve.

use sha2::{Digest, Sha256};

use crate::entry::{Entry, VersionedMessage, VersionedTransaction};
use crate::error::Result;
use crate::history::{
    InnerInstruction, InnerInstructions, IxError, ReturnData, Reward, RewardType, SlotRewards,
    StatusMeta, TokenBalance, TxError, encode_memo,
};
use crate::store::Blockstore;
use crate::store::KvEngine;
use crate::store::columns::{AddressSignatures, Rewards, TransactionMemos, TransactionStatus};
use crate::store::keys::AddressRowKey;
use crate::types::{Pubkey, Slot};

const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
const WSOL_MINT: &str = "So11111111111111111111111111111111111111112";

/// The address a lookup table holds at `index` (synthetic tables: a hash of both).
pub fn lookup_address(table: &[u8; 32], index: u8) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(table);
    h.update([index]);
    h.finalize().into()
}

/// The loaded (writable, readonly) addresses of a transaction.
pub fn loaded_addresses(tx: &VersionedTransaction) -> (Vec<[u8; 32]>, Vec<[u8; 32]>) {
    let VersionedMessage::V0(m) = &tx.message else {
        return (Vec::new(), Vec::new());
    };
    let mut writable = Vec::new();
    let mut readonly = Vec::new();
    for l in &m.address_table_lookups {
        writable.extend(
            l.writable_indexes
                .iter()
                .map(|&i| lookup_address(&l.account_key.0, i)),
        );
        readonly.extend(
            l.readonly_indexes
                .iter()
                .map(|&i| lookup_address(&l.account_key.0, i)),
        );
    }
    (writable, readonly)
}

/// Writes the history rows of one slot whose entries are `entries` (in one atomic batch),
/// and returns how many statuses were written.
pub fn write_history<E: KvEngine>(
    store: &Blockstore<E>,
    slot: Slot,
    entries: &[Entry],
) -> Result<usize> {
    let mut batch = store.engine.batch()?;
    let txs = entries.iter().flat_map(|e| e.transactions.iter());
    let mut written = 0;
    for (index, tx) in txs.enumerate() {
        let Some(sig) = tx.signatures.first() else {
            continue;
        };
        let (loaded_w, loaded_r) = loaded_addresses(tx);
        let meta_bytes = status_of(index, tx, &loaded_w, &loaded_r);
        batch.put_bytes::<TransactionStatus>((*sig, slot), &meta_bytes)?;
        if index % 6 == 2 {
            let memo = format!("[{}] synthetic memo {index}", 18 + index.to_string().len());
            batch.put_bytes::<TransactionMemos>((*sig, slot), &encode_memo(&memo))?;
        }
        let statics = tx.message.account_keys();
        let flagged = statics
            .iter()
            .enumerate()
            .map(|(i, k)| (&k.0, writable_position(tx, i)))
            .chain(loaded_w.iter().map(|k| (k, true)))
            .chain(loaded_r.iter().map(|k| (k, false)));
        for (key, writable) in flagged {
            let row = AddressRowKey {
                address: Pubkey(*key),
                slot,
                transaction_index: index as u32,
                signature: *sig,
            };
            batch.put::<AddressSignatures>(row, &writable)?;
        }
        written += 1;
    }
    let leader = bs58::encode(Sha256::digest(slot.0.to_le_bytes())).into_string();
    let rewards = SlotRewards {
        rewards: vec![
            Reward {
                pubkey: &leader,
                lamports: 5_000 * written as i64,
                post_balance: 1_000_000_000,
                reward_type: Some(RewardType::Fee),
                commission: None,
                commission_bps: None,
            },
            Reward {
                pubkey: &leader,
                lamports: -2,
                post_balance: 999_999_998,
                reward_type: Some(RewardType::Rent),
                commission: None,
                commission_bps: None,
            },
        ],
        num_partitions: None,
    };
    batch.put_bytes::<Rewards>(slot, &rewards.encode())?;
    store.engine.write(batch)?;
    Ok(written)
}

/// Whether static key `i` is writable by its position in the header.
fn writable_position(tx: &VersionedTransaction, i: usize) -> bool {
    let h = tx.message.header();
    let n = tx.message.account_keys().len();
    let signed = usize::from(h.num_required_signatures);
    if i < signed {
        i < signed.saturating_sub(usize::from(h.num_readonly_signed_accounts))
    } else {
        i < n.saturating_sub(usize::from(h.num_readonly_unsigned_accounts))
    }
}

/// The status of the `index`-th transaction (see the module docs for the mix).
fn status_of(
    index: usize,
    tx: &VersionedTransaction,
    loaded_w: &[[u8; 32]],
    loaded_r: &[[u8; 32]],
) -> Vec<u8> {
    let keys = tx.message.account_keys().len() + loaded_w.len() + loaded_r.len();
    let fee = 5_000 * tx.signatures.len() as u64;
    let pre: Vec<u64> = (0..keys)
        .map(|k| 1_000_000 + (index * 31 + k * 7) as u64)
        .collect();
    let mut post = pre.clone();
    if let Some(p) = post.first_mut() {
        *p = p.saturating_sub(fee);
    }
    let data = [index as u8, 1, 2, 3];
    let program = tx.message.account_keys().len().saturating_sub(1) as u8;
    let logs = [
        "Program 11111111111111111111111111111111 invoke [1]".to_string(),
        format!("Program log: synthetic \"{index}\" \\ done"),
        "Program 11111111111111111111111111111111 success".to_string(),
    ];
    let token = |ui: f64, amount: &'static str| TokenBalance {
        account_index: 1,
        mint: WSOL_MINT,
        ui_amount: Some(ui),
        decimals: 9,
        amount,
        stored_ui_amount_string: None,
        owner: "",
        program_id: TOKEN_PROGRAM,
    };
    let token_tx = index % 5 == 1;
    let meta = StatusMeta {
        err: match index % 11 {
            7 => Some(TxError::Instruction {
                index: 0,
                error: IxError::Custom(index as u32),
            }),
            9 => Some(TxError::Unit("InsufficientFundsForFee")),
            _ => None,
        },
        fee,
        pre_balances: pre,
        post_balances: post,
        inner_instructions: Some(if index.is_multiple_of(3) {
            vec![InnerInstructions {
                index: 0,
                instructions: vec![InnerInstruction {
                    program_id_index: program,
                    accounts: &[0],
                    data: &data,
                    stack_height: Some(2),
                }],
            }]
        } else {
            Vec::new()
        }),
        log_messages: Some(logs.iter().map(String::as_str).collect()),
        pre_token_balances: if token_tx {
            vec![token(1.5, "1500000000")]
        } else {
            Vec::new()
        },
        post_token_balances: if token_tx {
            vec![token(0.25, "250000000")]
        } else {
            Vec::new()
        },
        rewards: Vec::new(),
        loaded_writable: loaded_w.iter().collect(),
        loaded_readonly: loaded_r.iter().collect(),
        return_data: (index % 4 == 3).then_some(ReturnData {
            program_id: &[0; 32],
            data: &data,
        }),
        compute_units_consumed: Some(1_000 + index as u64),
        cost_units: index.is_multiple_of(2).then_some(1_500 + index as u64),
    };
    meta.encode()
}
