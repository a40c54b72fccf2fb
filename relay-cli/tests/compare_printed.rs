//! `relay check --compare-printed` compares the type TVM printed on every expression
//! that carries one, not only the bindings': a function's result, an
//! argument, a tuple's field, a function literal's body.

mod common;

/// `relay check --compare-printed -` of `src`: exit code, standard output, standard error.
fn compare_printed(src: &str) -> (i32, String, String) {
    common::relay_stdin(&["check", "--compare-printed", "-"], src)
}

/// A program whose bindings' printed types are right, and whose other printed types are
/// stale: a function body's result, a tuple's field, an argument and `@main`'s result
/// (`(1, 10)`, where the signature says `(1, 100)`).
const STALE: &str = "def @main(%x: Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] {
  %0 = fn (%y: Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] {
    nn.relu(%y) /* ty=Tensor[(1, 99), float32] */
  } /* ty=fn (Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] */;
  %1 = (%x, nn.relu(%x) /* ty=Tensor[(1, 100), int8] */) /* ty=(Tensor[(1, 100), float32], Tensor[(1, 100), float32]) */;
  %2 = %1.0 /* ty=Tensor[(1, 100), float32] */;
  add(%0(%x) /* ty=Tensor[(2, 100), float32] */, %2) /* ty=Tensor[(1, 10), float32] */
}
";

#[test]
fn every_printed_type_is_compared() {
    let (code, out, err) = compare_printed(STALE);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "@main: fn (Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32]\n"
    );
    let errors: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(
        errors,
        [
            "error: `nn.relu(%y)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(1, 99), float32]`",
            "error: `nn.relu(%x)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(1, 100), int8]`",
            "error: `%0(%x)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(2, 100), float32]`",
            "error: `add(..)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(1, 10), float32]`",
        ]
    );
    // The result's, shown against the expression it is printed on.
    assert!(
        err.ends_with(concat!(
            "error: `add(..)` is `Tensor[(1, 100), float32]`, but TVM printed `Tensor[(1, 10), float32]`\n",
            "  ┌─ <stdin>:7:60\n",
            "  │\n",
            "7 │   add(%0(%x) /* ty=Tensor[(2, 100), float32] */, %2) /* ty=Tensor[(1, 10), float32] */\n",
            "  │   --------------------------------------------------       ^^^^^^^^^^^^^^^^^^^^^^^^\n",
            "  │   │                                                         \n",
            "  │   the expression\n",
            "\n"
        )),
        "{err}"
    );
}

#[test]
fn the_same_program_with_its_types_right_checks() {
    let src = "def @main(%x: Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] {
  %0 = fn (%y: Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] {
    nn.relu(%y) /* ty=Tensor[(1, 100), float32] */
  } /* ty=fn (Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32] */;
  %1 = (%x, nn.relu(%x) /* ty=Tensor[(1, 100), float32] */) /* ty=(Tensor[(1, 100), float32], Tensor[(1, 100), float32]) */;
  %2 = %1.0 /* ty=Tensor[(1, 100), float32] */;
  add(%0(%x) /* ty=Tensor[(1, 100), float32] */, %2) /* ty=Tensor[(1, 100), float32] */
}
";
    let (code, out, err) = compare_printed(src);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "@main: fn (Tensor[(1, 100), float32]) -> Tensor[(1, 100), float32]\n"
    );
}
