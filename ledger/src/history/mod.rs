//! Transaction history: what a validator writes into its ledger beside the shreds once it
//! has executed a block (`docs/history.md`). bstore never executes; it reads these rows to
//! serve them.
//!
//! - [`record`]: [`BlockRecord`], one block with its raw history rows, and its encoding.
//! - [`status`]: a `transaction_status` value ([`StatusMeta`]), with [`tx_error`] for its
//!   error and [`rewards`] for rewards (per transaction and per slot).
//! - [`memo`]: a `transaction_memos` value; [`encode`]: the writing side of all of them
//!   (synthetic ledgers and tests).
//! - `proto`: the protobuf wire reader under them.

pub mod encode;
pub mod memo;
mod proto;
pub mod record;
pub mod rewards;
pub mod status;
pub mod tx_error;

pub use encode::encode_memo;
pub use memo::decode_memo;
pub use record::BlockRecord;
pub use rewards::{Reward, RewardType, SlotRewards};
pub use status::{InnerInstruction, InnerInstructions, ReturnData, StatusMeta, TokenBalance};
pub use tx_error::{IxError, TxError};
