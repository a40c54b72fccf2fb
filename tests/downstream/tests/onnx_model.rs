//! The crate's operator `my.patches` is also the ONNX operator `Patches` of domain
//! `com.example` (its `onnx` clause in `src/lib.rs`): its mapping is in relay-onnx's
//! table, and the checker types its nodes with its relation (`command.rs` checks the
//! models of `models/` with the crate's own `relay` command).

#[test]
fn the_mapping_is_in_relay_onnxs_table() {
    // Linked, as the command links it.
    use relay_downstream_example as _;
    use relay_onnx::ops::{find, Arg, AttrFrom, Outputs};
    let op = find("com.example", "Patches", 1).unwrap();
    assert_eq!(
        (op.relay, op.since, op.outputs),
        ("my.patches", 1, Outputs::One)
    );
    assert_eq!(op.args, &[Arg::In(0)]);
    assert_eq!(op.attrs.len(), 1);
    assert_eq!(op.attrs[0].relay, "size");
    assert!(matches!(
        op.attrs[0].from,
        AttrFrom::AttrOr("patch_size", _)
    ));
    assert!(op.file.ends_with("lib.rs"), "{}", op.file);
}

#[test]
fn a_node_without_the_attribute_takes_the_mappings_default() {
    use relay_downstream_example as _;
    use relay_onnx::build::{Graph, D};
    let mut g = Graph::new(17);
    g.opsets.push(("com.example".into(), 1));
    g.input("x", 1, &[D::p("N"), D::v(3), D::v(32), D::v(32)]);
    g.node_in("com.example", "Patches", &["x"], &["p"], vec![]);
    g.output("p");
    let mut c = g.check();
    assert_eq!(c.diagnostics(), &[]);
    // Patches of 2 × 2.
    assert_eq!(c.type_of("p").unwrap(), "Tensor[(N, 256, 12), float32]");
}

#[test]
fn its_builder_is_in_the_namespace_of_the_other_block() {
    // `my.patches` is declared in a second `relay_op!` block of the `my` namespace.
    use relay_downstream_example::my;
    let call = my::patches("x").size(4).build();
    assert_eq!(call.op.name, "my.patches");
    assert!(std::ptr::eq(
        relay_core::registry::global()
            .unwrap()
            .op("my.patches")
            .unwrap(),
        &my::PATCHES
    ));
    assert_eq!(my::identity("x").build().op.name, "my.identity");
}
