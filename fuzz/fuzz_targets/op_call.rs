//! A call of a random registered operator, with random tensor annotations and attributes
//! drawn from its declaration (see `relay_fuzz::op_call`), checked as `relay check` does.
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
});
