//! What the quantized relations share: reading the quantized data, the `out_dtype`
//! attribute, and the quantization parameters (scales, `float32`, and zero points,
//! `int32`), each a scalar or a vector of one value per channel; and running the relation
//! of the operator a quantized one wraps (`nn.conv2d` under `qnn.conv2d`).

use crate::level3::util::agree;
pub(super) use crate::level3::util::shown;
use relay_core::{
    Attrs, DTy, DType, Dim, Dims, Progress, RelCx, RelError, RelResult, RelationRef, ShapeData,
    TyData,
};

/// The dtype of every scale.
pub(super) const SCALE: DType = DType::FLOAT32;
/// The dtype of every zero point.
pub(super) const ZERO_POINT: DType = DType::INT32;

/// The integer dtypes TVM's quantized operators take or give, by name.
pub(super) const Q8: &[&str] = &["int8", "uint8"];

/// `names` joined as prose: `int8, uint8 or int16`.
pub(super) fn one_of(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// Whether `d` is one of `names` (a dtype with lanes is none of them).
fn named(d: DType, names: &[&str]) -> bool {
    let s = d.to_string();
    names.contains(&s.as_str())
}

/// The dimensions and dtype of tensor argument `arg` (`what`: "the data", "the weight")
/// of `op`, whose dtype must be one of `dtypes`: `None` while its type, dtype or rank is
/// unknown. The dtype is checked as soon as it is known.
pub(super) fn quantized_tensor(
    cx: &mut RelCx<'_>,
    op: &str,
    arg: usize,
    what: &str,
    dtypes: &[&str],
) -> Result<Option<(Vec<Dim>, DType)>, RelError> {
    let Some((shape, dt)) = cx.tensor(arg)? else {
        return Ok(None);
    };
    let dt = match cx.resolve_dtype(dt) {
        DTy::Known(d) if named(d, dtypes) => d,
        DTy::Var(_) => return Ok(None),
        _ => {
            return Err(cx.error_showing(arg, |t| {
                format!("{what} of `{op}` must be {}, found `{t}`", one_of(dtypes))
            }));
        }
    };
    Ok(match cx.tcx_ref().shape_data(shape) {
        ShapeData::Dims(d) => Some((d.to_vec(), dt)),
        _ => None,
    })
}

/// The `out_dtype` attribute of `op`, which must be set to one of `dtypes`.
pub(super) fn out_dtype(cx: &RelCx<'_>, op: &str, dtypes: &[&str]) -> Result<DType, RelError> {
    match cx.attrs().dtype("out_dtype")? {
        Some(d) if named(d, dtypes) => Ok(d),
        Some(d) => Err(RelError::new(format!(
            "`out_dtype` of `{op}` must be {}, found {d}",
            one_of(dtypes)
        ))),
        None => Err(RelError::new(format!(
            "`out_dtype` of `{op}` must be set to {}",
            one_of(dtypes)
        ))),
    }
}

/// Integer attribute `name`, which the operator's schema gives a default.
pub(super) fn int_attr(cx: &RelCx<'_>, name: &str) -> Result<i64, RelError> {
    cx.attrs()
        .int(name)?
        .ok_or_else(|| RelError::new(format!("attribute `{name}` is missing")))
}

/// String attribute `name` of `op`, which must be one of `allowed`.
pub(super) fn choice<'a>(
    cx: &'a RelCx<'_>,
    op: &str,
    name: &str,
    allowed: &[&str],
) -> Result<&'a str, RelError> {
    let v = Attrs::str(cx.attrs(), name)?
        .ok_or_else(|| RelError::new(format!("attribute `{name}` is missing")))?;
    if !allowed.contains(&v) {
        let quoted: Vec<String> = allowed.iter().map(|a| format!("\"{a}\"")).collect();
        let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
        return Err(RelError::new(format!(
            "`{name}` of `{op}` must be {}, found \"{v}\"",
            one_of(&quoted)
        )));
    }
    Ok(v)
}

/// The shapes a quantization parameter may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// A scalar only (TVM's `IsScalarType`): an unknown argument is inferred to be the
    /// scalar.
    Scalar,
    /// A scalar or a vector of one value.
    ScalarOrOne,
    /// A scalar or a vector of one value per channel (TVM's `AssignType`).
    PerChannel,
    /// A scalar, a vector of one value per channel, or a vector of one value for every
    /// channel.
    PerChannelOrOne,
}

