//! Agave's rewards (`solana.storage.ConfirmedBlock.Reward` / `Rewards` protobuf messages):
//! the `rewards` column's value per slot, and each transaction status's `rewards` list.

use super::proto::{Fields, Wire};

/// `RewardType` (protobuf enum; 0 and unknown values are "no type", as Agave reads them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardType {
    /// A leader's share of the transaction fees of its block (wire value 1).
    Fee,
    /// Rent collected from an account (wire value 2).
    Rent,
    /// An epoch's inflation reward to a stake account (wire value 3).
    Staking,
    /// An epoch's inflation reward to a vote account, its commission (wire value 4).
    Voting,
    /// Stake withdrawn from a deactivated delegation (Agave 4.x).
    DeactivatedStake,
    /// The burn of a validator admission ticket; its `lamports` are negative (Agave 4.x).
    VatDebit,
}

impl RewardType {
    fn from_wire(v: u64) -> Option<Self> {
        match v {
            1 => Some(Self::Fee),
            2 => Some(Self::Rent),
            3 => Some(Self::Staking),
            4 => Some(Self::Voting),
            5 => Some(Self::DeactivatedStake),
            6 => Some(Self::VatDebit),
            _ => None,
        }
    }

    /// The name Agave's JSON gives it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Fee => "Fee",
            Self::Rent => "Rent",
            Self::Staking => "Staking",
            Self::Voting => "Voting",
            Self::DeactivatedStake => "DeactivatedStake",
            Self::VatDebit => "VATDebit",
        }
    }

    /// The protobuf enum value (0, no type, is `None`).
    pub(crate) fn to_wire(self) -> u64 {
        match self {
            Self::Fee => 1,
            Self::Rent => 2,
            Self::Staking => 3,
            Self::Voting => 4,
            Self::DeactivatedStake => 5,
            Self::VatDebit => 6,
        }
    }
}

/// One reward, borrowing the stored bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reward<'a> {
    /// Base58 text, as stored (Agave stores the string).
    pub pubkey: &'a str,
    /// The change of the account's balance in lamports (negative for a debit).
    pub lamports: i64,
    /// The account's balance in lamports after the reward.
    pub post_balance: u64,
    /// What the reward is for (`None`: stored as 0 or an unknown value).
    pub reward_type: Option<RewardType>,
    /// Stored as text; anything that is not a `u8` reads as `None` (Agave's rule).
    pub commission: Option<u8>,
    /// The vote account's commission in basis points (field 6, text like `commission`);
    /// anything that is not a `u16` reads as `None`.
    pub commission_bps: Option<u16>,
}

impl<'a> Reward<'a> {
    /// Decodes one `Reward` message.
    pub(crate) fn decode(bytes: &'a [u8]) -> Result<Self, String> {
        let mut reward = Reward {
            pubkey: "",
            lamports: 0,
            post_balance: 0,
            reward_type: None,
            commission: None,
            commission_bps: None,
        };
        for field in Fields::new(bytes) {
            match field? {
                (1, v) => reward.pubkey = v.str("reward pubkey")?,
                (2, v) => reward.lamports = v.varint("reward lamports")? as i64,
                (3, v) => reward.post_balance = v.varint("reward post_balance")?,
                (4, v) => reward.reward_type = RewardType::from_wire(v.varint("reward type")?),
                (5, v) => reward.commission = v.str("reward commission")?.parse::<u8>().ok(),
                (6, v) => {
                    reward.commission_bps = v.str("reward commission_bps")?.parse::<u16>().ok()
                }
                _ => {}
            }
        }
        Ok(reward)
    }
}

/// A slot's rewards (`Rewards` message). A slot without a row has none (Agave's default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SlotRewards<'a> {
    /// Every reward of the slot, in stored order.
    pub rewards: Vec<Reward<'a>>,
    /// Set for blocks of partitioned epoch rewards.
    pub num_partitions: Option<u64>,
}

impl<'a> SlotRewards<'a> {
    /// Decodes the `rewards` column value. Each reward is at least 2 bytes on the wire, so
    /// the list never outgrows the input.
    pub fn decode(bytes: &'a [u8]) -> Result<Self, String> {
        let mut out = SlotRewards::default();
        for field in Fields::new(bytes) {
            match field? {
                (1, v) => out.rewards.push(Reward::decode(v.bytes("reward")?)?),
                (2, v) => out.num_partitions = Some(num_partitions(v)?),
                _ => {}
            }
        }
        Ok(out)
    }
}

fn num_partitions(v: Wire<'_>) -> Result<u64, String> {
    let mut n = 0;
    for field in Fields::new(v.bytes("num_partitions")?) {
        if let (1, v) = field? {
            n = v.varint("num_partitions")?;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reward(pubkey: &str, lamports: i64, kind: u8, commission: &str) -> Vec<u8> {
        let mut m = vec![0x0a, pubkey.len() as u8];
        m.extend_from_slice(pubkey.as_bytes());
        m.push(0x10);
        let mut v = lamports as u64;
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                m.push(b);
                break;
            }
            m.push(b | 0x80);
        }
        m.extend_from_slice(&[0x18, 5, 0x20, kind, 0x2a, commission.len() as u8]);
        m.extend_from_slice(commission.as_bytes());
        m
    }

    #[test]
    fn decodes_rewards_and_partitions() {
        let a = reward("Abc", -7, 4, "10");
        let b = reward("Def", 9, 9, "x");
        let mut msg = vec![0x0a, a.len() as u8];
        msg.extend_from_slice(&a);
        msg.extend_from_slice(&[0x0a, b.len() as u8]);
        msg.extend_from_slice(&b);
        msg.extend_from_slice(&[0x12, 2, 0x08, 3]);
        let r = SlotRewards::decode(&msg).expect("decodes");
        assert_eq!(r.num_partitions, Some(3));
        assert_eq!(
            r.rewards,
            [
                Reward {
                    pubkey: "Abc",
                    lamports: -7,
                    post_balance: 5,
                    reward_type: Some(RewardType::Voting),
                    commission: Some(10),
                    commission_bps: None
                },
                Reward {
                    pubkey: "Def",
                    lamports: 9,
                    post_balance: 5,
                    reward_type: None,
                    commission: None,
                    commission_bps: None
                },
            ]
        );
        assert_eq!(
            SlotRewards::decode(&[]).expect("empty"),
            SlotRewards::default()
        );
        assert!(SlotRewards::decode(&[0x0a, 9, 1]).is_err());
    }

    #[test]
    fn decodes_agave_4x_reward_types_and_commission_bps() {
        let mut m = reward("Stk", 5, 5, "7");
        m.extend_from_slice(&[0x32, 3]);
        m.extend_from_slice(b"725");
        let r = Reward::decode(&m).expect("decodes");
        assert_eq!(r.reward_type, Some(RewardType::DeactivatedStake));
        assert_eq!((r.commission, r.commission_bps), (Some(7), Some(725)));
        let mut m = reward("Vat", -1, 6, "");
        m.extend_from_slice(&[0x32, 5]);
        m.extend_from_slice(b"70000");
        let r = Reward::decode(&m).expect("decodes");
        assert_eq!(r.reward_type, Some(RewardType::VatDebit));
        assert_eq!(r.reward_type.map(RewardType::name), Some("VATDebit"));
        assert_eq!(
            (r.commission, r.commission_bps),
            (None, None),
            "70000 is not a u16"
        );
    }
}
