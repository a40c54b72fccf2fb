//! Inputs that were superlinear (issue 17): each runs a size that took seconds before its
//! fix and takes milliseconds after, and asserts the exact result. No timing is asserted:
//! a regression shows as a slow test.

use relay_core::{AdtTable, TyCtx};

/// 300,000 data types declared one by one (each was inserted into a sorted list: 18 s),
/// listed sorted by name, the later of two of one name after the earlier.
#[test]
fn many_data_types_are_declared_in_n_log_n() {
    let mut tcx = TyCtx::new();
    let mut table = AdtTable::default();
    let n = 300_000;
    for i in (0..n).rev() {
        table.declare(&mut tcx, &format!("T{i:06}"), &[]).unwrap();
    }
    let again = table.declare(&mut tcx, "T000007", &[]).unwrap();
    let sorted = table.adts(&tcx);
    assert_eq!(sorted.len(), n + 1);
    let names: Vec<&str> = sorted[..9]
        .iter()
        .map(|&a| &*tcx.adt_info(a).name)
        .collect();
    assert_eq!(
        names,
        [
            "T000000", "T000001", "T000002", "T000003", "T000004", "T000005", "T000006", "T000007",
            "T000007"
        ]
    );
    assert_eq!(sorted[8], again);
    assert_eq!(table.adt("T000007"), Some(again));
}
