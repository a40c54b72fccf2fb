//! Printed modules, round 2 (issue 27): forms of real print-outs that `relay check`
//! reads, each with the exact output.

use std::io::Write;
use std::process::{Command, Stdio};

/// `relay check -` of `src`: exit code, standard output, standard error.
fn check(src: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(["check", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run relay");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(src.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// TVM prints `arange`'s `start`, `stop` and `step` (expressions in its `ArangeAttrs`) as
/// references into the metadata, a call's among them: read as text; the arguments type
/// the call.
#[test]
fn arange_with_its_printed_attributes() {
    let src = "#[version = \"0.0.5\"]\ndef @main(%n: int64) {\n  %0 = arange(0i64, %n, 1i64, start=meta[relay.Constant][0], stop=meta[relay.Call][0], step=meta[relay.Constant][1], dtype=\"int64\") /* ty=Tensor[(?), int64] */;\n  %0\n}\n";
    assert_eq!(
        check(src),
        (
            0,
            "@main: fn (int64) -> Tensor[(?), int64]\n".to_string(),
            String::new()
        )
    );
    // The arguments still type it: a `stop` of another dtype is an error.
    let src = "def @main(%n: int32) {\n  arange(0i64, %n, 1i64, start=meta[relay.Constant][0], stop=meta[relay.Call][0], step=meta[relay.Constant][1], dtype=\"int64\")\n}\n";
    let (code, out, err) = check(src);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: `stop` of `arange` must be a scalar of int64, found `int32`\n"),
        "{err}"
    );
}
