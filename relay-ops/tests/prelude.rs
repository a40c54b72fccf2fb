//! The prelude's functions: they load, their types are the reference's declared
//! signatures, and programs (and downstream preludes) use them.

use relay_ops::prelude::{check_with_prelude, Origin, Prelude, PRELUDE};

/// Every function of the prelude with its declared signature, in source order.
const SIGNATURES: &[&str] = &[
    "@id: fn [A](A) -> A",
    "@compose: fn [A, B, C](fn (B) -> C, fn (A) -> B) -> fn (A) -> C",
    "@flip: fn [A, B, C](fn (A, B) -> C) -> fn (B, A) -> C",
    "@hd: fn [A](List[A]) -> A",
    "@tl: fn [A](List[A]) -> List[A]",
    "@nth: fn [A](List[A], int32) -> A",
    "@length: fn [A](List[A]) -> int32",
    "@update: fn [A](List[A], int32, A) -> List[A]",
    "@map: fn [A, B](fn (A) -> B, List[A]) -> List[B]",
    "@foldl: fn [A, B](fn (A, B) -> A, A, List[B]) -> A",
    "@foldr: fn [A, B](fn (A, B) -> B, B, List[A]) -> B",
    "@foldr1: fn [A](fn (A, A) -> A, List[A]) -> A",
    "@sum: fn (List[int32]) -> int32",
    "@concat: fn [A](List[A], List[A]) -> List[A]",
    "@filter: fn [A](fn (A) -> bool, List[A]) -> List[A]",
    "@zip: fn [A, B](List[A], List[B]) -> List[(A, B)]",
    "@rev: fn [A](List[A]) -> List[A]",
    "@map_accumr: fn [A, B, C](fn (A, B) -> (A, C), A, List[B]) -> (A, List[C])",
    "@map_accuml: fn [A, B, C](fn (A, B) -> (A, C), A, List[B]) -> (A, List[C])",
    "@unfoldr: fn [A, B](fn (A) -> Optional[(A, B)], A) -> List[B]",
    "@unfoldl: fn [A, B](fn (A) -> Optional[(A, B)], A) -> List[B]",
    "@tmap: fn [A, B](fn (A) -> B, Tree[A]) -> Tree[B]",
    "@size: fn [A](Tree[A]) -> int32",
    "@iterate: fn [A](fn (A) -> A, int32) -> fn (A) -> A",
];

#[test]
fn the_prelude_loads_and_every_function_has_its_declared_signature() {
    let prelude = Prelude::standard().expect("the prelude checks");
    assert_eq!(prelude.sources().count(), 1);
    // Checked as a program of its own (no prelude under it), the prelude text prints
    // every function with its declared signature.
    let mut tcx = relay_core::TyCtx::new();
    let mut adts = relay_core::adt::load(&mut tcx).expect("the data types load");
    let module =
        relay_core::text::parse_module(PRELUDE, &mut tcx, &mut adts).expect("the prelude parses");
    let typed = relay_core::infer::infer(tcx, &adts, &module);
    assert!(typed.errors().is_empty(), "{:?}", typed.errors());
    let printed: Vec<String> = module
        .globals()
        .iter()
        .map(|g| {
            let gid = module.global(&g.name).expect("declared");
            format!("@{}: {}", g.name, typed.show(typed.global_ty(gid)))
        })
        .collect();
    assert_eq!(printed, SIGNATURES);
}

#[test]
fn the_prelude_globals_are_not_the_programs() {
    let checked = check_with_prelude("", &[]);
    assert!(checked.is_ok(), "{:?}", checked.errors);
    assert!(checked.warnings.is_empty(), "{:?}", checked.warnings);
    assert!(checked.user_globals().is_empty());
    assert_eq!(checked.signatures(), Vec::<String>::new());
}

