//! Every program of `examples/`: the spec's programs (`examples/spec/`) and the MLP and CNN,
//! checked through the library against their exact signatures; the spec's ill-typed programs
//! fail with the exact first error.

use relay_core::{adt, infer::infer, text::parse_module, TyCtx};
use relay_ops as _;

/// The outcome of checking one program.
#[derive(Debug)]
struct Checked {
    /// `@name: TYPE` for every global, in source order (empty when there are errors).
    signatures: Vec<String>,
    /// Parse errors, or else type errors, as their messages.
    errors: Vec<String>,
    /// Warnings of the checker, as their messages.
    warnings: Vec<String>,
}

fn check(src: &str) -> Checked {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).expect("the prelude's data types load");
    let module = match parse_module(src, &mut tcx, &mut adts) {
        Ok(m) => m,
        Err(errs) => {
            return Checked {
                signatures: Vec::new(),
                errors: errs.iter().map(|e| e.message.clone()).collect(),
                warnings: Vec::new(),
            }
        }
    };
    let typed = infer(tcx, &adts, &module);
    let errors: Vec<String> = typed.errors().iter().map(|e| e.message.clone()).collect();
    let warnings = typed.warnings().iter().map(|w| w.message.clone()).collect();
    let signatures = if errors.is_empty() {
        module
            .globals()
            .iter()
            .map(|g| {
                let id = module.global(&g.name).expect("a declared global");
                format!("@{}: {}", g.name, typed.show(typed.global_ty(id)))
            })
            .collect()
    } else {
        Vec::new()
    };
    Checked {
        signatures,
        errors,
        warnings,
    }
}

/// Asserts that `src` is well typed, without warnings, with exactly `expected` signatures.
fn well_typed(src: &str, expected: &[&str]) {
    well_typed_with_warnings(src, expected, &[]);
}

fn well_typed_with_warnings(src: &str, expected: &[&str], warnings: &[&str]) {
    let c = check(src);
    assert_eq!(c.errors, Vec::<String>::new(), "errors in:\n{src}");
    assert_eq!(c.signatures, expected, "signatures of:\n{src}");
    assert_eq!(c.warnings, warnings, "warnings of:\n{src}");
}

/// Asserts that `src` is rejected and that its first error is exactly `first_error`.
fn ill_typed(src: &str, first_error: &str) {
    let c = check(src);
    assert_eq!(
        c.errors.first().map(String::as_str),
        Some(first_error),
        "all errors: {:?}\nin:\n{src}",
        c.errors
    );
}

// ---- Examples outside the spec -------------------------------------------------------------

#[test]
fn mlp() {
    well_typed(
        include_str!("../../examples/mlp.relay"),
        &["@mlp: fn (Tensor[(n, 784), float32], Tensor[(128, 784), float32], Tensor[(128), float32], Tensor[(10, 128), float32], Tensor[(10), float32]) -> Tensor[(n, 10), float32]"],
    );
}

#[test]
fn cnn() {
    well_typed(
        include_str!("../../examples/cnn.relay"),
        &["@cnn: fn (Tensor[(n, 1, 28, 28), float32], Tensor[(8, 1, 3, 3), float32], Tensor[(8), float32], Tensor[(10, 1352), float32], Tensor[(10), float32]) -> Tensor[(n, 10), float32]"],
    );
}

// ---- Spec 000, "Relay's Type System" -----------------------------------------------------------

#[test]
fn tuple_type() {
    well_typed(
        include_str!("../../examples/spec/tuple_type.relay"),
        &[
            "@main: fn () -> Tensor[(10, 10), float32]",
            "@tuple: fn () -> (bool, Tensor[(10, 10), float32])",
        ],
    );
}

#[test]
fn plus_shape_param() {
    well_typed(
        include_str!("../../examples/spec/plus_shape_param.relay"),
        &[
            "@plus: fn [s: Shape](Tensor[s, float32], Tensor[s, float32]) -> Tensor[s, float32]",
            "@main: fn (Tensor[(10, 10), float32], Tensor[(10, 10), float32]) -> Tensor[(10, 10), float32]",
        ],
    );
}

#[test]
fn type_relations() {
    well_typed(
        include_str!("../../examples/spec/type_relations.relay"),
        &[
            "@identity: fn (Tensor[(n, 3), float32]) -> Tensor[(n, 3), float32]",
            "@flatten: fn (Tensor[(n, 3, 4, 5), float32]) -> Tensor[(n, 60), float32]",
            "@broadcast: fn (Tensor[(n, 1, 5), float32], Tensor[(4, 1), float32]) -> Tensor[(n, 4, 5), float32]",
        ],
    );
}

