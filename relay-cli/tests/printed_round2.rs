//! Printed modules, round 2: forms of real print-outs that `relay check`
//! reads, each with the exact output.

mod common;

/// `relay check -` of `src`: exit code, standard output, standard error.
fn check(src: &str) -> (i32, String, String) {
    common::relay_stdin(&["check", "-"], src)
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

/// TVM 0.6's metadata section, as its printer wrote it (`/* meta data */`, then the JSON
/// with a `StrMap` root), with a float32 tensor of shape (2, 3).
const OLD_METADATA: &str = r#"/* meta data */
{
  "root": 1, 
  "nodes": [
    {
      "type_key": ""
    }, 
    {
      "type_key": "StrMap", 
      "keys": [
        "relay.Constant"
      ], 
      "data": [2]
    }, 
    {
      "type_key": "Array", 
      "data": [3]
    }, 
    {
      "type_key": "relay.Constant", 
      "attrs": {
        "_checked_type_": "0", 
        "data": "0", 
        "span": "0"
      }
    }
  ], 
  "b64ndarrays": [
    "P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA="
  ], 
  "attrs": {"tvm_version": "0.6.0"}
}
"#;

/// A constant of TVM 0.6's metadata section (after `/* meta data */`) is typed by its
/// tensor there, as one of `#[metadata]`, in a module and in a printed expression.
#[test]
fn constants_of_tvm_0_6_metadata_section() {
    let src = format!("v0.0.4\ndef @main(%x: Tensor[(2, 3), float32]) {{\n  add(%x, meta[relay.Constant][0])\n}}\n{OLD_METADATA}");
    assert_eq!(
        check(&src),
        (
            0,
            "@main: fn (Tensor[(2, 3), float32]) -> Tensor[(2, 3), float32]\n".to_string(),
            String::new()
        )
    );
    let src = format!("v0.0.4\nfree_var %x: Tensor[(1, 3), float32];\n%0 = add(%x, meta[relay.Constant][0]);\n%0\n{OLD_METADATA}");
    assert_eq!(
        check(&src),
        (
            0,
            "@main: fn (Tensor[(1, 3), float32]) -> Tensor[(2, 3), float32]\n".to_string(),
            String::new()
        )
    );
    // The section is read: a constant it does not have is an error that says so.
    let src = format!("v0.0.4\ndef @main() {{\n  meta[relay.Constant][1]\n}}\n{OLD_METADATA}");
    let (code, out, err) = check(&src);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: the metadata section has no `relay.Constant` 1\n"),
        "{err}"
    );
}

/// Attributes omitted with the metadata section (`// meta data omitted`): a call TVM
/// printed with its type is typed by it, with a warning that says so; without a printed
/// type it is an error.
#[test]
fn omitted_attributes_trust_the_printed_type() {
    let src = "v0.0.4\ndef @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {\n  %0 = nn.conv2d(%x, %w, meta[relay.attrs.Conv2DAttrs][0]) /* ty=Tensor[(1, 4, 8, 8), float32] */;\n  nn.relu(%0) /* ty=Tensor[(1, 4, 8, 8), float32] */\n}\n// meta data omitted. you can use show_meta_data=True to include meta data\n";
    let (code, out, err) = check(src);
    assert_eq!(
        (code, out.as_str()),
        (0, "@main: fn (Tensor[(1, 3, 8, 8), float32], Tensor[(4, 3, 3, 3), float32]) -> Tensor[(1, 4, 8, 8), float32]\n")
    );
    assert_eq!(
        err,
        concat!(
            "warning: the attributes of `nn.conv2d` were omitted with the metadata section (`meta[relay.attrs.Conv2DAttrs][0]`): the printed type `Tensor[(1, 4, 8, 8), float32]` is trusted\n",
            "  ┌─ <stdin>:3:8\n",
            "  │\n",
            "3 │   %0 = nn.conv2d(%x, %w, meta[relay.attrs.Conv2DAttrs][0]) /* ty=Tensor[(1, 4, 8, 8), float32] */;\n",
            "  │        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n",
            "  │\n",
            "  = help: print the module with its metadata (`show_meta_data=True`) to check this call\n\n",
        )
    );
    // Without the printed type, nothing types the call.
    let src = "v0.0.4\ndef @main(%x: Tensor[(1, 3, 8, 8), float32], %w: Tensor[(4, 3, 3, 3), float32]) {\n  nn.conv2d(%x, %w, meta[relay.attrs.Conv2DAttrs][0])\n}\n// meta data omitted. you can use show_meta_data=True to include meta data\n";
    let (code, out, err) = check(src);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(
        err.starts_with("error: the attributes `meta[relay.attrs.Conv2DAttrs][0]` are in a metadata section, which this text does not have\n"),
        "{err}"
    );
}
