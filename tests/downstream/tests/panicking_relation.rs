//! An imperative relation that panics (it reads a third dimension of a rank-2 input
//! without checking the rank; this test binary declares it): the check goes on, the
//! panic is an internal error of that relation, naming it and where it panicked, and
//! nothing else is printed (no panic message, no backtrace).

use relay_core::{relation, relay_op, Progress, RelCx, RelResult};
use relay_ops::prelude::Prelude;

#[relation(ThirdDim)]
fn third_dim(cx: &mut RelCx<'_>) -> RelResult {
    let Some((dims, dtype)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let shape = cx.tcx().shape(&[dims[2]]);
    let out = cx.tcx().tensor(shape, dtype);
    cx.unify(1, out)?;
    Ok(Progress::Solved)
}

relay_op! {
    careless.third_dim : fn<a, b>(data: a) -> b where ThirdDim;
}

#[test]
fn a_panic_is_an_internal_error_of_the_relation() {
    let prelude = Prelude::standard().unwrap();
    let checked = prelude.check(
        "def @f(%x: Tensor[(2, 3), float32]) { careless.third_dim(%x) }\n\
         def @g(%x: Tensor[(2, 3, 4), float32]) { careless.third_dim(%x) }\n\
         def @h(%x: float32) { %x + 1f }",
    );
    let errors: Vec<String> = checked.errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        errors,
        ["internal error: relation `ThirdDim` panicked at \
          tests/downstream/tests/panicking_relation.rs:14:38: index out of bounds: the len is 2 but the index is 2\n  \
          = this is a bug of the relation, not of the program: report it to the crate that declares it\n  \
          = from the relation `ThirdDim` of `careless.third_dim`"]
    );
    // The other definitions are typed.
    let (m, typed) = checked.typed.as_ref().unwrap();
    let g = m.global("g").unwrap();
    assert_eq!(
        typed.show(typed.global_ty(g)),
        "fn (Tensor[(2, 3, 4), float32]) -> Tensor[(4), float32]"
    );
}

/// The program of [`nothing_but_the_error_is_printed`], checked and rendered on standard
/// error as `relay check` renders it, by this test binary run again as a child process.
#[test]
fn child_check_a_panicking_relation() {
    if std::env::var_os("RELAY_PANIC_CHILD").is_none() {
        return;
    }
    let prelude = Prelude::standard().unwrap();
    let program = "def @f(%x: Tensor[(2, 3), float32]) { careless.third_dim(%x) }";
    let checked = prelude.check(program);
    eprint!(
        "{}",
        relay_cli::render(&prelude, "f.relay", program, &checked)
    );
}

#[test]
fn nothing_but_the_error_is_printed() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_check_a_panicking_relation", "--nocapture"])
        .args(["--test-threads", "1", "--quiet"])
        .env("RELAY_PANIC_CHILD", "1")
        // The default hook would print a backtrace.
        .env("RUST_BACKTRACE", "1")
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        concat!(
            "error: internal error: relation `ThirdDim` panicked at ",
            "tests/downstream/tests/panicking_relation.rs:14:38: index out of bounds: the len is 2 but the index is 2\n",
            "  ┌─ f.relay:1:39\n",
            "  │\n",
            "1 │ def @f(%x: Tensor[(2, 3), float32]) { careless.third_dim(%x) }\n",
            "  │        --                             ^^^^^^^^^^^^^^^^^^^^^^\n",
            "  │        │                                                 │\n",
            "  │        │                                                 argument 1: `Tensor[(2, 3), float32]`\n",
            "  │        `%x` is annotated `Tensor[(2, 3), float32]` here\n",
            "  │\n",
            "  = this is a bug of the relation, not of the program: report it to the crate that declares it\n",
            "  = from the relation `ThirdDim` of `careless.third_dim`\n",
            "\n",
        )
    );
}