#[test]
fn a_program_uses_map_foldl_sum_and_concat() {
    let src = r#"#[version = "0.0.5"]
def @inc(%xs: List[int32]) { @map(fn (%x: int32) { %x + 1 }, %xs) }
def @total(%xs: List[int32]) { @foldl(fn (%acc: int32, %x: int32) { %acc + %x }, 0, %xs) }
def @both(%xs: List[int32], %ys: List[int32]) { @sum(@concat(%xs, %ys)) }
def @joined(%xs: List[float32]) { @concat(%xs, @map(fn (%x: float32) { (%x, %x) }, %xs)) }
def @lengths(%xss: List[List[int32]]) { @map(@length, %xss) }
"#;
    let checked = check_with_prelude(src, &[]);
    let messages: Vec<&str> = checked.errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(
        messages,
        ["argument 2 of `@concat`: type argument 1: `float32` vs `(float32, float32)`"]
    );
    let fixed = src.replace("(%x, %x)", "%x");
    let checked = check_with_prelude(&fixed, &[]);
    assert!(checked.is_ok(), "{:?}", checked.errors);
    assert_eq!(
        checked.signatures(),
        [
            "@inc: fn (List[int32]) -> List[int32]",
            "@total: fn (List[int32]) -> int32",
            "@both: fn (List[int32], List[int32]) -> int32",
            "@joined: fn (List[float32]) -> List[float32]",
            "@lengths: fn (List[List[int32]]) -> List[int32]",
        ]
    );
}

#[test]
fn a_type_error_in_a_prelude_call_is_reported_in_the_programs_coordinates() {
    let src =
        "def @bad(%xs: List[float32]) {\n  @map(fn (%x: int32) -> int32 { %x + 1 }, %xs)\n}\n";
    let checked = check_with_prelude(src, &[]);
    assert_eq!(checked.errors.len(), 1, "{:?}", checked.errors);
    let e = &checked.errors[0];
    assert_eq!(
        e.message,
        "argument 2 of `@map`: type argument 1, dtype: int32 vs float32 from `%xs`"
    );
    assert_eq!(e.origin, Origin::User);
    assert_eq!(&src[e.span.lo as usize..e.span.hi as usize], "%xs");
}

#[test]
fn a_program_s_own_definition_shadows_the_prelude_s() {
    // The spec's programs define their own `@map` and `@sum`: they run as written. The
    // prelude's functions keep using the prelude's own (`@concat` uses its `@foldr`).
    let src = "def @map(%x: int32) -> int32 { %x }\n\
               def @sum(%l: List[float32]) -> float32 { 0f }\n\
               def @f(%xs: List[int32]) { (@map(1), @concat(%xs, %xs), @sum(Nil())) }\n";
    let checked = check_with_prelude(src, &[]);
    assert!(checked.errors.is_empty(), "{:?}", checked.errors);
    assert_eq!(
        checked.signatures(),
        [
            "@map: fn (int32) -> int32",
            "@sum: fn (List[float32]) -> float32",
            "@f: fn (List[int32]) -> (int32, List[int32], float32)",
        ]
    );
}

#[test]
fn a_global_defined_twice_in_one_program_is_an_error() {
    let src = "def @g() { () }\ndef @g() { () }\n";
    let checked = check_with_prelude(src, &[]);
    assert_eq!(checked.errors.len(), 1, "{:?}", checked.errors);
    assert_eq!(
        checked.errors[0].message,
        "`@g` is defined twice: first at line 1, column 5, again at line 2, column 5"
    );
    assert_eq!(checked.errors[0].origin, Origin::User);
}

#[test]
fn a_parse_error_keeps_the_programs_spans() {
    let src = "def @f() { @nope() }";
    let checked = check_with_prelude(src, &[]);
    assert_eq!(checked.errors.len(), 1);
    assert_eq!(checked.errors[0].message, "unknown global `@nope`");
    assert_eq!(checked.errors[0].origin, Origin::User);
    let s = checked.errors[0].span;
    assert_eq!(&src[s.lo as usize..s.hi as usize], "@nope");
}

/// A downstream crate's prelude (it would `include_str!` its file).
const DOWNSTREAM: &str = r#"#[version = "0.0.5"]
// The product of a list of integers, over the prelude's @foldl.
def @product(%xs: List[int32]) -> int32 {
  @foldl(fn (%a: int32, %b: int32) -> int32 { %a * %b }, 1, %xs)
}
"#;