#[test]
fn list_adt() {
    well_typed(
        include_str!("../../examples/spec/list_adt.relay"),
        &[
            "@ints: fn () -> List[int32]",
            "@pairs: fn () -> List[(int32, int32)]",
        ],
    );
}

#[test]
fn ill_typed_list_int_on_tuples() {
    ill_typed(
        include_str!("../../examples/spec/ill_typed_list_int_on_tuples.relay"),
        "argument 2 of `Cons`: type argument 1: `int32` vs `(int32, int32)`",
    );
}

#[test]
fn ill_typed_list_of_lists() {
    ill_typed(
        include_str!("../../examples/spec/ill_typed_list_of_lists.relay"),
        "argument 2 of `Cons`: type argument 1, type argument 1: `int32` vs `(int32, int32)`",
    );
}

// ---- Spec 002, "Algebraic Data Types in Relay" -------------------------------------------------

#[test]
fn adt_numbers() {
    well_typed(
        include_str!("../../examples/spec/adt_numbers.relay"),
        &[
            "@sum: fn (Numbers) -> int32",
            "@main: fn () -> (int32, int32, int32)",
        ],
    );
}

#[test]
fn adt_numbers2() {
    well_typed(
        include_str!("../../examples/spec/adt_numbers2.relay"),
        &[
            "@sum: fn (Numbers) -> int32",
            "@main: fn () -> (Numbers2, Numbers2, Numbers2)",
        ],
    );
}

#[test]
fn ill_typed_sum_empty2() {
    ill_typed(
        include_str!("../../examples/spec/ill_typed_sum_empty2.relay"),
        "argument 1 of `@sum`: `Numbers` from the parameter `%n` vs `Numbers2`",
    );
}

#[test]
fn optional_inc_scalar() {
    well_typed(
        include_str!("../../examples/spec/optional_inc_scalar.relay"),
        &[
            "@inc_scalar: fn (Optional[int32]) -> int32",
            "@main: fn () -> ()",
        ],
    );
}

#[test]
fn ill_typed_inc_scalar_big() {
    ill_typed(
        include_str!("../../examples/spec/ill_typed_inc_scalar_big.relay"),
        "argument 1 of `@inc_scalar`: type argument 1, dtype: int32 from the parameter `%opt` vs float32 from `%big`",
    );
}

#[test]
fn list_sum() {
    well_typed(
        include_str!("../../examples/spec/list_sum.relay"),
        &["@list_sum: fn (List[int32]) -> int32"],
    );
}

#[test]
fn first_second_opt() {
    well_typed(
        include_str!("../../examples/spec/first_second_opt.relay"),
        &[
            "@first: fn [a](List[a]) -> Optional[a]",
            "@second_opt: fn [a](Optional[List[a]]) -> Optional[a]",
            "@main: fn () -> (Optional[int32], Optional[int32], Optional[int32], Optional[int32])",
        ],
    );
}

#[test]
fn match_order_beware() {
    well_typed_with_warnings(
        include_str!("../../examples/spec/match_order_beware.relay"),
        &["@match_order_beware: fn [a](List[a]) -> List[a]"],
        &[
            "unreachable arm: the arms before it match every value it matches (arm 2)",
            "unreachable arm: the arms before it match every value it matches (arm 3)",
        ],
    );
}

#[test]
fn list_map() {
    well_typed(
        include_str!("../../examples/spec/list_map.relay"),
        &[
            "@map: fn [a, b](fn (a) -> b, List[a]) -> List[b]",
            "@foldl: fn [a, b](fn (b, a) -> b, b, List[a]) -> b",
            "@foldr: fn [a, b](fn (a, b) -> b, b, List[a]) -> b",
        ],
    );
}

#[test]
fn list_double() {
    well_typed(
        include_str!("../../examples/spec/list_double.relay"),
        &[
            "@map: fn [a, b](fn (a) -> b, List[a]) -> List[b]",
            "@double: fn (List[int32]) -> List[int32]",
            "@double_map: fn (List[int32]) -> List[int32]",
        ],
    );
}

#[test]
fn list_concat() {
    well_typed(
        include_str!("../../examples/spec/list_concat.relay"),
        &[
            "@foldr: fn [a, b](fn (a, b) -> b, b, List[a]) -> b",
            "@concat: fn [a](List[a], List[a]) -> List[a]",
            "@concat_fold: fn [a](List[a], List[a]) -> List[a]",
        ],
    );
}

