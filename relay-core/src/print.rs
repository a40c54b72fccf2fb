//! Printing types, shapes and dimensions in Relay's text syntax.
//!
//! The printer is a loop over an explicit stack of pieces to emit, so a tuple type nested
//! a hundred thousand deep prints on a small thread stack. Output follows the `relay`
//! command-line contract: `Tensor[(5, 4), float32]`, rank 1 as `Tensor[(5), float32]`,
//! rank 0 as the bare dtype, `?` for Any, `(A,)` for a one-field tuple, `fn [A](A) -> A`.
//! Flexible variables, which only appear before solving, print as `'t3`, `'s3`, `'d3`
//! and `'b3` (type, shape, dimension, dtype).

use crate::dim::{Dim, DimData};
use crate::ty::{DTy, Shape, ShapeData, Ty, TyCtx, TyData};
use std::fmt::Write;

enum Piece {
    Ty(Ty),
    Shape(Shape),
    Dim(Dim),
    /// A dimension printed as a factor of a product: parenthesized unless simple.
    Factor(Dim),
    DType(DTy),
    Int(u64),
    Text(&'static str),
}

struct Printer<'a> {
    tcx: &'a TyCtx,
    out: String,
    stack: Vec<Piece>,
}

impl<'a> Printer<'a> {
    fn run(tcx: &'a TyCtx, first: Piece) -> String {
        let mut p = Printer {
            tcx,
            out: String::new(),
            stack: vec![first],
        };
        while let Some(piece) = p.stack.pop() {
            match piece {
                Piece::Ty(t) => p.ty(t),
                Piece::Shape(s) => p.shape(s),
                Piece::Dim(d) => p.dim(d),
                Piece::Factor(d) => {
                    if matches!(tcx.dims.data(d), DimData::Sum(_)) {
                        p.stack.push(Piece::Text(")"));
                        p.stack.push(Piece::Dim(d));
                        p.out.push('(');
                    } else {
                        p.dim(d);
                    }
                }
                Piece::DType(dt) => p.dtype(dt),
                Piece::Int(k) => {
                    let _ = write!(p.out, "{k}");
                }
                Piece::Text(s) => p.out.push_str(s),
            }
        }
        p.out
    }

    /// Pushes `items` separated by `sep` so that they print in order.
    fn push_list<T: Copy>(&mut self, items: &[T], sep: &'static str, wrap: fn(T) -> Piece) {
        for (i, &item) in items.iter().enumerate().rev() {
            self.stack.push(wrap(item));
            if i > 0 {
                self.stack.push(Piece::Text(sep));
            }
        }
    }

    fn dtype(&mut self, dt: DTy) {
        match dt {
            DTy::Known(d) => {
                let _ = write!(self.out, "{d}");
            }
            DTy::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
            DTy::Param(p) => self.out.push_str(self.tcx.param_name(p)),
        }
    }

    fn ty(&mut self, t: Ty) {
        let tcx = self.tcx;
        match tcx.data(t) {
            TyData::Tensor(s, dt) => {
                if tcx.shape_dims(*s).is_some_and(|d| d.is_empty()) {
                    self.dtype(*dt);
                    return;
                }
                self.out.push_str("Tensor[");
                self.stack.push(Piece::Text("]"));
                self.stack.push(Piece::DType(*dt));
                self.stack.push(Piece::Text(", "));
                self.stack.push(Piece::Shape(*s));
            }
            TyData::Tuple(fields) => {
                self.out.push('(');
                self.stack
                    .push(Piece::Text(if fields.len() == 1 { ",)" } else { ")" }));
                self.push_list(fields, ", ", Piece::Ty);
            }
            TyData::Func(f) => {
                self.out.push_str("fn ");
                if !f.params.is_empty() {
                    self.out.push('[');
                    for (i, &p) in f.params.iter().enumerate() {
                        if i > 0 {
                            self.out.push_str(", ");
                        }
                        let info = tcx.param_info(p);
                        self.out.push_str(&info.name);
                        if info.kind != crate::Kind::Type {
                            let _ = write!(self.out, ": {}", info.kind);
                        }
                    }
                    self.out.push(']');
                }
                self.out.push('(');
                self.stack.push(Piece::Ty(f.ret));
                self.stack.push(Piece::Text(") -> "));
                self.push_list(&f.args, ", ", Piece::Ty);
            }
            TyData::Param(p) => self.out.push_str(tcx.param_name(*p)),
            TyData::Adt(a) => self.out.push_str(&tcx.adt_info(*a).name),
            TyData::Call(a, args) => {
                self.out.push_str(&tcx.adt_info(*a).name);
                if !args.is_empty() {
                    self.out.push('[');
                    self.stack.push(Piece::Text("]"));
                    self.push_list(args, ", ", Piece::Ty);
                }
            }
            TyData::Ref(inner) => {
                self.out.push_str("ref(");
                self.stack.push(Piece::Text(")"));
                self.stack.push(Piece::Ty(*inner));
            }
            TyData::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
        }
    }

