//! Sequences and optionals, as Relay's prelude types: ONNX's `seq(T)` is `List[T]` and
//! `optional(T)` is `Optional[T]`. A sequence's elements may differ in shape; its element
//! type is theirs joined (as `If`'s branches are): the same where they agree, `?` where
//! they do not, and a tensor of unknown rank where their ranks differ.
//!
//! The operators: `SequenceEmpty`, `SequenceConstruct`, `SequenceInsert`, `SequenceAt`,
//! `SequenceErase`, `SequenceLength`, `SplitToSequence`, `ConcatFromSequence`,
//! `SequenceMap` (its body typed over one element of each sequence), `Optional`,
//! `OptionalGetElement` and `OptionalHasElement`; `Identity` of either passes it on.

use super::{node_ref, Checker};
use crate::proto::{AttributeProto, Nodes};
use relay_core::{Adt, DTy, DType, Dim, Dims, Kind, Ty, TyData};

/// The operators of the default domain this module types.
pub(super) fn is_sequence_op(op_type: &[u8]) -> bool {
    matches!(
        op_type,
        b"SequenceEmpty"
            | b"SequenceConstruct"
            | b"SequenceInsert"
            | b"SequenceAt"
            | b"SequenceErase"
            | b"SequenceLength"
            | b"SplitToSequence"
            | b"ConcatFromSequence"
            | b"SequenceMap"
            | b"Optional"
            | b"OptionalGetElement"
            | b"OptionalHasElement"
    )
}

impl<'m> Checker<'m> {
    /// The prelude's `List` or `Optional`, declared in the type context when first used.
    pub(super) fn prelude_adt(&mut self, name: &str) -> Adt {
        if let Some(a) = self.solver.tcx.adt_named(name) {
            return a;
        }
        let p = self.solver.tcx.param("a", Kind::Type);
        self.solver
            .tcx
            .adt(name, &[p])
            .expect("a data type of one type parameter is well kinded")
    }

    /// `List[elem]` or `Optional[elem]`.
    pub(super) fn wrap(&mut self, name: &str, elem: Ty) -> Ty {
        let adt = self.prelude_adt(name);
        self.solver
            .tcx
            .type_call(adt, &[elem])
            .expect("one argument for one parameter")
    }

    /// The element type of `ty` if it is `name[elem]` (`List` or `Optional`).
    fn unwrap(&mut self, name: &str, ty: Ty) -> Option<Ty> {
        let ty = self.solver.resolve(ty);
        match self.solver.tcx.data(ty) {
            TyData::Call(adt, args) if self.solver.tcx.adt_info(*adt).name.as_ref() == name => {
                args.first().copied()
            }
            _ => None,
        }
    }

    /// Whether `ty` is a sequence or an optional (what `Identity` passes on as it is).
    pub(super) fn is_wrapped(&mut self, ty: Ty) -> bool {
        let ty = self.solver.resolve(ty);
        matches!(self.solver.tcx.data(ty), TyData::Call(..))
    }

