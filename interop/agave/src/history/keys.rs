//! The scenario's keys and hashes, all drawn from `--seed`: the same seed gives the same
//! ledger, signature for signature.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use solana_hash::Hash;
use solana_keypair::Keypair;
use solana_message::AddressLookupTableAccount;
use solana_pubkey::Pubkey;
use solana_signer::Signer;

/// Addresses held by the scenario's one address lookup table.
pub const TABLE_LEN: usize = 6;

/// Every account the scenario's transactions name. Signers are keypairs; the rest are
/// plain addresses (transactions are never executed, so no account needs to exist).
pub struct Keys {
    /// Signs the shreds.
    pub leader: Keypair,
    /// Fee payer (and authority) of most transactions: the address with the most history.
    pub payer: Keypair,
    /// Fee payer of a few others, among them the transaction left without a status.
    pub payer2: Keypair,
    /// The account `createAccount` makes (a signer of that transaction).
    pub new_account: Keypair,
    pub nonce: Pubkey,
    /// An spl-token mint: read-only wherever it appears.
    pub mint: Pubkey,
    pub token_a: Pubkey,
    pub token_b: Pubkey,
    pub delegate: Pubkey,
    pub mint22: Pubkey,
    pub token22_a: Pubkey,
    /// Owner of the associated token accounts that get created.
    pub wallet: Pubkey,
    pub vote: Pubkey,
    pub stake: Pubkey,
    pub new_staker: Pubkey,
    pub program: Pubkey,
    pub buffer: Pubkey,
    pub spill: Pubkey,
    /// A program no parser knows.
    pub unknown_program: Pubkey,
    /// Named by no transaction.
    pub nobody: Pubkey,
    /// The lookup table v0 transactions load from; its first addresses are loaded
    /// writable, the later ones read-only.
    pub table: AddressLookupTableAccount,
    /// Every transaction's recent blockhash.
    pub recent_blockhash: Hash,
    /// The PoH hash the first slot's entries chain from.
    pub poh_start: Hash,
}

impl Keys {
    pub fn new(seed: u64) -> Self {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut keypair = || Keypair::new_from_array(rng.r#gen());
        let (leader, payer, payer2, new_account) = (keypair(), keypair(), keypair(), keypair());
        let mut address = || Pubkey::new_from_array(rng.r#gen());
        let named: [Pubkey; 18] = std::array::from_fn(|_| address());
        let table = AddressLookupTableAccount {
            key: address(),
            addresses: (0..TABLE_LEN).map(|_| address()).collect(),
        };
        let [
            nonce,
            mint,
            token_a,
            token_b,
            delegate,
            mint22,
            token22_a,
            wallet,
            vote,
            stake,
            new_staker,
            program,
            buffer,
            spill,
            unknown_program,
            nobody,
            hash_a,
            hash_b,
        ] = named;
        Self {
            leader,
            payer,
            payer2,
            new_account,
            nonce,
            mint,
            token_a,
            token_b,
            delegate,
            mint22,
            token22_a,
            wallet,
            vote,
            stake,
            new_staker,
            program,
            buffer,
            spill,
            unknown_program,
            nobody,
            table,
            recent_blockhash: Hash::new_from_array(hash_a.to_bytes()),
            poh_start: Hash::new_from_array(hash_b.to_bytes()),
        }
    }

    /// The leader's identity: the fee collector in block rewards.
    pub fn leader_identity(&self) -> Pubkey {
        self.leader.pubkey()
    }

    /// The table's address at `index` (the scenario only names indices below
    /// [`TABLE_LEN`]).
    pub fn table_address(&self, index: usize) -> Pubkey {
        self.table.addresses.get(index).copied().unwrap_or_default()
    }
}
