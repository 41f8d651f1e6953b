//! Agave's `TransactionStatusMeta` protobuf (the `transaction_status` column's value),
//! decoded as a view over the stored bytes, with Agave's reading rules
//! (`solana-storage-proto` conversions): the `*_none` flags turn empty lists into absent
//! ones, token balances and rewards are always present (possibly empty), an empty
//! `ui_amount_string` is derived from `amount` and `decimals`, a zero `ui_amount` is absent.
//! Where Agave's conversion would fail (a bad error encoding, an address that is not 32
//! bytes), decoding fails: Agave then treats the status as missing.

use super::proto::{Fields, Wire, last_field, push_u64s};
use super::rewards::Reward;
use super::tx_error::TxError;

/// One inner instruction (`program_id_index` and indexes are Agave's truncation to `u8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InnerInstruction<'a> {
    /// Index of the invoked program in the transaction's account keys (loaded addresses included).
    pub program_id_index: u8,
    /// One byte per account the instruction passes: its index in the account keys.
    pub accounts: &'a [u8],
    /// The instruction data, as stored.
    pub data: &'a [u8],
    /// Invocation depth (1 for top level, 2 for its first CPI level...); `None` when the ledger did
    /// not record it (older validators).
    pub stack_height: Option<u32>,
}

/// The inner instructions of one top-level instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerInstructions<'a> {
    /// Index of the top-level instruction, in the transaction's message, that made these.
    pub index: u8,
    /// The inner instructions in execution order.
    pub instructions: Vec<InnerInstruction<'a>>,
}

/// A token balance before or after the transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenBalance<'a> {
    /// Index of the token account in the transaction's account keys.
    pub account_index: u8,
    /// The token's mint address, base58 as stored.
    pub mint: &'a str,
    /// The balance scaled by `decimals` (`None` when zero or not stored).
    pub ui_amount: Option<f64>,
    /// Number of decimal places of the mint.
    pub decimals: u8,
    /// The raw token amount as decimal text of a `u64`, as stored.
    pub amount: &'a str,
    /// As stored; `None` when stored empty (then [`Self::ui_amount_string`] derives it).
    pub stored_ui_amount_string: Option<&'a str>,
    /// Empty when not stored (then Agave's JSON omits it).
    pub owner: &'a str,
    /// The token program that owns the account (base58; empty when not stored).
    pub program_id: &'a str,
}

impl TokenBalance<'_> {
    /// `uiAmountString`: as stored, or `amount` scaled by `decimals` with trailing zeros
    /// (and a trailing point) trimmed; an amount that is not a `u64` counts as 0 (Agave).
    pub fn ui_amount_string(&self) -> String {
        if let Some(s) = self.stored_ui_amount_string {
            return s.to_string();
        }
        let amount: u64 = self.amount.parse().unwrap_or_default();
        let decimals = usize::from(self.decimals);
        if decimals == 0 {
            return amount.to_string();
        }
        let digits = format!("{amount:0>width$}", width = decimals + 1);
        let (int, frac) = digits.split_at(digits.len() - decimals);
        let frac = frac.trim_end_matches('0');
        if frac.is_empty() {
            int.to_string()
        } else {
            format!("{int}.{frac}")
        }
    }
}

/// Return data of the transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReturnData<'a> {
    /// The program that set the return data.
    pub program_id: &'a [u8; 32],
    /// The bytes the program returned.
    pub data: &'a [u8],
}

