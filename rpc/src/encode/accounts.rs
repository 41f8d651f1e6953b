//! Signer and writable flags of a message's static account keys, as Agave's
//! `transactionDetails: "accounts"` reports them (`parse_legacy_message_accounts` /
//! `parse_v0_message_accounts`): writable by position in the header, then demoted when
//! the key is reserved (builtin programs, sysvars) or is invoked as a program while the
//! upgradeable BPF loader is not among the keys. With a transaction status, the keys a v0
//! message loaded from lookup tables follow (`ParsedAccount`s with source `lookupTable`):
//! writable ones unless reserved, readonly ones never; the loader counts as present when it
//! was loaded too (Agave's `LoadedMessage`).

use std::sync::LazyLock;

use bstore_ledger::entry::MessageView;

/// Agave's reserved account keys (`ReservedAccountKeys::new_all_activated`): facts of the
/// protocol, never write-locked.
const RESERVED: [&str; 31] = [
    // builtin programs
    "AddressLookupTab1e1111111111111111111111111",
    "BPFLoader2111111111111111111111111111111111",
    "BPFLoader1111111111111111111111111111111111",
    UPGRADEABLE_LOADER,
    "ComputeBudget111111111111111111111111111111",
    "Config1111111111111111111111111111111111111",
    "Ed25519SigVerify111111111111111111111111111",
    "Feature111111111111111111111111111111111111",
    "LoaderV411111111111111111111111111111111111",
    "KeccakSecp256k11111111111111111111111111111",
    "Secp256r1SigVerify1111111111111111111111111",
    "StakeConfig11111111111111111111111111111111",
    "Stake11111111111111111111111111111111111111",
    "11111111111111111111111111111111",
    "Vote111111111111111111111111111111111111111",
    "ZkE1Gama1Proof11111111111111111111111111111",
    "ZkTokenProof1111111111111111111111111111111",
    // sysvars
    "SysvarC1ock11111111111111111111111111111111",
    "SysvarEpochRewards1111111111111111111111111",
    "SysvarEpochSchedu1e111111111111111111111111",
    "SysvarFees111111111111111111111111111111111",
    "Sysvar1nstructions1111111111111111111111111",
    "SysvarLastRestartS1ot1111111111111111111111",
    "SysvarRecentB1ockHashes11111111111111111111",
    "SysvarRent111111111111111111111111111111111",
    "SysvarRewards111111111111111111111111111111",
    "SysvarS1otHashes111111111111111111111111111",
    "SysvarS1otHistory11111111111111111111111111",
    "SysvarStakeHistory1111111111111111111111111",
    // other
    "NativeLoader1111111111111111111111111111111",
    "Sysvar1111111111111111111111111111111111111",
];

const UPGRADEABLE_LOADER: &str = "BPFLoaderUpgradeab1e11111111111111111111111";

/// The reserved keys as bytes, sorted for binary search. Every literal above decodes (the
/// unit test proves it), so none is dropped.
static RESERVED_KEYS: LazyLock<Vec<[u8; 32]>> = LazyLock::new(|| {
    let mut keys: Vec<[u8; 32]> = RESERVED.iter().filter_map(|s| decode_key(s)).collect();
    keys.sort_unstable();
    keys
});

static UPGRADEABLE_LOADER_KEY: LazyLock<[u8; 32]> =
    LazyLock::new(|| decode_key(UPGRADEABLE_LOADER).unwrap_or_default());

fn decode_key(s: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    match bs58::decode(s).onto(&mut out[..]) {
        Ok(32) => Some(out),
        _ => None,
    }
}

/// Whether `key` is one of Agave's reserved account keys (never writable in a message's
/// account list, static or loaded from a lookup table).
fn is_reserved(key: &[u8; 32]) -> bool {
    RESERVED_KEYS.binary_search(key).is_ok()
}

/// One static account key and its flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct AccountFlags<'a> {
    pub key: &'a [u8; 32],
    pub signer: bool,
    pub writable: bool,
}

/// Where a key of a transaction comes from (`ParsedAccount::source`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeySource {
    Transaction,
    LookupTable,
}

impl KeySource {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Self::Transaction => "transaction",
            Self::LookupTable => "lookupTable",
        }
    }
}

/// One key of a transaction with its flags and source (Agave's `ParsedAccount`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ParsedKey<'a> {
    pub key: &'a [u8; 32],
    pub signer: bool,
    pub writable: bool,
    pub source: KeySource,
}

/// Every key of a transaction: the static ones, then the loaded writable, then the loaded
/// readonly addresses (Agave's `parse_v0_message_accounts` / `parse_legacy_message_accounts`).
pub(crate) fn parsed_keys<'a>(
    message: &MessageView<'a>,
    loaded_writable: &[&'a [u8; 32]],
    loaded_readonly: &[&'a [u8; 32]],
) -> Vec<ParsedKey<'a>> {
    let loader_loaded = loaded_writable
        .iter()
        .chain(loaded_readonly)
        .any(|k| *k == &*UPGRADEABLE_LOADER_KEY);
    let mut keys: Vec<ParsedKey<'a>> = flags_with(message, loader_loaded)
        .into_iter()
        .map(|f| ParsedKey {
            key: f.key,
            signer: f.signer,
            writable: f.writable,
            source: KeySource::Transaction,
        })
        .collect();
    keys.extend(loaded_writable.iter().map(|&key| ParsedKey {
        key,
        signer: false,
        writable: !is_reserved(key),
        source: KeySource::LookupTable,
    }));
    keys.extend(loaded_readonly.iter().map(|&key| ParsedKey {
        key,
        signer: false,
        writable: false,
        source: KeySource::LookupTable,
    }));
    keys
}

