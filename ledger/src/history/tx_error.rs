//! Agave's `TransactionError` as the `transaction_status` column stores it: bincode 1.x
//! (variant index u32 LE, then the variant's fields) inside the protobuf
//! `TransactionError.err` bytes. Variant names and order are Agave's
//! (`solana-transaction-error` 3.x, `solana-instruction-error` 2.x); bincode's `deserialize`
//! ignores trailing bytes, so Agave does too (an old `BorshIoError(String)` reads as the
//! unit variant of today).

use crate::wire::Reader;

/// The unit variants of `TransactionError`, by variant index (`None`: a variant with data).
pub(super) const TX_UNIT: [Option<&str>; 39] = [
    Some("AccountInUse"),
    Some("AccountLoadedTwice"),
    Some("AccountNotFound"),
    Some("ProgramAccountNotFound"),
    Some("InsufficientFundsForFee"),
    Some("InvalidAccountForFee"),
    Some("AlreadyProcessed"),
    Some("BlockhashNotFound"),
    None, // 8: InstructionError(u8, InstructionError)
    Some("CallChainTooDeep"),
    Some("MissingSignatureForFee"),
    Some("InvalidAccountIndex"),
    Some("SignatureFailure"),
    Some("InvalidProgramForExecution"),
    Some("SanitizeFailure"),
    Some("ClusterMaintenance"),
    Some("AccountBorrowOutstanding"),
    Some("WouldExceedMaxBlockCostLimit"),
    Some("UnsupportedVersion"),
    Some("InvalidWritableAccount"),
    Some("WouldExceedMaxAccountCostLimit"),
    Some("WouldExceedAccountDataBlockLimit"),
    Some("TooManyAccountLocks"),
    Some("AddressLookupTableNotFound"),
    Some("InvalidAddressLookupTableOwner"),
    Some("InvalidAddressLookupTableData"),
    Some("InvalidAddressLookupTableIndex"),
    Some("InvalidRentPayingAccount"),
    Some("WouldExceedMaxVoteCostLimit"),
    Some("WouldExceedAccountDataTotalLimit"),
    None, // 30: DuplicateInstruction(u8)
    None, // 31: InsufficientFundsForRent { account_index: u8 }
    Some("MaxLoadedAccountsDataSizeExceeded"),
    Some("InvalidLoadedAccountsDataSizeLimit"),
    Some("ResanitizationNeeded"),
    None, // 35: ProgramExecutionTemporarilyRestricted { account_index: u8 }
    Some("UnbalancedTransaction"),
    Some("ProgramCacheHitMaxLimit"),
    Some("CommitCancelled"),
];

/// The unit variants of `InstructionError`, by variant index (`None`: `Custom(u32)`).
pub(super) const IX_UNIT: [Option<&str>; 54] = [
    Some("GenericError"),
    Some("InvalidArgument"),
    Some("InvalidInstructionData"),
    Some("InvalidAccountData"),
    Some("AccountDataTooSmall"),
    Some("InsufficientFunds"),
    Some("IncorrectProgramId"),
    Some("MissingRequiredSignature"),
    Some("AccountAlreadyInitialized"),
    Some("UninitializedAccount"),
    Some("UnbalancedInstruction"),
    Some("ModifiedProgramId"),
    Some("ExternalAccountLamportSpend"),
    Some("ExternalAccountDataModified"),
    Some("ReadonlyLamportChange"),
    Some("ReadonlyDataModified"),
    Some("DuplicateAccountIndex"),
    Some("ExecutableModified"),
    Some("RentEpochModified"),
    Some("NotEnoughAccountKeys"),
    Some("AccountDataSizeChanged"),
    Some("AccountNotExecutable"),
    Some("AccountBorrowFailed"),
    Some("AccountBorrowOutstanding"),
    Some("DuplicateAccountOutOfSync"),
    None, // 25: Custom(u32)
    Some("InvalidError"),
    Some("ExecutableDataModified"),
    Some("ExecutableLamportChange"),
    Some("ExecutableAccountNotRentExempt"),
    Some("UnsupportedProgramId"),
    Some("CallDepth"),
    Some("MissingAccount"),
    Some("ReentrancyNotAllowed"),
    Some("MaxSeedLengthExceeded"),
    Some("InvalidSeeds"),
    Some("InvalidRealloc"),
    Some("ComputationalBudgetExceeded"),
    Some("PrivilegeEscalation"),
    Some("ProgramEnvironmentSetupFailure"),
    Some("ProgramFailedToComplete"),
    Some("ProgramFailedToCompile"),
    Some("Immutable"),
    Some("IncorrectAuthority"),
    Some("BorshIoError"),
    Some("AccountNotRentExempt"),
    Some("InvalidAccountOwner"),
    Some("ArithmeticOverflow"),
    Some("UnsupportedSysvar"),
    Some("IllegalOwner"),
    Some("MaxAccountsDataAllocationsExceeded"),
    Some("MaxAccountsExceeded"),
    Some("MaxInstructionTraceLengthExceeded"),
    Some("BuiltinProgramsMustConsumeComputeUnits"),
];

