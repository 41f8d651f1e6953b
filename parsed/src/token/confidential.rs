//! Token-2022's confidential-transfer extension (tag 27, `confidential_transfer.rs`), and
//! the helpers the confidential fee and mint/burn parsers share. Payloads are `bytemuck`
//! structs of exact size; ElGamal keys (32 bytes), ElGamal ciphertexts (64) and
//! authenticated-encryption ciphertexts (36) print as standard base64, as their `Display`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Map, Value, json};

use super::exact;
use crate::reader::Reader;
use crate::{Ix, Parsed, b58, nonzero_key, object, signers};

/// Standard base64 of a ciphertext or ElGamal key.
pub(super) fn b64(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// The sub-instruction's exact payload as a reader.
pub(super) fn payload<const N: usize>(rest: &[u8]) -> Option<Reader<'_>> {
    exact::<N>(rest)?;
    Some(Reader::new(rest.get(1..)?))
}

/// Agave's walk over the optional proof accounts after the named ones, starting at
/// `offset`: an instructions sysvar when any proof is in an instruction (non-zero offset),
/// then one account per proof (`<name>ContextStateAccount` for a context-state proof,
/// `<name>RecordAccount` otherwise), each only while at least one more account follows;
/// the next account is the owner (or a multisig and its signers).
pub(super) fn proof_accounts(
    info: &mut Map<String, Value>,
    accounts: &[[u8; 32]],
    mut offset: usize,
    proofs: &[(&str, i8)],
) -> Option<()> {
    let more = |offset: usize| offset + 1 < accounts.len();
    if more(offset) && proofs.iter().any(|&(_, o)| o != 0) {
        info.insert(
            "instructionsSysvar".into(),
            b58(accounts.get(offset)?).into(),
        );
        offset += 1;
    }
    for &(name, proof_offset) in proofs {
        if more(offset) {
            let suffix = if proof_offset == 0 {
                "ContextStateAccount"
            } else {
                "RecordAccount"
            };
            let key = b58(accounts.get(offset)?);
            info.insert(format!("{name}{suffix}"), key.into());
            offset += 1;
        }
    }
    signers(info, accounts, offset, "owner", "multisigOwner")
}

/// A single-proof instruction's accounts from index `at`: the context-state account for a
/// zero `offset`; else the instructions sysvar and, when more than `record_after` accounts
/// are present, a record account. Returns where the authority is.
pub(super) fn single_proof(
    info: &mut Map<String, Value>,
    ix: &Ix<'_>,
    at: usize,
    offset: i8,
    record_after: usize,
    record_name: &str,
) -> Option<usize> {
    if offset == 0 {
        info.insert("proofContextStateAccount".into(), ix.key(at)?.into());
        return Some(at + 1);
    }
    info.insert("instructionsSysvar".into(), ix.key(at)?.into());
    if ix.accounts.len() > record_after {
        info.insert(record_name.into(), ix.key(at + 1)?.into());
        return Some(at + 2);
    }
    Some(at + 1)
}

/// An account and its owner: the shape of the credit toggles.
fn owner_only(kind: &'static str, field: &str, ix: &Ix<'_>) -> Option<Parsed> {
    ix.need(2)?;
    let mut info = object(json!({field: ix.key(0)?}));
    signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
    Parsed::new(kind, info.into())
}

