//! The command as a library: `relay_cli::render` shows a checked program's problems as
//! `relay check` does, and `Problem`'s `Display` gives the message, notes and help.

use relay_cli::{render, render_problems, Severity};
use relay_ops::prelude::Prelude;
use std::process::Command;

/// What `relay check FILE` writes on standard error, from the workspace root.
fn relay_check_stderr(file: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(["check", file])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run relay");
    String::from_utf8(out.stderr).unwrap()
}

#[test]
fn render_shows_what_relay_check_shows() {
    let prelude = Prelude::standard().unwrap();
    // Errors of several phases and sources, a warning, attributes pointed at.
    for file in [
        "examples/broadcast_error.relay",
        "relay-cli/tests/diagnostics/attribute_errors.relay",
        "relay-cli/tests/diagnostics/several_errors.relay",
        "relay-cli/tests/diagnostics/arity_error_prelude_callee.relay",
        "examples/spec/match_order_beware.relay",
        "relay-cli/tests/diagnostics/syntax_and_type_errors.relay",
    ] {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../").to_string() + file;
        let program = std::fs::read_to_string(&path).unwrap();
        let checked = prelude.check(&program);
        let shown = render(&prelude, file, &program, &checked);
        assert!(!shown.is_empty(), "{file}");
        assert_eq!(shown, relay_check_stderr(file), "{file}");
    }
}

#[test]
fn render_is_empty_for_a_well_typed_program() {
    let prelude = Prelude::standard().unwrap();
    let checked = prelude.check("def @f(%x: float32) { %x }");
    assert_eq!(render(&prelude, "f.relay", "", &checked), "");
}

#[test]
fn render_problems_renders_a_list() {
    let prelude = Prelude::standard().unwrap();
    let program = "def @f() {\n  @lenght(Nil())\n}\n";
    let checked = prelude.check(program);
    let sources: Vec<(&str, &str)> = prelude.sources().collect();
    let shown = render_problems(
        &sources,
        Some(("f.relay", program)),
        &checked.errors,
        Severity::Error,
    );
    assert_eq!(
        shown,
        concat!(
            "error: unknown global `@lenght`\n",
            "  ┌─ f.relay:2:3\n",
            "  │\n",
            "2 │   @lenght(Nil())\n",
            "  │   ^^^^^^^\n",
            "  │\n",
            "  = help: did you mean `@length`?\n",
            "\n",
        )
    );
    assert_eq!(
        checked.errors[0].to_string(),
        "unknown global `@lenght`\n  = help: did you mean `@length`?"
    );
}

#[test]
fn an_operator_of_a_crate_not_linked_says_how_to_link_it() {
    // The downstream crate's program, checked where that crate is not linked.
    let prelude = Prelude::standard().unwrap();
    let file = "tests/downstream/tests/zipper.relay";
    let program =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../").to_string() + file)
            .unwrap();
    let checked = prelude.check(&program);
    let shown = render(&prelude, file, &program, &checked);
    assert!(
        shown.contains(concat!(
            "error: unknown operator `my.identity`\n",
            "   ┌─ tests/downstream/tests/zipper.relay:11:12\n",
            "   │\n",
            "11 │   let %y = my.identity(%x, note=\"kept\");\n",
            "   │            ^^^^^^^^^^^\n",
            "   │\n",
            "   = help: no registered operator is in the `my` namespace: the crate that declares `my.identity` is not linked into the program, as `inventory` finds only what is linked; name the crate in your code (`use my_ops as _;`)\n",
        )),
        "{shown}"
    );
}
