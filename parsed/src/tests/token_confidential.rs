//! The confidential extensions. Agave's own tests only check that 0 to 19 accounts never
//! panic (kept here as a sweep); the expected values below follow its parser code: payload
//! sizes, base64 ciphertexts and keys, and the proof-account walk.

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use crate::ids::SPL_TOKEN_2022 as T22;
use crate::tests::{Data, info, key, parsed, s};

fn b64(bytes: &[u8]) -> String {
    BASE64.encode(bytes)
}

/// `(tag, sub-instruction, payload size)` of every confidential sub-instruction.
const SHAPES: [(u8, u8, usize); 27] = [
    (27, 0, 65),
    (27, 1, 33),
    (27, 2, 45),
    (27, 3, 0),
    (27, 4, 1),
    (27, 5, 9),
    (27, 6, 47),
    (27, 7, 167),
    (27, 8, 44),
    (27, 9, 0),
    (27, 10, 0),
    (27, 11, 0),
    (27, 12, 0),
    (27, 13, 169),
    (27, 14, 0),
    (37, 0, 64),
    (37, 1, 37),
    (37, 2, 38),
    (37, 3, 0),
    (37, 4, 0),
    (37, 5, 0),
    (42, 0, 68),
    (42, 1, 33),
    (42, 2, 36),
    (42, 3, 167),
    (42, 4, 167),
    (42, 5, 0),
];

#[test]
fn any_account_count_parses_or_falls_back_without_panic() {
    let accounts: Vec<[u8; 32]> = (1..=20).map(key).collect();
    for (tag, sub, size) in SHAPES {
        for fill in [0u8, 1, 0xff] {
            let data = Data::new().u8(tag).u8(sub).bytes(&vec![fill; size]).0;
            let mut parsed_any = false;
            for n in 0..20 {
                parsed_any |= parsed(&T22, &accounts[..n], &data).is_some();
            }
            // (All-0xff payloads may ask for 255 source accounts.)
            assert!(parsed_any || fill == 0xff, "{tag}/{sub} never parses");
            // One byte more or less than the exact payload is refused where a payload is
            // decoded.
            if size > 0 {
                let short = &data[..data.len() - 1];
                assert_eq!(parsed(&T22, &accounts, short), None, "{tag}/{sub}");
            }
        }
    }
}

#[test]
fn initialize_and_update_mint() {
    let (mint, authority) = (key(1), key(2));
    let auditor = [7u8; 32];
    let data = Data::new()
        .u8(27)
        .u8(0)
        .key(&authority)
        .u8(1)
        .key(&auditor)
        .0;
    assert_eq!(
        info(&T22, &[mint], &data, "initializeConfidentialTransferMint"),
        json!({
            "mint": s(&mint),
            "authority": s(&authority),
            "autoApproveNewAccounts": true,
            "auditorElGamalPubkey": b64(&auditor),
        })
    );
    let data = Data::new().u8(27).u8(0).key(&[0; 32]).u8(0).key(&[0; 32]).0;
    assert_eq!(
        info(&T22, &[mint], &data, "initializeConfidentialTransferMint"),
        json!({"mint": s(&mint), "autoApproveNewAccounts": false, "auditorElGamalPubkey": null})
    );
    let data = Data::new().u8(27).u8(1).u8(2).key(&auditor).0;
    assert_eq!(
        info(
            &T22,
            &[mint, authority],
            &data,
            "updateConfidentialTransferMint"
        ),
        json!({
            "mint": s(&mint),
            "confidentialTransferMintAuthority": s(&authority),
            "autoApproveNewAccounts": true,
            "auditorElGamalPubkey": b64(&auditor),
        })
    );
}

#[test]
fn configure_account_context_state_or_instruction_proof() {
    let k: Vec<[u8; 32]> = (1..=6).map(key).collect();
    let balance = [3u8; 36];
    let data = |offset: u8| {
        Data::new()
            .u8(27)
            .u8(2)
            .bytes(&balance)
            .u64(65536)
            .u8(offset)
            .0
    };
    let base = json!({
        "account": s(&k[0]),
        "mint": s(&k[1]),
        "decryptableZeroBalance": b64(&balance),
        "maximumPendingBalanceCreditCounter": 65536,
    });
    let mut expected = base.clone();
    expected["proofInstructionOffset"] = json!(0);
    expected["proofContextStateAccount"] = json!(s(&k[2]));
    expected["owner"] = json!(s(&k[3]));
    let kind = "configureConfidentialTransferAccount";
    assert_eq!(info(&T22, &k[..4], &data(0), kind), expected);
    // Offset -1 (0xff): the instructions sysvar, then a record account when a fifth
    // account is present.
    let mut expected = base;
    expected["proofInstructionOffset"] = json!(-1);
    expected["instructionsSysvar"] = json!(s(&k[2]));
    expected["owner"] = json!(s(&k[3]));
    assert_eq!(info(&T22, &k[..4], &data(0xff), kind), expected);
    expected["recordAccount"] = json!(s(&k[3]));
    expected["owner"] = json!(s(&k[4]));
    assert_eq!(info(&T22, &k[..5], &data(0xff), kind), expected);
    assert_eq!(parsed(&T22, &k[..3], &data(0)), None);
}

