//! A program checked where a crate of one's own is linked but relay-ops is not (this test
//! binary declares an operator and a data type, and does not link relay-ops): an unknown
//! name says which crate is missing when the registry shows it.

use relay_core::text::parse_module;
use relay_core::{adt, relay_data, relay_op, TyCtx};

relay_op! {
    /// The crate's own operator, in its `mine.` namespace.
    mine.copy : fn<a>(a) -> a;
}

relay_data! {
    data Pair<a> { MkPair : (a, a) -> Pair }
}

/// `(message, help)` of each error of `src`.
fn errors(src: &str) -> Vec<(String, String)> {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).unwrap();
    let errs = parse_module(src, &mut tcx, &mut adts).unwrap_err();
    errs.into_iter()
        .map(|e| (e.message, e.help.unwrap_or_default()))
        .collect()
}

#[test]
fn an_operator_of_a_namespace_nothing_registers_names_the_missing_link() {
    let src =
        "def @f(%x: float32) {\n  (my.identity(%x), mine.cpy(%x), nn.relu(%x), frobnicate(%x))\n}";
    assert_eq!(
        errors(src),
        [
            (
                "unknown operator `my.identity`".to_string(),
                "no registered operator is in the `my` namespace: the crate that declares \
                 `my.identity` is not linked into the program, as `inventory` finds only \
                 what is linked; name the crate in your code (`use my_ops as _;`)"
                    .to_string()
            ),
            // A namespace with operators: a misspelling, likelier.
            (
                "unknown operator `mine.cpy`".to_string(),
                "did you mean `mine.copy`?".to_string()
            ),
            (
                "unknown operator `nn.relu`".to_string(),
                "no registered operator is in the `nn` namespace: the crate that declares \
                 `nn.relu` is not linked into the program, as `inventory` finds only what \
                 is linked; name the crate in your code (`use my_ops as _;`)"
                    .to_string()
            ),
            // Nothing to say about a name without a namespace.
            ("unknown operator `frobnicate`".to_string(), String::new()),
        ]
    );
}

#[test]
fn the_preludes_data_types_name_relay_ops() {
    let src = "def @f(%l: List[int32]) { %l }\ndef @g() { match (MkPair(1, 2)) { Cons(_, _) => 1 } }\ndef @h(%p: Pai[int32]) { %p }";
    let relay_ops = |name: &str| {
        format!(
            "`{name}` is the prelude's, which relay-ops declares: relay-ops is not linked into \
             the program, as `inventory` finds only what is linked; name it in your code \
             (`use relay_ops as _;`)"
        )
    };
    assert_eq!(
        errors(src),
        [
            ("unknown type `List`".to_string(), relay_ops("List")),
            ("unknown constructor `Cons`".to_string(), relay_ops("Cons")),
            (
                "unknown type `Pai`".to_string(),
                "did you mean `Pair`?".to_string()
            ),
        ]
    );
}
