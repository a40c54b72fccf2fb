//! The faults that fuzzing found (issue 17), each as the program that showed it, checked
//! through the library with its exact result: the signatures, or the first error.
//!
//! The rows that were superlinear run an input that took seconds before their fix and
//! takes milliseconds after: a regression shows as a slow test, never as a timed
//! assertion.

use relay_core::{adt, infer::infer, text::parse_module, TyCtx};
use relay_ops as _;

/// `@name: TYPE` for every global, or the messages of the errors (of the parser, or else
/// of inference).
fn check(src: &str) -> Result<Vec<String>, Vec<String>> {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
    let module = parse_module(src, &mut tcx, &mut adts)
        .map_err(|errs| errs.iter().map(|e| e.message.clone()).collect::<Vec<_>>())?;
    let typed = infer(tcx, &adts, &module);
    let errors: Vec<String> = typed.errors().iter().map(|e| e.message.clone()).collect();
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(module
        .globals()
        .iter()
        .map(|g| {
            let id = module.global(&g.name).expect("a declared global");
            format!("@{}: {}", g.name, typed.show(typed.global_ty(id)))
        })
        .collect())
}

/// The warnings of `src`, which must be well typed, as their messages.
fn warnings(src: &str) -> Vec<String> {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
    let module = parse_module(src, &mut tcx, &mut adts).expect("parses");
    let typed = infer(tcx, &adts, &module);
    let errors: Vec<&str> = typed.errors().iter().map(|e| e.message.as_str()).collect();
    assert_eq!(errors, Vec::<&str>::new(), "{src}");
    typed.warnings().iter().map(|w| w.message.clone()).collect()
}

/// Asserts that `src` checks with exactly the signatures `expected`.
#[track_caller]
fn well_typed(src: &str, expected: &[&str]) {
    assert_eq!(
        check(src),
        Ok(expected.iter().map(|s| s.to_string()).collect()),
        "{src}"
    );
}

/// Asserts that the first error of `src` is exactly `first`.
#[track_caller]
fn first_error(src: &str, first: &str) {
    match check(src) {
        Ok(sigs) => panic!("well typed: {sigs:?}\n{src}"),
        Err(errs) => assert_eq!(errs[0], first, "all errors: {errs:?}"),
    }
}

// ----- 1: negative dimensions -----

#[test]
fn a_negative_dimension_in_an_annotation_is_an_error_where_it_is_written() {
    let negative = "a dimension must not be negative, found -1 (an unknown dimension is `?`)";
    first_error(
        "def @main(%x: Tensor[(-1), float32]) { strided_slice(%x, begin=[0], end=[1]) }",
        negative,
    );
    first_error(
        "def @main(%x: Tensor[(-1), float32]) { strided_slice(%x, begin=[0], end=[1], slice_mode=\"size\") }",
        negative,
    );
    first_error(
        "def @main(%x: Tensor[(3, 2 - 5), float32]) { %x }",
        "a dimension must not be negative, found -3 (an unknown dimension is `?`)",
    );
    // A symbolic dimension may be written with a minus.
    well_typed(
        "def @main(%x: Tensor[(n - 1), float32]) { %x }",
        &["@main: fn (Tensor[(n - 1), float32]) -> Tensor[(n - 1), float32]"],
    );
}

#[test]
fn a_negative_shape_attribute_is_an_error() {
    first_error(
        "def @main() { zeros(shape=[-5], dtype=\"float32\") }",
        "`shape` must not be negative, found -5",
    );
    first_error(
        "def @main() { ones(shape=[2, -1], dtype=\"float32\") }",
        "`shape` must not be negative, found -1",
    );
    first_error(
        "def @main(%x: Tensor[(1), float32]) { broadcast_to(%x, shape=[-1]) }",
        "`shape` must not be negative, found -1",
    );
    first_error(
        "def @main() { full(1f, shape=[-1], dtype=\"float32\") }",
        "`shape` must not be negative, found -1",
    );
}

