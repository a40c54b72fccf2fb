//! The relations of the convolutions and the transposed convolutions, in 1-D, 2-D, 3-D.
//!
//! Imperative: the layouts map the data, the weight and the result to and from their
//! canonical layouts (`NCHW`, `OIHW`; reordered, packed as `NCHW16c` and `OIHW16i16o`),
//! the weight's expected shape depends on which attributes are given (and on depthwise
//! grouping), and every mismatch is reported naming the weight's axis.

use super::util::{empty, konst, need, padding, per_axis, plus, spatial_letter, Layout};
use crate::level3::util::agree;
use relay_core::{relation, Attrs, DTy, Dim, Progress, RelCx, RelError, RelResult};

/// What distinguishes one convolution from another.
pub(crate) struct Spec {
    pub(crate) op: &'static str,
    /// The number of spatial axes.
    pub(crate) n: usize,
    pub(crate) transpose: bool,
    /// Whether an axis of a layout may be packed more than once (`OIHW2i8o4i`), as the
    /// packed convolutions' layouts may.
    pub(crate) repacked: bool,
}

fn data_canonical(n: usize) -> &'static str {
    ["NCW", "NCHW", "NCDHW"][n - 1]
}

/// The canonical kernel layout. A convolution's weight is (output channels, input channels
/// per group, kernel...); a transposed one's is (input channels, output channels per group,
/// kernel...), `IOW`, `IOHW`, `IODHW` as in TVM v0.18.
fn kernel_canonical(n: usize, transpose: bool) -> &'static str {
    if transpose {
        ["IOW", "IOHW", "IODHW"][n - 1]
    } else {
        ["OIW", "OIHW", "OIDHW"][n - 1]
    }
}

/// What axis `i` of the canonical weight holds.
fn weight_axis_name(spec: &Spec, i: usize) -> String {
    match (i, spec.transpose) {
        (0, false) => "output channels".into(),
        (1, false) => "input channels per group".into(),
        (0, true) => "input channels".into(),
        (1, true) => "output channels per group".into(),
        _ => format!("as kernel size along {}", spatial_letter(spec.n, i - 2)),
    }
}

/// What the attributes and the data expect of each axis of a convolution's canonical
/// weight, with where the expectation comes from (`"`channels` is"`); `None` where only
/// the weight knows.
pub(crate) type Expected = Vec<Option<(Dim, String)>>;

/// The canonical weight of a convolution, argument `arg` laid out in `layout` (canonical
/// `canon`): the known one (`weight`), each axis checked against what the attributes and
/// the data expect of it (`expected`, with where each expectation comes from, and
/// `kernel_size`; `axis(i)` names axis `i` in an error), or, unknown, the one they give
/// when they give every axis, of dtype `dt`. `None` while neither is known.
pub(crate) fn weight_from(
    cx: &mut RelCx<'_>,
    (arg, layout, canon): (usize, &Layout, &str),
    weight: Option<Vec<Dim>>,
    (mut expected, kernel_size): (Expected, Option<&[i64]>),
    dt: DTy,
    axis: impl Fn(usize) -> String,
) -> Result<Option<Vec<Dim>>, RelError> {
    for (i, &k) in kernel_size.unwrap_or_default().iter().enumerate() {
        expected[2 + i] = Some((konst(cx, k), format!("`kernel_size[{i}]` is")));
    }
    let Some(w) = weight else {
        if expected.iter().any(Option::is_none) {
            return Ok(None);
        }
        // Backward inference: the weight is assigned from the attributes.
        let full: Vec<Dim> = expected.iter().flatten().map(|e| e.0).collect();
        let laid = layout.lay_out(cx, &full, "the weight", canon)?;
        cx.unify_tensor(arg, &laid, dt)?;
        return Ok(Some(full));
    };
    for (i, e) in expected.iter().enumerate() {
        if let Some((e, source)) = e {
            let place = layout.describe(i, canon.as_bytes()[i] as char);
            agree(cx, arg, w[i], *e, |a, e| {
                format!("the weight has {a} {} ({place}), but {source} {e}", axis(i))
            })?;
        }
    }
    Ok(Some(w))
}

/// The attributes that size a convolution's output over `n` spatial axes, checked:
/// `strides` and `dilation` (at least 1 per axis), `padding`, `groups` (at least 1), and
/// `channels` and `kernel_size` (at least 1) where set.
pub(crate) struct ConvAttrs {
    pub(crate) strides: Vec<i64>,
    pub(crate) dilation: Vec<i64>,
    pub(crate) pads: Vec<i64>,
    pub(crate) groups: i64,
    pub(crate) channels: Option<i64>,
    pub(crate) kernel_size: Option<Vec<i64>>,
}