#[test]
fn a_downstream_prelude_adds_a_function_on_top() {
    let prelude = Prelude::with(&[("downstream.relay", DOWNSTREAM)]).expect("it checks");
    let checked = prelude
        .check("def @f(%xs: List[int32]) { (@product(%xs), @sum(%xs)) }\ndef @g() { @product }");
    assert!(checked.is_ok(), "{:?}", checked.errors);
    assert_eq!(
        checked.signatures(),
        [
            "@f: fn (List[int32]) -> (int32, int32)",
            "@g: fn () -> fn (List[int32]) -> int32",
        ]
    );
    // The same through the shorthand.
    let checked = check_with_prelude("def @h() { @product(Nil()) }", &[DOWNSTREAM]);
    assert_eq!(checked.signatures(), ["@h: fn () -> int32"]);
}

#[test]
fn a_broken_downstream_prelude_is_reported_in_its_own_coordinates() {
    let bad = "def @twice(%x: int32) -> float32 { %x }";
    let errors = Prelude::with(&[("bad.relay", bad)]).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].origin, Origin::Prelude("bad.relay".to_string()));
    let s = errors[0].span;
    assert!(s.hi as usize <= bad.len(), "{errors:?}");
}

/// The messages of `checked`'s errors, each with the text it points at.
fn errors_at(src: &str) -> Vec<String> {
    let checked = Prelude::standard().unwrap().check(src);
    checked
        .errors
        .iter()
        .map(|p| {
            assert_eq!(p.origin, Origin::User);
            format!(
                "`{}`: {}",
                &src[p.span.lo as usize..p.span.hi as usize],
                p.message
            )
        })
        .collect()
}

#[test]
fn a_name_error_does_not_hide_the_type_errors_of_other_definitions() {
    let src =
        "def @a(%x: int32) { %y }\ndef @b(%l: List[int32]) { @hd(%l) + 1f }\ndef @c() { @a(1f) }";
    assert_eq!(
        errors_at(src),
        [
            "`%y`: unbound local variable `%y`",
            "`1f`: dtype: int32 vs float32",
        ]
    );
    // An error outside every definition (here in a data type) may touch any of them:
    // then only the parse errors are reported.
    let src = "type T { A(Tensor[(2), floot32]) }\ndef @b() { 1 + 1f }";
    assert_eq!(errors_at(src).len(), 1, "{:?}", errors_at(src));
    // A syntax error leaves its definition without a body: it and its users are not
    // typed, the others are.
    let src = "def @a() { (1 }\ndef @b() { @a() + 1f }\ndef @c() { 2 + 2f }";
    assert_eq!(
        errors_at(src),
        [
            "`}`: expected `,` or `)`, found `}`",
            "`2f`: dtype: int32 vs float32",
        ]
    );
    // So does an unknown type in a signature; a second definition of a name is dropped.
    // (The parse errors come in the order of the text.)
    let src =
        "def @a(%x: Lst[int32]) { %x }\ndef @d() { () }\ndef @d() { 3 + 3f }\ndef @c() { 2 + 2f }";
    assert_eq!(
        errors_at(src),
        [
            "`Lst`: unknown type `Lst`",
            "`@d`: `@d` is defined twice: first at line 2, column 5, again at line 3, column 5",
            "`2f`: dtype: int32 vs float32",
        ]
    );
}

#[test]
fn two_prelude_sources_of_one_name_are_refused() {
    let lib = "def @twice[A](%f: fn (A) -> A) -> fn (A) -> A { @compose(%f, %f) }";
    for name in ["lib", relay_ops::prelude::PRELUDE_NAME] {
        let extra: Vec<(&str, &str)> = if name == "lib" {
            vec![("lib", lib), ("lib", lib)]
        } else {
            vec![(name, lib)]
        };
        let errors = Prelude::with(&extra).unwrap_err();
        let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
        assert_eq!(
            messages,
            [format!("two prelude sources are named `{name}`")]
        );
    }
}

/// The errors of `src` parsed and typed on its own (no prelude under it: a source that
/// starts with a definition has it read before the first pass), each with the text it
/// points at.
fn errors_alone(src: &str) -> Vec<String> {
    let mut tcx = relay_core::TyCtx::new();
    let mut adts = relay_core::adt::load(&mut tcx).expect("the data types load");
    let at = |s: relay_core::expr::Span| &src[s.lo as usize..s.hi as usize];
    match relay_core::text::parse_module(src, &mut tcx, &mut adts) {
        Err(errs) => errs
            .iter()
            .map(|e| format!("`{}`: {}", at(e.span), e.message))
            .collect(),
        Ok(m) => {
            let typed = relay_core::infer::infer(tcx, &adts, &m);
            let errs = typed.errors().iter();
            errs.map(|e| format!("`{}`: {}", at(e.span), e.message))
                .collect()
        }
    }
}

