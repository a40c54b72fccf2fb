//! Printed modules, round 2: a call whose attributes were omitted with TVM's
//! metadata is typed by the type TVM printed on it, and printed back as it was read.

use relay_core::infer::infer;
use relay_core::text::print_module;

mod text_common;
use text_common::*;

const OMITTED: &str = "def @main(%x: Tensor[(2, 3), float32], %y: Tensor[(3), float32]) {\n  %0 = add(%x, %y, meta[relay.attrs.BinaryAttrs][0]) /* ty=Tensor[(2, 3), float32] */;\n  %0\n}\n// meta data omitted. you can use show_meta_data=True to include meta data\n";

#[test]
fn a_call_typed_by_its_printed_type_prints_back_with_it() {
    let (m, tcx, adts) = parse(OMITTED);
    let printed = print_module(&m, &tcx, &adts);
    assert!(
        printed.contains(
            "add(%x, %y, meta[relay.attrs.BinaryAttrs][0]) /* ty=Tensor[(2, 3), float32] */"
        ),
        "{printed}"
    );
    let typed = infer(tcx, &adts, &m);
    let warnings: Vec<_> = typed.warnings().iter().map(|w| w.message.clone()).collect();
    assert_eq!(
        warnings,
        ["the attributes of `add` were omitted with the metadata section (`meta[relay.attrs.BinaryAttrs][0]`): the printed type `Tensor[(2, 3), float32]` is trusted"]
    );
    let main = m.global("main").unwrap();
    assert_eq!(
        typed.show(typed.global_ty(main)),
        "fn (Tensor[(2, 3), float32], Tensor[(3), float32]) -> Tensor[(2, 3), float32]"
    );
    // Read back, it prints the same.
    let (m2, tcx2, adts2) = parse(&printed);
    assert_eq!(print_module(&m2, &tcx2, &adts2), printed);
}