    fn shape(&mut self, s: Shape) {
        match self.tcx.shape_data(s) {
            ShapeData::Dims(dims) => {
                self.out.push('(');
                self.stack.push(Piece::Text(")"));
                self.push_list(dims, ", ", Piece::Dim);
            }
            ShapeData::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
            ShapeData::Param(p) => self.out.push_str(self.tcx.param_name(*p)),
        }
    }

    fn dim(&mut self, d: Dim) {
        let tcx = self.tcx;
        match tcx.dims.data(d) {
            DimData::Const(c) => {
                let _ = write!(self.out, "{c}");
            }
            DimData::Any => self.out.push('?'),
            DimData::Sym(p) => self.out.push_str(tcx.param_name(*p)),
            DimData::Var(v) => {
                let _ = write!(self.out, "{v}");
            }
            DimData::Op(op, a, b) => {
                self.out.push_str(op.name());
                self.out.push('(');
                self.stack.push(Piece::Text(")"));
                self.stack.push(Piece::Dim(*b));
                self.stack.push(Piece::Text(", "));
                self.stack.push(Piece::Dim(*a));
            }
            DimData::Sum(terms) => {
                // Non-constant terms in canonical order, the constant term last.
                let mut ordered: Vec<&crate::dim::Term> =
                    terms.iter().filter(|t| !t.atoms.is_empty()).collect();
                ordered.extend(terms.iter().filter(|t| t.atoms.is_empty()));
                let mut pieces = Vec::new();
                for (i, t) in ordered.iter().enumerate() {
                    let negative = t.coeff < 0;
                    let magnitude = t.coeff.unsigned_abs();
                    let sign = match (i, negative) {
                        (0, false) => "",
                        (0, true) => "-",
                        (_, false) => " + ",
                        (_, true) => " - ",
                    };
                    pieces.push((sign, magnitude, &t.atoms));
                }
                for (sign, magnitude, atoms) in pieces.into_iter().rev() {
                    for (j, &a) in atoms.iter().enumerate().rev() {
                        self.stack.push(Piece::Factor(a));
                        if j > 0 {
                            self.stack.push(Piece::Text("*"));
                        }
                    }
                    if atoms.is_empty() || magnitude != 1 {
                        if !atoms.is_empty() {
                            self.stack.push(Piece::Text("*"));
                        }
                        self.stack.push(Piece::Int(magnitude));
                    }
                    self.stack.push(Piece::Text(sign));
                }
            }
        }
    }
}

/// `ty` in the text syntax.
pub fn type_to_string(tcx: &TyCtx, ty: Ty) -> String {
    Printer::run(tcx, Piece::Ty(ty))
}

/// `shape` in the text syntax.
pub fn shape_to_string(tcx: &TyCtx, shape: Shape) -> String {
    Printer::run(tcx, Piece::Shape(shape))
}

/// `dim` in the text syntax.
pub fn dim_to_string(tcx: &TyCtx, dim: Dim) -> String {
    Printer::run(tcx, Piece::Dim(dim))
}

/// `dt` in the text syntax.
pub fn dtype_to_string(tcx: &TyCtx, dt: DTy) -> String {
    Printer::run(tcx, Piece::DType(dt))
}
