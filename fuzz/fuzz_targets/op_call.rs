//! A call of a random registered operator, with random tensor annotations and attributes
//! drawn from its declaration (see `relay_fuzz::op_call`), checked as `relay check` does,
//! then again with every clause interpreted: the clauses' compiled runs and the
//! interpreter must give the same types and the same errors.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(src) = relay_fuzz::op_call(&mut u) else {
        return;
    };
    let checked = relay_fuzz::check(&src);
    relay_fuzz::show(&src, &checked);
    relay_core::__private::fast::set_enabled(false);
    let interpreted = relay_fuzz::check(&src);
    relay_core::__private::fast::set_enabled(true);
    // Unknowns are named by a counter that differs between the two checks: `'t12`.
    let unnamed = |s: &str| {
        let mut out = String::new();
        let mut digits_of_unknown = false;
        for c in s.chars() {
            if digits_of_unknown && c.is_ascii_digit() {
                continue;
            }
            digits_of_unknown = c == 't' && out.ends_with('\'');
            out.push(c);
        }
        out
    };
    let outcome = |c: &relay_ops::prelude::Checked| {
        let errors: Vec<&str> = c.errors.iter().map(|e| e.message.as_str()).collect();
        unnamed(&format!("{:?}\n{}", c.signatures(), errors.join("\n")))
    };
    assert_eq!(
        outcome(&checked),
        outcome(&interpreted),
        "compiled and interpreted clauses differ on\n{src}"
    );
});