#[test]
fn slicing_an_axis_of_negative_length_is_an_error_not_a_panic() {
    // A signature's `n - 5` instantiated with `n = 3`.
    let src = "def @f(%x: Tensor[(n), float32]) -> Tensor[(n - 5), float32] { strided_slice(%x, begin=[5], end=[2147483647]) }
def @main(%y: Tensor[(3), float32]) { strided_slice(@f(%y), begin=[0], end=[1]SIZE) }";
    for size in ["", ", slice_mode=\"size\""] {
        first_error(
            &src.replace("SIZE", size),
            "`strided_slice` at axis 0: the axis has a negative length, -2",
        );
    }
}

// ----- 6: strided_slice arithmetic -----

#[test]
fn strided_slice_at_the_ends_of_i64_is_exact() {
    let big = "Tensor[(9223372036854775807), float32]";
    well_typed(
        &format!("def @main(%x: {big}) {{ strided_slice(%x, begin=[0], end=[9223372036854775807], strides=[2]) }}"),
        &[&format!("@main: fn ({big}) -> Tensor[(4611686018427387904), float32]")],
    );
    // `|i64::MIN|` is 2^63: one element.
    well_typed(
        &format!("def @main(%x: {big}) {{ strided_slice(%x, begin=[-1], end=[-9223372036854775808], strides=[-9223372036854775808]) }}"),
        &[&format!("@main: fn ({big}) -> Tensor[(1), float32]")],
    );
    well_typed(
        "def @main(%x: Tensor[(n), float32]) { strided_slice(%x, begin=[-1], end=[-9223372036854775808], strides=[-9223372036854775808]) }",
        &["@main: fn (Tensor[(n), float32]) -> Tensor[(min(1, n)), float32]"],
    );
    well_typed(
        &format!("def @main(%x: {big}) {{ strided_slice(%x, begin=[-9223372036854775808], end=[9223372036854775807], slice_mode=\"size\") }}"),
        &[&format!("@main: fn ({big}) -> {big}")],
    );
}

// ----- 16: control characters in messages -----

#[test]
fn control_characters_in_messages_are_escaped() {
    first_error(
        "def @main() { \u{0} }",
        "expected a token, found the character `\\0`",
    );
    first_error(
        "def @main() { \u{1b} }",
        "expected a token, found the character `\\u{1b}`",
    );
}

// ----- 2: counts that size a result -----

#[test]
fn the_number_of_split_sections_is_bounded() {
    for n in ["4611686018427387904", "2147483648", "30000000", "65537"] {
        first_error(
            &format!(
                "def @main(%x: Tensor[(?), float32]) {{ split(%x, indices_or_sections={n}) }}"
            ),
            &format!("`indices_or_sections` is {n} sections, more than the 65536 a split may make"),
        );
    }
    well_typed(
        "def @main(%x: Tensor[(?), float32]) { split(%x, indices_or_sections=2) }",
        &["@main: fn (Tensor[(?), float32]) -> (Tensor[(?), float32], Tensor[(?), float32])"],
    );
}

#[test]
fn gather_nd_counts_near_i64_max_are_an_error() {
    first_error(
        "def @main(%d: Tensor[(2, 3), float32], %i: Tensor[(1, 4), int32]) { gather_nd(%d, %i, batch_dims=9223372036854775807, index_rank=1) }",
        "`gather_nd` indexes 1 dimensions after 9223372036854775807 batch dimensions of `Tensor[(2, 3), float32]`, which has rank 2",
    );
}

// ----- 7: nn.upsampling's float scale on large integers -----