#[test]
fn transfer_proof_accounts_fill_in_order() {
    let k: Vec<[u8; 32]> = (1..=9).map(key).collect();
    let balance = [9u8; 36];
    let data = |offsets: [u8; 3]| {
        Data::new()
            .u8(27)
            .u8(7)
            .bytes(&balance)
            .bytes(&[0; 128])
            .bytes(&offsets)
            .0
    };
    let base = |offsets: [i8; 3]| -> Value {
        json!({
            "source": s(&k[0]),
            "mint": s(&k[1]),
            "destination": s(&k[2]),
            "newSourceDecryptableAvailableBalance": b64(&balance),
            "equalityProofInstructionOffset": offsets[0],
            "ciphertextValidityProofInstructionOffset": offsets[1],
            "rangeProofInstructionOffset": offsets[2],
        })
    };
    // All proofs in context-state accounts: three accounts, then the owner.
    let mut expected = base([0, 0, 0]);
    expected["equalityProofContextStateAccount"] = json!(s(&k[3]));
    expected["ciphertextValidityProofContextStateAccount"] = json!(s(&k[4]));
    expected["rangeProofContextStateAccount"] = json!(s(&k[5]));
    expected["owner"] = json!(s(&k[6]));
    assert_eq!(
        info(&T22, &k[..7], &data([0, 0, 0]), "confidentialTransfer"),
        expected
    );
    // Proofs in instructions: the sysvar first, then record accounts while accounts last.
    // With six accounts: the sysvar, one record account, then the owner...
    let got = info(&T22, &k[..6], &data([1, 2, 0]), "confidentialTransfer");
    assert_eq!(got["instructionsSysvar"], json!(s(&k[3])));
    assert_eq!(got["equalityProofRecordAccount"], json!(s(&k[4])));
    assert_eq!(got["owner"], json!(s(&k[5])));
    // ...and with only four, the fourth is the owner.
    let got = info(&T22, &k[..4], &data([1, 2, 0]), "confidentialTransfer");
    assert_eq!(got.get("instructionsSysvar"), None);
    assert_eq!(got["owner"], json!(s(&k[3])));
}

#[test]
fn transfer_with_fee_labels_follow_agave_order() {
    let k: Vec<[u8; 32]> = (1..=10).map(key).collect();
    // Data order: equality, amount validity, fee sigma, fee validity, range.
    let data = Data::new()
        .u8(27)
        .u8(13)
        .bytes(&[0; 36])
        .bytes(&[0; 128])
        .bytes(&[0, 0, 5, 0, 0])
        .0;
    let got = info(&T22, &k[..10], &data, "confidentialTransferWithFee");
    assert_eq!(got["feeSigmaProofInstructionOffset"], json!(5));
    assert_eq!(got["feeCiphertextValidityProofInstructionOffset"], json!(0));
    assert_eq!(got["instructionsSysvar"], json!(s(&k[3])));
    assert_eq!(got["equalityProofContextStateAccount"], json!(s(&k[4])));
    assert_eq!(
        got["transferAmountCiphertextValidityProofContextStateAccount"],
        json!(s(&k[5]))
    );
    assert_eq!(
        got["feeCiphertextValidityProofContextStateAccount"],
        json!(s(&k[6]))
    );
    assert_eq!(got["feeSigmaProofRecordAccount"], json!(s(&k[7])));
    assert_eq!(got["rangeProofContextStateAccount"], json!(s(&k[8])));
    assert_eq!(got["owner"], json!(s(&k[9])));
}

