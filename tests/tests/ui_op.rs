//! Compile errors of `relay_op!`, each on the offending token, and its accepted forms.

#[test]
fn ui_relay_op() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/relay_op/*.rs");
    t.pass("ui/relay_op/pass/*.rs");
}