#[test]
fn upsampling_scales_a_large_height_exactly_or_fails() {
    let up = |h: &str, scale: &str| {
        format!("def @main(%x: Tensor[(1, 1, {h}, 1), float32]) {{ nn.upsampling(%x, scale_h={scale}, scale_w=1f) }}")
    };
    first_error(
        &up("5000000000000000000", "2f"),
        "dimension arithmetic overflows 64 bits",
    );
    // 2^53 + 1: lost in `f64`.
    well_typed(
        &up("9007199254740993", "1f"),
        &["@main: fn (Tensor[(1, 1, 9007199254740993, 1), float32]) -> Tensor[(1, 1, 9007199254740993, 1), float32]"],
    );
    // 1.5 * (2^53 + 1) = 13510798882111489.5, rounded half away from zero.
    well_typed(
        &up("9007199254740993", "1.5f"),
        &["@main: fn (Tensor[(1, 1, 9007199254740993, 1), float32]) -> Tensor[(1, 1, 13510798882111490, 1), float32]"],
    );
    well_typed(
        &up("9223372036854775807", "0.5f"),
        &["@main: fn (Tensor[(1, 1, 9223372036854775807, 1), float32]) -> Tensor[(1, 1, 4611686018427387904, 1), float32]"],
    );
    well_typed(
        &up("5", "0.3f"),
        // 5 * 0.3 is 1.5 in `f64` (exactly, 1.4999...): TVM rounds it to 2.
        &["@main: fn (Tensor[(1, 1, 5, 1), float32]) -> Tensor[(1, 1, 2, 1), float32]"],
    );
}

#[test]
fn upsampling_a_height_f64_holds_is_scaled_as_tvm_scales_it() {
    let up = |h: &str, scale: &str| {
        format!("def @main(%x: Tensor[(1, 1, {h}, 1), float32]) {{ nn.upsampling(%x, scale_h={scale}, scale_w=1f) }}")
    };
    first_error(
        &up("9007199254740992", "2000f"),
        "dimension arithmetic overflows 64 bits",
    );
    first_error(&up("2", "1e300f"), "dimension arithmetic overflows 64 bits");
}

// ----- 8 and 11: match analysis -----

/// A match on a tuple of 257 lists with one arm, all `Nil`: wide, not deep, and not
/// exhaustive (it was accepted with a warning that patterns nested deeper than 256 levels
/// are not checked).
#[test]
fn a_wide_match_is_checked_like_a_narrow_one() {
    let n = 257;
    let tuple = format!("({})", vec!["%x"; n].join(", "));
    let all_nil = format!("({})", vec!["Nil"; n].join(", "));
    let src =
        format!("def @main(%x: List[int32]) -> int32 {{ match ({tuple}) {{ {all_nil} => 0 }} }}");
    // The first eight cases missed: `Cons` in the last column, then one column earlier
    // with any value after it, ...
    let cases: Vec<String> = (0..8)
        .map(|k| {
            let mut fields = vec!["Nil"; n - 1 - k];
            fields.push("Cons(_, _)");
            fields.extend(vec!["_"; k]);
            format!("`({})`", fields.join(", "))
        })
        .collect();
    first_error(
        &src,
        &format!("non-exhaustive match: {} not covered", cases.join(", ")),
    );
    let all_wild = format!("({})", vec!["_"; n].join(", "));
    let src = format!(
        "def @main(%x: List[int32]) -> int32 {{ match ({tuple}) {{ {all_nil} => 0, {all_wild} => 1 }} }}"
    );
    well_typed(&src, &["@main: fn (List[int32]) -> int32"]);
    // Ten thousand columns take no stack.
    let n = 10_000;
    let tuple = format!("({})", vec!["%x"; n].join(", "));
    let arm = format!("({})", vec!["_"; n].join(", "));
    let src = format!(
        "def @main(%x: List[int32]) -> int32 {{ match ({tuple}) {{ {arm} => 0, {arm} => 1 }} }}"
    );
    assert_eq!(
        warnings(&src),
        ["unreachable arm: the arms before it match every value it matches (arm 2)"]
    );
}

