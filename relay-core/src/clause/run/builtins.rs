//! The builtins over whole shapes (`broadcast`, `s[list]`) and attributes: the parts of
//! evaluation with their own messages.

use super::*;

impl Machine<'_, '_> {
    /// `broadcast(a, b)`, as the hand-written `Broadcast` of [`crate::testing`] does it:
    /// a shape with itself or with a scalar is itself even when its rank is unknown.
    pub(super) fn broadcast(
        &mut self,
        a: &'static Term,
        b: &'static Term,
        blame: Option<usize>,
    ) -> Eval {
        let (Some(x), Some(y)) = (self.eval(a, blame)?, self.eval(b, blame)?) else {
            return Ok(None);
        };
        let (Value::Shape(s1), Value::Shape(s2)) = (x, y) else {
            let bad = if matches!(x, Value::Shape(_)) { y } else { x };
            return Err(self.kind_clash("a shape", bad, blame));
        };
        let s1 = self.resolve_shape(s1);
        let s2 = self.resolve_shape(s2);
        let tcx = self.cx.tcx_ref();
        let rank0 = |s: Shape| tcx.shape_dims(s).is_some_and(|d| d.is_empty());
        if s1 == s2 || rank0(s2) {
            return Ok(Some(Value::Shape(s1)));
        }
        if rank0(s1) {
            return Ok(Some(Value::Shape(s2)));
        }
        let (blame_a, blame_b) = (self.blame_of(a).or(blame), self.blame_of(b).or(blame));
        let result = match (tcx.shape_data(s1), tcx.shape_data(s2)) {
            (ShapeData::Dims(x), ShapeData::Dims(y)) => broadcast(&tcx.dims, x, y),
            (ShapeData::Param(p), _) | (_, ShapeData::Param(p)) => {
                let culprit = if matches!(tcx.shape_data(s1), ShapeData::Param(_)) {
                    blame_a
                } else {
                    blame_b
                };
                let name = tcx.param_name(*p).to_string();
                let (l, r) = (self.operand(a, s1), self.operand(b, s2));
                return Err(err(
                    culprit,
                    format!(
                        "cannot broadcast `{l}` with `{r}`: the shape parameter `{name}` has no known rank"
                    ),
                ));
            }
            _ => return Ok(None),
        };
        match result {
            Ok(Some(dims)) => Ok(Some(self.mk_shape(&dims))),
            Ok(None) => Ok(None),
            Err(clash) => {
                let (l, r) = (self.operand(a, s1), self.operand(b, s2));
                let tcx = self.cx.tcx_ref();
                Err(err(
                    blame_b,
                    format!(
                        "`{l}` and `{r}` do not broadcast: dimension {} of the first is {} and dimension {} of the second is {}",
                        clash.lhs_index,
                        tcx.show_dim(clash.lhs),
                        clash.rhs_index,
                        tcx.show_dim(clash.rhs),
                    ),
                ))
            }
        }
    }

    /// `s[i]` on a shape whose rank is not known: waits, or fails for a shape parameter.
    pub(super) fn index_slow(
        &mut self,
        s: &'static Term,
        i: &'static Term,
        blame: Option<usize>,
    ) -> Eval {
        if self.eval_dims(s, blame)?.is_none() {
            return Ok(None);
        }
        self.eval_int(i, blame)?;
        Ok(None)
    }

    /// `s[list]`: the dimensions of `s` at the indices in `list`. An index out of range
    /// names the attribute it comes from and the tensor `s` is the shape of, when known.
    pub(super) fn gather(
        &mut self,
        s: &'static Term,
        list: &'static Term,
        blame: Option<usize>,
    ) -> Eval {
        Ok(self
            .gather_dims(s, list, blame)?
            .map(|dims| self.mk_shape_from(dims.start)))
    }