#[test]
fn list_flatten() {
    well_typed(
        include_str!("../../examples/spec/list_flatten.relay"),
        &[
            "@foldl: fn [a, b](fn (b, a) -> b, b, List[a]) -> b",
            "@concat: fn [a](List[a], List[a]) -> List[a]",
            "@flatten: fn [a](List[List[a]]) -> List[a]",
            "@flatten_fold: fn [a](List[List[a]]) -> List[a]",
        ],
    );
}

#[test]
fn rnn_relu_cell() {
    well_typed(
        include_str!("../../examples/spec/rnn_relu_cell.relay"),
        &[
            "@linear: fn [s: Shape](Tensor[s, float32], Tensor[s, float32], Tensor[s, float32]) -> Tensor[s, float32]",
            "@relu_cell: fn [s: Shape]((Tensor[s, float32], Tensor[s, float32]), (Tensor[s, float32], Tensor[s, float32]), Tensor[s, float32], Tensor[s, float32]) -> (Tensor[s, float32], Tensor[s, float32])",
            "@trained_cell: fn [s: Shape]((Tensor[s, float32], Tensor[s, float32]), (Tensor[s, float32], Tensor[s, float32])) -> fn (Tensor[s, float32], Tensor[s, float32]) -> (Tensor[s, float32], Tensor[s, float32])",
        ],
    );
}

#[test]
fn rnn_encode() {
    well_typed(
        include_str!("../../examples/spec/rnn_encode.relay"),
        &[
            "@foldl: fn [a, b](fn (b, a) -> b, b, List[a]) -> b",
            "@encode: fn [state_type, in_type, out_type](fn (state_type, in_type) -> (state_type, out_type), List[in_type], state_type) -> state_type",
        ],
    );
}

#[test]
fn rnn_generator() {
    well_typed(
        include_str!("../../examples/spec/rnn_generator.relay"),
        &[
            "@unfoldr: fn [a, b](fn (b) -> Optional[(a, b)], b) -> List[a]",
            "@generate_input: fn [state_type, in_type](state_type) -> Optional[in_type]",
            "@gen_func: fn [state_type, in_type, out_type](fn (state_type, in_type) -> (state_type, out_type), state_type) -> Optional[(out_type, state_type)]",
            "@generator: fn [state_type, in_type, out_type](fn (state_type, in_type) -> (state_type, out_type), state_type) -> List[out_type]",
        ],
    );
}

#[test]
fn rnn_general() {
    well_typed(
        include_str!("../../examples/spec/rnn_general.relay"),
        &[
            "@foldr: fn [a, b](fn (a, b) -> b, b, List[a]) -> b",
            "@map_accumr: fn [a, b, c](fn (a, b) -> (a, c), a, List[b]) -> (a, List[c])",
            "@map_accumr_fold: fn [a, b, c](fn (a, b) -> (a, c), a, List[b]) -> (a, List[c])",
            "@general_rnn: fn [state_type, in_type, out_type](fn (state_type, in_type) -> (state_type, out_type), state_type, List[in_type]) -> (state_type, List[out_type])",
        ],
    );
}

#[test]
fn rnn_bidirectional() {
    well_typed(
        include_str!("../../examples/spec/rnn_bidirectional.relay"),
        &[
            "@foldl: fn [a, b](fn (b, a) -> b, b, List[a]) -> b",
            "@map_accumr: fn [a, b, c](fn (a, b) -> (a, c), a, List[b]) -> (a, List[c])",
            "@zip: fn [a, b](List[a], List[b]) -> List[(a, b)]",
            "@map_accuml: fn [a, b, c](fn (a, b) -> (a, c), a, List[b]) -> (a, List[c])",
            "@bidirectional_rnn: fn [state1_type, state2_type, in_type, out1_type, out2_type](fn (state1_type, in_type) -> (state1_type, out1_type), fn (state2_type, in_type) -> (state2_type, out2_type), state1_type, state2_type, List[in_type]) -> List[(out1_type, out2_type)]",
        ],
    );
}

/// Every file of `examples/spec/` has a test above: a new example must be added here.
#[test]
fn every_spec_example_is_tested() {
    let this = include_str!("examples.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/spec");
    for entry in std::fs::read_dir(&dir).expect("examples/spec exists") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".relay") {
            let needle = format!("examples/spec/{name}\"");
            assert!(this.contains(&needle), "{name} has no test in examples.rs");
        }
    }
}
