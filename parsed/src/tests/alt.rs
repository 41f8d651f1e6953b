//! Agave's `parse_address_lookup_table.rs` tests, transcribed.

use serde_json::json;

use crate::ids::{ADDRESS_LOOKUP_TABLE as ALT, SYSTEM};
use crate::tests::{Data, info, key, parsed, s};

#[test]
fn create_lookup_table() {
    let (table, authority, payer) = (key(1), key(2), key(3));
    let accounts = [table, authority, payer, SYSTEM];
    let data = Data::new().u32(0).u64(42).u8(254).0;
    assert_eq!(
        info(&ALT, &accounts, &data, "createLookupTable"),
        json!({
            "lookupTableAccount": s(&table),
            "lookupTableAuthority": s(&authority),
            "payerAccount": s(&payer),
            "systemProgram": "11111111111111111111111111111111",
            "recentSlot": 42,
            "bumpSeed": 254,
        })
    );
    assert_eq!(parsed(&ALT, &accounts[..3], &data), None);
    // A short field fails the decoding.
    assert_eq!(parsed(&ALT, &accounts, &data[..12]), None);
}

#[test]
fn freeze_deactivate_close() {
    let (table, authority, recipient) = (key(1), key(2), key(3));
    let two = json!({"lookupTableAccount": s(&table), "lookupTableAuthority": s(&authority)});
    for (variant, kind) in [(1, "freezeLookupTable"), (3, "deactivateLookupTable")] {
        let data = Data::new().u32(variant).0;
        assert_eq!(info(&ALT, &[table, authority], &data, kind), two);
        assert_eq!(parsed(&ALT, &[table], &data), None);
    }
    let data = Data::new().u32(4).0;
    assert_eq!(
        info(
            &ALT,
            &[table, authority, recipient],
            &data,
            "closeLookupTable"
        ),
        json!({
            "lookupTableAccount": s(&table),
            "lookupTableAuthority": s(&authority),
            "recipient": s(&recipient),
        })
    );
    assert_eq!(parsed(&ALT, &[table, authority], &data), None);
}

#[test]
fn extend_lookup_table() {
    let (table, authority, payer) = (key(1), key(2), key(3));
    // No payer, no addresses.
    let data = Data::new().u32(2).u64(0).0;
    assert_eq!(
        info(&ALT, &[table, authority], &data, "extendLookupTable"),
        json!({
            "lookupTableAccount": s(&table),
            "lookupTableAuthority": s(&authority),
            "newAddresses": [],
        })
    );
    assert_eq!(parsed(&ALT, &[table], &data), None);
    // Payer and system program, two addresses.
    let (a0, a1) = (key(8), key(9));
    let data = Data::new().u32(2).u64(2).key(&a0).key(&a1).0;
    assert_eq!(
        info(
            &ALT,
            &[table, authority, payer, SYSTEM],
            &data,
            "extendLookupTable"
        ),
        json!({
            "lookupTableAccount": s(&table),
            "lookupTableAuthority": s(&authority),
            "payerAccount": s(&payer),
            "systemProgram": s(&SYSTEM),
            "newAddresses": [s(&a0), s(&a1)],
        })
    );
    // Three accounts: the payer is only reported with the system program.
    let three = info(&ALT, &[table, authority, payer], &data, "extendLookupTable");
    assert_eq!(three.get("payerAccount"), None);
    // A count beyond the data is refused, not allocated.
    let data = Data::new().u32(2).u64(u64::MAX / 32).key(&a0).0;
    assert_eq!(parsed(&ALT, &[table, authority], &data), None);
}
