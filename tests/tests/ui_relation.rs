//! Compile errors of `#[relation]`, each on the offending token, and its accepted forms.

#[test]
fn ui_relation() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/relation/*.rs");
    t.pass("ui/relation/pass/*.rs");
}