    /// Types a sequence or optional operator (see the module's doc).
    pub(super) fn sequence_node(&mut self, g: &Nodes<'m>, k: usize, inputs: &[Option<usize>]) {
        let node = g.at(k);
        let Some(attrs) = self.attributes_or_fail(g, k) else {
            return;
        };
        let int = |name: &str, default: i64| {
            attrs
                .iter()
                .find(|a: &&AttributeProto| a.name.as_ref() == name.as_bytes())
                .map_or(default, |a| a.i)
        };
        let ty_of =
            |me: &Self, i: usize| inputs.get(i).copied().flatten().map(|id| me.slots[id].ty);
        let result: Result<Vec<Ty>, String> = match node.op_type() {
            b"SequenceEmpty" => {
                let dt = match attrs.iter().find(|a| a.name.as_ref() == b"dtype") {
                    Some(a) => i32::try_from(a.i)
                        .map_err(|_| format!("`dtype` {} is not a type", a.i))
                        .and_then(|d| self.dtype(d)),
                    None => Ok(DTy::Known(DType::FLOAT32)),
                };
                // A tensor of `dtype` and no shape yet, which joins ignore: the first
                // element inserted gives the sequence its element type.
                dt.map(|dt| {
                    let s = self.solver.fresh_shape();
                    let elem = self.solver.tcx.tensor(s, dt);
                    self.empty_elems.insert(elem);
                    vec![self.wrap("List", elem)]
                })
            }
            b"SequenceConstruct" => {
                let tys: Vec<Ty> = (0..inputs.len()).filter_map(|i| ty_of(self, i)).collect();
                match tys.split_first() {
                    None => Err("`SequenceConstruct` needs at least one input".into()),
                    Some((&first, rest)) => {
                        let elem = rest.iter().fold(first, |a, &b| self.join_elements(a, b));
                        Ok(vec![self.wrap("List", elem)])
                    }
                }
            }
            b"SequenceInsert" => match (ty_of(self, 0), ty_of(self, 1)) {
                (Some(seq), Some(t)) => match self.unwrap("List", seq) {
                    Some(elem) => {
                        let elem = self.join_elements(elem, t);
                        Ok(vec![self.wrap("List", elem)])
                    }
                    None => Err(self.not_a("sequence", 0, seq)),
                },
                _ => Err("`SequenceInsert` needs a sequence and a tensor".into()),
            },
            b"SequenceAt" | b"SequenceErase" | b"SequenceLength" | b"ConcatFromSequence" => {
                match ty_of(self, 0) {
                    None => Err("it needs a sequence".into()),
                    Some(seq) => match self.unwrap("List", seq) {
                        None => Err(self.not_a("sequence", 0, seq)),
                        Some(elem) => match node.op_type() {
                            b"SequenceAt" => Ok(vec![elem]),
                            b"SequenceErase" => Ok(vec![seq]),
                            b"SequenceLength" => {
                                Ok(vec![self.solver.tcx.tensor_of(&[], DType::INT64)])
                            }
                            _ => self
                                .concat_from_sequence(
                                    elem,
                                    int("axis", i64::MIN),
                                    int("new_axis", 0),
                                )
                                .map(|t| vec![t]),
                        },
                    },
                }
            }
            b"SplitToSequence" => self
                .split_to_sequence(inputs, int("axis", 0), int("keepdims", 1))
                .map(|t| vec![t]),
            b"SequenceMap" => {
                return self.sequence_map(g, k, inputs, &attrs);
            }
            b"Optional" => match ty_of(self, 0) {
                Some(t) => Ok(vec![self.wrap("Optional", t)]),
                None => match attrs.iter().find(|a| a.name.as_ref() == b"type") {
                    Some(AttributeProto { tp: Some(tp), .. }) => {
                        let tp = tp.clone();
                        self.decl_ty(&tp).map(|t| vec![self.wrap("Optional", t)])
                    }
                    _ => Err("an `Optional` without an input needs its `type` attribute".into()),
                },
            },
            b"OptionalGetElement" => match ty_of(self, 0) {
                // Opset 18 also takes a tensor or a sequence, and gives it.
                Some(t) => Ok(vec![self.unwrap("Optional", t).unwrap_or(t)]),
                None => Err("`OptionalGetElement` needs an input".into()),
            },
            b"OptionalHasElement" => Ok(vec![self.solver.tcx.tensor_of(&[], DType::BOOL)]),
            _ => unreachable!("is_sequence_op lists the operators typed here"),
        };
        match result {
            Ok(tys) => {
                for (j, t) in tys.into_iter().enumerate() {
                    self.set_output(k, j, t);
                }
                // An optional tensor's element keeps its value.
                if node.op_type() == b"OptionalGetElement" {
                    self.pass_value(k, inputs);
                }
            }
            Err(message) => {
                self.fail_node(g, k, message);
            }
        }
    }

    /// Gives node `k`'s output the value of its first input, if it has one.
    pub(super) fn pass_value(&mut self, k: usize, inputs: &[Option<usize>]) {
        let Some(from) = inputs.first().copied().flatten() else {
            return;
        };
        let Some(to) = self.output_slot(k, 0) else {
            return;
        };
        if let Some(v) = self.values.get(&from).cloned() {
            self.values.insert(to, v);
        }
        if let Some(f) = self.floats.get(&from).cloned() {
            self.floats.insert(to, f);
        }
    }

    /// "input `i` is `T`, and must be a sequence".
    fn not_a(&mut self, what: &str, i: usize, ty: Ty) -> String {
        let shown = self.solver.tcx.show(ty);
        format!("input {i} is `{shown}`, and must be a {what}")
    }