/// One quantization parameter of a call: its argument, name, dtype and form.
#[derive(Clone, Copy, Debug)]
pub(super) struct QParam {
    pub arg: usize,
    pub name: &'static str,
    pub dtype: DType,
    pub form: Form,
}

/// A scale argument.
pub(super) const fn scale(arg: usize, name: &'static str, form: Form) -> QParam {
    QParam {
        arg,
        name,
        dtype: SCALE,
        form,
    }
}

/// A zero-point argument.
pub(super) const fn zero_point(arg: usize, name: &'static str, form: Form) -> QParam {
    QParam {
        arg,
        name,
        dtype: ZERO_POINT,
        form,
    }
}

/// The channels a per-channel parameter counts: their number and where it comes from,
/// for messages ("axis 1 of the data is 64").
pub(super) type Channels = (Dim, String);

impl QParam {
    /// What the parameter must be, for messages.
    fn expected(&self) -> String {
        let d = self.dtype.to_string();
        let a = if d.starts_with("int") { "an" } else { "a" };
        match self.form {
            Form::Scalar => format!("{a} {d} scalar"),
            Form::ScalarOrOne => format!("{a} {d} scalar or a vector of one value"),
            Form::PerChannel | Form::PerChannelOrOne => {
                format!("{a} {d} scalar or a vector of one value per channel")
            }
        }
    }

    fn wrong(&self, cx: &mut RelCx<'_>, op: &str) -> RelError {
        let t = shown(cx, self.arg);
        RelError::at(
            self.arg,
            format!(
                "`{}` of `{op}` must be {}, found `{t}`",
                self.name,
                self.expected()
            ),
        )
    }
}

/// What one parameter was found to be.
enum Found {
    Unknown,
    Scalar,
    Vector(Dim),
}

fn classify(cx: &mut RelCx<'_>, op: &str, p: &QParam) -> Result<Found, RelError> {
    if p.form == Form::Scalar {
        // Backward: an unknown scalar parameter is inferred.
        let t = cx.mk_tensor(&[], DTy::Known(p.dtype));
        if cx.unify(p.arg, t).is_err() {
            return Err(p.wrong(cx, op));
        }
        return Ok(Found::Scalar);
    }
    let t = cx.arg(p.arg);
    let t = cx.resolve(t);
    let (shape, dt) = match cx.data(t) {
        TyData::Var(_) => return Ok(Found::Unknown),
        TyData::Tensor(s, dt) => (*s, *dt),
        _ => return Err(p.wrong(cx, op)),
    };
    if cx.unify_dtype(dt, DTy::Known(p.dtype), p.arg).is_err() {
        return Err(p.wrong(cx, op));
    }
    match cx.tcx_ref().shape_data(shape) {
        ShapeData::Dims(d) if d.is_empty() => Ok(Found::Scalar),
        ShapeData::Dims(d) if d.len() == 1 => Ok(Found::Vector(d[0])),
        ShapeData::Dims(_) => Err(p.wrong(cx, op)),
        _ => Ok(Found::Unknown),
    }
}