#[test]
fn deposit_withdraw_apply_and_toggles() {
    let k: Vec<[u8; 32]> = (1..=6).map(key).collect();
    let data = Data::new().u8(27).u8(5).u64(1000).u8(6).0;
    assert_eq!(
        info(&T22, &k[..4], &data, "depositConfidentialTransfer"),
        json!({
            "source": s(&k[0]),
            "destination": s(&k[1]),
            "mint": s(&k[2]),
            "amount": 1000,
            "decimals": 6,
            "owner": s(&k[3]),
        })
    );
    let balance = [4u8; 36];
    let data = Data::new().u8(27).u8(8).u64(12).bytes(&balance).0;
    assert_eq!(
        info(
            &T22,
            &k[..2],
            &data,
            "applyPendingConfidentialTransferBalance"
        ),
        json!({
            "account": s(&k[0]),
            "newDecryptableAvailableBalance": b64(&balance),
            "expectedPendingBalanceCreditCounter": 12,
            "owner": s(&k[1]),
        })
    );
    let toggles = [
        (9, "enableConfidentialTransferConfidentialCredits"),
        (10, "disableConfidentialTransferConfidentialCredits"),
        (11, "enableConfidentialTransferNonConfidentialCredits"),
        (12, "disableConfidentialTransferNonConfidentialCredits"),
    ];
    for (sub, kind) in toggles {
        assert_eq!(
            info(&T22, &k[..2], &[27, sub], kind),
            json!({"account": s(&k[0]), "owner": s(&k[1])})
        );
    }
    assert_eq!(
        info(
            &T22,
            &k[..3],
            &[27, 14],
            "configureConfidentialAccountWithRegistry"
        ),
        json!({"account": s(&k[0]), "mint": s(&k[1]), "registry": s(&k[2])})
    );
    assert_eq!(parsed(&T22, &k, &[27, 15]), None);
}

#[test]
fn confidential_fee_and_mint_burn() {
    let k: Vec<[u8; 32]> = (1..=8).map(key).collect();
    let elgamal = [5u8; 32];
    let data = Data::new().u8(37).u8(0).key(&[0; 32]).key(&elgamal).0;
    assert_eq!(
        info(
            &T22,
            &k[..1],
            &data,
            "initializeConfidentialTransferFeeConfig"
        ),
        json!({"mint": s(&k[0]), "withdrawWithheldAuthorityElGamalPubkey": b64(&elgamal)})
    );
    // From accounts: two sources at the end, a proof in a context-state account.
    let balance = [6u8; 36];
    let data = Data::new().u8(37).u8(2).u8(2).u8(0).bytes(&balance).0;
    let expected: Value = json!({
        "mint": s(&k[0]),
        "feeRecipient": s(&k[1]),
        "proofInstructionOffset": 0,
        "newDecryptableAvailableBalance": b64(&balance),
        "proofContextStateAccount": s(&k[2]),
        "withdrawWithheldAuthority": s(&k[3]),
        "sourceAccounts": [s(&k[4]), s(&k[5])],
    });
    assert_eq!(
        info(
            &T22,
            &k[..6],
            &data,
            "withdrawWithheldConfidentialTransferTokensFromAccounts"
        ),
        expected
    );
    assert_eq!(parsed(&T22, &k[..5], &data), None);

    let supply = [8u8; 36];
    let data = Data::new().u8(42).u8(0).key(&elgamal).bytes(&supply).0;
    assert_eq!(
        info(&T22, &k[..1], &data, "initializeConfidentialMintBurnMint"),
        json!({
            "mint": s(&k[0]),
            "supplyElGamalPubkey": b64(&elgamal),
            "decryptableSupply": b64(&supply),
        })
    );
    let data = Data::new().u8(42).u8(1).key(&elgamal).u8(0).0;
    assert_eq!(
        info(
            &T22,
            &k[..3],
            &data,
            "rotateConfidentialMintBurnSupplyElGamalPubkey"
        ),
        json!({
            "mint": s(&k[0]),
            "newSupplyElGamalPubkey": b64(&elgamal),
            "proofInstructionOffset": 0,
            "proofAccount": s(&k[1]),
            "owner": s(&k[2]),
        })
    );
    let data = Data::new()
        .u8(42)
        .u8(4)
        .bytes(&supply)
        .bytes(&[0; 128])
        .bytes(&[0, 0, 0])
        .0;
    let got = info(&T22, &k[..7], &data, "confidentialBurn");
    assert_eq!(got["newDecryptableAvailableBalance"], json!(b64(&supply)));
    assert_eq!(got["equalityProofContextStateAccount"], json!(s(&k[2])));
    assert_eq!(got["rangeProofContextStateAccount"], json!(s(&k[4])));
    assert_eq!(got["multisigOwner"], json!(s(&k[5])));
    assert_eq!(got["signers"], json!([s(&k[6])]));
    assert_eq!(
        info(&T22, &k[..2], &[42, 5], "applyPendingBurn"),
        json!({"mint": s(&k[0]), "owner": s(&k[1])})
    );
}