    /// `ConcatFromSequence`: the elements joined along `axis` (its length is the sum of
    /// theirs, unknown here), or stacked on a new axis (of the sequence's length).
    fn concat_from_sequence(&mut self, elem: Ty, axis: i64, new_axis: i64) -> Result<Ty, String> {
        if axis == i64::MIN {
            return Err("`ConcatFromSequence` needs its `axis` attribute".into());
        }
        let (dims, dt) = match self.tensor_parts(elem) {
            Some(parts) => parts,
            None => {
                let s = self.solver.fresh_shape();
                let dt = self.dtype_part(elem);
                return Ok(self.solver.tcx.tensor(s, dt));
            }
        };
        let mut dims = dims;
        let rank = dims.len() as i64 + i64::from(new_axis != 0);
        let a = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&a) {
            return Err(format!(
                "`axis` {axis} is out of range for a result of rank {rank}"
            ));
        }
        if new_axis != 0 {
            dims.insert(a as usize, Dims::ANY);
        } else {
            dims[a as usize] = Dims::ANY;
        }
        let s = self.solver.tcx.shape(&dims);
        Ok(self.solver.tcx.tensor(s, dt))
    }

    /// `SplitToSequence`: pieces along `axis` of the `split` value's lengths (one length
    /// for all: the last piece may be shorter), or of length 1 (dropped when `keepdims`
    /// is 0) without `split`.
    fn split_to_sequence(
        &mut self,
        inputs: &[Option<usize>],
        axis: i64,
        keepdims: i64,
    ) -> Result<Ty, String> {
        let Some(data) = inputs.first().copied().flatten() else {
            return Err("`SplitToSequence` needs an input".into());
        };
        let data_ty = self.slots[data].ty;
        let Some((mut dims, dt)) = self.tensor_parts(data_ty) else {
            let s = self.solver.fresh_shape();
            let dt = self.dtype_part(data_ty);
            let elem = self.solver.tcx.tensor(s, dt);
            return Ok(self.wrap("List", elem));
        };
        let rank = dims.len() as i64;
        let a = if axis < 0 { axis + rank } else { axis };
        if !(0..rank).contains(&a) {
            return Err(format!("`axis` {axis} is out of range for rank {rank}"));
        }
        let a = a as usize;
        let split = inputs.get(1).copied().flatten();
        match split {
            None if keepdims == 0 => {
                dims.remove(a);
            }
            None => dims[a] = self.solver.tcx.dims.konst(1),
            Some(id) => {
                let value = self.values.get(&id).map(|v| v.to_vec());
                let scalar = self
                    .tensor_parts(self.slots[id].ty)
                    .map(|(d, _)| d.is_empty());
                let total = self.solver.resolve_dim(dims[a]);
                let total = self.solver.tcx.dims.as_const(total);
                let lengths: Option<Vec<i64>> = value.and_then(|v| {
                    v.iter()
                        .map(|&d| {
                            let d = self.solver.resolve_dim(d);
                            self.solver.tcx.dims.as_const(d)
                        })
                        .collect()
                });
                dims[a] = match (lengths.as_deref(), scalar) {
                    // One length: pieces of it, the last one what is left.
                    (Some(&[n]), Some(true)) if n > 0 => match total {
                        Some(t) if t % n == 0 => self.solver.tcx.dims.konst(n),
                        _ => Dims::ANY,
                    },
                    (Some([]), _) => return Err("`split` is empty".into()),
                    (Some(ls), _) if ls.iter().all(|&l| l == ls[0]) => {
                        self.solver.tcx.dims.konst(ls[0])
                    }
                    _ => Dims::ANY,
                };
            }
        }
        let s = self.solver.tcx.shape(&dims);
        let elem = self.solver.tcx.tensor(s, dt);
        Ok(self.wrap("List", elem))
    }

    /// `SequenceMap`: the body typed over an element of each sequence input and each
    /// other input as it is; each output a sequence of the body's output.
    fn sequence_map(
        &mut self,
        g: &Nodes<'m>,
        k: usize,
        inputs: &[Option<usize>],
        attrs: &[AttributeProto],
    ) {
        let node = g.at(k);
        let Some(body) = self.graph_attr_or_fail(g, k, attrs, "SequenceMap", "body") else {
            return;
        };
        let mut body_inputs = Vec::with_capacity(inputs.len());
        for (i, input) in inputs.iter().enumerate() {
            let t = match *input {
                Some(id) => self.slots[id].ty,
                None => self.solver.fresh_ty(),
            };
            body_inputs.push(match self.unwrap("List", t) {
                Some(elem) => elem,
                None if i == 0 => {
                    let message = self.not_a("sequence", 0, t);
                    self.fail_node(g, k, message);
                    return;
                }
                None => t,
            });
        }
        let Some(outs) = self.subgraph_types(body, g, k, "body", &body_inputs) else {
            self.fail_outputs(node, k);
            return;
        };
        for j in 0..node.output().len() {
            match outs.get(j) {
                Some(&t) => {
                    let t = self.wrap("List", t);
                    self.set_output(k, j, t);
                }
                None => {
                    self.error(
                        Some(node_ref(g, k)),
                        format!("output {j} is not one its `body` gives"),
                        Vec::new(),
                    );
                    let t = self.solver.fresh_ty();
                    if let Some(id) = self.set_output(k, j, t) {
                        self.slots[id].failed = true;
                    }
                }
            }
        }
    }

    /// A tensor type's dimensions and dtype, if it is one of known rank.
    fn tensor_parts(&mut self, ty: Ty) -> Option<(Vec<Dim>, DTy)> {
        crate::check::tensor_parts(&mut self.solver, ty)
    }

    /// A tensor type's dtype (a fresh one if it is not a tensor).
    fn dtype_part(&mut self, ty: Ty) -> DTy {
        let ty = self.solver.resolve(ty);
        match *self.solver.tcx.data(ty) {
            TyData::Tensor(_, dt) => dt,
            _ => self.solver.fresh_dtype(),
        }
    }
}