/// Checks the quantization parameters `params` of a call of `op`: their dtypes and
/// shapes, a vector's length against the channels `channels` gives (asked only when a
/// parameter is a vector of one value per channel). Unknown scalar-only parameters are
/// inferred; `NotYet` while another parameter is unknown (it could be a scalar or a
/// vector).
pub(super) fn check_params(
    cx: &mut RelCx<'_>,
    op: &str,
    params: &[QParam],
    mut channels: impl FnMut(&mut RelCx<'_>) -> Result<Channels, RelError>,
) -> RelResult {
    let mut progress = Progress::Solved;
    let mut known: Option<Channels> = None;
    for p in params {
        let d = match classify(cx, op, p)? {
            Found::Unknown => {
                progress = Progress::NotYet;
                continue;
            }
            Found::Scalar => continue,
            Found::Vector(d) => d,
        };
        let one = cx.tcx_ref().dims.as_const(d) == Some(1);
        match p.form {
            Form::Scalar => unreachable!("a scalar parameter is never a vector"),
            Form::ScalarOrOne => {
                let k = cx.tcx().dims.konst(1);
                if cx.unify_dim(d, k, p.arg).is_err() {
                    return Err(p.wrong(cx, op));
                }
            }
            Form::PerChannelOrOne if one => {}
            Form::PerChannel | Form::PerChannelOrOne => {
                let (c, source) = match &known {
                    Some(k) => k.clone(),
                    None => {
                        let k = channels(cx)?;
                        known = Some(k.clone());
                        k
                    }
                };
                agree(cx, p.arg, d, c, |n, _| {
                    format!(
                        "`{}` of `{op}` has {n} values, one per channel, but {source}",
                        p.name
                    )
                })?;
            }
        }
    }
    Ok(progress)
}

/// The channels of tensor `dims` (argument `arg`, `what` in messages: "the data") along
/// attribute `attr` (`axis`): the dimension at `axis` (in `[-rank, rank)`), or 1 for a
/// scalar (as TVM).
pub(super) fn data_channels(
    cx: &mut RelCx<'_>,
    arg: usize,
    what: &str,
    dims: &[Dim],
    attr: &str,
) -> Result<Channels, RelError> {
    if dims.is_empty() {
        let one = cx.tcx().dims.konst(1);
        return Ok((one, format!("{what} is a scalar: it has 1 channel")));
    }
    let axis = int_attr(cx, attr)?;
    let c = dims[cx.axis(arg, attr, axis, dims.len())?];
    let shown_c = cx.show_dim(c);
    Ok((
        c,
        format!("{what} has {shown_c} channels along `{attr}` {axis}"),
    ))
}

/// The number of channels of the output (argument `out`, solved), laid out in `layout`:
/// the dimension at its `C` axis, times the factor of a packed `c` axis (`NCHW16c`).
/// `None` while the output's rank is unknown.
pub(super) fn output_channels(
    cx: &mut RelCx<'_>,
    out: usize,
    layout: &str,
) -> Result<Option<Channels>, RelError> {
    let t = cx.arg(out);
    let t = cx.resolve(t);
    let TyData::Tensor(s, _) = cx.data(t) else {
        return Ok(None);
    };
    let Some(dims) = cx.tcx_ref().shape_dims(*s).map(<[Dim]>::to_vec) else {
        return Ok(None);
    };
    // Axes and factors as TVM's layouts write them: `NCHW16c` is N, C, H, W, 16c.
    let mut axis = 0;
    let (mut big, mut small) = (None, None);
    let mut factor: i64 = 0;
    for ch in layout.chars() {
        if let Some(d) = ch.to_digit(10) {
            factor = factor.saturating_mul(10).saturating_add(d.into());
            continue;
        }
        match ch {
            'C' => big = Some(axis),
            'c' => small = Some((axis, factor)),
            _ => {}
        }
        factor = 0;
        axis += 1;
    }
    if axis != dims.len() {
        return Ok(None);
    }
    let Some(big) = big else {
        return Ok(None);
    };
    let mut c = dims[big];
    if let Some((_, f)) = small {
        if cx.tcx_ref().dims.is_any(c) {
            c = Dims::ANY;
        } else {
            c = cx
                .tcx()
                .dims
                .scale(c, f)
                .map_err(|e| RelError::new(e.to_string()))?;
        }
    }
    let shown_c = cx.show_dim(c);
    Ok(Some((c, format!("the output has {shown_c} channels"))))
}

/// Runs relation `rel` (the relation of operator `inner`, such as `nn.dense`) over the
/// arguments `args` of this call of `op`, naming `op` where its messages name `inner`.
pub(super) fn wrapped(
    cx: &mut RelCx<'_>,
    rel: RelationRef,
    args: &[usize],
    inner: &str,
    op: &str,
) -> RelResult {
    cx.run_on(rel, args).map_err(|mut e| {
        e.message = e.message.replace(&format!("`{inner}`"), &format!("`{op}`"));
        e
    })
}

/// The weaker of two answers: `NotYet` if either is.
pub(super) fn both(a: Progress, b: Progress) -> Progress {
    if a == Progress::Solved && b == Progress::Solved {
        Progress::Solved
    } else {
        Progress::NotYet
    }
}
