//! Compile errors of the macros (`#[relation]`, `relay_op!`, `relay_data!`,
//! `relay_prelude!`), each on the offending token, and their accepted forms: one trybuild
//! run, so that the crates they use are built once.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/relation/*.rs");
    t.pass("ui/relation/pass/*.rs");
    t.compile_fail("ui/relay_op/*.rs");
    t.pass("ui/relay_op/pass/*.rs");
    t.compile_fail("ui/relay_data/*.rs");
    t.pass("ui/relay_data/pass/*.rs");
    t.compile_fail("ui/relay_prelude/*.rs");
}