/// The flags of every static key of `message`, in order; `loader_loaded`: the upgradeable
/// loader is among the keys loaded from lookup tables.
fn flags_with<'a>(message: &MessageView<'a>, loader_loaded: bool) -> Vec<AccountFlags<'a>> {
    let header = message.header();
    let n = message.num_account_keys();
    let signed = usize::from(header.num_required_signatures);
    let writable_signed = signed.saturating_sub(usize::from(header.num_readonly_signed_accounts));
    let writable_unsigned_end =
        n.saturating_sub(usize::from(header.num_readonly_unsigned_accounts));
    let mut called = [false; 256];
    for ix in message.instructions() {
        called[usize::from(ix.program_id_index)] = true;
    }
    let loader_present = loader_loaded
        || message
            .account_keys()
            .any(|k| k == &*UPGRADEABLE_LOADER_KEY);
    message
        .account_keys()
        .enumerate()
        .map(|(i, key)| {
            let by_position = i < writable_signed || (i >= signed && i < writable_unsigned_end);
            let reserved = is_reserved(key);
            let demoted_program = called.get(i).copied().unwrap_or(false) && !loader_present;
            AccountFlags {
                key,
                signer: i < signed,
                writable: by_position && !reserved && !demoted_program,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use bstore_ledger::entry::{
        CompiledInstruction, LegacyMessage, MessageHeader, VersionedMessage, VersionedTransaction,
        encode_transaction_into,
    };
    use bstore_ledger::{Hash, Pubkey, Signature};

    use super::*;

    #[test]
    fn loaded_keys_follow_the_static_ones() {
        let header = MessageHeader {
            num_required_signatures: 1,
            num_readonly_signed_accounts: 0,
            num_readonly_unsigned_accounts: 0,
        };
        let tx = VersionedTransaction {
            signatures: vec![Signature([1; 64])],
            message: VersionedMessage::Legacy(LegacyMessage {
                header,
                account_keys: vec![Pubkey([9; 32]), Pubkey([6; 32])],
                recent_blockhash: Hash::default(),
                instructions: vec![CompiledInstruction {
                    program_id_index: 1,
                    accounts: vec![0],
                    data: vec![],
                }],
            }),
        };
        let mut bytes = Vec::new();
        encode_transaction_into(&tx, &mut bytes);
        let (view, _) =
            bstore_ledger::entry::TransactionView::parse(&bytes).expect("valid transaction");
        let sysvar: Pubkey = "SysvarC1ock11111111111111111111111111111111"
            .parse()
            .expect("clock id");
        let loader: Pubkey = UPGRADEABLE_LOADER.parse().expect("loader id");
        let keys = parsed_keys(&view.message(), &[&[5; 32], &sysvar.0], &[&loader.0]);
        let flags: Vec<_> = keys
            .iter()
            .map(|k| (k.signer, k.writable, k.source))
            .collect();
        use KeySource::{LookupTable as L, Transaction as T};
        assert_eq!(
            flags,
            vec![
                (true, true, T),
                // invoked as a program, but the loader was loaded: not demoted
                (false, true, T),
                (false, true, L),
                // a reserved key is never writable
                (false, false, L),
                (false, false, L),
            ]
        );
    }

    #[test]
    fn every_reserved_key_decodes() {
        assert_eq!(RESERVED_KEYS.len(), RESERVED.len());
        assert_ne!(*UPGRADEABLE_LOADER_KEY, [0u8; 32]);
    }

    fn flags_of(keys: Vec<Pubkey>, header: MessageHeader, program: u8) -> Vec<(bool, bool)> {
        let tx = VersionedTransaction {
            signatures: vec![Signature([1; 64]); usize::from(header.num_required_signatures)],
            message: VersionedMessage::Legacy(LegacyMessage {
                header,
                account_keys: keys,
                recent_blockhash: Hash::default(),
                instructions: vec![CompiledInstruction {
                    program_id_index: program,
                    accounts: vec![0],
                    data: vec![1, 2, 3],
                }],
            }),
        };
        let mut bytes = Vec::new();
        encode_transaction_into(&tx, &mut bytes);
        let (view, _) =
            bstore_ledger::entry::TransactionView::parse(&bytes).expect("valid transaction");
        parsed_keys(&view.message(), &[], &[])
            .iter()
            .map(|f| (f.signer, f.writable))
            .collect()
    }

    #[test]
    fn header_positions_reserved_keys_and_programs() {
        let system: Pubkey = "11111111111111111111111111111111"
            .parse()
            .expect("system id");
        let header = MessageHeader {
            num_required_signatures: 2,
            num_readonly_signed_accounts: 1,
            num_readonly_unsigned_accounts: 1,
        };
        // payer (w,s), readonly signer, writable system program (reserved: demoted), a
        // readonly program.
        let keys = vec![Pubkey([9; 32]), Pubkey([8; 32]), system, Pubkey([7; 32])];
        assert_eq!(
            flags_of(keys, header, 3),
            vec![(true, true), (true, false), (false, false), (false, false)]
        );
        // A writable-position key invoked as a program is demoted unless the upgradeable
        // loader is present.
        let header = MessageHeader {
            num_required_signatures: 1,
            num_readonly_signed_accounts: 0,
            num_readonly_unsigned_accounts: 0,
        };
        let keys = vec![Pubkey([9; 32]), Pubkey([6; 32])];
        assert_eq!(
            flags_of(keys, header, 1),
            vec![(true, true), (false, false)]
        );
        let loader: Pubkey = UPGRADEABLE_LOADER.parse().expect("loader id");
        let keys = vec![Pubkey([9; 32]), Pubkey([6; 32]), loader];
        assert_eq!(
            flags_of(keys, header, 1),
            vec![(true, true), (false, true), (false, false)]
        );
    }
}
