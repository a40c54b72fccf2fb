//! Compile errors of `relay_prelude!`, each on the offending token.

#[test]
fn ui_relay_prelude() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/relay_prelude/*.rs");
}