/// A transaction's error, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxError {
    /// A variant without data (`"InsufficientFundsForFee"`).
    Unit(&'static str),
    /// `InstructionError(index, error)`.
    Instruction {
        /// Position of the failing instruction in the transaction (0-based).
        index: u8,
        /// What the instruction failed with.
        error: IxError,
    },
    /// `DuplicateInstruction(index)`.
    DuplicateInstruction(u8),
    /// `InsufficientFundsForRent { account_index }`.
    InsufficientFundsForRent {
        /// Index, in the transaction's account keys, of the account left below rent exemption.
        account_index: u8,
    },
    /// `ProgramExecutionTemporarilyRestricted { account_index }`.
    ProgramExecutionTemporarilyRestricted {
        /// Index, in the transaction's account keys, of the restricted program account.
        account_index: u8,
    },
}

/// An instruction's error, decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IxError {
    /// A variant without data, by Agave's name (`"InvalidArgument"`, `"AccountBorrowFailed"`, ...).
    Unit(&'static str),
    /// `Custom(code)`: the program's own error code.
    Custom(u32),
}

impl TxError {
    /// Decodes the bincode bytes; an unknown variant or short input is an error naming it.
    pub fn decode(bytes: &[u8]) -> Result<Self, String> {
        let mut r = Reader::new(bytes);
        let variant = r.u32("transaction error variant")?;
        if let Some(Some(name)) = TX_UNIT.get(variant as usize) {
            return Ok(Self::Unit(name));
        }
        match variant {
            8 => {
                let index = r.u8("instruction index")?;
                let ix = r.u32("instruction error variant")?;
                let error = match IX_UNIT.get(ix as usize) {
                    Some(Some(name)) => IxError::Unit(name),
                    Some(None) => IxError::Custom(r.u32("custom error code")?),
                    None => return Err(format!("unknown instruction error variant {ix}")),
                };
                Ok(Self::Instruction { index, error })
            }
            30 => Ok(Self::DuplicateInstruction(r.u8("instruction index")?)),
            31 => Ok(Self::InsufficientFundsForRent {
                account_index: r.u8("account index")?,
            }),
            35 => Ok(Self::ProgramExecutionTemporarilyRestricted {
                account_index: r.u8("account index")?,
            }),
            other => Err(format!("unknown transaction error variant {other}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_agave_bincode_forms() {
        // Bytes as Agave's own tests give them (solana-storage-proto's round-trip cases).
        assert_eq!(
            TxError::decode(&[4, 0, 0, 0]),
            Ok(TxError::Unit("InsufficientFundsForFee"))
        );
        assert_eq!(
            TxError::decode(&[31, 0, 0, 0, 42]),
            Ok(TxError::InsufficientFundsForRent { account_index: 42 })
        );
        assert_eq!(
            TxError::decode(&[30, 0, 0, 0, 42]),
            Ok(TxError::DuplicateInstruction(42))
        );
        assert_eq!(
            TxError::decode(&[8, 0, 0, 0, 42, 25, 0, 0, 0, 0xef, 0xbe, 0xad, 0xde]),
            Ok(TxError::Instruction {
                index: 42,
                error: IxError::Custom(0xdead_beef)
            })
        );
        assert_eq!(
            TxError::decode(&[
                8, 0, 0, 0, 1, 44, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, b'a', b'b', b'c'
            ]),
            Ok(TxError::Instruction {
                index: 1,
                error: IxError::Unit("BorshIoError")
            }),
            "an old BorshIoError(String) reads as today's unit variant"
        );
        assert_eq!(
            TxError::decode(&[38, 0, 0, 0]),
            Ok(TxError::Unit("CommitCancelled"))
        );
    }

    #[test]
    fn refuses_unknown_variants_and_short_input() {
        assert!(TxError::decode(&[39, 0, 0, 0]).is_err());
        assert!(TxError::decode(&[8, 0, 0, 0, 0, 54, 0, 0, 0]).is_err());
        assert!(TxError::decode(&[8, 0, 0]).is_err());
        assert!(TxError::decode(&[8, 0, 0, 0, 0, 25, 0]).is_err());
        assert!(TxError::decode(&[]).is_err());
    }
}
