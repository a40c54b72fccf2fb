//! Two mistakes in the linked declarations (this test binary makes them, and links the
//! crate): a second `my.identity` and a second data type `Zipper`. Every one is reported,
//! each with its help, not only the first.

use relay_core::{relay_data, relay_op};
use relay_downstream_example as _;
use relay_ops::prelude::{Origin, Prelude};

relay_op! {
    my.identity : fn<a>(a) -> a;
}

relay_data! {
    data Zipper { Zip }
}

#[test]
fn reports_both_each_with_its_help() {
    let errors = relay_core::registry::global().unwrap_err();
    let shown: Vec<(String, Option<String>)> =
        errors.iter().map(|e| (e.to_string(), e.help())).collect();
    let operator = "operator `my.identity` is declared twice: at tests/downstream/src/lib.rs:15 \
                    and at tests/downstream/tests/two_mistakes.rs:10";
    let operator_help = "the names of operators are global across the linked crates: rename \
                         one of them, or put it in a namespace of its crate's own";
    let data = "data type `Zipper` is declared twice: at tests/downstream/src/lib.rs:64 and \
                at tests/downstream/tests/two_mistakes.rs:14";
    let data_help = "the names of data types and constructors are global across the linked \
                     crates, as in Relay's text format: rename one of the data types";
    assert_eq!(
        shown,
        [
            (operator.to_string(), Some(operator_help.to_string())),
            (data.to_string(), Some(data_help.to_string())),
        ]
    );

    // `relay check` shows both, as plain errors.
    let problems = Prelude::standard().unwrap_err();
    assert!(problems.iter().all(|p| p.origin == Origin::Registry));
    let sources = relay_ops::prelude::standard_sources();
    let sources: Vec<(&str, &str)> = sources.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let rendered =
        relay_cli::render_problems(&sources, None, &problems, relay_cli::Severity::Error);
    assert_eq!(
        rendered,
        format!("error: {operator}\n = help: {operator_help}\n\nerror: {data}\n = help: {data_help}\n\n")
    );
    // The crate's own test of its declarations fails with the same text.
    let panic = std::panic::catch_unwind(relay_cli::check_declarations).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        &format!("the declarations of the linked crates have mistakes:\n\n{rendered}")
    );
}
