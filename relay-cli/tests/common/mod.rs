//! Running the `relay` command in tests.

use std::io::Write;
use std::process::{Command, Stdio};

/// `relay ARGS` with `src` on standard input: exit code, standard output, standard error.
pub fn relay_stdin(args: &[&str], src: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(args)
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