/// A transaction's status, borrowing the stored bytes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StatusMeta<'a> {
    /// `None`: the transaction succeeded.
    pub err: Option<TxError>,
    /// Fee charged, in lamports.
    pub fee: u64,
    /// Balance of each account key, in lamports, before the transaction (in account-key order,
    /// loaded addresses last).
    pub pre_balances: Vec<u64>,
    /// Balance of each account key, in lamports, after the transaction (same order as
    /// `pre_balances`).
    pub post_balances: Vec<u64>,
    /// Instructions invoked by the top-level instructions (`None`: not recorded, which Agave shows
    /// as null).
    pub inner_instructions: Option<Vec<InnerInstructions<'a>>>,
    /// Program log lines (`None`: not recorded, which Agave shows as null).
    pub log_messages: Option<Vec<&'a str>>,
    /// Token balances before the transaction (empty when there are none or none were recorded).
    pub pre_token_balances: Vec<TokenBalance<'a>>,
    /// Token balances after the transaction.
    pub post_token_balances: Vec<TokenBalance<'a>>,
    /// Rewards credited by this transaction (usually empty).
    pub rewards: Vec<Reward<'a>>,
    /// Writable addresses loaded from address lookup tables, in lookup order.
    pub loaded_writable: Vec<&'a [u8; 32]>,
    /// Read-only addresses loaded from address lookup tables, in lookup order.
    pub loaded_readonly: Vec<&'a [u8; 32]>,
    /// Data the transaction returned (`None`: nothing was returned or recorded).
    pub return_data: Option<ReturnData<'a>>,
    /// Compute units the transaction consumed (`None`: not recorded).
    pub compute_units_consumed: Option<u64>,
    /// Cost units the scheduler charged the transaction (`None`: not recorded).
    pub cost_units: Option<u64>,
}

impl<'a> StatusMeta<'a> {
    /// Decodes a `transaction_status` value. Every list grows by at most one item per input
    /// byte, so a hostile value costs at most its own size.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, String> {
        let mut m = StatusMeta::default();
        let (mut inner, mut logs) = (Vec::new(), Vec::new());
        let (mut inner_none, mut logs_none, mut return_none) = (false, false, false);
        let mut return_data = None;
        for field in Fields::new(bytes) {
            match field? {
                (1, v) => m.err = Some(tx_error(v)?),
                (2, v) => m.fee = v.varint("fee")?,
                (3, v) => push_u64s(v, &mut m.pre_balances, "pre_balances")?,
                (4, v) => push_u64s(v, &mut m.post_balances, "post_balances")?,
                (5, v) => inner.push(inner_instructions(v.bytes("inner_instructions")?)?),
                (6, v) => logs.push(v.str("log_messages")?),
                (7, v) => m
                    .pre_token_balances
                    .push(token_balance(v.bytes("pre_token_balances")?)?),
                (8, v) => m
                    .post_token_balances
                    .push(token_balance(v.bytes("post_token_balances")?)?),
                (9, v) => m.rewards.push(Reward::decode(v.bytes("rewards")?)?),
                (10, v) => inner_none = v.varint("inner_instructions_none")? != 0,
                (11, v) => logs_none = v.varint("log_messages_none")? != 0,
                (12, v) => m
                    .loaded_writable
                    .push(address(v, "loaded_writable_addresses")?),
                (13, v) => m
                    .loaded_readonly
                    .push(address(v, "loaded_readonly_addresses")?),
                (14, v) => return_data = Some(v.bytes("return_data")?),
                (15, v) => return_none = v.varint("return_data_none")? != 0,
                (16, v) => m.compute_units_consumed = Some(v.varint("compute_units_consumed")?),
                (17, v) => m.cost_units = Some(v.varint("cost_units")?),
                _ => {}
            }
        }
        m.inner_instructions = (!inner_none).then_some(inner);
        m.log_messages = (!logs_none).then_some(logs);
        m.return_data = match (return_none, return_data) {
            (false, Some(bytes)) => Some(return_data_of(bytes)?),
            _ => None,
        };
        Ok(m)
    }

    /// Only the `err` of a `transaction_status` value (`getSignaturesForAddress` shows no
    /// other field): the other fields are walked, their framing checked, their contents not
    /// decoded. Whenever [`Self::decode`] succeeds this gives its `err`; a value whose other
    /// fields are damaged inside may still give its error here.
    pub fn decode_err(bytes: &[u8]) -> Result<Option<TxError>, String> {
        last_field(bytes, 1)?.map(tx_error).transpose()
    }

    /// Whether the transaction succeeded.
    pub fn is_ok(&self) -> bool {
        self.err.is_none()
    }
}

