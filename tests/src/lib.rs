//! Workspace-level integration tests live in `tests/tests/`; the UI suites of the
//! declaration macros in `tests/ui/`.

/// The README's Rust examples, compiled and run as doctests.
#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
