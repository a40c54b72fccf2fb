//! A program checked where no crate with declarations is linked (this test binary links
//! relay-core alone): its unknown operators, types and constructors say why and how to
//! fix it.

use relay_core::text::parse_module;
use relay_core::{adt, TyCtx};

/// `(message, help)` of each error of `src`.
fn errors(src: &str) -> Vec<(String, String)> {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load_defs(&mut tcx, []).unwrap();
    let errs = parse_module(src, &mut tcx, &mut adts).unwrap_err();
    errs.into_iter()
        .map(|e| (e.message, e.help.unwrap_or_default()))
        .collect()
}

const NOTHING: &str = "nothing is registered: no crate that declares operators or data types \
    is linked into the program, as `inventory` finds only what is linked; name each in your \
    code (`use relay_ops as _;` for TVM's operators and the prelude, `use my_ops as _;` for a \
    crate of your own)";

#[test]
fn unknown_names_say_that_nothing_is_linked() {
    let src = "def @e(%l: List[int32]) { %l }\n\
               def @f(%x: float32) {\n  nn.relu(%x)\n}\n\
               def @g() { Cons(1, Nil) }\n\
               def @h(%x: float32) { %x + %x }";
    assert_eq!(
        errors(src),
        [
            ("unknown type `List`".to_string(), NOTHING.to_string()),
            (
                "unknown operator `nn.relu`".to_string(),
                NOTHING.to_string()
            ),
            (
                "unknown constructor `Cons`".to_string(),
                NOTHING.to_string()
            ),
            ("unknown constructor `Nil`".to_string(), NOTHING.to_string()),
            (
                "unknown operator `add` (what an infix operator stands for)".to_string(),
                "`add` is declared by relay-ops, which is not linked into the program \
                 (`inventory` finds only what is linked): name it in your code \
                 (`use relay_ops as _;`)"
                    .to_string()
            ),
        ]
    );
}
