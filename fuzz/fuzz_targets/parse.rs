//! The parser alone: any UTF-8 text is a module or parse errors, never a panic or a
//! hang; every error spans characters of the text; a module prints; and the two readers
//! of `let` chains (the fast path and the general loop) agree on whether the text parses
//! and on what it means.
#![no_main]

use libfuzzer_sys::fuzz_target;
use relay_core::text::{parse_module, parse_module_general, print_module};
use relay_core::{adt, TyCtx};
use relay_ops as _;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).expect("the registered data types load");
    let fast = parse_module(src, &mut tcx, &mut adts);
    let mut tcx2 = TyCtx::new();
    let mut adts2 = adt::load(&mut tcx2).expect("the registered data types load");
    let general = parse_module_general(src, &mut tcx2, &mut adts2);
    // The same text read both ways gives the same module or the same errors (as
    // `relay-core/tests/parse.rs` compares them).
    assert_eq!(
        format!("{fast:?}"),
        format!("{general:?}"),
        "the two readers differ"
    );
    match fast {
        Ok(m) => {
            let _ = print_module(&m, &tcx, &adts);
        }
        Err(errs) => {
            for e in &errs {
                assert!(!e.message.is_empty(), "an error without a message");
                relay_fuzz::assert_span_in(e.span, src, &e.message);
            }
        }
    }
});
