//! Running the `relay` command in tests.

#![allow(dead_code)] // Each test binary uses some of these.

use std::io::Write;
use std::path::{Path, PathBuf};
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

/// Writes `bytes` as `name` in a temporary directory of this test binary (`tag`) and
/// gives its path.
pub fn write(tag: &str, name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("relay-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// `relay ARGS FILE`: exit code, standard output, standard error, with the file's
/// directory written `DIR`.
pub fn relay_file(args: &[&str], file: &Path) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(args)
        .arg(file)
        .output()
        .expect("run relay");
    let dir = file.parent().unwrap().display().to_string();
    let clean = |s: Vec<u8>| String::from_utf8(s).unwrap().replace(&dir, "DIR");
    (
        out.status.code().unwrap(),
        clean(out.stdout),
        clean(out.stderr),
    )
}
