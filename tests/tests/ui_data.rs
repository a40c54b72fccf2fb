//! Compile errors of `relay_data!`, each on the offending token, and its accepted forms.

#[test]
fn ui_relay_data() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/relay_data/*.rs");
    t.pass("ui/relay_data/pass/*.rs");
}
