//! Unification of types, shapes, dimensions and dtypes.

use super::*;

impl Solver {
    // ----- unification -----

    /// Follows a bound type variable to its value (one level of type structure).
    #[inline]
    pub(super) fn shallow(&mut self, mut t: Ty) -> Ty {
        while let TyData::Var(v) = *self.tcx.data(t) {
            let root = find(&mut self.tys, v);
            match self.tys.probe_value(root).0 {
                Some(value) => t = value,
                None => {
                    return if root == v { t } else { self.tcx.var_ty(root) };
                }
            }
        }
        t
    }

    pub(super) fn shallow_shape(&mut self, s: Shape) -> Shape {
        if let ShapeData::Var(v) = *self.tcx.shape_data(s) {
            let root = find(&mut self.shapes, v);
            return match self.shapes.probe_value(root).0 {
                Some(value) => value,
                None if root == v => s,
                None => self.tcx.shape_var(root),
            };
        }
        s
    }

    pub(super) fn shallow_dtype(&mut self, d: DTy) -> DTy {
        if let DTy::Var(v) = d {
            let root = find(&mut self.dtypes, v);
            return self.dtypes.probe_value(root).0.unwrap_or(DTy::Var(root));
        }
        d
    }

    /// Whether type variable `v` (a root) occurs in `t`, looking through solved variables.
    pub(super) fn occurs(&mut self, v: TyVar, t: Ty) -> bool {
        if !self.tcx.has_vars(t) {
            return false;
        }
        let mut seen = FxHashSet::default();
        let mut stack = vec![t];
        let mut kids = Vec::new();
        while let Some(t) = stack.pop() {
            let t = self.shallow(t);
            if !self.tcx.has_vars(t) || !seen.insert(t) {
                continue;
            }
            match self.tcx.data(t) {
                TyData::Var(w) => {
                    if find(&mut self.tys, *w) == v {
                        return true;
                    }
                }
                data => {
                    kids.clear();
                    data.push_children(&mut kids);
                    stack.extend_from_slice(&kids);
                }
            }
        }
        false
    }

