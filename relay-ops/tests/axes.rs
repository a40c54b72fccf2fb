//! Every axis attribute of every operator is range-checked: per operator and attribute, a
//! call with the attribute out of range and the exact message; and the table names every
//! attribute of the registry that is an axis, so an operator added with one is audited.

mod common;
use common::{infer, int, ints, string};
use relay_core::{registry, AttrValue};
use std::collections::BTreeSet;

const X: &str = "Tensor[(2, 3), float32]";
const Q: &str = "Tensor[(2, 3), int8]";
const F: &str = "float32";
const I: &str = "int32";

fn float(v: f64) -> AttrValue {
    AttrValue::Float(v)
}

/// A call of `op` with attribute `attr` out of range, and the message it gives.
struct Call {
    op: &'static str,
    attr: &'static str,
    args: Vec<&'static str>,
    attrs: Vec<(&'static str, AttrValue)>,
    want: String,
}

fn call(
    op: &'static str,
    attr: &'static str,
    args: &[&'static str],
    attrs: Vec<(&'static str, AttrValue)>,
    want: impl Into<String>,
) -> Call {
    Call {
        op,
        attr,
        args: args.to_vec(),
        attrs,
        want: want.into(),
    }
}

fn cases() -> Vec<Call> {
    let pair = "(Tensor[(2, 3), float32], Tensor[(2, 3), float32])";
    let qpair = "(Tensor[(2, 3), int8], Tensor[(2, 3), int8])";
    let mut v = Vec::new();
    for op in [
        "all", "any", "max", "min", "mean", "prod", "sum", "argmax", "argmin",
    ] {
        v.push(call(
            op,
            "axis",
            &[X],
            vec![("axis", ints(&[5]))],
            "`axis` 5 is out of range for a tensor of rank 2",
        ));
    }
    for op in ["variance", "std"] {
        v.push(call(
            op,
            "axis",
            &[X, "Tensor[(2, 1), float32]"],
            vec![("axis", ints(&[5]))],
            "`axis` 5 is out of range for a tensor of rank 2",
        ));
    }
    for op in [
        "argsort",
        "sort",
        "cumsum",
        "cumprod",
        "reverse",
        "nn.softmax",
        "nn.log_softmax",
        "nn.fast_softmax",
        "nn.lrn",
    ] {
        v.push(call(
            op,
            "axis",
            &[X],
            vec![("axis", int(5))],
            "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)",
        ));
    }
    v.extend([
        call("concatenate", "axis", &[pair], vec![("axis", int(5))], "`axis` 5 is out of range for tensors of rank 2: it must be in [-2, 2)"),
        call("stack", "axis", &[pair], vec![("axis", int(5))], "`axis` 5 is out of range for stacking `(Tensor[(2, 3), float32], Tensor[(2, 3), float32])` (from -3 to 2)"),
        call("expand_dims", "axis", &[X], vec![("axis", int(5))], "`axis` 5 is out of range for inserting into `Tensor[(2, 3), float32]` (from -3 to 2)"),
        call("squeeze", "axis", &["Tensor[(1, 3), float32]"], vec![("axis", ints(&[5]))], "`axis` 5 is out of range for `Tensor[(1, 3), float32]` (rank 2)"),
        call("transpose", "axes", &[X], vec![("axes", ints(&[0, 5]))], "`axes` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("split", "axis", &[X], vec![("indices_or_sections", int(1)), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("repeat", "axis", &[X], vec![("repeats", int(2)), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("gather", "axis", &[X, "Tensor[(2, 3), int32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("take", "axis", &[X, "Tensor[(2), int32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("topk", "axis", &[X], vec![("k", int(1)), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("strided_slice", "axes", &[X], vec![("begin", ints(&[0])), ("end", ints(&[1])), ("axes", ints(&[5]))], "`axes` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("slice_like", "axes", &[X, X], vec![("axes", ints(&[5]))], "`axes` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("one_hot", "axis", &["Tensor[(2), int32]", F, F], vec![("depth", int(3)), ("axis", int(5))], "`axis` 5 is out of range for inserting into `Tensor[(2), int32]` (from -2 to 1)"),
        call("scatter_elements", "axis", &[X, "Tensor[(2, 3), int64]", X], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("sequence_mask", "axis", &[X, "Tensor[(3), int32]"], vec![("axis", int(5))], "`axis` of `sequence_mask` must be 0 or 1, found 5"),
        call("reverse_sequence", "seq_axis", &[X, "Tensor[(2), int32]"], vec![("seq_axis", int(5))], "`seq_axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("reverse_sequence", "batch_axis", &[X, "Tensor[(3), int32]"], vec![("batch_axis", int(5))], "`batch_axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("sliding_window", "axis", &[X], vec![("axis", int(5)), ("window_shape", ints(&[1])), ("strides", ints(&[1]))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.l2_normalize", "axis", &[X], vec![("eps", float(1e-5)), ("axis", ints(&[5]))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.bias_add", "axis", &[X, "Tensor[(3), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.prelu", "axis", &[X, "Tensor[(3), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.batch_norm", "axis", &[X, "Tensor[(3), float32]", "Tensor[(3), float32]", "Tensor[(3), float32]", "Tensor[(3), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.layer_norm", "axis", &[X, "Tensor[(3), float32]", "Tensor[(3), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("nn.group_norm", "axis", &["Tensor[(2, 4, 3), float32]", "Tensor[(4), float32]", "Tensor[(4), float32]"], vec![("num_groups", int(2)), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 4, 3), float32]` (rank 3)"),
        call("nn.instance_norm", "axis", &["Tensor[(2, 3, 4), float32]", "Tensor[(3), float32]", "Tensor[(3), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3, 4), float32]` (rank 3)"),
        call("nn.fifo_buffer", "axis", &["Tensor[(1, 2), float32]", "Tensor[(1, 10), float32]"], vec![("axis", int(5))], "`axis` 5 is out of range for the buffer `Tensor[(1, 10), float32]` (rank 2)"),
        call("nn.bitpack", "pack_axis", &["Tensor[(1, 64, 8, 8), int16]"], vec![("pack_type", string("uint32")), ("pack_axis", int(5))], "`pack_axis` 5 is out of range for `Tensor[(1, 64, 8, 8), int16]` (rank 4)"),
        call("nn.bitpack", "bit_axis", &["Tensor[(1, 64, 8, 8), int16]"], vec![("pack_type", string("uint32")), ("bit_axis", int(6))], "`bit_axis` 6 is out of range for `Tensor[(1, 64, 8, 8), int16]` (from -4 to 4)"),
        call("dyn.one_hot", "axis", &["Tensor[(2), int32]", F, F, I], vec![("axis", int(5))], "`axis` 5 is out of range for inserting into `Tensor[(2), int32]` (from -2 to 1)"),
        call("dyn.squeeze", "axis", &["Tensor[(1, 3), float32]", "Tensor[(1), int64]"], vec![("axis", ints(&[5]))], "`axis` 5 is out of range for `Tensor[(1, 3), float32]` (rank 2)"),
        call("dyn.strided_slice", "axes", &[X, "Tensor[(1), int64]", "Tensor[(1), int64]", "Tensor[(1), int64]"], vec![("axes", ints(&[5]))], "`axes` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("dyn.topk", "axis", &[X, I], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("fixed_point_multiply_per_axis", "axes", &["Tensor[(2, 3), int32]", "Tensor[(3), int32]", "Tensor[(3), int32]", "Tensor[(3), int32]"], vec![("axes", ints(&[5]))], "`axes` of `fixed_point_multiply_per_axis` must be axes of `x` (0 to 1), found 5 for `Tensor[(2, 3), int32]`"),
        call("qnn.quantize", "axis", &[X, F, I], vec![("out_dtype", string("int8")), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("qnn.dequantize", "axis", &[Q, F, I], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), int8]` (rank 2)"),
        call("qnn.requantize", "axis", &["Tensor[(2, 3), int32]", F, I, F, I], vec![("out_dtype", string("int8")), ("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), int32]` (rank 2)"),
        call("qnn.simulated_quantize", "axis", &[X, I, F, I], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("qnn.simulated_dequantize", "axis", &[X, I, F, I], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), float32]` (rank 2)"),
        call("qnn.softmax", "axis", &[Q, F, I, F, I], vec![("axis", int(5))], "`axis` 5 is out of range for `Tensor[(2, 3), int8]` (rank 2)"),
        call("qnn.concatenate", "axis", &[qpair, "(float32, float32)", "(int32, int32)", F, I], vec![("axis", int(5))], "`axis` 5 is out of range for tensors of rank 2: it must be in [-2, 2)"),
    ]);
    for op in ["qnn.add", "qnn.subtract", "qnn.mul"] {
        for attr in ["lhs_axis", "rhs_axis"] {
            v.push(call(
                op,
                attr,
                &[Q, Q, F, I, F, I, F, I],
                vec![(attr, int(5))],
                format!("`{attr}` 5 is out of range for `Tensor[(2, 3), int8]` (rank 2)"),
            ));
        }
    }
    v
}

#[test]
fn every_axis_attribute_is_range_checked() {
    let mut wrong = Vec::new();
    for c in cases() {
        let got = infer(c.op, &c.args, &c.attrs);
        if got != Err(c.want.clone()) {
            wrong.push(format!(
                "{} `{}`: got {got:?}\n  want {:?}",
                c.op, c.attr, c.want
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
}

#[test]
fn the_audit_names_every_axis_attribute() {
    let audited: BTreeSet<(String, String)> = cases()
        .into_iter()
        .map(|c| (c.op.to_string(), c.attr.to_string()))
        .collect();
    let registry = registry::global().expect("the registry builds");
    let declared: BTreeSet<(String, String)> = registry
        .ops()
        .iter()
        .flat_map(|def| def.attrs.iter().map(move |a| (def.name, a.name)))
        .filter(|(_, a)| (a.ends_with("axis") || a.ends_with("axes")) && *a != "num_newaxis")
        .map(|(op, a)| (op.to_string(), a.to_string()))
        .collect();
    assert_eq!(declared, audited);
}