pub(super) fn parse(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    let k = |i| ix.key(i);
    match rest.first()? {
        0 => {
            let mut r = payload::<65>(rest)?;
            let authority = r.pubkey()?;
            let auto_approve = r.u8()? != 0;
            let auditor = r.pubkey()?;
            let mut info = object(json!({
                "mint": k(0)?,
                "autoApproveNewAccounts": auto_approve,
                "auditorElGamalPubkey": (auditor != [0; 32]).then(|| b64(&auditor)),
            }));
            if let Some(authority) = nonzero_key(&authority) {
                info.insert("authority".into(), authority.into());
            }
            Parsed::new("initializeConfidentialTransferMint", info.into())
        }
        1 => {
            ix.need(2)?;
            let mut r = payload::<33>(rest)?;
            let auto_approve = r.u8()? != 0;
            let auditor = r.pubkey()?;
            Parsed::new(
                "updateConfidentialTransferMint",
                json!({
                    "mint": k(0)?,
                    "confidentialTransferMintAuthority": k(1)?,
                    "autoApproveNewAccounts": auto_approve,
                    "auditorElGamalPubkey": (auditor != [0; 32]).then(|| b64(&auditor)),
                }),
            )
        }
        2 => {
            ix.need(4)?;
            let mut r = payload::<45>(rest)?;
            let zero_balance = b64(r.bytes(36)?);
            let max_credits = r.u64()?;
            let offset = r.i8()?;
            let mut info = object(json!({
                "account": k(0)?,
                "mint": k(1)?,
                "decryptableZeroBalance": zero_balance,
                "maximumPendingBalanceCreditCounter": max_credits,
                "proofInstructionOffset": offset,
            }));
            let at = single_proof(&mut info, ix, 2, offset, 4, "recordAccount")?;
            signers(&mut info, ix.accounts, at, "owner", "multisigOwner")?;
            Parsed::new("configureConfidentialTransferAccount", info.into())
        }
        3 => {
            ix.need(3)?;
            Parsed::new(
                "approveConfidentialTransferAccount",
                json!({
                    "account": k(0)?,
                    "mint": k(1)?,
                    "confidentialTransferAuditorAuthority": k(2)?,
                }),
            )
        }
        4 => {
            ix.need(3)?;
            let offset = payload::<1>(rest)?.i8()?;
            let mut info = object(json!({"account": k(0)?, "proofInstructionOffset": offset}));
            let at = single_proof(&mut info, ix, 1, offset, 3, "recordAccount")?;
            signers(&mut info, ix.accounts, at, "owner", "multisigOwner")?;
            Parsed::new("emptyConfidentialTransferAccount", info.into())
        }
        5 => {
            ix.need(4)?;
            let mut r = payload::<9>(rest)?;
            let (amount, decimals) = (r.u64()?, r.u8()?);
            let mut info = object(json!({
                "source": k(0)?,
                "destination": k(1)?,
                "mint": k(2)?,
                "amount": amount,
                "decimals": decimals,
            }));
            signers(&mut info, ix.accounts, 3, "owner", "multisigOwner")?;
            Parsed::new("depositConfidentialTransfer", info.into())
        }
        6 => {
            ix.need(5)?;
            let mut r = payload::<47>(rest)?;
            let (amount, decimals) = (r.u64()?, r.u8()?);
            let balance = b64(r.bytes(36)?);
            let (equality, range) = (r.i8()?, r.i8()?);
            let mut info = object(json!({
                "source": k(0)?,
                "destination": k(1)?,
                "mint": k(2)?,
                "amount": amount,
                "decimals": decimals,
                "newDecryptableAvailableBalance": balance,
                "equalityProofInstructionOffset": equality,
                "rangeProofInstructionOffset": range,
            }));
            let proofs = [("equalityProof", equality), ("rangeProof", range)];
            proof_accounts(&mut info, ix.accounts, 3, &proofs)?;
            Parsed::new("withdrawConfidentialTransfer", info.into())
        }
        7 => transfer(rest, ix),
        8 => {
            ix.need(2)?;
            let mut r = payload::<44>(rest)?;
            let expected = r.u64()?;
            let balance = b64(r.bytes(36)?);
            let mut info = object(json!({
                "account": k(0)?,
                "newDecryptableAvailableBalance": balance,
                "expectedPendingBalanceCreditCounter": expected,
            }));
            signers(&mut info, ix.accounts, 1, "owner", "multisigOwner")?;
            Parsed::new("applyPendingConfidentialTransferBalance", info.into())
        }
        9 => owner_only(
            "enableConfidentialTransferConfidentialCredits",
            "account",
            ix,
        ),
        10 => owner_only(
            "disableConfidentialTransferConfidentialCredits",
            "account",
            ix,
        ),
        11 => owner_only(
            "enableConfidentialTransferNonConfidentialCredits",
            "account",
            ix,
        ),
        12 => owner_only(
            "disableConfidentialTransferNonConfidentialCredits",
            "account",
            ix,
        ),
        13 => transfer_with_fee(rest, ix),
        14 => {
            ix.need(3)?;
            Parsed::new(
                "configureConfidentialAccountWithRegistry",
                json!({"account": k(0)?, "mint": k(1)?, "registry": k(2)?}),
            )
        }
        _ => None,
    }
}

/// `Transfer`: the new balance, two auditor ciphertexts (not printed), three proofs.
fn transfer(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    ix.need(4)?;
    let mut r = payload::<167>(rest)?;
    let balance = b64(r.bytes(36)?);
    r.bytes(128)?;
    let (equality, validity, range) = (r.i8()?, r.i8()?, r.i8()?);
    let mut info = object(json!({
        "source": ix.key(0)?,
        "mint": ix.key(1)?,
        "destination": ix.key(2)?,
        "newSourceDecryptableAvailableBalance": balance,
        "equalityProofInstructionOffset": equality,
        "ciphertextValidityProofInstructionOffset": validity,
        "rangeProofInstructionOffset": range,
    }));
    let proofs = [
        ("equalityProof", equality),
        ("ciphertextValidityProof", validity),
        ("rangeProof", range),
    ];
    proof_accounts(&mut info, ix.accounts, 3, &proofs)?;
    Parsed::new("confidentialTransfer", info.into())
}

/// `TransferWithFee`: as `Transfer` with five proofs (the fee sigma proof comes before
/// the fee validity proof in the data, after it among the accounts).
fn transfer_with_fee(rest: &[u8], ix: &Ix<'_>) -> Option<Parsed> {
    ix.need(4)?;
    let mut r = payload::<169>(rest)?;
    let balance = b64(r.bytes(36)?);
    r.bytes(128)?;
    let equality = r.i8()?;
    let amount_validity = r.i8()?;
    let fee_sigma = r.i8()?;
    let fee_validity = r.i8()?;
    let range = r.i8()?;
    let mut info = object(json!({
        "source": ix.key(0)?,
        "mint": ix.key(1)?,
        "destination": ix.key(2)?,
        "newSourceDecryptableAvailableBalance": balance,
        "equalityProofInstructionOffset": equality,
        "transferAmountCiphertextValidityProofInstructionOffset": amount_validity,
        "feeCiphertextValidityProofInstructionOffset": fee_validity,
        "feeSigmaProofInstructionOffset": fee_sigma,
        "rangeProofInstructionOffset": range,
    }));
    let proofs = [
        ("equalityProof", equality),
        ("transferAmountCiphertextValidityProof", amount_validity),
        ("feeCiphertextValidityProof", fee_validity),
        ("feeSigmaProof", fee_sigma),
        ("rangeProof", range),
    ];
    proof_accounts(&mut info, ix.accounts, 3, &proofs)?;
    Parsed::new("confidentialTransferWithFee", info.into())
}

#[cfg(test)]
#[path = "../tests/token_confidential.rs"]
mod tests;
