//! Snapshot tests of `relay check`'s diagnostics: one small ill-typed (or ill-formed) program
//! per distinct error, each in `tests/diagnostics/NAME.relay`, checked from the workspace root
//! so that the path in the snapshot is stable. Every program must fail with exit code 1, print
//! nothing on stdout, and render its diagnostics (source line, label, message) on stderr,
//! which is snapshotted in `tests/snapshots/diagnostics__NAME.snap`.
//!
//! Regenerate with `INSTA_UPDATE=always cargo test -p relay-cli --test diagnostics`, then read
//! every changed snapshot.

use std::process::Command;

/// Runs `relay check` on `tests/diagnostics/{name}.relay`; asserts exit code 1 and an empty
/// stdout, and returns stderr.
fn check_fails(name: &str) -> String {
    let path = format!("relay-cli/tests/diagnostics/{name}.relay");
    let out = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(["check", &path])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        // A panic's message must not depend on the environment the tests run in.
        .env("RUST_BACKTRACE", "0")
        .output()
        .expect("run relay");
    let stdout = String::from_utf8(out.stdout).expect("stdout is UTF-8");
    let stderr = String::from_utf8(out.stderr).expect("stderr is UTF-8");
    assert_eq!(
        out.status.code(),
        Some(1),
        "`relay check {path}` must exit 1\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    assert_eq!(stdout, "", "`relay check {path}` printed signatures");
    assert!(
        stderr.starts_with("error: "),
        "`relay check {path}` must start with an error:\n{stderr}"
    );
    stderr
}

/// One test per program: `name` is both the program's file stem and the snapshot's name.
macro_rules! diagnostics {
    ($($(#[$attr:meta])* $name:ident,)*) => {$(
        $(#[$attr])*
        #[test]
        fn $name() {
            let stderr = check_fails(stringify!($name));
            insta::assert_snapshot!(stringify!($name), stderr);
        }
    )*};
}

diagnostics! {
    // Syntax.
    parse_error,
    parse_error_expected_expression,
    /// `free_var` inside a definition, and a `meta[relay.Constant]` without the `/* ty=.. */`
    /// that TVM prints after it: clear errors, reading goes on.
    unsupported_meta_and_free_var,
    // Names.
    unknown_operator,
    unknown_attribute,
    /// A value of the wrong type (the label is that attribute, not the nested call's of the
    /// same name) and a missing required attribute (the label is the call).
    attribute_errors,
    unbound_variable,
    several_unbound_variables,
    duplicate_definition,
    /// "Did you mean" help for a global, a constructor and a type.
    misspelled_names,
    // Type relations of operators.
    broadcast_clash,
    dtype_clash,
    rank_clash,
    reshape_size_clash,
    // Kinds, calls and constructors.
    kind_error,
    arity_error,
    /// The callee is the prelude's: its definition is labelled in the prelude's text.
    arity_error_prelude_callee,
    /// An argument that does not fit the callee's parameter: both declarations labelled.
    argument_mismatch,
    /// `if` branches, `match` arms and a `let` annotation that disagree: the other side
    /// labelled with its type.
    branches_differ,
    /// A condition that is not a `bool` scalar (TVMfuzz's `if (%x0)` of a `uint64`): the
    /// type found, and where it comes from.
    if_condition_not_bool,
    /// A function's body and an `if` branch that are chains of `let`s: the label is the
    /// chain's result, not its statements.
    let_chain_results,
    /// A body whose type is not the function's annotated return type: a clash inside the
    /// types is named, both types are in notes (TVM's issue 8432; TVMfuzz's `@f(1)`).
    return_type_mismatch,
    constructor_arity_call,
    constructor_arity_pattern,
    /// A pattern with fewer fields than its constructor (`Cons(%h)`) must be a diagnostic.
    constructor_arity_pattern_too_few,
    // Matches and inference.
    non_exhaustive_match,
    /// A pattern of another data type than the value matched: the label is the pattern.
    pattern_type_clash,
    occurs_check,
    under_constrained,
    // Several independent type errors in one file: all are reported.
    several_errors,
    /// A name error does not hide the type errors of definitions it does not touch.
    name_and_type_errors,
    /// Nor does a syntax error; the users of the broken definition are not typed.
    syntax_and_type_errors,
}
