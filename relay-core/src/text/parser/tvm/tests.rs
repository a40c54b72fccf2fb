//! Each of TVM's forms, read where this module reads it.

use crate::adt::AdtTable;
use crate::attrs::AttrValue;
use crate::expr::{ExprKind, Module};
use crate::infer::infer;
use crate::text::parse_module;
use crate::TyCtx;

/// Reads `src`, or its errors as `lo..hi: message`.
fn read(src: &str) -> Result<(Module, TyCtx, AdtTable), Vec<String>> {
    let mut tcx = TyCtx::new();
    let mut adts = AdtTable::default();
    match parse_module(src, &mut tcx, &mut adts) {
        Ok(m) => Ok((m, tcx, adts)),
        Err(errs) => Err(errs
            .iter()
            .map(|e| format!("{}..{}: {}", e.span.lo, e.span.hi, e.message))
            .collect()),
    }
}

/// The errors of `src`, which must have some.
fn errors(src: &str) -> Vec<String> {
    read(src).err().expect("errors")
}

/// Every global's inferred type, as `@name: T`.
fn check(src: &str) -> Vec<String> {
    let (m, tcx, adts) = read(src).unwrap();
    let typed = infer(tcx, &adts, &m);
    let errors: Vec<_> = typed.errors().iter().map(|e| e.message.clone()).collect();
    assert_eq!(errors, Vec::<String>::new(), "{src}");
    m.globals()
        .iter()
        .map(|g| {
            let id = m.global(&g.name).unwrap();
            format!("@{}: {}", g.name, typed.show(typed.global_ty(id)))
        })
        .collect()
}

#[test]
fn version_line_and_bindings_ended_by_their_line() {
    // TVM 0.6's version line is read and dropped.
    assert_eq!(
        check("v0.0.4\ndef @f(%x: float32) { (%x,) }"),
        ["@f: fn (float32) -> (float32,)"]
    );
    // TVM 0.5's `v0.0.1`: a binding ends with its line, and `(` on the next line starts
    // the body, not a call.
    let src = "v0.0.1\nfn (%x: float32) {\n  %0 = (%x, %x)\n  let %y = %0.1\n  (%y, %0)\n}\n";
    assert_eq!(
        check(src),
        ["@main: fn (float32) -> (float32, (float32, float32))"]
    );
    // Elsewhere a line does not end a binding.
    assert_eq!(
        errors("fn (%x: float32) {\n  %0 = (%x, %x)\n  %0\n}\n"),
        ["37..39: expected `;` after the bound value, found `%0`"]
    );
}

#[test]
fn names_with_digit_parts() {
    // `%input.1` is a name where it is bound so; `%t.0` a projection of `%t`.
    let src = "def @main(%input.1: float32, %t: (float32, int8)) {\n  let %x.2.5 = (%input.1, %t.1);\n  %x.2.5.0\n}";
    assert_eq!(
        check(src),
        ["@main: fn (float32, (float32, int8)) -> float32"]
    );
    // Unbound, `%input.1` is a projection of an unbound `%input`.
    assert_eq!(
        errors("def @main(%x: float32) { %input.1 }"),
        ["25..31: unbound local variable `%input`"]
    );
}

#[test]
fn values_printed_for_people_are_kept_as_text() {
    let vd = "VirtualDevice(device_type=1, virtual_device_id=0, target=Target(kind='llvm', keys={'cpu'}))";
    let src = format!(
        "def @main(%x {{virtual_device={vd}}}: float32) {{\n  %0 = fn (%p: float32, Primitive=1, virtual_device={vd}, ConvAttrs={{channels=48}}, m=meta[VirtualDevice][0]) {{ %p }};\n  %0(%x)\n}}"
    );
    assert_eq!(check(&src), ["@main: fn (float32) -> float32"]);
    let (m, _, _) = read(&src).unwrap();
    let attrs = (0..m.sizes().0)
        .find_map(|i| match &m.expr(crate::expr::ExprId(i as u32)).kind {
            ExprKind::Func(f) => f.attrs.clone(),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        attrs.get("virtual_device"),
        Some(&AttrValue::Str(vd.into()))
    );
    assert_eq!(
        attrs.get("ConvAttrs"),
        Some(&AttrValue::Str("{channels=48}".into()))
    );
    assert_eq!(
        attrs.get("m"),
        Some(&AttrValue::Str("meta[VirtualDevice][0]".into()))
    );
    // A group that does not close is an error at its bracket.
    assert_eq!(
        errors("def @f(%x: float32, d=VirtualDevice(device_type=1 { %x }"),
        ["35..36: this bracket is not closed (before the end of the text, or by the bracket that ends it)"]
    );
}

#[test]
fn free_vars_of_a_printed_expression() {
    // The free variables of a printed expression are the parameters of its `@main`.
    let src = "free_var %x: float32;\n%0 = (%x, %x);\nfree_var %b: int8;\n(%0, %b)";
    assert_eq!(
        check(src),
        ["@main: fn (float32, int8) -> ((float32, float32), int8)"]
    );
    // In a definition, a `free_var` is an error.
    assert_eq!(
        errors("def @f() { free_var %y: int32; %y }"),
        ["11..19: free variables are not supported: `free_var` `%y` declares one"]
    );
}

#[test]
fn meta_references_and_the_metadata_section() {
    // A constant typed by the `/* ty=T */` after it.
    assert_eq!(
        check("def @f() { (meta[relay.Constant][0] /* ty=Tensor[(3), float32] */,) }"),
        ["@f: fn () -> (Tensor[(3), float32],)"]
    );
    // A constant typed by its tensor in the metadata section.
    let meta = r#"#[metadata]
{"root": 1, "nodes": [{"type_key": ""}, {"type_key": "Map", "keys": ["relay.Constant"], "data": [2]},
 {"type_key": "Array", "data": [3]},
 {"type_key": "relay.Constant", "attrs": {"_checked_type_": "0", "data": "0", "span": "0"}}],
 "b64ndarrays": ["P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA="],
 "attrs": {"tvm_version": "0.8.0"}}"#;
    let src = format!("def @main() {{\n  meta[relay.Constant][0]\n}}\n{meta}");
    assert_eq!(check(&src), ["@main: fn () -> Tensor[(2, 3), float32]"]);
    // Without either, its type is not known.
    assert_eq!(
        errors("def @f() { meta[relay.Constant][0] }"),
        ["11..34: the type of constant `meta[relay.Constant][0]` is not known"]
    );
    // A section that is not TVM's JSON says so, where.
    let errs = errors("def @f() { meta[relay.Constant][0] }\n#[metadata]\n{ nope");
    assert_eq!(
        errs[1],
        "51..51: the metadata section is not JSON: key must be a string"
    );
}
