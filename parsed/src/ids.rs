//! The program ids Agave's `jsonParsed` encoding parses (`PARSABLE_PROGRAM_IDS` in
//! `solana-transaction-status`), and the name it reports for each. Facts of the protocol;
//! the unit test proves every literal decodes to 32 bytes and encodes back unchanged.

/// The System program: accounts, transfers, nonces.
pub const SYSTEM: [u8; 32] = id("11111111111111111111111111111111");
/// The Vote program.
pub const VOTE: [u8; 32] = id("Vote111111111111111111111111111111111111111");
/// The Stake program.
pub const STAKE: [u8; 32] = id("Stake11111111111111111111111111111111111111");
/// The Address Lookup Table program (tables v0 transactions load accounts from).
pub const ADDRESS_LOOKUP_TABLE: [u8; 32] = id("AddressLookupTab1e1111111111111111111111111");
/// `bpf_loader` (loader v2); the deprecated v1 loader is not parsed.
pub const BPF_LOADER: [u8; 32] = id("BPFLoader2111111111111111111111111111111111");
/// The upgradeable BPF loader (loader v3): program deploys and upgrades.
pub const BPF_UPGRADEABLE_LOADER: [u8; 32] = id("BPFLoaderUpgradeab1e11111111111111111111111");
/// The SPL Token program.
pub const SPL_TOKEN: [u8; 32] = id("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
/// The SPL Token-2022 program (parsed as `spl-token`, with its extensions).
pub const SPL_TOKEN_2022: [u8; 32] = id("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb");
/// The SPL Associated Token Account program.
pub const SPL_ASSOCIATED_TOKEN: [u8; 32] = id("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL");
/// Memo v1 and v3 are parsed; v4 (`Memo4c2p…`) and ComputeBudget are not.
pub const SPL_MEMO_V1: [u8; 32] = id("Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo");
/// The SPL Memo program, v3 (same parsing as v1).
pub const SPL_MEMO_V3: [u8; 32] = id("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr");

/// The clock sysvar (stake instructions of older builders name it).
pub const CLOCK_SYSVAR: [u8; 32] = id("SysvarC1ock11111111111111111111111111111111");
/// The rent sysvar (stake instructions of older builders name it).
pub const RENT_SYSVAR: [u8; 32] = id("SysvarRent111111111111111111111111111111111");

/// A parsable program, named as Agave names it (`ParsableProgram`, kebab-cased).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    /// Address Lookup Table instructions (`address-lookup-table`).
    AddressLookupTable,
    /// Associated Token Account instructions (`spl-associated-token-account`).
    SplAssociatedTokenAccount,
    /// Memo v1 and v3 instructions (`spl-memo`): the memo text.
    SplMemo,
    /// Token and Token-2022 instructions (`spl-token`).
    SplToken,
    /// BPF loader v2 instructions (`bpf-loader`).
    BpfLoader,
    /// Upgradeable BPF loader instructions (`bpf-upgradeable-loader`).
    BpfUpgradeableLoader,
    /// Stake program instructions (`stake`).
    Stake,
    /// System program instructions (`system`).
    System,
    /// Vote program instructions (`vote`).
    Vote,
}

impl Program {
    /// The program `program_id` names, when Agave parses it.
    pub fn of(program_id: &[u8; 32]) -> Option<Self> {
        Some(match *program_id {
            ADDRESS_LOOKUP_TABLE => Self::AddressLookupTable,
            SPL_ASSOCIATED_TOKEN => Self::SplAssociatedTokenAccount,
            SPL_MEMO_V1 | SPL_MEMO_V3 => Self::SplMemo,
            SPL_TOKEN | SPL_TOKEN_2022 => Self::SplToken,
            BPF_LOADER => Self::BpfLoader,
            BPF_UPGRADEABLE_LOADER => Self::BpfUpgradeableLoader,
            STAKE => Self::Stake,
            SYSTEM => Self::System,
            VOTE => Self::Vote,
            _ => return None,
        })
    }

    /// The `"program"` member of a parsed instruction.
    pub fn name(self) -> &'static str {
        match self {
            Self::AddressLookupTable => "address-lookup-table",
            Self::SplAssociatedTokenAccount => "spl-associated-token-account",
            Self::SplMemo => "spl-memo",
            Self::SplToken => "spl-token",
            Self::BpfLoader => "bpf-loader",
            Self::BpfUpgradeableLoader => "bpf-upgradeable-loader",
            Self::Stake => "stake",
            Self::System => "system",
            Self::Vote => "vote",
        }
    }
}

/// Decodes a base58 program id at compile time (a bad literal fails the build).
const fn id(s: &str) -> [u8; 32] {
    bs58::decode(s.as_bytes()).into_array_const_unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_base58() {
        let ids = [
            (SYSTEM, "11111111111111111111111111111111"),
            (VOTE, "Vote111111111111111111111111111111111111111"),
            (STAKE, "Stake11111111111111111111111111111111111111"),
            (
                ADDRESS_LOOKUP_TABLE,
                "AddressLookupTab1e1111111111111111111111111",
            ),
            (BPF_LOADER, "BPFLoader2111111111111111111111111111111111"),
            (
                BPF_UPGRADEABLE_LOADER,
                "BPFLoaderUpgradeab1e11111111111111111111111",
            ),
            (SPL_TOKEN, "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"),
            (
                SPL_TOKEN_2022,
                "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb",
            ),
            (
                SPL_ASSOCIATED_TOKEN,
                "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
            ),
            (SPL_MEMO_V1, "Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo"),
            (SPL_MEMO_V3, "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr"),
        ];
        for (bytes, text) in ids {
            assert_eq!(bs58::encode(bytes).into_string(), text);
            assert!(Program::of(&bytes).is_some(), "{text}");
        }
        assert_eq!(SYSTEM, [0u8; 32]);
        for (bytes, text) in [
            (CLOCK_SYSVAR, "SysvarC1ock11111111111111111111111111111111"),
            (RENT_SYSVAR, "SysvarRent111111111111111111111111111111111"),
        ] {
            assert_eq!(bs58::encode(bytes).into_string(), text);
            assert!(Program::of(&bytes).is_none(), "{text} is no program");
        }
    }

    #[test]
    fn unparsed_programs_are_not_recognised() {
        for text in [
            "ComputeBudget111111111111111111111111111111",
            "Memo4c2pN8afCj432Lb7RMVKi9PbQnnW7ewFFaV3oAH",
            "BPFLoader1111111111111111111111111111111111",
        ] {
            let mut key = [0u8; 32];
            assert_eq!(bs58::decode(text).onto(&mut key[..]).ok(), Some(32));
            assert_eq!(Program::of(&key), None, "{text}");
        }
    }
}
