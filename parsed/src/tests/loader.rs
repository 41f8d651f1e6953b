//! Agave's `parse_bpf_loader.rs` tests, transcribed (accounts in the builders' order).

use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use crate::ids::{BPF_LOADER, BPF_UPGRADEABLE_LOADER as V3};
use crate::tests::{Data, info, key, keys, parsed, s};

#[test]
fn loader_v2_write_and_finalize() {
    let account = key(1);
    let bytes = vec![8u8; 99];
    let data = Data::new().u32(0).u32(4242).bincode_bytes(&bytes).0;
    assert_eq!(
        info(&BPF_LOADER, &[account], &data, "write"),
        json!({"offset": 4242, "bytes": BASE64.encode(&bytes), "account": s(&account)})
    );
    assert_eq!(parsed(&BPF_LOADER, &[], &data), None);

    let rent = key(2);
    let data = Data::new().u32(1).0;
    assert_eq!(
        info(&BPF_LOADER, &[account, rent], &data, "finalize"),
        json!({"account": s(&account)})
    );
    assert_eq!(parsed(&BPF_LOADER, &[account], &data), None);
    // Only two variants; no accounts at all fails too.
    assert_eq!(parsed(&BPF_LOADER, &keys(2), &[2, 0, 0, 0]), None);
    assert_eq!(parsed(&BPF_LOADER, &[], &[1, 0, 0, 0]), None);
}

#[test]
fn initialize_buffer() {
    let (buffer, authority) = (key(1), key(2));
    let data = Data::new().u32(0).0;
    assert_eq!(
        info(&V3, &[buffer, authority], &data, "initializeBuffer"),
        json!({"account": s(&buffer), "authority": s(&authority)})
    );
    assert_eq!(
        info(&V3, &[buffer], &data, "initializeBuffer"),
        json!({"account": s(&buffer)})
    );
    assert_eq!(parsed(&V3, &[], &data), None);
}

#[test]
fn write() {
    let (buffer, authority) = (key(1), key(2));
    let bytes = vec![8u8; 99];
    let data = Data::new().u32(1).u32(4242).bincode_bytes(&bytes).0;
    assert_eq!(
        info(&V3, &[buffer, authority], &data, "write"),
        json!({
            "offset": 4242,
            "bytes": BASE64.encode(&bytes),
            "account": s(&buffer),
            "authority": s(&authority),
        })
    );
    assert_eq!(parsed(&V3, &[buffer], &data), None);
}

#[test]
fn deploy_with_max_data_len() {
    let a = keys(8);
    let data = Data::new().u32(2).u64(54321).0;
    assert_eq!(
        info(&V3, &a, &data, "deployWithMaxDataLen"),
        json!({
            "maxDataLen": 54321,
            "payerAccount": s(&a[0]),
            "programDataAccount": s(&a[1]),
            "programAccount": s(&a[2]),
            "bufferAccount": s(&a[3]),
            "rentSysvar": s(&a[4]),
            "clockSysvar": s(&a[5]),
            "systemProgram": s(&a[6]),
            "authority": s(&a[7]),
        })
    );
    assert_eq!(parsed(&V3, &a[..7], &data), None);
}

#[test]
fn upgrade() {
    let a = keys(7);
    let data = Data::new().u32(3).0;
    assert_eq!(
        info(&V3, &a, &data, "upgrade"),
        json!({
            "programDataAccount": s(&a[0]),
            "programAccount": s(&a[1]),
            "bufferAccount": s(&a[2]),
            "spillAccount": s(&a[3]),
            "rentSysvar": s(&a[4]),
            "clockSysvar": s(&a[5]),
            "authority": s(&a[6]),
        })
    );
    assert_eq!(parsed(&V3, &a[..6], &data), None);
}

#[test]
fn set_authority_with_and_without_a_new_authority() {
    let (account, current, new) = (key(1), key(2), key(3));
    let data = Data::new().u32(4).0;
    assert_eq!(
        info(&V3, &[account, current, new], &data, "setAuthority"),
        json!({"account": s(&account), "authority": s(&current), "newAuthority": s(&new)})
    );
    assert_eq!(
        info(&V3, &[account, current], &data, "setAuthority"),
        json!({"account": s(&account), "authority": s(&current), "newAuthority": Value::Null})
    );
    assert_eq!(parsed(&V3, &[account], &data), None);

    let data = Data::new().u32(7).0;
    assert_eq!(
        info(&V3, &[account, current, new], &data, "setAuthorityChecked"),
        json!({"account": s(&account), "authority": s(&current), "newAuthority": s(&new)})
    );
    assert_eq!(parsed(&V3, &[account, current], &data), None);
}

#[test]
fn close_buffer_and_program() {
    let (account, recipient, authority, program) = (key(1), key(2), key(3), key(4));
    let data = Data::new().u32(5).0;
    assert_eq!(
        info(&V3, &[account, recipient, authority], &data, "close"),
        json!({
            "account": s(&account),
            "recipient": s(&recipient),
            "authority": s(&authority),
            "programAccount": Value::Null,
        })
    );
    assert_eq!(
        info(
            &V3,
            &[account, recipient, authority, program],
            &data,
            "close"
        ),
        json!({
            "account": s(&account),
            "recipient": s(&recipient),
            "authority": s(&authority),
            "programAccount": s(&program),
        })
    );
    assert_eq!(parsed(&V3, &[account, recipient], &data), None);
}

#[test]
fn extend_migrate_and_extend_checked() {
    let a = keys(5);
    let data = Data::new().u32(6).u32(1024).0;
    assert_eq!(
        info(&V3, &a[..2], &data, "extendProgram"),
        json!({
            "additionalBytes": 1024,
            "programDataAccount": s(&a[0]),
            "programAccount": s(&a[1]),
            "systemProgram": Value::Null,
            "payerAccount": Value::Null,
        })
    );
    assert_eq!(
        info(&V3, &a[..4], &data, "extendProgram"),
        json!({
            "additionalBytes": 1024,
            "programDataAccount": s(&a[0]),
            "programAccount": s(&a[1]),
            "systemProgram": s(&a[2]),
            "payerAccount": s(&a[3]),
        })
    );
    assert_eq!(parsed(&V3, &a[..1], &data), None);

    let data = Data::new().u32(8).0;
    assert_eq!(
        info(&V3, &a[..3], &data, "migrate"),
        json!({
            "programDataAccount": s(&a[0]),
            "programAccount": s(&a[1]),
            "authority": s(&a[2]),
        })
    );

    let data = Data::new().u32(9).u32(7).0;
    assert_eq!(
        info(&V3, &a, &data, "extendProgramChecked"),
        json!({
            "additionalBytes": 7,
            "programDataAccount": s(&a[0]),
            "programAccount": s(&a[1]),
            "authority": s(&a[2]),
            "systemProgram": s(&a[3]),
            "payerAccount": s(&a[4]),
        })
    );
    assert_eq!(parsed(&V3, &a[..2], &data), None);
    assert_eq!(parsed(&V3, &a, &Data::new().u32(10).0), None);
}
