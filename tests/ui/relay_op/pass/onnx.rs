use relay_core::{relation, relay_op};
use relay_onnx::ops::{find, Arg, AttrFrom, Outputs};

/// The first argument's type.
#[relation(First(A, B, C, D, A) :- true)]
pub struct First;

relay_op! {
    /// Every form of the `onnx` clause: inputs by name and by index, an optional input, an
    /// input's value as an argument and as an attribute, the rest of the inputs, the node's
    /// attributes with and without a default, and several outputs.
    my.every : fn<a, b, c, d, e>(data: a, bias: b, shape: c, rest: d) -> e where First,
        attrs { factor: float = 1.0, axis: int = -1, axes: Option<[int]> = None, mode: str = "x", k: int },
        onnx "com.example" Every since 3 {
            inputs(X, B?, S, A?, ..Rest) => (shape: value(S), data: X, bias: 1, rest: Rest),
            attrs { factor: alpha = 2.5, mode: mode, axes: value(A), k: k = 4 },
            outputs(Y, Z),
        },
        // A second form of an earlier opset, in another domain, with no attributes mapped
        // but the required one.
        onnx "ai.onnx" Every since 1 {
            inputs(X, B, S, ..Rest) => (data: X, bias: B, shape: S, rest: Rest),
            attrs { k: r#type },
        };

    /// An operator without arguments: no `inputs`; one output by default.
    my.nothing : fn<a>() -> a,
        onnx "com.example" "Nothing" since 1 {};
}

fn main() {
    let op = find("com.example", "Every", 7).unwrap();
    assert_eq!((op.relay, op.since, op.outputs), ("my.every", 3, Outputs::Each));
    assert_eq!(op.args, &[Arg::In(0), Arg::Opt(1), Arg::Value(2), Arg::Rest(4)]);
    let attrs: Vec<String> = op.attrs.iter().map(|m| format!("{}={:?}", m.relay, m.from)).collect();
    assert_eq!(
        attrs,
        [
            "factor=AttrOr(\"alpha\", Float(2.5))",
            "mode=Attr(\"mode\")",
            "axes=Input(3)",
            "k=AttrOr(\"k\", Int(4))",
        ]
    );
    assert!(op.doc.starts_with("Every form of the `onnx` clause"));
    assert!(op.file.ends_with("onnx.rs"));
    assert!(find("com.example", "Every", 2).is_none());
    let old = find("", "Every", 2).unwrap();
    assert_eq!(old.args, &[Arg::In(0), Arg::In(1), Arg::In(2), Arg::Rest(3)]);
    assert!(matches!(old.attrs[0].from, AttrFrom::Attr("type")));
    assert_eq!(old.outputs, Outputs::One);
    let nothing = find("com.example", "Nothing", 1).unwrap();
    assert_eq!((nothing.relay, nothing.args.len()), ("my.nothing", 0));
    assert_eq!(relay_onnx::ops::problems(), &[] as &[String]);
}