    /// Unifies two types, binding variables on either side.
    pub fn unify(&mut self, a: Ty, b: Ty) -> Result<(), UnifyError> {
        // Fast path: an unknown against a type without unknowns (a relation's output).
        let a = self.shallow(a);
        let b = self.shallow(b);
        if a == b {
            return Ok(());
        }
        if let TyData::Var(x) = *self.tcx.data(a) {
            if !self.tcx.has_vars(b) {
                self.bind_ty(x, b);
                return Ok(());
            }
        }
        if let TyData::Var(y) = *self.tcx.data(b) {
            if !self.tcx.has_vars(a) {
                self.bind_ty(y, a);
                return Ok(());
            }
        }
        // Paths are kept as a parent-linked list and only materialized on failure.
        let mut paths: Vec<(u32, Step)> = Vec::new();
        let mut work: Vec<(Ty, Ty, u32)> = vec![(a, b, u32::MAX)];
        let fail = |paths: &Vec<(u32, Step)>, at: u32, kind: UnifyErrorKind| {
            let mut path = Vec::new();
            let mut p = at;
            while p != u32::MAX {
                let (parent, step) = paths[p as usize];
                path.push(step);
                p = parent;
            }
            path.reverse();
            UnifyError { path, kind }
        };
        let step = |paths: &mut Vec<(u32, Step)>, parent: u32, s: Step| -> u32 {
            paths.push((parent, s));
            (paths.len() - 1) as u32
        };
        while let Some((a, b, at)) = work.pop() {
            let a = self.shallow(a);
            let b = self.shallow(b);
            if a == b {
                continue;
            }
            let da = self.tcx.data(a).clone();
            let db = self.tcx.data(b).clone();
            match (&da, &db) {
                (TyData::Var(x), TyData::Var(y)) => {
                    let (x, y) = (*x, *y);
                    self.wake(VarRef::Ty(x));
                    self.wake(VarRef::Ty(y));
                    self.tys.union(x, y);
                }
                (TyData::Var(x), _) => {
                    // Store the value resolved, so that chains of solved variables are
                    // walked once, not at every later bind or occurs check.
                    let b = self.resolve(b);
                    if self.occurs(*x, b) {
                        return Err(fail(&paths, at, UnifyErrorKind::Occurs(a, b)));
                    }
                    self.bind_ty(*x, b);
                }
                (_, TyData::Var(y)) => {
                    let a = self.resolve(a);
                    if self.occurs(*y, a) {
                        return Err(fail(&paths, at, UnifyErrorKind::Occurs(b, a)));
                    }
                    self.bind_ty(*y, a);
                }
                (TyData::Tensor(s1, d1), TyData::Tensor(s2, d2)) => {
                    if let Err(e) = self.unify_dtypes(*d1, *d2) {
                        let mut err = fail(&paths, at, e.kind);
                        err.path.extend(e.path);
                        return Err(err);
                    }
                    if let Err(e) = self.unify_shapes(*s1, *s2) {
                        let mut err = fail(&paths, at, e.kind);
                        err.path.extend(e.path);
                        return Err(err);
                    }
                }
                (TyData::Tuple(x), TyData::Tuple(y)) => {
                    if x.len() != y.len() {
                        let kind = UnifyErrorKind::Types(a, b);
                        return Err(fail(&paths, at, kind));
                    }
                    for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::Field(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Func(f), TyData::Func(g))
                    if f.params.is_empty() != g.params.is_empty()
                        && f.constraints.is_empty()
                        && g.constraints.is_empty() =>
                {
                    // A polymorphic function used where a monomorphic one is expected
                    // (`@map(@size, %trees)`): instantiate it there, as a use does.
                    let (poly, mono) = if f.params.is_empty() { (b, a) } else { (a, b) };
                    let (args, ret, _) = self
                        .instantiate(poly)
                        .map_err(|_| fail(&paths, at, UnifyErrorKind::Types(a, b)))?;
                    let inst = self.tcx.func(&[], &args, ret, Vec::new());
                    work.push((mono, inst, at));
                }
                (TyData::Func(f), TyData::Func(g)) => {
                    if f.args.len() != g.args.len() {
                        let kind = UnifyErrorKind::Arity {
                            what: "function arguments",
                            left: f.args.len(),
                            right: g.args.len(),
                        };
                        return Err(fail(&paths, at, kind));
                    }
                    if f.constraints.len() != g.constraints.len()
                        || f.constraints
                            .iter()
                            .zip(g.constraints.iter())
                            .any(|(c, d)| c.relation != d.relation || c.args.len() != d.args.len())
                    {
                        return Err(fail(&paths, at, UnifyErrorKind::Constraints));
                    }
                    // The type parameters of the one with more are renamed to the other's
                    // (same kinds, in order), and its surplus ones become unknowns, as TVM
                    // unifies them: `fn [A, B, C](A, B) -> C` and `fn [A](A, A) -> A` agree.
                    let (mut f_ty, mut g_ty) = (a, b);
                    if !f.params.is_empty() {
                        let f_bigger = f.params.len() > g.params.len();
                        let (big, small) = if f_bigger { (&f, &g) } else { (&g, &f) };
                        let mut map = FxHashMap::default();
                        for (i, &q) in big.params.iter().enumerate() {
                            let kq = self.tcx.param_info(q).kind;
                            let value = match small.params.get(i) {
                                None => self.fresh_for(kq),
                                Some(&p) if self.tcx.param_info(p).kind != kq => {
                                    return Err(fail(&paths, at, UnifyErrorKind::Types(a, b)));
                                }
                                Some(&p) => match kq {
                                    Kind::Type => {
                                        ParamValue::Ty(self.tcx.param_ty(p).expect("kind checked"))
                                    }
                                    Kind::Shape => ParamValue::Shape(
                                        self.tcx.shape_param(p).expect("kind checked"),
                                    ),
                                    Kind::ShapeVar => ParamValue::Dim(
                                        self.tcx.dim_param(p).expect("kind checked"),
                                    ),
                                    Kind::BaseType => ParamValue::DType(DTy::Param(p)),
                                },
                            };
                            map.insert(q, value);
                        }
                        // Strip the binder so the substitution reaches the body.
                        let body = self
                            .tcx
                            .func(&[], &big.args, big.ret, big.constraints.to_vec());
                        let renamed = self
                            .tcx
                            .substitute(body, &map)
                            .map_err(|e| fail(&paths, at, UnifyErrorKind::Arith(e)))?;
                        if f_bigger {
                            f_ty = renamed;
                        } else {
                            g_ty = renamed;
                        }
                    }
                    let TyData::Func(f) = self.tcx.data(f_ty).clone() else {
                        unreachable!()
                    };
                    let TyData::Func(g2) = self.tcx.data(g_ty).clone() else {
                        unreachable!()
                    };
                    for (i, c) in f.constraints.iter().enumerate().rev() {
                        for (j, (&p, &q)) in
                            c.args.iter().zip(g2.constraints[i].args.iter()).enumerate()
                        {
                            let s = step(&mut paths, at, Step::ConstraintArg(i, j));
                            work.push((p, q, s));
                        }
                    }
                    let s = step(&mut paths, at, Step::Ret);
                    work.push((f.ret, g2.ret, s));
                    for (i, (&p, &q)) in f.args.iter().zip(g2.args.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::Arg(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Call(h1, x), TyData::Call(h2, y)) => {
                    if h1 != h2 || x.len() != y.len() {
                        return Err(fail(&paths, at, UnifyErrorKind::Types(a, b)));
                    }
                    for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate().rev() {
                        let s = step(&mut paths, at, Step::TypeArg(i));
                        work.push((p, q, s));
                    }
                }
                (TyData::Ref(x), TyData::Ref(y)) => {
                    let s = step(&mut paths, at, Step::RefInner);
                    work.push((*x, *y, s));
                }
                _ => return Err(fail(&paths, at, UnifyErrorKind::Types(a, b))),
            }
        }
        Ok(())
    }

    /// Unifies two element types.
    pub fn unify_dtypes(&mut self, a: DTy, b: DTy) -> Result<(), UnifyError> {
        let a = self.shallow_dtype(a);
        let b = self.shallow_dtype(b);
        match (a, b) {
            _ if a == b => Ok(()),
            (DTy::Var(x), DTy::Var(y)) => {
                self.wake(VarRef::DType(x));
                self.wake(VarRef::DType(y));
                self.dtypes.union(x, y);
                Ok(())
            }
            (DTy::Var(x), other) | (other, DTy::Var(x)) => {
                self.bind_dtype(x, other);
                Ok(())
            }
            _ => Err(UnifyError {
                path: vec![Step::DType],
                kind: UnifyErrorKind::DTypes(a, b),
            }),
        }
    }

    /// Unifies two shapes: ranks, then each dimension.
    pub fn unify_shapes(&mut self, a: Shape, b: Shape) -> Result<(), UnifyError> {
        let a = self.shallow_shape(a);
        let b = self.shallow_shape(b);
        if a == b {
            return Ok(());
        }
        let da = self.tcx.shape_data(a).clone();
        let db = self.tcx.shape_data(b).clone();
        match (&da, &db) {
            (ShapeData::Var(x), ShapeData::Var(y)) => {
                self.wake(VarRef::Shape(*x));
                self.wake(VarRef::Shape(*y));
                self.shapes.union(*x, *y);
                Ok(())
            }
            (ShapeData::Var(x), _) => {
                self.bind_shape(*x, b);
                Ok(())
            }
            (_, ShapeData::Var(y)) => {
                self.bind_shape(*y, a);
                Ok(())
            }
            (ShapeData::Dims(x), ShapeData::Dims(y)) => {
                if x.len() != y.len() {
                    return Err(UnifyError::new(UnifyErrorKind::Rank(a, b)));
                }
                for (i, (&p, &q)) in x.iter().zip(y.iter()).enumerate() {
                    self.unify_dims(p, q)
                        .map_err(|e| prefix(e, vec![Step::Dim(i)]))?;
                }
                Ok(())
            }
            _ => Err(UnifyError::new(UnifyErrorKind::Shapes(a, b))),
        }
    }

    /// Unifies two dimensions. A linear equation in one unknown is solved on the spot
    /// (`2*x + 1 = 9` gives `x = 4`); one the solver cannot decide yet (two unknowns, or
    /// a non-linear one) waits as a relation until its unknowns are refined.
    pub fn unify_dims(&mut self, a: Dim, b: Dim) -> Result<(), UnifyError> {
        match self.unify_dim_step(a, b)? {
            DimStep::Done => Ok(()),
            DimStep::Deferred(a, b) => {
                let id = self.push_rel(RelKind::DimEq(a, b), u32::MAX, RelState::Waiting);
                self.watch_equation(id, a, b);
                Ok(())
            }
        }
    }

    pub(super) fn unify_dim_step(&mut self, a: Dim, b: Dim) -> Result<DimStep, UnifyError> {
        let arith = |e: DimError| UnifyError::new(UnifyErrorKind::Arith(e));
        // A failed resolution is an error: going on with the unresolved dimension would
        // treat solved variables as unknowns.
        let a = resolve_dim_in(&mut self.tcx.dims, &mut self.dims, a).map_err(arith)?;
        let b = resolve_dim_in(&mut self.tcx.dims, &mut self.dims, b).map_err(arith)?;
        if a == b {
            return Ok(DimStep::Done);
        }
        let dims = &self.tcx.dims;
        let bare = |d: Dim| match dims.data(d) {
            DimData::Var(v) => Some(*v),
            _ => None,
        };
        let (va, vb) = (bare(a), bare(b));
        if let (Some(x), Some(y)) = (va, vb) {
            self.wake(VarRef::Dim(x));
            self.wake(VarRef::Dim(y));
            self.dims.union(x, y);
            return Ok(DimStep::Done);
        }
        if a == Dims::ANY || b == Dims::ANY {
            // `?` is compatible with every dimension; an unknown unified with it becomes `?`.
            if let Some(x) = va.or(vb) {
                self.bind_dim(x, Dims::ANY);
            }
            return Ok(DimStep::Done);
        }
        match self.tcx.dims.equation(a, b) {
            Equation::False => Err(UnifyError::new(UnifyErrorKind::Dims(a, b))),
            Equation::NoIntegerSolution => {
                Err(UnifyError::new(UnifyErrorKind::NoIntegerSolution(a, b)))
            }
            Equation::Arith(e) => Err(arith(e)),
            Equation::Solved(x, value) => {
                self.bind_dim(x, value);
                Ok(DimStep::Done)
            }
            Equation::Undecided => Ok(DimStep::Deferred(a, b)),
        }
    }
}

pub(super) enum DimStep {
    Done,
    Deferred(Dim, Dim),
}
