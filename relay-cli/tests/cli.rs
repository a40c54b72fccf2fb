//! The `relay` command's contract: output lines, exit codes, diagnostics.

use std::process::Command;

fn relay(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("run relay");
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const MLP: &str = "@mlp: fn (Tensor[(n, 784), float32], Tensor[(128, 784), float32], Tensor[(128), float32], Tensor[(10, 128), float32], Tensor[(10), float32]) -> Tensor[(n, 10), float32]\n";

#[test]
fn check_prints_one_signature_per_global() {
    assert_eq!(
        relay(&["check", "examples/mlp.relay"]),
        (0, MLP.to_string(), String::new())
    );
}

#[test]
fn check_with_bindings_prints_every_binding() {
    let (code, out, err) = relay(&["check", "--bindings", "examples/mlp.relay"]);
    assert_eq!((code, err.as_str()), (0, ""));
    let expected = format!(
        "{MLP}%0: Tensor[(n, 128), float32]\n%1: Tensor[(n, 128), float32]\n%2: Tensor[(n, 128), float32]\n%3: Tensor[(n, 10), float32]\n%4: Tensor[(n, 10), float32]\n"
    );
    assert_eq!(out, expected);
}

#[test]
fn a_type_error_exits_1_with_a_diagnostic_at_the_argument() {
    let (code, out, err) = relay(&["check", "examples/broadcast_error.relay"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        concat!(
            "error: `Tensor[(2, 3), float32]` and `Tensor[(4, 5), float32]` do not broadcast: dimension 0 of the first is 2 and dimension 0 of the second is 4\n",
            "  ┌─ examples/broadcast_error.relay:3:11\n",
            "  │\n",
            "2 │ def @main(%a: Tensor[(2, 3), float32], %b: Tensor[(4, 5), float32]) {\n",
            "  │           --                           -- `%b` is annotated `Tensor[(4, 5), float32]` here\n",
            "  │           │                             \n",
            "  │           `%a` is annotated `Tensor[(2, 3), float32]` here\n",
            "3 │   add(%a, %b)\n",
            "  │       --  ^^\n",
            "  │       │   │\n",
            "  │       │   argument 2: `Tensor[(4, 5), float32]`\n",
            "  │       argument 1: `Tensor[(2, 3), float32]`\n",
            "  │\n",
            "  = from the relation `Broadcast` of `add`\n\n"
        )
    );
}

#[test]
fn usage_and_io_errors_exit_2() {
    let (code, _, err) = relay(&["check", "examples/no_such_file.relay"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: cannot read `examples/no_such_file.relay`"),
        "{err}"
    );
    assert_eq!(relay(&[]).0, 2);
    assert_eq!(relay(&["check"]).0, 2);
    assert_eq!(relay(&["frobnicate"]).0, 2);
}

#[test]
fn ops_lists_every_operator() {
    let (code, out, _) = relay(&["ops"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("nn.conv2d: fn [t1, t2, t3](t1, t2) -> t3 where Conv2D\n"),
        "{out}"
    );
    // TVM's operators, and the ONNX front end's own (`onnx.*`: where ONNX's semantics
    // are not TVM's; `ort.*`: onnxruntime's contrib operators).
    let tvm = out
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.starts_with("onnx.") && !l.starts_with("ort."));
    assert_eq!(tvm.count(), 295);
    assert!(
        out.contains("onnx.reshape: fn [a, s, b](a, s) -> b where OnnxReshape\n"),
        "{out}"
    );
}

#[test]
fn check_has_the_prelude_in_scope_and_does_not_print_it() {
    let (code, out, err) = relay(&["check", "--bindings", "examples/prelude_use.relay"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        out,
        "@lengths: fn (List[List[float32]]) -> List[int32]\n\
         @count_doubled: fn (List[int32]) -> int32\n\
         %ys: List[int32]\n"
    );
}

#[test]
fn warnings_go_to_stderr_at_the_pattern_and_the_check_succeeds() {
    let (code, out, err) = relay(&["check", "examples/spec/match_order_beware.relay"]);
    assert_eq!(
        (code, out.as_str()),
        (0, "@match_order_beware: fn [a](List[a]) -> List[a]\n")
    );
    assert_eq!(
        err,
        concat!(
            "warning: unreachable arm: the arms before it match every value it matches (arm 2)\n",
            "  ┌─ examples/spec/match_order_beware.relay:8:10\n",
            "  │\n",
            "8 │     case Cons(%h, %t) { Cons(%h, @match_order_beware(%t)) }\n",
            "  │          ^^^^^^^^^^^^\n",
            "\n",
            "warning: unreachable arm: the arms before it match every value it matches (arm 3)\n",
            "  ┌─ examples/spec/match_order_beware.relay:9:10\n",
            "  │\n",
            "9 │     case Nil() { Nil() }\n",
            "  │          ^^^^^\n",
            "\n",
        )
    );
}

/// A program above a megabyte is typed after its text is freed, and read again to show
/// its problems: they are shown exactly as for the same program when small, attribute
/// errors at the attribute, warnings included. (The same files with a long comment at
/// the end: the same lines, past the size.)
#[test]
fn a_large_program_shows_its_problems_as_a_small_one() {
    let dir = std::env::temp_dir().join(format!("relay-large-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let padding = format!("// {}\n", "x".repeat(1 << 21));
    for file in [
        "relay-cli/tests/diagnostics/attribute_errors.relay",
        "relay-cli/tests/diagnostics/several_errors.relay",
        "examples/spec/match_order_beware.relay",
        "examples/mlp.relay",
    ] {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        let small = dir.join("small.relay");
        let large = dir.join("large.relay");
        std::fs::write(&small, &text).unwrap();
        std::fs::write(&large, format!("{text}\n{padding}")).unwrap();
        let (code, out, err) = relay(&["check", small.to_str().unwrap()]);
        let (large_code, large_out, large_err) = relay(&["check", large.to_str().unwrap()]);
        assert_eq!(large_code, code, "{file}");
        assert_eq!(large_out, out, "{file}");
        assert_eq!(
            large_err.replace("large.relay", "small.relay"),
            err,
            "{file}"
        );
        let wanted = if file.contains("diagnostics/") {
            "error"
        } else if file.contains("spec/") {
            "warning"
        } else {
            "@mlp"
        };
        assert!(
            err.starts_with(wanted) || out.starts_with(wanted),
            "{file}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `relay` with `args`, given `stdin` on standard input.
fn relay_with_input(args: &[&str], stdin: &[u8]) -> (i32, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_relay"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run relay");
    // Written from another thread, so that a child that does not read cannot block it.
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().expect("wait for relay");
    writer.join().unwrap();
    (
        out.status.code().expect("an exit code, not a signal"),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A file of the test's own with `bytes`, in the target's temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn a_dash_reads_the_program_from_standard_input() {
    assert_eq!(
        relay_with_input(&["check", "-"], b"def @f(%x: float32) { %x }\n"),
        (
            0,
            "@f: fn (float32) -> float32\n".to_string(),
            String::new()
        )
    );
    assert_eq!(
        relay_with_input(&["check", "-"], b"def @f(%x: float32) {\n  %y\n}\n"),
        (
            1,
            String::new(),
            concat!(
                "error: unbound local variable `%y`\n",
                "  ┌─ <stdin>:2:3\n",
                "  │\n",
                "2 │   %y\n",
                "  │   ^^\n",
                "  │\n",
                "  = help: did you mean `%x`?\n",
                "\n",
            )
            .to_string()
        )
    );
    let (code, out, err) = relay_with_input(&["check", "-"], b"\xff");
    assert_eq!(
        (code, out.as_str(), err.as_str()),
        (
            2,
            "",
            "error: cannot read `<stdin>`: the byte 0xff at offset 0 (line 1, column 1) is not UTF-8, which the text must be\n"
        )
    );
}

#[test]
fn a_file_that_is_not_utf8_is_named_by_offset_line_and_column() {
    let path = temp_file("not_utf8.relay", b"def @f(%x: float32) {\n  %x \xff\n}\n");
    let (code, out, err) = relay(&["check", &path]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        format!("error: cannot read `{path}`: the byte 0xff at offset 27 (line 2, column 6) is not UTF-8, which the text must be\n")
    );
}

#[test]
fn a_byte_order_mark_is_skipped() {
    let path = temp_file("bom.relay", b"\xef\xbb\xbfdef @f(%x: float32) { %x }\n");
    assert_eq!(
        relay(&["check", &path]),
        (
            0,
            "@f: fn (float32) -> float32\n".to_string(),
            String::new()
        )
    );
}

#[test]
fn control_characters_are_shown_escaped() {
    let path = temp_file(
        "control.relay",
        b"def @f(%x: float32) {\n  %x \x01 \x00 }\n",
    );
    let (code, out, err) = relay(&["check", &path]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(
        err,
        format!(
            concat!(
                "error: expected a token, found the character `\\u{{1}}`\n",
                "  ┌─ {}:2:6\n",
                "  │\n",
                "2 │   %x \\u{{1}} \\0 }}\n",
                "  │      ^^^^^\n",
                "\n",
            ),
            path
        )
    );
}

/// A line of a thousand unbound names: each error shows a window of the line, not the
/// line, and 50 errors are shown, then the count of the rest. (Rendered in full, the
/// line for every label and a write per character, it took over a minute.)
#[test]
fn a_long_line_is_shown_as_a_window_and_errors_past_fifty_are_counted() {
    let names: Vec<String> = (0..1000).map(|i| format!("%v{i:05}")).collect();
    let src = format!("def @main(%x: float32) {{ ({}) }}\n", names.join(", "));
    let path = temp_file("long_line.relay", src.as_bytes());
    let (code, out, err) = relay(&["check", &path]);
    assert_eq!((code, out.as_str()), (1, ""));
    let blocks: Vec<&str> = err.split("\n\n").collect();
    assert_eq!(blocks.len(), 52, "50 errors, the count, and the end");
    assert_eq!(
        blocks[0],
        format!(
            concat!(
                "error: unbound local variable `%v00000`\n",
                "  ┌─ {}:1:27\n",
                "  │\n",
                "1 │ def @main(%x: float32) {{ (%v00000, %v00001, %v00002, %v00003, %v00004, %v...\n",
                "  │                           ^^^^^^^",
            ),
            path
        )
    );
    assert_eq!(
        blocks[49],
        format!(
            concat!(
                "error: unbound local variable `%v00049`\n",
                "  ┌─ {}:1:468\n",
                "  │\n",
                "1 │ ...44, %v00045, %v00046, %v00047, %v00048, %v00049, %v00050, %v00051, %v00052, %v00053, %v...\n",
                "  │                                            ^^^^^^^",
            ),
            path
        )
    );
    assert_eq!(
        blocks[50],
        "error: 1000 errors in all: the first 50 are shown, 950 are not"
    );
    assert_eq!(blocks[51], "");
}

#[test]
fn the_workload_size_is_bounded() {
    assert_eq!(
        relay(&["workload", "1000000000000"]),
        (
            2,
            String::new(),
            "error: the workload has at most 10000000 operators, found 1000000000000\n".to_string()
        )
    );
}

/// `@dup` applied thirty deep: the type of `@main` has 2^31 - 1 nodes of text (printing
/// it aborted on a 4 GiB allocation). The line is cut past the output's budget (1 MiB
/// for a small program) with the count of the nodes left.
#[test]
fn a_type_exponentially_larger_than_its_program_is_cut() {
    let mut call = "%x".to_string();
    for _ in 0..30 {
        call = format!("@dup({call})");
    }
    let src = format!(
        "def @dup[A](%x: A) -> (A, A) {{ (%x, %x) }}\ndef @main(%x: float32) {{ {call} }}\n"
    );
    let path = temp_file("dup30.relay", src.as_bytes());
    let (code, out, err) = relay(&["check", &path]);
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "@dup: fn [A](A) -> (A, A)");
    assert!(
        lines[1].starts_with("@main: fn (float32) -> ((((("),
        "{}",
        &lines[1][..100]
    );
    assert!(lines[1].len() < (1 << 20) + 200, "{}", lines[1].len());
    assert!(
        lines[1].ends_with(&format!(" 2147292984 nodes more{}", ")".repeat(30))),
        "{}",
        &lines[1][lines[1].len() - 100..]
    );
}

/// `--compare-printed`: a module whose printed types agree with the inferred ones (a
/// printed `?` agrees with any dimension) checks as usual; a disagreement is an error at
/// the printed type that shows both, and the exit code is 1.
#[test]
fn compare_printed_reports_each_disagreement() {
    let fused = "tests/corpus/fused/tvmcn_pass_infra_fuse_level0.relay";
    let (code, out, err) = relay(&["check", "--compare-printed", fused]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "@main: fn (Tensor[(1, 64, 56, 56), float32], Tensor[(64, 64, 3, 3), float32]) -> Tensor[(1, 64, 54, 54), float32]\n");
    let src = "def @main(%x: Tensor[(2, 3), float32]) {\n  %0 = nn.relu(%x) /* ty=Tensor[(?, 3), float32] */;\n  %1 = add(%0, %0) /* ty=Tensor[(2, 4), float32] */;\n  %1\n}\n";
    let (code, out, err) = relay_with_input(&["check", "--compare-printed", "-"], src.as_bytes());
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "@main: fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]\n"
    );
    assert_eq!(
        err,
        concat!(
            "error: `%1` is `Tensor[(2, 3), float32]`, but TVM printed `Tensor[(2, 4), float32]`\n",
            "  ┌─ <stdin>:3:26\n",
            "  │\n",
            "3 │   %1 = add(%0, %0) /* ty=Tensor[(2, 4), float32] */;\n",
            "  │   --                     ^^^^^^^^^^^^^^^^^^^^^^^\n",
            "  │   │                       \n",
            "  │   `%1` bound here\n\n"
        )
    );
}