    /// The dimensions of `s[list]` pushed on the dimension stack where it was (the
    /// caller pops them), `None` while unknown.
    pub(super) fn gather_dims(
        &mut self,
        s: &'static Term,
        list: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<Range<usize>>, RelError> {
        let base = self.scratch.dims.len();
        let Some(dims) = self.eval_dims(s, blame)? else {
            return Ok(None);
        };
        let Some(idx) = self.eval_dims(list, blame)? else {
            self.scratch.dims.truncate(base);
            return Ok(None);
        };
        let rank = dims.len() as i64;
        let out = self.scratch.dims.len();
        for j in idx {
            let d = self.scratch.dims[j];
            let Some(i) = self.cx.tcx_ref().dims.as_const(d) else {
                let shown = self.cx.show_dim(d);
                return Err(err(
                    blame,
                    format!("expected an integer index, found `{shown}`"),
                ));
            };
            let Some(k) = crate::clause::builtin::index(i, rank as usize) else {
                let blame = self.blame_of(s).or(blame);
                let what = match list {
                    Term::Attr(a) => format!("`{}` {i}", self.clause.attrs[*a as usize].name),
                    _ => format!("index {i}"),
                };
                let shape = self.scratch.dims[dims.clone()].to_vec();
                let shape = self.cx.tcx().shape(&shape);
                let of = match s {
                    Term::Var(v) if self.scratch.slots[*v as usize].tensor.is_some() => {
                        format!("`{}` (rank {rank})", self.operand(s, shape))
                    }
                    _ => format!("a shape of rank {rank}"),
                };
                return Err(err(blame, format!("{what} is out of range for {of}")));
            };
            let d = self.scratch.dims[dims.start + k];
            self.scratch.dims.push(d);
        }
        // The result where the operands were.
        let end = self.scratch.dims.len();
        self.scratch.dims.copy_within(out..end, base);
        self.scratch.dims.truncate(base + end - out);
        Ok(Some(base..self.scratch.dims.len()))
    }

    /// An operand of `broadcast` as messages show it: the tensor type it is the shape
    /// of, when it is one, else the shape.
    pub(super) fn operand(&mut self, t: &'static Term, s: Shape) -> String {
        if let Term::Var(i) = t {
            if let Some(ty) = self.scratch.slots[*i as usize].tensor {
                let ty = self.cx.resolve(ty);
                return self.cx.show(ty);
            }
        }
        self.cx.tcx_ref().show_shape(s)
    }

    /// The value of declared attribute `i` as given, or its default's literal, or an error
    /// when it has none.
    fn attr_value(&self, i: u16) -> Result<Option<&AttrValue>, RelError> {
        let decl = &self.clause.attrs[i as usize];
        match self.cx.attrs().get(decl.name) {
            Some(AttrValue::None) | None => match decl.default {
                Some(_) => Ok(None),
                None => Err(no_value(decl)),
            },
            Some(v) => Ok(Some(v)),
        }
    }

    /// `attrs.name op "text"` for the `str` attribute `i`.
    pub(super) fn attr_str(&self, i: u16, op: Cmp, text: &str) -> Result<bool, RelError> {
        let decl = &self.clause.attrs[i as usize];
        let value: &str = match (self.attr_value(i)?, &decl.default) {
            (Some(AttrValue::Str(s)), _) => s,
            (None, Some(Term::Str(d))) => d,
            (Some(v), _) => {
                return Err(err(
                    None,
                    format!(
                        "the attribute `{}` must be a string, found `{v}`",
                        decl.name
                    ),
                ))
            }
            (None, _) => return Ok(false),
        };
        Ok(match op {
            Cmp::Ne => value != text,
            _ => value == text,
        })
    }

    /// The float `t`: a literal, a `float` attribute, or `attrs.name[i]` of a `[float]`
    /// one (negative from the end); `None` while the index is unknown.
    pub(super) fn eval_float(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<f64>, RelError> {
        let float = |v: &AttrValue| match v {
            AttrValue::Float(f) => Some(*f),
            AttrValue::Int(c) => Some(*c as f64),
            _ => None,
        };
        let literal = |t: &Term| match t {
            Term::Float(f) => Some(*f),
            Term::Int(c) => Some(*c as f64),
            _ => None,
        };
        let (i, index) = match t {
            Term::Float(f) => return Ok(Some(*f)),
            Term::Attr(i) => (*i, None),
            Term::Index(Term::Attr(i), k) => (*i, Some(*k)),
            _ => return Err(err(blame, "expected a float".into())),
        };
        let decl = &self.clause.attrs[i as usize];
        let must = |v: &AttrValue, what: &str| {
            err(
                None,
                format!("the attribute `{}` must be {what}, found `{v}`", decl.name),
            )
        };
        let Some(k) = index else {
            return match (self.attr_value(i)?, &decl.default) {
                (Some(v), _) => float(v).map(Some).ok_or_else(|| must(v, "a float")),
                (None, Some(d)) => Ok(literal(d)),
                (None, None) => Err(no_value(decl)),
            };
        };
        let Some(k) = self.eval_int(k, blame)? else {
            return Ok(None);
        };
        let items: Vec<f64> = match (self.attr_value(i)?, &decl.default) {
            (Some(AttrValue::List(items)), _) => items
                .iter()
                .map(float)
                .collect::<Option<_>>()
                .ok_or_else(|| must(&AttrValue::List(items.clone()), "a list of floats"))?,
            (Some(v), _) => vec![float(v).ok_or_else(|| must(v, "a list of floats"))?],
            (None, Some(Term::List(items))) => items
                .iter()
                .filter_map(|i| match i {
                    Item::Dim(t) => literal(t),
                    Item::Splice(_) => None,
                })
                .collect(),
            (None, _) => return Err(no_value(decl)),
        };
        let n = items.len();
        match crate::clause::builtin::index(k, n) {
            Some(a) => Ok(Some(items[a])),
            None => Err(err(
                blame,
                format!(
                    "index {k} is out of range for `{}`, which has {n} value{}",
                    decl.name,
                    if n == 1 { "" } else { "s" }
                ),
            )),
        }
    }

    /// `floor(d * x)` for the dimension `d` and the float `x` ([`scale_floor`]).
    pub(super) fn scale_floor(
        &mut self,
        d: &'static Term,
        x: &'static Term,
        blame: Option<usize>,
    ) -> Eval {
        let (Some(d), Some(x)) = (self.eval_dim(d, blame)?, self.eval_float(x, blame)?) else {
            return Ok(None);
        };
        let d = self.resolve_dim(d);
        match scale_floor(&mut self.cx.solver.tcx.dims, d, x) {
            Ok(r) => Ok(r.map(Value::Dim)),
            Err(ScaleError::Arith(e)) => Err(arith_err(blame, e)),
            Err(ScaleError::Message(m)) => Err(err(blame, m)),
        }
    }

    /// `attrs.name op x` for the `float` attribute `i` (an integer is a float too).
    pub(super) fn attr_float(&self, i: u16, op: Cmp, x: f64) -> Result<bool, RelError> {
        let decl = &self.clause.attrs[i as usize];
        let value = match (self.attr_value(i)?, &decl.default) {
            (Some(AttrValue::Float(f)), _) => *f,
            (Some(AttrValue::Int(c)), _) => *c as f64,
            (None, Some(Term::Float(d))) => *d,
            (Some(v), _) => {
                return Err(err(
                    None,
                    format!("the attribute `{}` must be a float, found `{v}`", decl.name),
                ))
            }
            (None, _) => return Ok(false),
        };
        Ok(op.holds(value, x))
    }

    /// The value of declared attribute `i` at this call (or its default).
    pub(super) fn attr(&mut self, i: usize, blame: Option<usize>) -> Result<Value, RelError> {
        // Read once per run.
        if let Some(v) = self.scratch.attrs[i] {
            return Ok(v);
        }
        let v = self.read_attr(i, blame)?;
        self.scratch.attrs[i] = Some(v);
        Ok(v)
    }

    fn read_attr(&mut self, i: usize, blame: Option<usize>) -> Result<Value, RelError> {
        let decl = &self.clause.attrs[i];
        // The attributes outlive the borrow of `cx`: read without a copy.
        let attrs: &crate::attrs::Attrs = self.cx.attrs;
        let given = match attrs.get(decl.name) {
            None | Some(AttrValue::None) => None,
            Some(v) => Some(v),
        };
        let Some(v) = given else {
            return match &decl.default {
                Some(d) => match self.eval(d, blame)? {
                    Some(v) => Ok(v),
                    None => Err(err(
                        None,
                        format!("the attribute `{}` has no value", decl.name),
                    )),
                },
                None => Err(no_value(decl)),
            };
        };
        let wrong = || {
            let what = match decl.ty {
                AttrType::Int => "an integer",
                AttrType::Bool => "a bool",
                AttrType::DType => "a dtype",
                AttrType::Shape | AttrType::Ints => "a list of integers",
                AttrType::Str => "a string",
                AttrType::Float => "a float",
                AttrType::Floats => "a list of floats",
            };
            err(
                None,
                format!("the attribute `{}` must be {what}, found `{v}`", decl.name),
            )
        };
        Ok(match (decl.ty, v) {
            (AttrType::Int, AttrValue::Int(c)) => Value::Dim(self.cx.tcx().dims.konst(*c)),
            (AttrType::Bool, AttrValue::Bool(b)) => Value::Bool(*b),
            (AttrType::Str, AttrValue::Str(s)) => Value::Text(self.cx.tcx().text(s)),
            (AttrType::DType, AttrValue::DType(d)) => Value::DType(DTy::Known(*d)),
            (AttrType::DType, AttrValue::Str(s)) => match s.parse() {
                Ok(d) => Value::DType(DTy::Known(d)),
                Err(_) => return Err(wrong()),
            },
            (AttrType::Shape | AttrType::Ints, AttrValue::List(_))
            | (AttrType::Ints, AttrValue::Int(_)) => {
                if let (AttrType::Shape, AttrValue::List(items)) = (decl.ty, v) {
                    let negative = items.iter().find_map(|v| match v {
                        AttrValue::Int(c) if *c < 0 => Some(*c),
                        _ => None,
                    });
                    if let Some(c) = negative {
                        return Err(err(
                            None,
                            format!("`{}` must not be negative, found {c}", decl.name),
                        ));
                    }
                }
                // The dimensions the list reads as, kept for the run.
                let Some((start, len)) = self.attr_list(i as u16) else {
                    return Err(wrong());
                };
                let sc = &mut *self.scratch;
                let base = sc.dims.len();
                let (start, end) = (start as usize, (start + len) as usize);
                sc.dims.extend_from_slice(&sc.attr_dims[start..end]);
                let shape = self.mk_shape_from(base);
                self.scratch.dims.truncate(base);
                shape
            }
            _ => return Err(wrong()),
        })
    }
}

/// The error for attribute `decl` given no value and declared without a default.
fn no_value(decl: &crate::clause::ir::AttrDecl) -> RelError {
    let message = if decl.optional {
        format!("the attribute `{}` has no value (it is `None`)", decl.name)
    } else {
        format!("the attribute `{}` is missing", decl.name)
    };
    err(None, message)
}

/// Why `floor(d * x)` has no value ([`scale_floor`]).
pub(crate) enum ScaleError {
    /// The dimensions' arithmetic failed (an overflow).
    Arith(crate::dim::DimError),
    /// The product is out of range, or the dimension too large to scale exactly.
    Message(String),
}

/// `floor(d * x)` for the resolved dimension `d` and the float `x`, as TVM's resize
/// computes its output size: exact for `|d| < 2^53`, `?` for `?` and for a symbol scaled
/// by a non-integral factor, an error when the product is not a finite `i64`; `None`
/// while `d` has unknowns.
pub(crate) fn scale_floor(
    dims: &mut crate::dim::Dims,
    d: Dim,
    x: f64,
) -> Result<Option<Dim>, ScaleError> {
    if dims.has_vars(d) {
        return Ok(None);
    }
    const EXACT: i64 = 1 << 53;
    let Some(c) = dims.as_const(d) else {
        if dims.is_any(d) {
            return Ok(Some(d));
        }
        // A symbol: exact only by an integral factor.
        if x.fract() == 0.0 && x.abs() < EXACT as f64 {
            return dims.scale(d, x as i64).map(Some).map_err(ScaleError::Arith);
        }
        return Ok(Some(crate::dim::Dims::ANY));
    };
    if !(-EXACT..EXACT).contains(&c) {
        return Err(ScaleError::Message(format!(
            "cannot scale the dimension {c} by a float exactly: it is 2^53 or more"
        )));
    }
    let p = (c as f64 * x).floor();
    // 2^63 is `i64::MAX as f64`, itself out of range; NaN is in no range.
    const LIMIT: f64 = 9_223_372_036_854_775_808.0;
    if !(-LIMIT..LIMIT).contains(&p) {
        return Err(ScaleError::Message(format!(
            "`floor({c} * {x:?})` does not fit a dimension"
        )));
    }
    Ok(Some(dims.konst(p as i64)))
}