/// What a first definition means does not depend on its being read before the first
/// pass: a constructor declared after it that has an operator's name is the constructor
/// in it, as in the usual order.
#[test]
fn a_first_definition_sees_the_constructors_declared_after_it() {
    let src = "def @main(%x: int32) -> int32 { add(%x, %x) }\ntype T { add(int32, int32) }\n";
    assert_eq!(
        errors_alone(src),
        ["`add(%x, %x)`: the function's body does not have its annotated return type"]
    );
}

/// The first pass reads a first definition's header as it reads any: the words `type`
/// and `data` there start items, whose errors the usual order reports.
#[test]
fn a_first_definition_s_header_is_read_by_the_first_pass() {
    let src = "def @f[data](%x: data) -> data { %x }";
    assert_eq!(
        errors_alone(src),
        [
            "`]`: expected a data type's name, found `]`",
            "`)`: expected a data type's name, found `)`",
            "`{`: expected a data type's name, found `{`",
        ]
    );
}

#[test]
fn an_attribute_that_does_not_fit_is_shown_as_written() {
    let src = "def @a(%x: Tensor[(2, 3), float32]) { topk(%x, k=2.5) }\n\
               def @b(%x: Tensor[(2, 3), float32]) { nn.softmax(%x, axis=[h, w]) }\n\
               def @c(%x: Tensor[(2, 3), float32]) { sum(%x, axis=[\"h\", \"w\"]) }";
    assert_eq!(
        errors_at(src),
        [
            "`k=2.5`: attribute `k` of `topk` expects `int`, found `2.5`",
            "`axis=[h, w]`: attribute `axis` of `nn.softmax` expects `int`, found `[h, w]`",
            "`axis=[\"h\", \"w\"]`: attribute `axis` of `sum` expects `Option<[int]>`, found `[\"h\", \"w\"]`",
        ]
    );
}

#[test]
fn a_normalization_parameter_of_the_wrong_size_names_the_axis_and_the_data() {
    let src = "def @f(%x: Tensor[(2, 768), float32], %g: Tensor[(512), float32], %b: Tensor[(768), float32]) {\n\
               nn.layer_norm(%x, %g, %b, axis=-1)\n}";
    assert_eq!(
        errors_at(src),
        ["`%g`: `gamma` must be `Tensor[(768), float32]` (the dimension of the data `Tensor[(2, 768), float32]` along `axis` -1), found `Tensor[(512), float32]`"]
    );
}

#[test]
fn expand_dims_infers_its_data_from_its_result_or_says_why_none_fits() {
    let src = "def @ok(%x) -> Tensor[(1, 3), float32] { expand_dims(%x, axis=0) }\n\
               def @one(%x) -> Tensor[(2, 3), float32] { expand_dims(%x, axis=0) }\n\
               def @rank(%x) -> Tensor[(2, 3), float32] { expand_dims(%x, axis=1, num_newaxis=2) }\n\
               def @few(%x) -> Tensor[(3), float32] { expand_dims(%x, axis=0, num_newaxis=2) }";
    assert_eq!(
        errors_at(src),
        [
            "`expand_dims(%x, axis=0)`: the result of `expand_dims` does not have the type required of it: `axis` 0 inserts a dimension of 1 at position 0, where `Tensor[(2, 3), float32]` has 2",
            "`expand_dims(%x, axis=1, num_newaxis=2)`: the result of `expand_dims` does not have the type required of it: `Tensor[(2, 3), float32]` needs data of rank 0, and `axis` 1 is out of range for inserting into it (from -1 to 0)",
            "`expand_dims(%x, axis=0, num_newaxis=2)`: the result of `expand_dims` does not have the type required of it: it inserts 2 axes, more than the rank of `Tensor[(3), float32]` (1)",
        ]
    );
    let checked = Prelude::standard().unwrap().check(src);
    assert!(
        checked.signatures()[0].starts_with("@ok: fn (Tensor[(3), float32])"),
        "{:?}",
        checked.signatures()
    );
}