impl ConvAttrs {
    pub(crate) fn read(cx: &RelCx<'_>, n: usize) -> Result<ConvAttrs, RelError> {
        let ints = |name| need(cx, name, Attrs::int_or_ints);
        Ok(ConvAttrs {
            strides: per_axis("strides", ints("strides")?, n, 1)?,
            dilation: per_axis("dilation", ints("dilation")?, n, 1)?,
            pads: padding(&ints("padding")?, n)?,
            groups: at_least_one("groups", need(cx, "groups", Attrs::int)?)?,
            channels: (cx.attrs().int("channels")?)
                .map(|c| at_least_one("channels", c))
                .transpose()?,
            kernel_size: (cx.attrs().int_or_ints("kernel_size")?)
                .map(|k| per_axis("kernel_size", k, n, 1))
                .transpose()?,
        })
    }
}

/// Attribute `name`'s value `v`, which must be at least 1.
pub(crate) fn at_least_one(name: &str, v: i64) -> Result<i64, RelError> {
    if v < 1 {
        return Err(RelError::new(format!(
            "`{name}` must be at least 1, found {v}"
        )));
    }
    Ok(v)
}

/// The relation of a convolution (`spec` says which): also that of the packed
/// convolutions `nn.contrib_conv2d_NCHWc` and `nn.contrib_depthwise_conv2d_NCHWc`.
pub(crate) fn conv(cx: &mut RelCx<'_>, spec: &Spec) -> RelResult {
    let (op, n) = (spec.op, spec.n);
    let ConvAttrs {
        strides,
        dilation,
        pads,
        groups,
        channels,
        kernel_size,
    } = ConvAttrs::read(cx, n)?;
    let output_padding = if spec.transpose {
        per_axis(
            "output_padding",
            need(cx, "output_padding", Attrs::int_or_ints)?,
            n,
            0,
        )?
    } else {
        vec![0; n]
    };
    let data_layout = need(cx, "data_layout", Attrs::str)?.to_owned();
    let kernel_layout = need(cx, "kernel_layout", Attrs::str)?.to_owned();
    let out_layout = match need(cx, "out_layout", Attrs::str)?.to_owned() {
        s if s.is_empty() => data_layout.clone(),
        s => s,
    };
    let (dcanon, kcanon) = (data_canonical(n), kernel_canonical(n, spec.transpose));
    let read = if spec.repacked {
        Layout::new_repacked
    } else {
        Layout::new
    };
    let dl = read("data_layout", &data_layout, dcanon)?;
    let kl = read("kernel_layout", &kernel_layout, kcanon)?;
    let ol = read("out_layout", &out_layout, dcanon)?;
    let out_dtype = cx.attrs().dtype("out_dtype")?;

    let Some((data, ddt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let d = dl.canonical_arg(cx, op, (0, "data"), &data, dcanon)?;
    let (batch, cin) = (d[0], d[1]);
    let weight = cx.tensor_dims(1)?;
    let wcanon = match &weight {
        Some((w, _)) => Some(kl.canonical_arg(cx, op, (1, "weight"), w, kcanon)?),
        None => None,
    };
    let g = konst(cx, groups);
    let cin_const = cx.tcx_ref().dims.as_const(cin);
    if let Some(c) = cin_const.filter(|c| c % groups != 0) {
        return Err(RelError::at(
            0,
            format!("the data's {c} input channels are not divisible by `groups` = {groups}"),
        ));
    }
    if let Some(c) = channels.filter(|c| spec.transpose && c % groups != 0) {
        return Err(RelError::new(format!(
            "`channels` = {c} is not divisible by `groups` = {groups}"
        )));
    }
    let cin_per_group = cx.tcx().dims.floordiv(cin, g)?;
    let shown_cin = cx.show_dim(cin);

    // The weight as the attributes and the data determine it (canonical order), with
    // where each expectation comes from; `None` for what only the weight knows.
    let mut expected: Expected = vec![None; n + 2];
    let per_group_source =
        format!("the data's {shown_cin} input channels over `groups` = {groups} give");
    if spec.transpose {
        expected[0] = Some((cin, "the data has".into()));
        if let Some(c) = channels {
            let d = konst(cx, c / groups);
            expected[1] = Some((d, format!("`channels` = {c} over `groups` = {groups} give")));
        }
    } else {
        // Depthwise, as TVM since apache/tvm#11681 (2-D and 3-D only): `groups` is both the
        // data's channel count and the weight's output channels. A weight not known yet
        // with `groups` equal to the data's channels could be either form unless
        // `channels` is that count too (then both forms agree): wait for it, as TVM
        // refuses to guess (it asks for the weight whenever `groups > 1`).
        let cin_is_groups = groups > 1 && n >= 2 && cin_const == Some(groups);
        let depthwise = match &wcanon {
            Some(w) => cin_is_groups && cx.tcx_ref().dims.as_const(w[0]) == Some(groups),
            None if cin_is_groups && channels.is_some_and(|c| c != groups) => {
                return Ok(Progress::NotYet)
            }
            None => false,
        };
        match (depthwise, channels) {
            (true, Some(c)) if kernel_size.is_some() => {
                // TVM's depthwise form: (C, channels / C, kernel...).
                expected[0] = Some((
                    cin,
                    "a depthwise convolution of the data's channels gives".into(),
                ));
                let c = konst(cx, c);
                let m = cx.tcx().dims.floordiv(c, cin)?;
                expected[1] = Some((m, "`channels` over the data's channels give".into()));
            }
            _ => {
                if let Some(c) = channels {
                    expected[0] = Some((konst(cx, c), "`channels` is".into()));
                }
                expected[1] = Some((cin_per_group, per_group_source));
            }
        }
    }
    let Some(wcanon) = weight_from(
        cx,
        (1, &kl, kcanon),
        wcanon,
        (expected, kernel_size.as_deref()),
        ddt,
        |i| weight_axis_name(spec, i),
    )?
    else {
        return Ok(Progress::NotYet);
    };

    let cout = match (spec.transpose, channels) {
        (_, Some(c)) => konst(cx, c),
        (false, None) => wcanon[0],
        (true, None) => cx.tcx().dims.scale(wcanon[1], groups)?,
    };
    let mut out = vec![batch, cout];
    for i in 0..n {
        let (h, k) = (d[2 + i], wcanon[2 + i]);
        let km1 = plus(cx, k, -1)?;
        let dk = cx.tcx().dims.scale(km1, dilation[i])?;
        let dk = plus(cx, dk, 1)?;
        let size = if spec.transpose {
            let hm1 = plus(cx, h, -1)?;
            let x = cx.tcx().dims.scale(hm1, strides[i])?;
            let x = cx.tcx().dims.add(x, dk)?;
            let shift = output_padding[i]
                .checked_sub(pads[i])
                .ok_or_else(|| RelError::new("`output_padding` is too large"))?;
            plus(cx, x, shift)?
        } else {
            let x = plus(cx, h, pads[i])?;
            let x = cx.tcx().dims.sub(x, dk)?;
            let s = konst(cx, strides[i]);
            let x = cx.tcx().dims.floordiv(x, s)?;
            plus(cx, x, 1)?
        };
        if let Some(c) = empty(cx, size) {
            return Err(RelError::at(
                0,
                format!(
                    "the output of `{op}` would be empty along {}: its size is {c} (data {}, padding {}, dilated kernel {}, stride {})",
                    spatial_letter(n, i),
                    cx.show_dim(h),
                    pads[i],
                    cx.show_dim(dk),
                    strides[i]
                ),
            ));
        }
        out.push(size);
    }
    ol.unify_output(cx, &out, dcanon, out_dtype.map(DTy::Known).unwrap_or(ddt))?;
    Ok(Progress::Solved)
}

macro_rules! conv_relation {
    ($($(#[$doc:meta])* $name:ident = $f:ident($op:literal, $n:literal, $t:literal);)*) => {$(
        $(#[$doc])*
        #[relation($name)]
        pub fn $f(cx: &mut RelCx<'_>) -> RelResult {
            conv(cx, &Spec { op: $op, n: $n, transpose: $t, repacked: false })
        }
    )*};
}

conv_relation! {
    /// The relation of `nn.conv1d`.
    Conv1D = conv1d_rel("nn.conv1d", 1, false);
    /// The relation of `nn.conv2d`.
    Conv2D = conv2d_rel("nn.conv2d", 2, false);
    /// The relation of `nn.conv3d`.
    Conv3D = conv3d_rel("nn.conv3d", 3, false);
    /// The relation of `nn.conv1d_transpose`.
    Conv1DTranspose = conv1d_transpose_rel("nn.conv1d_transpose", 1, true);
    /// The relation of `nn.conv2d_transpose`.
    Conv2DTranspose = conv2d_transpose_rel("nn.conv2d_transpose", 2, true);
    /// The relation of `nn.conv3d_transpose`.
    Conv3DTranspose = conv3d_transpose_rel("nn.conv3d_transpose", 3, true);
}
