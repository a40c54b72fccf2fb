//! A data type with a field of an unknown type (`Lst` for `List`; this test binary
//! declares it): a plain error naming the declaration, with "did you mean".

use relay_core::relay_data;
use relay_ops::prelude::{Origin, Prelude};

relay_data! {
    data Stack<a> {
        Push : (a, Lst[a]) -> Stack,
    }
}

#[test]
fn names_the_declaration_and_the_closest_type() {
    let errors = Prelude::standard().unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].origin, Origin::Registry);
    let sources = relay_ops::prelude::standard_sources();
    let sources: Vec<(&str, &str)> = sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let shown = relay_cli::render_problems(&sources, None, &errors, relay_cli::Severity::Error);
    assert_eq!(
        shown,
        "error: field 1 of constructor `Push` (declared at \
         tests/downstream/tests/unknown_field_type.rs:8): unknown type `Lst`\n \
         = help: did you mean `List`?\n\n"
    );
    // The crate's own test of its declarations fails with the same text.
    let panic = std::panic::catch_unwind(relay_cli::check_declarations).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        &format!("the declarations of the linked crates have mistakes:\n\n{shown}")
    );
}
