//! The downstream declarations are found in the global registry next to the built-in ones.

use relay_core::text::parse_type;
use relay_core::{adt, registry, Outcome, Relation, RelationDef, Solver, TyCtx};
use relay_downstream_example as downstream;

#[test]
fn found_next_to_the_built_in_ones() {
    let reg = registry::global().unwrap();
    assert!(std::ptr::eq(
        reg.op("my.identity").unwrap(),
        &downstream::my::IDENTITY
    ));
    assert!(reg.op("add").is_some());
    assert_eq!(reg.relation("Same").unwrap().name, "Same");
    assert!(reg.relation("Broadcast").is_some());
    // Two relations named `TopK`, the crate's and relay-ops': each found by its path.
    let top_k = |path| reg.relation(path).map(|r| r as *const RelationDef);
    assert_eq!(
        top_k("relay_downstream_example::TopK"),
        Some(downstream::TopK::DEF as *const _)
    );
    assert_eq!(
        top_k("relay_ops::level4::misc::TopK"),
        Some(relay_ops::level4::misc::TopK::DEF as *const _)
    );
    assert_eq!(top_k("TopK"), None);
    assert_eq!(reg.data("Zipper").unwrap().ctors[0].name, "MkZipper");
    assert!(reg.data("List").is_some());
    assert_eq!(reg.ctor("MkZipper").unwrap().0.name, "Zipper");
}

#[test]
fn its_prelude_is_in_the_standard_one() {
    let prelude = relay_ops::prelude::Prelude::standard().unwrap();
    let names: Vec<&str> = prelude.sources().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        ["the prelude", "tests/downstream/src/my_prelude.relay"]
    );
    let checked = prelude.check(
        "def @f(%z: Zipper[int8], %xs: List[Tensor[(3), float32]]) { (@flip(%z), @identities(%xs)) }",
    );
    assert_eq!(
        checked.signatures(),
        ["@f: fn (Zipper[int8], List[Tensor[(3), float32]]) -> (Zipper[int8], List[Tensor[(3), float32]])"]
    );
}

#[test]
fn downstream_data_type_refers_to_the_prelude() {
    let mut tcx = TyCtx::new();
    let table = adt::load(&mut tcx).unwrap();
    let c = table.ctor("MkZipper").unwrap();
    assert_eq!(
        tcx.show(table.ctor_info(&tcx, c).ty),
        "fn [a](List[a], List[a]) -> Zipper[a]"
    );
    let call = downstream::Zipper::mk_zipper("l", "r");
    assert_eq!((call.name(), call.args), ("MkZipper", vec!["l", "r"]));
}

#[test]
fn downstream_operator_solves() {
    let op = registry::global().unwrap().op("my.identity").unwrap();
    let mut tcx = TyCtx::new();
    let f = op.ty(&mut tcx);
    assert_eq!(tcx.show(f), "fn [a, b](a) -> b");
    let x = parse_type(&mut tcx, &mut Default::default(), "Tensor[(n, 4), int8]").unwrap();
    let mut s = Solver::new(tcx);
    let (args, ret, constraints) = s.instantiate(f).unwrap();
    s.unify(args[0], x).unwrap();
    s.add_constraints(&constraints, None, 0);
    assert!(matches!(s.solve(), Outcome::Solved));
    let ret = s.resolve(ret);
    assert_eq!(s.tcx.show(ret), "Tensor[(n, 4), int8]");
    let call = downstream::my::identity(7).note("kept").build();
    assert_eq!(call.attrs.get("note").unwrap().to_string(), "\"kept\"");
}
