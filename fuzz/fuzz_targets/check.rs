//! Parse and check as `relay check` does (the standard prelude in scope): any UTF-8 text
//! gives signatures or problems, never a panic or a hang.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let checked = relay_fuzz::check(src);
    relay_fuzz::show(src, &checked);
});
