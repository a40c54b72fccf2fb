//! Evaluating terms: builtins, arithmetic on dimensions, attributes, Rust calls.

use super::*;

impl Machine<'_, '_> {
    /// The dimensions of `s` once its rank is known, pushed on the dimension stack (the
    /// caller pops them: truncates the stack to the range's start); an error for a shape
    /// parameter (its rank is never known).
    pub(super) fn dims_of(
        &mut self,
        s: Shape,
        blame: Option<usize>,
    ) -> Result<Option<Range<usize>>, RelError> {
        let s = self.resolve_shape(s);
        let tcx = self.cx.tcx_ref();
        match tcx.shape_data(s) {
            ShapeData::Dims(d) => {
                let base = self.scratch.dims.len();
                self.scratch.dims.extend_from_slice(d);
                Ok(Some(base..self.scratch.dims.len()))
            }
            ShapeData::Var(_) => Ok(None),
            ShapeData::Param(p) => Err(no_rank(tcx, *p, blame)),
        }
    }

    pub(super) fn eval_dims(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<Range<usize>>, RelError> {
        // A comprehension's dimensions without the shape (nothing interned).
        if let Term::Comp {
            elem,
            var,
            src,
            cond,
        } = t
        {
            return self.comprehension(elem, *var, src, *cond, blame);
        }
        if let Term::Gather(s, list) = t {
            return self.gather_dims(s, list, blame);
        }
        if let Term::Attr(i) = t {
            if let Some((start, len)) = self.attr_list(*i) {
                let base = self.scratch.dims.len();
                let (start, len) = (start as usize, len as usize);
                let s = &mut *self.scratch;
                s.dims.extend_from_slice(&s.attr_dims[start..start + len]);
                return Ok(Some(base..base + len));
            }
        }
        match self.eval(t, blame)? {
            Some(Value::Shape(s)) => self.dims_of(s, blame),
            Some(v) => Err(self.kind_clash("a shape", v, blame)),
            None => Ok(None),
        }
    }

    pub(super) fn eval_dim(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<Dim>, RelError> {
        match self.eval(t, blame)? {
            Some(Value::Dim(d)) => Ok(Some(self.resolve_dim(d))),
            Some(v) => Err(self.kind_clash("a dimension", v, blame)),
            None => Ok(None),
        }
    }

    /// Whether `t` is an integer that [`Machine::eval_int`] computes natively, without
    /// interning dimensions: a literal, a rank, an integer attribute, and arithmetic and
    /// negation of those.
    pub(super) fn is_int_term(&self, t: &'static Term) -> bool {
        match t {
            Term::Int(_) | Term::Len(_) => true,
            // A variable whose value is an integer now (a loop's, mostly).
            Term::Var(i) => match self.scratch.slots[*i as usize].val {
                Some(Value::Dim(d)) => self.cx.tcx_ref().dims.as_const(d).is_some(),
                _ => false,
            },
            Term::Attr(i) => self.clause.attrs[*i as usize].ty == AttrType::Int,
            Term::Arith(_, a, b) => self.is_int_term(a) && self.is_int_term(b),
            Term::Neg(a) => self.is_int_term(a),
            _ => false,
        }
    }

    /// The dimensions of the list attribute `i` (as a range of the run's `attr_dims`)
    /// when the call gives it as a list of integers (or, for `[int]`, one integer);
    /// `None` for anything else (a `shape` with a negative entry among it), which the
    /// general path reads (or reports).
    pub(super) fn attr_list(&mut self, i: u16) -> Option<(u32, u32)> {
        if let Some(span) = self.scratch.attr_lists[i as usize] {
            return Some(span);
        }
        let decl = &self.clause.attrs[i as usize];
        if !matches!(decl.ty, AttrType::Shape | AttrType::Ints) {
            return None;
        }
        let attrs: &crate::attrs::Attrs = self.cx.attrs;
        let items: &[AttrValue] = match attrs.get(decl.name)? {
            AttrValue::List(items) => items,
            v @ AttrValue::Int(_) if decl.ty == AttrType::Ints => std::slice::from_ref(v),
            _ => return None,
        };
        // A shape has no negative dimension: the general path reports one.
        let fits = |v: &AttrValue| match v {
            AttrValue::Int(c) => decl.ty != AttrType::Shape || *c >= 0,
            _ => false,
        };
        if !items.iter().all(fits) {
            return None;
        }
        let start = self.scratch.attr_dims.len();
        for item in items {
            if let AttrValue::Int(c) = item {
                let d = self.cx.solver.tcx.dims.konst(*c);
                self.scratch.attr_dims.push(d);
            }
        }
        let span = (start as u32, items.len() as u32);
        self.scratch.attr_lists[i as usize] = Some(span);
        Some(span)
    }

    /// The rank of the shape `s`, `None` while unknown.
    fn rank(&mut self, s: &'static Term, blame: Option<usize>) -> Result<Option<i64>, RelError> {
        if let Term::Attr(i) = s {
            if let Some((_, len)) = self.attr_list(*i) {
                return Ok(Some(i64::from(len)));
            }
        }
        let shape = match self.eval(s, blame)? {
            Some(Value::Shape(shape)) => self.resolve_shape(shape),
            Some(Value::Ty(t)) => return Ok(self.as_tuple(t, blame)?.map(|(_, n)| n as i64)),
            Some(v) => return Err(self.kind_clash("a shape", v, blame)),
            None => return Ok(None),
        };
        let tcx = self.cx.tcx_ref();
        match tcx.shape_data(shape) {
            ShapeData::Dims(d) => Ok(Some(d.len() as i64)),
            ShapeData::Var(_) => Ok(None),
            ShapeData::Param(p) => Err(no_rank(tcx, *p, blame)),
        }
    }

    /// A truth value (`None` while undecided).
    fn eval_bool(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<bool>, RelError> {
        match self.eval(t, blame)? {
            Some(Value::Bool(b)) => Ok(Some(b)),
            Some(v) => Err(self.kind_clash("a bool", v, blame)),
            None => Ok(None),
        }
    }

    /// An integer: a dimension that is a constant (`None` while it has unknowns).
    pub(super) fn eval_int(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<i64>, RelError> {
        // Integers without dimensions, when no overflow makes the general path report it.
        match t {
            Term::Int(c) => return Ok(Some(*c)),
            Term::Len(s) => return self.rank(s, blame),
            Term::Var(i) => {
                if let Some(Value::Dim(d)) = self.scratch.slots[*i as usize].val {
                    if let Some(c) = self.cx.tcx_ref().dims.as_const(d) {
                        return Ok(Some(c));
                    }
                }
            }
            Term::Attr(i) => {
                let decl = &self.clause.attrs[*i as usize];
                if let (AttrType::Int, Some(AttrValue::Int(c))) =
                    (decl.ty, self.cx.attrs().get(decl.name))
                {
                    return Ok(Some(*c));
                }
            }
            Term::Arith(op, a, b) if self.is_int_term(t) => {
                let (Some(x), Some(y)) = (self.eval_int(a, blame)?, self.eval_int(b, blame)?)
                else {
                    return Ok(None);
                };
                let r = op.on_consts(x, y);
                if r.is_some() {
                    return Ok(r);
                }
            }
            Term::Neg(a) if self.is_int_term(a) => {
                let Some(x) = self.eval_int(a, blame)? else {
                    return Ok(None);
                };
                if let Some(r) = x.checked_neg() {
                    return Ok(Some(r));
                }
            }
            _ => {}
        }
        let Some(d) = self.eval_dim(t, blame)? else {
            return Ok(None);
        };
        let dims = &self.cx.tcx_ref().dims;
        if let Some(c) = dims.as_const(d) {
            return Ok(Some(c));
        }
        if dims.has_vars(d) {
            return Ok(None);
        }
        Err(err(
            blame,
            format!("expected an integer, found `{}`", self.cx.show_dim(d)),
        ))
    }

    pub(super) fn mk_shape(&mut self, dims: &[Dim]) -> Value {
        Value::Shape(self.cx.tcx().shape(dims))
    }

    /// Pushes the dimensions of `s[a..b]` on the stack (Python's bounds: negative from the
    /// end, clamped); `false` while they are unknown.
    fn push_slice(
        &mut self,
        s: &'static Term,
        a: Option<&'static Term>,
        b: Option<&'static Term>,
        blame: Option<usize>,
    ) -> Result<bool, RelError> {
        let Some(dims) = self.eval_dims(s, blame)? else {
            return Ok(false);
        };
        let bound = |m: &mut Self, t: Option<&'static Term>| {
            Ok::<_, RelError>(match t {
                None => Some(None),
                Some(t) => m.eval_int(t, blame)?.map(Some),
            })
        };
        let (Some(lo), Some(hi)) = (bound(self, a)?, bound(self, b)?) else {
            return Ok(false);
        };
        let part = crate::clause::builtin::slice(lo, hi, dims.len());
        // Keep `dims[lo..hi]` where `dims` begins: the dimensions above it are dropped.
        let start = dims.start;
        self.scratch
            .dims
            .copy_within(start + part.start..start + part.end, start);
        self.scratch.dims.truncate(start + part.len());
        Ok(true)
    }

    /// The shape of the dimensions on the stack from `base` up.
    pub(super) fn mk_shape_from(&mut self, base: usize) -> Value {
        Value::Shape(self.cx.solver.tcx.shape(&self.scratch.dims[base..]))
    }

    /// The value of `t`, or `None` while it depends on something unknown. The dimension
    /// stack is left as it was.
    #[inline]
    pub(super) fn eval(&mut self, t: &'static Term, blame: Option<usize>) -> Eval {
        // Variables, the most frequent terms, without a call.
        match t {
            Term::Var(i) => return Ok(self.scratch.slots[*i as usize].val),
            Term::Wild => return Ok(None),
            _ => {}
        }
        let base = self.scratch.dims.len();
        let v = self.eval_term(t, blame);
        self.scratch.dims.truncate(base);
        v
    }

    #[inline(never)]
    fn eval_term(&mut self, t: &'static Term, blame: Option<usize>) -> Eval {
        Ok(Some(match t {
            Term::Var(i) => return Ok(self.scratch.slots[*i as usize].val),
            Term::Wild => return Ok(None),
            Term::Int(c) => Value::Dim(self.cx.tcx().dims.konst(*c)),
            Term::Any => Value::Dim(crate::dim::Dims::ANY),
            Term::Bool(b) => Value::Bool(*b),
            Term::DType(code, bits, lanes) => {
                Value::DType(DTy::Known(dtype_of(*code, *bits, *lanes)))
            }
            Term::Tensor(s, d) => {
                let (Some(s), Some(d)) = (self.eval(s, blame)?, self.eval(d, blame)?) else {
                    return Ok(None);
                };
                let (Value::Shape(s), Value::DType(d)) = (s, d) else {
                    return Err(err(
                        blame,
                        "expected a shape and a dtype in `Tensor(..)`".into(),
                    ));
                };
                Value::Ty(self.cx.tcx().tensor(s, d))
            }
            Term::Tuple(fields) => {
                let mut tys = Vec::with_capacity(fields.len());
                for f in fields.iter() {
                    if let Term::Rest(rest) = f {
                        let Some((t, n)) = self.eval_tuple(rest, blame)? else {
                            return Ok(None);
                        };
                        for k in 0..n {
                            tys.push(self.field(t, k));
                        }
                        continue;
                    }
                    match self.eval(f, blame)? {
                        Some(Value::Ty(t)) => tys.push(t),
                        Some(v) => return Err(self.kind_clash("a type", v, blame)),
                        None => return Ok(None),
                    }
                }
                Value::Ty(self.cx.tcx().tuple(&tys))
            }
            Term::Rest(_) => {
                return Err(err(blame, "`..rest` is only a field of a tuple".into()));
            }
            Term::ShapeOf(x) | Term::DTypeOf(x) => {
                let ty = match self.eval(x, blame)? {
                    Some(Value::Ty(ty)) => self.cx.resolve(ty),
                    Some(v) => return Err(self.kind_clash("a tensor", v, blame)),
                    None => return Ok(None),
                };
                match *self.cx.data(ty) {
                    TyData::Tensor(s, _) if matches!(t, Term::ShapeOf(_)) => Value::Shape(s),
                    TyData::Tensor(_, d) => Value::DType(d),
                    TyData::Var(_) => return Ok(None),
                    _ => {
                        return Err(err(
                            blame,
                            format!("expected a tensor, found `{}`", self.cx.show(ty)),
                        ))
                    }
                }
            }
            // An unknown dimension is not `?` (as `?` is a size known at run time only,
            // an unknown is one the relation may still solve).
            Term::List(items) => {
                let base = self.scratch.dims.len();
                for item in items.iter() {
                    match item {
                        Item::Dim(d) => match self.eval_dim(d, blame)? {
                            Some(d) => self.scratch.dims.push(d),
                            None => return Ok(None),
                        },
                        // A slice spliced in: its dimensions, without the shape.
                        Item::Splice(Term::Slice(s, a, b)) => {
                            if !self.push_slice(s, *a, *b, blame)? {
                                return Ok(None);
                            }
                        }
                        // The splice's dimensions are pushed where they belong.
                        Item::Splice(s) => {
                            if self.eval_dims(s, blame)?.is_none() {
                                return Ok(None);
                            }
                        }
                    }
                }
                self.mk_shape_from(base)
            }
            Term::Index(s, i) => {
                let shape = match self.eval(s, blame)? {
                    Some(Value::Shape(shape)) => self.resolve_shape(shape),
                    Some(Value::Ty(t)) => return self.tuple_index(t, i, blame),
                    Some(v) => return Err(self.kind_clash("a shape", v, blame)),
                    None => return Ok(None),
                };
                let rank = match self.cx.tcx_ref().shape_data(shape) {
                    ShapeData::Dims(d) => d.len(),
                    _ => return self.index_slow(s, i, blame),
                };
                let Some(i) = self.eval_int(i, blame)? else {
                    return Ok(None);
                };
                let Some(k) = crate::clause::builtin::index(i, rank) else {
                    let blame = self.blame_of(s).or(blame);
                    return Err(err(
                        blame,
                        format!("index {i} is out of range for a shape of rank {rank}"),
                    ));
                };
                match self.cx.tcx_ref().shape_data(shape) {
                    ShapeData::Dims(d) => Value::Dim(d[k]),
                    _ => return Ok(None),
                }
            }
            Term::Slice(s, a, b) => {
                let base = self.scratch.dims.len();
                if !self.push_slice(s, *a, *b, blame)? {
                    return Ok(None);
                }
                self.mk_shape_from(base)
            }
            // Integers natively: one constant interned, for the result.
            Term::Arith(op, a, b) if self.is_int_term(a) && self.is_int_term(b) => {
                let (Some(x), Some(y)) = (self.eval_int(a, blame)?, self.eval_int(b, blame)?)
                else {
                    return Ok(None);
                };
                if let Some(r) = op.on_consts(x, y) {
                    return Ok(Some(Value::Dim(self.cx.tcx().dims.konst(r))));
                }
                let dims = &mut self.cx.solver.tcx.dims;
                let (x, y) = (dims.konst(x), dims.konst(y));
                let r = op.on_dims(dims, x, y);
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Arith(op, a, b) => {
                let (Some(x), Some(y)) = (self.eval_dim(a, blame)?, self.eval_dim(b, blame)?)
                else {
                    return Ok(None);
                };
                let dims = &mut self.cx.solver.tcx.dims;
                // Constants without the normal form's machinery (an overflow takes the
                // general path, which reports it).
                if let (Some(a), Some(b)) = (dims.as_const(x), dims.as_const(y)) {
                    if let Some(r) = op.on_consts(a, b) {
                        return Ok(Some(Value::Dim(dims.konst(r))));
                    }
                }
                let r = op.on_dims(dims, x, y);
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Neg(a) if self.is_int_term(a) => {
                let Some(x) = self.eval_int(a, blame)? else {
                    return Ok(None);
                };
                let dims = &mut self.cx.solver.tcx.dims;
                let r = match x.checked_neg() {
                    Some(r) => Ok(dims.konst(r)),
                    None => {
                        let x = dims.konst(x);
                        dims.neg(x)
                    }
                };
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Neg(a) => {
                let Some(x) = self.eval_dim(a, blame)? else {
                    return Ok(None);
                };
                let r = self.cx.solver.tcx.dims.neg(x);
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Cmp(op, a, b) if self.is_int_term(a) && self.is_int_term(b) => {
                let (Some(x), Some(y)) = (self.eval_int(a, blame)?, self.eval_int(b, blame)?)
                else {
                    return Ok(None);
                };
                Value::Bool(op.holds(x, y))
            }
            Term::Cmp(op, a, b) => {
                let (Some(x), Some(y)) = (self.eval(a, blame)?, self.eval(b, blame)?) else {
                    return Ok(None);
                };
                match self.compare(*op, (x, y), Some((a, b)), op.symbol(), blame)? {
                    Some(r) => Value::Bool(r),
                    None => return Ok(None),
                }
            }
            Term::Prod(s) => {
                let Some(dims) = self.eval_dims(s, blame)? else {
                    return Ok(None);
                };
                let r = self.cx.solver.tcx.dims.product(&self.scratch.dims[dims]);
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Sum(s) => {
                let Some(ds) = self.eval_dims(s, blame)? else {
                    return Ok(None);
                };
                let dims = &mut self.cx.solver.tcx.dims;
                let r = crate::clause::builtin::sum(dims, &self.scratch.dims[ds]);
                Value::Dim(r.map_err(|e| arith_err(blame, e))?)
            }
            Term::Len(s) => {
                let Some(rank) = self.rank(s, blame)? else {
                    return Ok(None);
                };
                Value::Dim(self.cx.tcx().dims.konst(rank))
            }
            Term::Broadcast(a, b) => return self.broadcast(a, b, blame),
            Term::As(v, p) => match self.eval(v, blame)? {
                Some(v) => v,
                None => return self.eval(p, blame),
            },
            Term::IsNone(i) => {
                let decl = &self.clause.attrs[*i as usize];
                Value::Bool(match self.cx.attrs().get(decl.name) {
                    None => decl.default.is_none(),
                    Some(v) => matches!(v, AttrValue::None),
                })
            }
            Term::Reverse(s) => {
                let Some(dims) = self.eval_dims(s, blame)? else {
                    return Ok(None);
                };
                self.scratch.dims[dims.clone()].reverse();
                self.mk_shape_from(dims.start)
            }
            Term::Gather(s, list) => return self.gather(s, list, blame),
            Term::And(a, b) | Term::Or(a, b) => {
                // The side that decides alone decides, even while the other is unknown.
                let decisive = matches!(t, Term::Or(..));
                let x = self.eval_bool(a, blame)?;
                if x == Some(decisive) {
                    return Ok(Some(Value::Bool(decisive)));
                }
                let y = self.eval_bool(b, blame)?;
                match (x, y) {
                    (_, Some(v)) if v == decisive => Value::Bool(decisive),
                    (Some(_), Some(_)) => Value::Bool(!decisive),
                    _ => return Ok(None),
                }
            }
            Term::Not(a) => match self.eval_bool(a, blame)? {
                Some(b) => Value::Bool(!b),
                None => return Ok(None),
            },
            // A string is passed to Rust functions; a float literal is read only as a
            // default or by `eval_float`.
            Term::Str(s) => Value::Text(self.cx.tcx().text(s)),
            Term::Float(_) => return Ok(None),
            Term::StrCmp(i, op, text) => Value::Bool(self.attr_str(*i, *op, text)?),
            Term::FloatCmp(i, op, x) => Value::Bool(self.attr_float(*i, *op, *x)?),
            Term::IsAny(d) => match self.eval_dim(d, blame)? {
                Some(d) => Value::Bool(crate::clause::builtin::is_any(&self.cx.tcx_ref().dims, d)),
                None => return Ok(None),
            },
            Term::IsInt(d) => {
                let Some(d) = self.eval_dim(d, blame)? else {
                    return Ok(None);
                };
                match crate::clause::builtin::is_int(&self.cx.tcx_ref().dims, d) {
                    Some(b) => Value::Bool(b),
                    None => return Ok(None),
                }
            }
            Term::Repeat(d, n) => {
                let (Some(d), Some(n)) = (self.eval_dim(d, blame)?, self.eval_int(n, blame)?)
                else {
                    return Ok(None);
                };
                let Some(n) = crate::clause::builtin::repeat_count(n) else {
                    return Err(err(blame, crate::clause::builtin::repeat_error(n)));
                };
                let base = self.scratch.dims.len();
                self.scratch.dims.extend(std::iter::repeat_n(d, n));
                self.mk_shape_from(base)
            }
            Term::Attr(i) => self.attr(*i as usize, blame)?,
            Term::Comp { .. } => {
                let Some(dims) = self.eval_dims(t, blame)? else {
                    return Ok(None);
                };
                self.mk_shape_from(dims.start)
            }
            Term::Range(lo, hi) => {
                let Some(dims) = self.range(lo, hi, blame)? else {
                    return Ok(None);
                };
                self.mk_shape_from(dims.start)
            }
            Term::In(x, list) => {
                let Some(x) = self.eval_dim(x, blame)? else {
                    return Ok(None);
                };
                let Some(dims) = self.eval_dims(list, blame)? else {
                    return Ok(None);
                };
                match self.some_equal(dims, Some(x), "in", blame)? {
                    Some(found) => Value::Bool(found),
                    None => return Ok(None),
                }
            }
            Term::IfElse(c, a, b) => {
                return match self.eval_bool(c, blame)? {
                    Some(true) => self.eval(a, blame),
                    Some(false) => self.eval(b, blame),
                    None => Ok(None),
                }
            }
            Term::ScaleFloor(d, x) => return self.scale_floor(d, x, blame),
            Term::Builtin(f, args) => {
                let Some(vals) = self.rust_args(args, blame)? else {
                    return Ok(None);
                };
                return f(self.cx, &vals).map_err(|e| blame_on(e, blame));
            }
            Term::Rust(f, args) => {
                let Some(vals) = self.rust_args(args, blame)? else {
                    return Ok(None);
                };
                f(self.cx, &vals).map_err(|e| blame_on(e, blame))?
            }
        }))
    }

    /// The values of the arguments of a Rust function or a [`Term::Builtin`], each
    /// ready ([`rust_arg`](crate::clause::fast::rust_arg)); `None` while one is not.
    fn rust_args(
        &mut self,
        args: &'static [Term],
        blame: Option<usize>,
    ) -> Result<Option<Vec<Value>>, RelError> {
        let mut vals = Vec::with_capacity(args.len());
        for a in args.iter() {
            let Some(v) = self.eval(a, blame)? else {
                return Ok(None);
            };
            let Some(v) = crate::clause::fast::rust_arg(self.cx, v) else {
                return Ok(None);
            };
            vals.push(v);
        }
        Ok(Some(vals))
    }

    /// What a loop or a comprehension goes over: the dimensions of a shape or a range
    /// (pushed on the dimension stack, which the caller pops), or the fields of a tuple.
    pub(super) fn items(
        &mut self,
        src: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<Items>, RelError> {
        if let Term::Range(lo, hi) = src {
            return Ok(self.range(lo, hi, blame)?.map(Items::Dims));
        }
        if !matches!(src, Term::Comp { .. } | Term::Gather(..) | Term::Attr(_)) {
            match self.eval(src, blame)? {
                Some(Value::Ty(t)) => {
                    return Ok(self.as_tuple(t, blame)?.map(|(t, n)| Items::Fields(t, n)))
                }
                Some(Value::Shape(s)) => return Ok(self.dims_of(s, blame)?.map(Items::Dims)),
                Some(v) => return Err(self.kind_clash("a shape or a tuple", v, blame)),
                None => return Ok(None),
            }
        }
        Ok(self.eval_dims(src, blame)?.map(Items::Dims))
    }

    /// Item `j` of `items`: a dimension, or a field.
    pub(super) fn item(&self, items: &Items, j: usize) -> Value {
        match items {
            Items::Dims(r) => Value::Dim(self.scratch.dims[r.start + j]),
            Items::Fields(t, _) => Value::Ty(self.field(*t, j)),
        }
    }

    /// The tuple type `t` (resolved) and its number of fields; `None` while `t` is an
    /// unknown, an error for another type.
    pub(super) fn as_tuple(
        &mut self,
        t: crate::ty::Ty,
        blame: Option<usize>,
    ) -> Result<Option<(crate::ty::Ty, usize)>, RelError> {
        let t = self.cx.resolve(t);
        match self.cx.data(t) {
            TyData::Tuple(fields) => Ok(Some((t, fields.len()))),
            TyData::Var(_) => Ok(None),
            _ => Err(err(
                blame,
                format!("expected a tuple, found `{}`", self.cx.show(t)),
            )),
        }
    }

    /// Field `k` of the tuple type `t` (resolved, with more than `k` fields).
    pub(super) fn field(&self, t: crate::ty::Ty, k: usize) -> crate::ty::Ty {
        match self.cx.data(t) {
            TyData::Tuple(fields) => fields[k],
            _ => unreachable!("`as_tuple` checked the tuple"),
        }
    }

    /// The value of a term that must be a tuple, and its number of fields.
    fn eval_tuple(
        &mut self,
        t: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<(crate::ty::Ty, usize)>, RelError> {
        match self.eval(t, blame)? {
            Some(Value::Ty(ty)) => self.as_tuple(ty, blame),
            Some(v) => Err(self.kind_clash("a tuple", v, blame)),
            None => Ok(None),
        }
    }

    /// `t[i]` of the tuple type `t`: a field (negative from the end).
    fn tuple_index(&mut self, t: crate::ty::Ty, i: &'static Term, blame: Option<usize>) -> Eval {
        let Some((t, n)) = self.as_tuple(t, blame)? else {
            return Ok(None);
        };
        let Some(i) = self.eval_int(i, blame)? else {
            return Ok(None);
        };
        match crate::clause::fast::field(self.cx, t, i) {
            Some(field) => Ok(Some(Value::Ty(field))),
            None => Err(err(
                blame,
                format!("index {i} is out of range for a tuple of {n} fields"),
            )),
        }
    }

    /// The integers `lo..hi`, pushed on the dimension stack (the caller pops them);
    /// `None` while an end is unknown.
    fn range(
        &mut self,
        lo: &'static Term,
        hi: &'static Term,
        blame: Option<usize>,
    ) -> Result<Option<Range<usize>>, RelError> {
        let (Some(lo), Some(hi)) = (self.eval_int(lo, blame)?, self.eval_int(hi, blame)?) else {
            return Ok(None);
        };
        let Some(range) = crate::clause::builtin::range(lo, hi) else {
            return Err(err(blame, crate::clause::builtin::range_error(lo, hi)));
        };
        let base = self.scratch.dims.len();
        for i in range {
            let d = self.cx.solver.tcx.dims.konst(i);
            self.scratch.dims.push(d);
        }
        Ok(Some(base..self.scratch.dims.len()))
    }

    /// The dimensions of `[elem for var in src if cond]`, pushed on the dimension stack
    /// where it was (the caller pops them); `None` while one is unknown.
    fn comprehension(
        &mut self,
        elem: &'static Term,
        var: u16,
        src: &'static Term,
        cond: Option<&'static Term>,
        blame: Option<usize>,
    ) -> Result<Option<Range<usize>>, RelError> {
        let base = self.scratch.dims.len();
        let Some(items) = self.items(src, blame)? else {
            return Ok(None);
        };
        // `[x for x in src]`: the source's dimensions themselves.
        if let (None, Term::Var(v), Items::Dims(dims)) = (cond, elem, &items) {
            if *v == var {
                return Ok(Some(dims.clone()));
            }
        }
        let out = self.scratch.dims.len();
        let saved = self.scratch.slots[var as usize].val;
        let all = self.comprehension_items(elem, var, items, cond, blame);
        self.scratch.slots[var as usize].val = saved;
        if !all? {
            self.scratch.dims.truncate(base);
            return Ok(None);
        }
        // The elements where the source's dimensions were.
        let end = self.scratch.dims.len();
        self.scratch.dims.copy_within(out..end, base);
        self.scratch.dims.truncate(base + end - out);
        Ok(Some(base..self.scratch.dims.len()))
    }

    /// Pushes the elements of a comprehension for the dimensions `items` of its source;
    /// `false` while one of them (or a filter) is unknown.
    fn comprehension_items(
        &mut self,
        elem: &'static Term,
        var: u16,
        items: Items,
        cond: Option<&'static Term>,
        blame: Option<usize>,
    ) -> Result<bool, RelError> {
        for j in 0..items.len() {
            self.scratch.slots[var as usize].val = Some(self.item(&items, j));
            if let Some(c) = cond {
                match self.eval_bool(c, blame)? {
                    Some(true) => {}
                    Some(false) => continue,
                    None => return Ok(false),
                }
            }
            match self.eval_dim(elem, blame)? {
                Some(e) => self.scratch.dims.push(e),
                None => return Ok(false),
            }
        }
        Ok(true)
    }
}

impl Machine<'_, '_> {
    /// Whether some pair of dimensions is equal, of `x` and one of `dims` (on the
    /// scratch stack) or, without `x`, two of `dims` (the comparison named `what` in
    /// messages): `Some(true)` at the first equal pair, `Some(false)` when every pair is
    /// decided unequal, `None` when none is equal but some are undecided.
    fn some_equal(
        &mut self,
        dims: std::ops::Range<usize>,
        x: Option<Dim>,
        what: &str,
        blame: Option<usize>,
    ) -> Result<Option<bool>, RelError> {
        let at = dims.start;
        crate::clause::builtin::some_equal(dims.len(), x.is_some(), |a, b| {
            let a = match (a, x) {
                (Some(a), _) => self.scratch.dims[at + a],
                (None, x) => x.unwrap_or(crate::dim::Dims::ANY),
            };
            let b = self.scratch.dims[at + b];
            self.compare(Cmp::Eq, (Value::Dim(a), Value::Dim(b)), None, what, blame)
        })
    }
}

/// `e`, blamed on the argument `blame` when it blames none.
fn blame_on(mut e: RelError, blame: Option<usize>) -> RelError {
    if e.arg.is_none() {
        e.arg = blame;
    }
    e
}

/// The error for a shape parameter where a rank is needed (it never has one).
fn no_rank(tcx: &crate::TyCtx, p: crate::kind::Param, blame: Option<usize>) -> RelError {
    let name = tcx.param_name(p);
    err(
        blame,
        format!("the shape parameter `{name}` has no known rank"),
    )
}
