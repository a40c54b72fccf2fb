//! The crate's own `relay` command (`src/main.rs`, three lines over `relay_cli::main`),
//! end to end: it checks programs that use the crate's operator, data type and prelude
//! functions (`relay_prelude!`), and ONNX models that use its operator `my.patches` as
//! the ONNX operator `com.example.Patches` (`models/patches.onnx`, written by
//! `models/make.py`).

use std::process::Command;

/// Runs the command (`bin`: `my-relay` or relay-cli's `relay`) from the workspace root:
/// exit code, standard output, standard error.
fn run(bin: &str, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(bin)
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("run the command");
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn my_relay(args: &[&str]) -> (i32, String, String) {
    run(env!("CARGO_BIN_EXE_my-relay"), args)
}

#[test]
fn checks_a_program_over_the_crates_operator_data_type_and_prelude() {
    assert_eq!(
        my_relay(&["check", "--bindings", "tests/downstream/tests/zipper.relay"]),
        (
            0,
            "@shift: fn [A](Zipper[A]) -> Zipper[A]\n\
             @main: fn (Tensor[(n, 4), int8]) -> Zipper[Tensor[(n, 4), int8]]\n\
             %y: Tensor[(n, 4), int8]\n\
             %ys: List[Tensor[(n, 4), int8]]\n"
                .to_string(),
            String::new()
        )
    );
}

#[test]
fn checks_a_program_over_an_operator_whose_relation_shares_a_name_with_relay_ops() {
    assert_eq!(
        my_relay(&["check", "tests/downstream/tests/top_k.relay"]),
        (
            0,
            "@main: fn (Tensor[(n, 10), float32]) -> (Tensor[(n, 3), float32], Tensor[(n, 2), float32])\n"
                .to_string(),
            String::new()
        )
    );
}

#[test]
fn shows_the_crates_operator_errors_as_relay_check_does() {
    assert_eq!(
        my_relay(&["check", "tests/downstream/tests/bad_note.relay"]),
        (
            1,
            String::new(),
            concat!(
                "error: attribute `note` of `my.identity` expects `str`, found `3`\n",
                "  ┌─ tests/downstream/tests/bad_note.relay:3:19\n",
                "  │\n",
                "3 │   my.identity(%x, note=3)\n",
                "  │                   ^^^^^^\n",
                "\n",
            )
            .to_string()
        )
    );
}

#[test]
fn points_into_the_crates_prelude_file() {
    assert_eq!(
        my_relay(&["check", "tests/downstream/tests/bad_flip.relay"]),
        (
            1,
            String::new(),
            concat!(
                "error: argument 1 of `@flip`: `Zipper['a]` vs `List['b]`\n",
                "  ┌─ tests/downstream/tests/bad_flip.relay:3:9\n",
                "  │\n",
                "3 │   @flip(Cons(%x, Nil))\n",
                "  │         ^^^^^^^^^^^^^\n",
                "  │\n",
                "  ┌─ tests/downstream/src/my_prelude.relay:6:14\n",
                "  │\n",
                "6 │ def @flip[A](%z: Zipper[A]) -> Zipper[A] {\n",
                "  │              -- parameter `%z` is declared `Zipper[A]` here\n",
                "\n",
            )
            .to_string()
        )
    );
}

#[test]
fn lists_the_crates_operators_next_to_the_built_in_ones() {
    let (code, out, err) = my_relay(&["ops"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.contains("my.identity: fn [a, b](a) -> b where Same\n    level 9; attributes: note: str = \"\"\n"),
        "{out}"
    );
    assert!(out.contains("\nadd: fn [t1, t2, t3](t1, t2) -> t3 where Broadcast\n"));
    // Two relations named `TopK`, the crate's and relay-ops': each by its path.
    assert!(
        out.contains("\nmy.top_k: fn [a, b](a) -> b where relay_downstream_example::TopK\n"),
        "{out}"
    );
    assert!(
        out.contains("\ntopk: fn [t1, t2](t1) -> t2 where relay_ops::level4::misc::TopK\n"),
        "{out}"
    );
}

#[test]
fn checks_a_model_that_uses_the_crates_onnx_operator() {
    // `(N, 64, 48)`: 8 × 8 patches of 3 × 4 × 4 values, which only `Patches` computes.
    assert_eq!(
        my_relay(&[
            "check",
            "--bindings",
            "tests/downstream/models/patches.onnx"
        ]),
        (
            0,
            "@main: fn (Tensor[(N, 3, 32, 32), float32]) -> Tensor[(N, 64, 8), float32]\n\
             %p: Tensor[(N, 64, 48), float32]\n\
             %y: Tensor[(N, 64, 8), float32]\n"
                .to_string(),
            String::new()
        )
    );
}

#[test]
fn reports_a_wrong_input_shape_at_the_node() {
    assert_eq!(
        my_relay(&["check", "tests/downstream/models/patches_bad.onnx"]),
        (
            1,
            String::new(),
            concat!(
                "error: the height and width of `Tensor[(N, 3, 30, 32), float32]` must be multiples of the patch size 4\n",
                "  ┌─ tests/downstream/models/patches_bad.onnx: node 0 `patches` (com.example.Patches)\n",
                "  = input 0 `x`: `Tensor[(N, 3, 30, 32), float32]` (here)\n",
                "\n",
                "error: 1 problem in `tests/downstream/models/patches_bad.onnx`\n",
            )
            .to_string()
        )
    );
}