fn tx_error(v: Wire<'_>) -> Result<TxError, String> {
    let mut err = &[][..];
    for field in Fields::new(v.bytes("err")?) {
        if let (1, v) = field? {
            err = v.bytes("err")?;
        }
    }
    TxError::decode(err)
}

fn address<'a>(v: Wire<'a>, field: &str) -> Result<&'a [u8; 32], String> {
    let bytes = v.bytes(field)?;
    bytes
        .try_into()
        .map_err(|_| format!("{field}: {} bytes, expected 32", bytes.len()))
}

fn inner_instructions(bytes: &[u8]) -> Result<InnerInstructions<'_>, String> {
    let mut out = InnerInstructions {
        index: 0,
        instructions: Vec::new(),
    };
    for field in Fields::new(bytes) {
        match field? {
            (1, v) => out.index = v.u32("inner index")? as u8,
            (2, v) => out
                .instructions
                .push(inner_instruction(v.bytes("inner instruction")?)?),
            _ => {}
        }
    }
    Ok(out)
}

fn inner_instruction(bytes: &[u8]) -> Result<InnerInstruction<'_>, String> {
    let mut ix = InnerInstruction {
        program_id_index: 0,
        accounts: &[],
        data: &[],
        stack_height: None,
    };
    for field in Fields::new(bytes) {
        match field? {
            (1, v) => ix.program_id_index = v.u32("program_id_index")? as u8,
            (2, v) => ix.accounts = v.bytes("accounts")?,
            (3, v) => ix.data = v.bytes("data")?,
            (4, v) => ix.stack_height = Some(v.u32("stack_height")?),
            _ => {}
        }
    }
    Ok(ix)
}

fn token_balance(bytes: &[u8]) -> Result<TokenBalance<'_>, String> {
    let mut b = TokenBalance {
        account_index: 0,
        mint: "",
        ui_amount: None,
        decimals: 0,
        amount: "",
        stored_ui_amount_string: None,
        owner: "",
        program_id: "",
    };
    for field in Fields::new(bytes) {
        match field? {
            (1, v) => b.account_index = v.u32("account_index")? as u8,
            (2, v) => b.mint = v.str("mint")?,
            (3, v) => ui_token_amount(v.bytes("ui_token_amount")?, &mut b)?,
            (4, v) => b.owner = v.str("owner")?,
            (5, v) => b.program_id = v.str("program_id")?,
            _ => {}
        }
    }
    Ok(b)
}

fn ui_token_amount<'a>(bytes: &'a [u8], b: &mut TokenBalance<'a>) -> Result<(), String> {
    for field in Fields::new(bytes) {
        match field? {
            (1, v) => {
                let ui = v.f64("ui_amount")?;
                // Agave: a stored amount within EPSILON of zero is absent.
                b.ui_amount = ((ui - 0.0).abs() > f64::EPSILON).then_some(ui);
            }
            (2, v) => b.decimals = v.u32("decimals")? as u8,
            (3, v) => b.amount = v.str("amount")?,
            (4, v) => {
                let s = v.str("ui_amount_string")?;
                b.stored_ui_amount_string = (!s.is_empty()).then_some(s);
            }
            _ => {}
        }
    }
    Ok(())
}

fn return_data_of(bytes: &[u8]) -> Result<ReturnData<'_>, String> {
    let (mut program_id, mut data) = (&[][..], &[][..]);
    for field in Fields::new(bytes) {
        match field? {
            (1, v) => program_id = v.bytes("return_data program_id")?,
            (2, v) => data = v.bytes("return_data data")?,
            _ => {}
        }
    }
    let program_id = program_id.try_into().map_err(|_| {
        format!(
            "return_data program_id: {} bytes, expected 32",
            program_id.len()
        )
    })?;
    Ok(ReturnData { program_id, data })
}

#[cfg(test)]
#[path = "status_tests.rs"]
mod tests;
