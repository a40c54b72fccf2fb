//! A registered prelude that does not type-check: `Prelude::standard()` reports its
//! errors in its own file, named by its path. (This test binary registers it; the
//! crate's own prelude, which it uses, comes first: the names sort so.)

use relay_core::relay_prelude;
use relay_downstream_example as _;
use relay_ops::prelude::{standard_sources, Origin, Prelude};

relay_prelude!("broken_prelude.relay");

#[test]
fn its_errors_are_placed_in_its_file() {
    let names: Vec<String> = standard_sources().into_iter().map(|(n, _)| n).collect();
    assert_eq!(
        names,
        [
            "the prelude",
            "tests/downstream/src/my_prelude.relay",
            "tests/downstream/tests/broken_prelude.relay",
        ]
    );
    let errors = Prelude::standard().unwrap_err();
    assert_eq!(
        errors[0].origin,
        Origin::Prelude("tests/downstream/tests/broken_prelude.relay".into())
    );
    let sources = standard_sources();
    let sources: Vec<(&str, &str)> = sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let shown = relay_cli::render_problems(&sources, None, &errors, relay_cli::Severity::Error);
    assert_eq!(
        shown,
        concat!(
            "error: the function's body does not have its annotated return type\n",
            "  ┌─ tests/downstream/tests/broken_prelude.relay:3:3\n",
            "  │\n",
            "2 │ def @first(%z: Zipper[int32]) -> int32 {\n",
            "  │                                  ----- the return type is annotated here\n",
            "3 │   @flip(%z)\n",
            "  │   ^^^^^^^^^\n",
            "  │\n",
            "  = the body is `Zipper[int32]`\n",
            "\n",
        )
    );
    // The crate's own test of its declarations fails with the same text.
    let panic = std::panic::catch_unwind(relay_cli::check_declarations).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        &format!("the declarations of the linked crates have mistakes:\n\n{shown}")
    );
}
