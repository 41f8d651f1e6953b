//! What the scenario puts in the ledger, before any of it is written: slots of signed
//! transactions, each with the status meta the transaction status service would store.

use solana_hash::Hash;
use solana_instruction::Instruction;
use solana_keypair::Keypair;
use solana_message::compiled_instruction::CompiledInstruction;
use solana_message::v0::{self, LoadedAddresses};
use solana_message::{AddressLookupTableAccount, Message, VersionedMessage};
use solana_pubkey::Pubkey;
use solana_signer::Signer;
use solana_transaction::versioned::VersionedTransaction;
use solana_transaction_status::{RewardsAndNumPartitions, TransactionStatusMeta};

use crate::error::{Context, Error, Result};

/// One transaction of a block.
pub struct PlannedTx {
    pub tx: VersionedTransaction,
    /// What its lookups load (empty for legacy messages): also the meta's
    /// `loaded_addresses`.
    pub loaded: LoadedAddresses,
    /// `None`: no status is written for it (what Agave answers then is recorded).
    pub meta: Option<TransactionStatusMeta>,
}

/// One rooted slot and the rows written beside its shreds.
pub struct PlannedSlot {
    pub slot: u64,
    pub parent: u64,
    pub txs: Vec<PlannedTx>,
    pub block_time: Option<i64>,
    pub block_height: Option<u64>,
    /// `None`: no rewards row.
    pub rewards: Option<RewardsAndNumPartitions>,
    /// What the slot is there to cover.
    pub note: &'static str,
}

impl PlannedTx {
    /// A signed legacy transaction; `signers` must hold every required signer, payer
    /// first.
    pub fn legacy(signers: &[&Keypair], ixs: &[Instruction], blockhash: Hash) -> Result<Self> {
        let payer = signers
            .first()
            .ok_or_else(|| Error::new("a transaction needs a payer"))?;
        let message = Message::new_with_blockhash(ixs, Some(&payer.pubkey()), &blockhash);
        Self::signed(
            VersionedMessage::Legacy(message),
            signers,
            LoadedAddresses::default(),
        )
    }

    /// A signed v0 transaction whose non-signer accounts found in `table` are loaded
    /// through it.
    pub fn v0(
        signers: &[&Keypair],
        ixs: &[Instruction],
        table: &AddressLookupTableAccount,
        blockhash: Hash,
    ) -> Result<Self> {
        let payer = signers
            .first()
            .ok_or_else(|| Error::new("a transaction needs a payer"))?;
        let message =
            v0::Message::try_compile(&payer.pubkey(), ixs, std::slice::from_ref(table), blockhash)
                .context("compile a v0 message")?;
        let loaded = load(&message, table)?;
        Self::signed(VersionedMessage::V0(message), signers, loaded)
    }

    fn signed(
        message: VersionedMessage,
        signers: &[&Keypair],
        loaded: LoadedAddresses,
    ) -> Result<Self> {
        let tx = VersionedTransaction::try_new(message, signers).context("sign a transaction")?;
        Ok(Self {
            tx,
            loaded,
            meta: None,
        })
    }

    /// The message's account keys as Agave orders them: static keys, then loaded
    /// writable, then loaded read-only.
    pub fn account_keys(&self) -> Vec<Pubkey> {
        let loaded = self.loaded.writable.iter().chain(&self.loaded.readonly);
        self.tx
            .message
            .static_account_keys()
            .iter()
            .chain(loaded)
            .copied()
            .collect()
    }

    /// The position of `key` among [`Self::account_keys`].
    pub fn index_of(&self, key: &Pubkey) -> Result<u8> {
        let position = self
            .account_keys()
            .iter()
            .position(|k| k == key)
            .ok_or_else(|| Error::new(format!("{key} is not an account of the transaction")))?;
        u8::try_from(position).context("account index")
    }

    /// `ix` compiled against this transaction's account keys (for inner instructions).
    pub fn compile(&self, ix: &Instruction) -> Result<CompiledInstruction> {
        Ok(CompiledInstruction {
            program_id_index: self.index_of(&ix.program_id)?,
            accounts: ix
                .accounts
                .iter()
                .map(|meta| self.index_of(&meta.pubkey))
                .collect::<Result<_>>()?,
            data: ix.data.clone(),
        })
    }

    pub fn signature(&self) -> solana_signature::Signature {
        self.tx.signatures.first().copied().unwrap_or_default()
    }
}

/// The addresses `message`'s lookups name in `table`, writable then read-only.
fn load(message: &v0::Message, table: &AddressLookupTableAccount) -> Result<LoadedAddresses> {
    let pick =
        |indexes: &[u8]| -> Result<Vec<Pubkey>> {
            indexes
                .iter()
                .map(|&i| {
                    table.addresses.get(usize::from(i)).copied().ok_or_else(|| {
                        Error::new(format!("lookup index {i} is past the table's end"))
                    })
                })
                .collect()
        };
    let mut loaded = LoadedAddresses::default();
    for lookup in &message.address_table_lookups {
        loaded.writable.extend(pick(&lookup.writable_indexes)?);
        loaded.readonly.extend(pick(&lookup.readonly_indexes)?);
    }
    Ok(loaded)
}