/// Ten thousand equal arms: each is unreachable, found without a search of the arms
/// before it (a search per arm took 8 s).
#[test]
fn many_equal_arms_are_unreachable_in_linear_time() {
    let arms = vec!["Cons(_, Nil) => 0"; 10_000].join(", ");
    let src = format!(
        "def @main(%l: List[int32]) -> int32 {{ match (%l) {{ Nil => 1, {arms}, _ => 2 }} }}"
    );
    let w = warnings(&src);
    assert_eq!(w.len(), 9_999);
    assert_eq!(
        w[0],
        "unreachable arm: the arms before it match every value it matches (arm 3)"
    );
    assert_eq!(
        w[9_998],
        "unreachable arm: the arms before it match every value it matches (arm 10001)"
    );
}

/// One data type of 100,000 constructors, matched arm by arm (its constructors were
/// checked for duplicates pairwise: 12.6 s).
#[test]
fn a_data_type_of_many_constructors_is_declared_and_matched_in_linear_time() {
    let n = 100_000;
    let ctors: Vec<String> = (0..n).map(|i| format!("C{i}")).collect();
    let decl = format!("type T {{ {} }}\n", ctors.join(", "));
    let arms = |from: usize| {
        (from..n)
            .map(|i| format!("C{i} => {i}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    well_typed(
        &format!(
            "{decl}def @main(%t: T) -> int32 {{ match (%t) {{ {} }} }}",
            arms(0)
        ),
        &["@main: fn (T) -> int32"],
    );
    first_error(
        &format!(
            "{decl}def @main(%t: T) -> int32 {{ match (%t) {{ {} }} }}",
            arms(1)
        ),
        "non-exhaustive match: `C0` not covered",
    );
    let dup = format!(
        "type T {{ {}, C7 }}\ndef @main() -> T {{ C1() }}",
        ctors.join(", ")
    );
    first_error(&dup, "constructor `C7` is declared twice");
}

// ----- found by `cargo fuzz` (fuzz/README.md) -----

/// The error at a character that starts no token covers that character: its span was
/// four bytes whatever the character's length, past the end of a two-byte `Ӗ` alone in
/// the file (found by the `check` target) and into the next token after an `é`.
#[test]
fn an_unexpected_character_is_spanned_by_its_own_bytes() {
    use relay_core::expr::Span;
    for (src, ch, lo, hi) in [
        ("\u{4d6}", "Ӗ", 0, 2),
        ("def @main() { é+1 }", "é", 14, 16),
        ("def @main() { € }", "€", 14, 17),
        ("def @main() { 𝄞 }", "𝄞", 14, 18),
    ] {
        let mut tcx = TyCtx::new();
        let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
        let errs = parse_module(src, &mut tcx, &mut adts).expect_err("no such token");
        assert_eq!(
            errs[0].message,
            format!("expected a token, found the character `{ch}`")
        );
        assert_eq!(errs[0].span, Span { lo, hi }, "in {src:?}");
    }
}

/// A parse error at a word that starts with a character outside ASCII ends inside that
/// character: the parser's `word_end` (`relay-core/src/text/parser/types.rs`) counts the
/// word's ASCII letters and, finding none, takes one byte. Found by the `parse` and
/// `check` fuzz targets, which require every span to end on a character boundary.
/// Ignored until the parser spans the character (`é` is two bytes).
#[test]
fn a_type_error_at_a_character_outside_ascii_is_spanned_by_the_whole_character() {
    use relay_core::expr::Span;
    for (src, message, lo) in [
        (
            "def @main(%x: Tensor[(1), éfloat32]) { %x }",
            "expected a data type, found `éfloat32])`",
            26,
        ),
        (
            "def @main(%x: Tensor[(1, é), float32]) { %x }",
            "expected a dimension, found `é),`",
            25,
        ),
        (
            "def @main(%x: (float32 é)) { %x }",
            "expected `)`, found `é))`",
            23,
        ),
    ] {
        let mut tcx = TyCtx::new();
        let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
        let errs = parse_module(src, &mut tcx, &mut adts).expect_err("a type error");
        assert_eq!(errs[0].message, message);
        assert_eq!(errs[0].span, Span { lo, hi: lo + 2 }, "in {src:?}");
    }
}
