//! A second declaration of the crate's operator `my.identity` (this test binary declares
//! one, and links the crate): the registry's error is a plain error naming both places,
//! not an error at the first byte of the prelude.

use relay_core::relay_op;
use relay_downstream_example as _;
use relay_ops::prelude::{Origin, Prelude};

relay_op! {
    my.identity : fn<a>(a) -> a;
}

#[test]
fn names_both_declarations() {
    let message = "operator `my.identity` is declared twice: at tests/downstream/src/lib.rs:15 \
                   and at tests/downstream/tests/duplicate_operator.rs:10";
    let help = "the names of operators are global across the linked crates: rename one of \
                them, or put it in a namespace of its crate's own";
    let errors = relay_core::registry::global().unwrap_err();
    let shown: Vec<(String, Option<String>)> =
        errors.iter().map(|e| (e.to_string(), e.help())).collect();
    assert_eq!(shown, [(message.into(), Some(help.into()))]);
    let errors = Prelude::standard().unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].origin, Origin::Registry);
    assert_eq!(errors[0].message, message);
    let sources = relay_ops::prelude::standard_sources();
    let sources: Vec<(&str, &str)> = sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let shown = relay_cli::render_problems(&sources, None, &errors, relay_cli::Severity::Error);
    assert_eq!(shown, format!("error: {message}\n = help: {help}\n\n"));
    // The crate's own test of its declarations fails with the same text.
    let panic = std::panic::catch_unwind(relay_cli::check_declarations).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        &format!("the declarations of the linked crates have mistakes:\n\n{shown}")
    );
}
