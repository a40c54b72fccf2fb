//! Inputs that were superlinear (issue 17): each runs a size that took seconds before its
//! fix and takes milliseconds after, and asserts the exact result. No timing is asserted:
//! a regression shows as a slow test.

use relay_core::{AdtTable, TyCtx};

/// 300,000 data types declared one by one (each was inserted into a sorted list: 18 s),
/// listed sorted by name, the later of two of one name after the earlier.
#[test]
fn many_data_types_are_declared_in_n_log_n() {
    let mut tcx = TyCtx::new();
    let mut table = AdtTable::default();
    let n = 300_000;
    for i in (0..n).rev() {
        table.declare(&mut tcx, &format!("T{i:06}"), &[]).unwrap();
    }
    let again = table.declare(&mut tcx, "T000007", &[]).unwrap();
    let sorted = table.adts(&tcx);
    assert_eq!(sorted.len(), n + 1);
    let names: Vec<&str> = sorted[..9]
        .iter()
        .map(|&a| &*tcx.adt_info(a).name)
        .collect();
    assert_eq!(
        names,
        [
            "T000000", "T000001", "T000002", "T000003", "T000004", "T000005", "T000006", "T000007",
            "T000007"
        ]
    );
    assert_eq!(sorted[8], again);
    assert_eq!(table.adt("T000007"), Some(again));
}

/// The signatures of `src`, printed whole, or its errors' messages.
fn check(src: &str) -> Result<Vec<String>, Vec<String>> {
    use relay_core::{infer::infer, text::parse_module};
    let mut tcx = TyCtx::new();
    let mut adts = AdtTable::default();
    let m = parse_module(src, &mut tcx, &mut adts)
        .map_err(|es| es.iter().map(|e| e.message.clone()).collect::<Vec<_>>())?;
    let typed = infer(tcx, &adts, &m);
    if !typed.errors().is_empty() {
        return Err(typed.errors().iter().map(|e| e.message.clone()).collect());
    }
    Ok(m.globals()
        .iter()
        .map(|g| {
            let id = m.global(&g.name).unwrap();
            let ty = typed.show_within(typed.global_ty(id), usize::MAX);
            format!("@{}: {ty}", g.name)
        })
        .collect())
}

const DEPTH: usize = 10_000;

/// A nest of 10,000 tuples around an unannotated parameter, which a later binding
/// solves: every expression's type holds the parameter's, resolved once for all (each
/// was resolved whole: 10 s).
#[test]
fn types_that_share_a_solved_variable_resolve_in_linear_time() {
    let nest = format!("{}%y{}", "(".repeat(DEPTH), ",)".repeat(DEPTH));
    let src = format!("def @main(%y) {{ let %t = {nest}; let %z: float32 = %y; %t }}");
    let ty = format!("{}float32{}", "(".repeat(DEPTH), ",)".repeat(DEPTH));
    assert_eq!(
        check(&src),
        Ok(vec![format!("@main: fn (float32) -> {ty}")])
    );
}

/// 10,000 nested unannotated functions, applied one argument at a time: each call looks
/// at its callee's outer structure only (it resolved the callee whole: 17 s).
#[test]
fn a_curried_chain_of_calls_is_typed_in_linear_time() {
    let mut body = "%a0".to_string();
    for i in (0..DEPTH).rev() {
        body = format!("fn (%a{i}) {{ {body} }}");
    }
    let src = format!(
        "def @main(%x: float32) {{ let %f = {body}; %f{} }}",
        "(%x)".repeat(DEPTH)
    );
    assert_eq!(
        check(&src),
        Ok(vec!["@main: fn (float32) -> float32".to_string()])
    );
    // On an unannotated parameter (7 s): its type is not determined.
    let src = format!(
        "def @main(%f, %x: float32) {{ %f{} }}",
        "(%x)".repeat(DEPTH)
    );
    let errors = check(&src).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(
        errors[0]
            .starts_with("the type of `%f` is not determined: `fn (float32) -> fn (float32) -> "),
        "{}",
        &errors[0][..100]
    );
    assert!(errors[0]
        .trim_end_matches([')', '`'])
        .ends_with(" nodes more"));
}

/// A chain of 10,000 projections into a nest of tuples: each looks at the tuple's outer
/// structure only.
#[test]
fn a_chain_of_projections_is_typed_in_linear_time() {
    let nest = format!("{}%y{}", "(".repeat(DEPTH), ",)".repeat(DEPTH));
    let src = format!(
        "def @main(%y) {{ let %t = {nest}; let %z: float32 = %t{}; %z }}",
        ".0".repeat(DEPTH)
    );
    assert_eq!(
        check(&src),
        Ok(vec!["@main: fn (float32) -> float32".to_string()])
    );
}

/// Unknown names among ten thousand of the same length, then among a hundred thousand:
/// each suggestion fills at most `SUGGESTION_WORK` cells, in the band that could still
/// win (each compared with every candidate whole: 34 s for such a file).
#[test]
fn suggestions_are_bounded_by_the_name_and_the_work() {
    use relay_core::diag::did_you_mean;
    let names: Vec<String> = (0..10_000).map(|i| format!("v{i:05}")).collect();
    let candidates = || names.iter().map(String::as_str);
    for i in (0..10_000).step_by(97) {
        let wrong = format!("w{i:05}");
        assert_eq!(did_you_mean(&wrong, candidates()), Some(names[i].as_str()));
    }
    // A name that is itself a candidate is no suggestion, but a neighbour can be.
    assert_eq!(did_you_mean("v00005", candidates()), Some("v00000"));
    assert_eq!(did_you_mean("completely_different", candidates()), None);
    // Past the work, the closest of the candidates compared, if any is close: here
    // none before the work is spent, `v099999` being past it.
    let names: Vec<String> = (0..100_000).map(|i| format!("v{i:06}")).collect();
    let candidates = || names.iter().map(String::as_str);
    assert_eq!(did_you_mean("w000017", candidates()), Some("v000017"));
    assert_eq!(did_you_mean("w099999", candidates()), SUGGESTED);
}

/// The last suggestion above: none, the work being spent before `v099999`.
const SUGGESTED: Option<&str> = None;
