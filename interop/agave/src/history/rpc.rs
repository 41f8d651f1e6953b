//! Agave's RPC answers for finalized commitment, computed as solana-rpc 4.2's
//! `JsonRpcRequestProcessor` computes them (`rpc.rs`: `get_block`, `get_transaction`,
//! `get_signatures_for_address`, `get_signature_statuses`), over the ledger alone:
//!
//! - the highest super-majority root is the ledger's highest root;
//! - every slot's statuses are written (`max_complete_transaction_status_slot` is past
//!   every slot, so `BlockStatusNotAvailableYet` never fires);
//! - no Bigtable, and no bank: the status cache `getSignatureStatuses` looks in first
//!   is empty, so every status comes from the ledger (`searchTransactionHistory`);
//! - no slot is 0 (the RPC patches slot 0's time and height from genesis).
//!
//! An `Answer` is the JSON-RPC `result`, or the JSON-RPC `error` Agave maps to.

use jsonrpc_core::Error as RpcError;
use serde_json::Value;
use solana_ledger::blockstore::{Blockstore, BlockstoreError};
use solana_pubkey::Pubkey;
use solana_rpc_client_api::custom_error::RpcCustomError;
use solana_rpc_client_types::request::MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT;
use solana_rpc_client_types::response::RpcConfirmedTransactionStatusWithSignature;
use solana_signature::Signature;
use solana_transaction_status::{
    BlockEncodingOptions, ConfirmedBlock, TransactionConfirmationStatus, TransactionStatus,
    UiTransactionEncoding,
};

use crate::error::{Context, Result};

/// A JSON-RPC `result`, or the `error` object.
pub type Answer<T = Value> = std::result::Result<T, RpcError>;

pub struct Rpc<'a> {
    blockstore: &'a Blockstore,
    /// The highest super-majority root: what finalized commitment reaches.
    root: u64,
}

/// `before`, `until` and `limit` of `getSignaturesForAddress` (signatures already
/// parsed, as the RPC parses them before anything else).
#[derive(Clone, Copy, Default)]
pub struct SignaturesConfig {
    pub before: Option<Signature>,
    pub until: Option<Signature>,
    pub limit: Option<usize>,
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<Value> {
    serde_json::to_value(value).context("serialize an answer")
}

impl<'a> Rpc<'a> {
    pub fn new(blockstore: &'a Blockstore) -> Self {
        Self {
            blockstore,
            root: blockstore.max_root(),
        }
    }

    pub fn root(&self) -> u64 {
        self.root
    }

    /// `getBlock(slot, {encoding, transactionDetails, rewards,
    /// maxSupportedTransactionVersion})`.
    pub fn get_block(
        &self,
        slot: u64,
        encoding: UiTransactionEncoding,
        options: BlockEncodingOptions,
    ) -> Result<Answer> {
        if slot > self.root {
            return Ok(Err(RpcCustomError::BlockNotAvailable { slot }.into()));
        }
        let result = self.blockstore.get_rooted_block(slot, true);
        if result.is_err() {
            if slot >= self.blockstore.max_root() {
                return Ok(Err(RpcCustomError::BlockNotAvailable { slot }.into()));
            }
            if self.blockstore.is_skipped(slot) {
                return Ok(Err(RpcCustomError::SlotSkipped { slot }.into()));
            }
        }
        let first_available_block = self
            .blockstore
            .get_first_available_block()
            .unwrap_or_default();
        if matches!(result, Err(BlockstoreError::SlotCleanedUp)) || slot < first_available_block {
            return Ok(Err(RpcCustomError::BlockCleanedUp {
                slot,
                first_available_block,
            }
            .into()));
        }
        // Any other read failure (a transaction without status, a missing parent) is a
        // `null` block.
        let Ok(block) = result else {
            return Ok(Ok(Value::Null));
        };
        match ConfirmedBlock::from(block).encode_with_options(encoding, options) {
            Ok(encoded) => Ok(Ok(to_json(&encoded)?)),
            Err(e) => Ok(Err(RpcCustomError::from(e).into())),
        }
    }

    /// `getTransaction(signature, {encoding, maxSupportedTransactionVersion})`.
    pub fn get_transaction(
        &self,
        signature: Signature,
        encoding: UiTransactionEncoding,
        max_supported_transaction_version: Option<u8>,
    ) -> Result<Answer> {
        // The RPC turns a read error into "not found".
        let found = self
            .blockstore
            .get_rooted_transaction(signature)
            .unwrap_or(None);
        let Some(confirmed) = found.filter(|c| c.slot <= self.root) else {
            return Ok(Ok(Value::Null));
        };
        match confirmed.encode(encoding, max_supported_transaction_version) {
            Ok(encoded) => Ok(Ok(to_json(&encoded)?)),
            Err(e) => Ok(Err(RpcCustomError::from(e).into())),
        }
    }

    /// `getSignaturesForAddress(address, {before, until, limit})`, newest first.
    pub fn get_signatures_for_address(
        &self,
        address: Pubkey,
        config: SignaturesConfig,
    ) -> Answer<Vec<RpcConfirmedTransactionStatusWithSignature>> {
        let limit = config
            .limit
            .unwrap_or(MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT);
        if limit == 0 || limit > MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT {
            return Err(RpcError::invalid_params(format!(
                "Invalid limit; max {MAX_GET_CONFIRMED_SIGNATURES_FOR_ADDRESS2_LIMIT}"
            )));
        }
        let found = self
            .blockstore
            .get_confirmed_signatures_for_address2(
                address,
                self.root,
                config.before,
                config.until,
                limit,
            )
            .map_err(|err| RpcError::invalid_params(format!("{err}")))?;
        Ok(found
            .infos
            .into_iter()
            .map(|info| {
                let mut item = RpcConfirmedTransactionStatusWithSignature::from(info);
                // Every slot listed is at most the root the search started from.
                item.confirmation_status = Some(TransactionConfirmationStatus::Finalized);
                item
            })
            .collect())
    }

    /// `getSignatureStatuses(signatures, {searchTransactionHistory: true})`: the
    /// response's `value`.
    pub fn get_signature_statuses(
        &self,
        signatures: &[Signature],
    ) -> Answer<Vec<Option<TransactionStatus>>> {
        let mut statuses = Vec::with_capacity(signatures.len());
        for &signature in signatures {
            let status = self
                .blockstore
                .get_rooted_transaction_status(signature)
                .map_err(|_| RpcError::internal_error())?
                .filter(|(slot, _)| *slot <= self.root)
                .map(|(slot, meta)| TransactionStatus {
                    slot,
                    confirmations: None,
                    err: meta.status.clone().err(),
                    status: meta.status,
                    confirmation_status: Some(TransactionConfirmationStatus::Finalized),
                });
            statuses.push(status);
        }
        Ok(statuses)
    }
}
