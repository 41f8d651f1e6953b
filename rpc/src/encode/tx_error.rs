//! A transaction error as Agave's JSON writes it (`UiTransactionError`: serde's externally
//! tagged enum form): `"InsufficientFundsForFee"`, `{"InstructionError":[0,{"Custom":1}]}`,
//! `{"DuplicateInstruction":2}`, `{"InsufficientFundsForRent":{"account_index":3}}`.

use bstore_ledger::history::{IxError, TxError};

use super::json::JsonOut;

pub(crate) fn write_tx_error(out: &mut JsonOut, err: &TxError) {
    match *err {
        TxError::Unit(name) => out.str(name),
        TxError::Instruction { index, error } => {
            out.raw("{\"InstructionError\":[");
            out.u64(u64::from(index));
            out.raw(",");
            match error {
                IxError::Unit(name) => out.str(name),
                IxError::Custom(code) => {
                    out.raw("{\"Custom\":");
                    out.u64(u64::from(code));
                    out.raw("}");
                }
            }
            out.raw("]}");
        }
        TxError::DuplicateInstruction(index) => {
            out.raw("{\"DuplicateInstruction\":");
            out.u64(u64::from(index));
            out.raw("}");
        }
        TxError::InsufficientFundsForRent { account_index } => {
            account_index_variant(out, "InsufficientFundsForRent", account_index)
        }
        TxError::ProgramExecutionTemporarilyRestricted { account_index } => {
            account_index_variant(out, "ProgramExecutionTemporarilyRestricted", account_index)
        }
    }
}

fn account_index_variant(out: &mut JsonOut, name: &str, account_index: u8) {
    out.raw("{");
    out.str(name);
    out.raw(":{\"account_index\":");
    out.u64(u64::from(account_index));
    out.raw("}}");
}

/// `"err":…,"status":…` (the deprecated `status` is `{"Ok":null}` or `{"Err":…}`).
pub(crate) fn write_err_and_status(out: &mut JsonOut, err: Option<&TxError>) {
    match err {
        None => out.raw("\"err\":null,\"status\":{\"Ok\":null}"),
        Some(e) => {
            out.raw("\"err\":");
            write_tx_error(out, e);
            out.raw(",\"status\":{\"Err\":");
            write_tx_error(out, e);
            out.raw("}");
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;

    fn json_of(err: &TxError) -> Value {
        let mut out = JsonOut::default();
        write_tx_error(&mut out, err);
        serde_json::from_str(&out.into_string().expect("text")).expect("valid JSON")
    }

    #[test]
    fn agaves_serde_forms() {
        assert_eq!(
            json_of(&TxError::Unit("AccountInUse")),
            json!("AccountInUse")
        );
        assert_eq!(
            json_of(&TxError::Instruction {
                index: 0,
                error: IxError::Custom(1)
            }),
            json!({"InstructionError": [0, {"Custom": 1}]})
        );
        assert_eq!(
            json_of(&TxError::Instruction {
                index: 3,
                error: IxError::Unit("BorshIoError")
            }),
            json!({"InstructionError": [3, "BorshIoError"]})
        );
        assert_eq!(
            json_of(&TxError::DuplicateInstruction(2)),
            json!({"DuplicateInstruction": 2})
        );
        assert_eq!(
            json_of(&TxError::InsufficientFundsForRent { account_index: 4 }),
            json!({"InsufficientFundsForRent": {"account_index": 4}})
        );
    }
}
