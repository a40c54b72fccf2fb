//! `Loop`: its body is a subgraph typed in the scope of its graph (see `control`), over
//! the iteration number, the condition and the loop-carried values.
//!
//! A loop known to run `M` times (a known trip count, no condition or a known true one the
//! body passes on), `M` at most [`MAX_UNROLLED`], whose body reads its iteration number,
//! has its body typed once per iteration with that number known: a `Slice` from `i` to
//! `i + 1` then has length 1. Each iteration takes the carried values of the types the one
//! before gave (the loop surely runs them all), and each scan output's element is joined
//! over them all, a shape that differs from one iteration to the next being an error (the
//! runtime stacks them). Any other loop has its body typed once, the iteration number
//! unknown.

use super::control::MAX_DEPTH;
use super::{node_ref, Checker, Diagnostic};
use crate::proto::{GraphProto, GraphRef, Nodes};
use relay_core::{DType, Dim, Ty, TyData};

/// The most iterations of a loop whose body is typed once per iteration.
const MAX_UNROLLED: i64 = 64;

/// The most nodes typed over all the iterations of one loop (its body's nodes, with those
/// of the body's subgraphs, times the number of iterations).
const MAX_UNROLLED_NODES: usize = 4096;

impl<'m> Checker<'m> {
    /// Types a `Loop` node: its body over the loop-carried values' initial types, once or
    /// once per iteration (see the module's documentation); a carried value whose type the
    /// body changes is the types joined; each scan output gains a first dimension, the
    /// number of iterations: `M` when it is a known value and no condition is given (or a
    /// known true one the body passes on), else a symbol named after the node.
    pub(super) fn loop_node(&mut self, g: &Nodes<'m>, k: usize, inputs: &[Option<usize>]) {
        let node = g.at(k);
        let Some(attrs) = self.attributes_or_fail(g, k) else {
            return;
        };
        let Some(body) = self.graph_attr_or_fail(g, k, &attrs, "Loop", "body") else {
            return;
        };
        let carried: Vec<Ty> = (2..inputs.len().max(2))
            .map(|i| match inputs[i] {
                Some(id) => self.slots[id].ty,
                None => self.solver.fresh_ty(),
            })
            .collect();
        // The number of iterations.
        let m = inputs.first().copied().flatten().and_then(|id| {
            let v = self.values.get(&id)?;
            let d = self.solver.resolve_dim(*v.first()?);
            self.solver.tcx.dims.as_const(d)
        });
        // Without a condition, or with a known true one that the body passes on
        // unchanged, the loop runs `M` times.
        let cond = inputs.get(1).copied().flatten();
        let cond_true = cond.is_some_and(|id| {
            self.values
                .get(&id)
                .and_then(|v| v.first().copied())
                .map(|d| self.solver.resolve_dim(d))
                .and_then(|d| self.solver.tcx.dims.as_const(d))
                .is_some_and(|c| c != 0)
        });
        let runs_m = cond.is_none() || (cond_true && passes_condition_on(body));
        let unrolled = match m {
            // Not while recording for `relay import`, which prints one body for every iteration.
            Some(c) if runs_m && !self.unrolled && self.record.is_none() && unrolls(body, c) => {
                Some(c)
            }
            _ => None,
        };
        let n = carried.len();
        let outs = match unrolled {
            Some(c) => self.iterations(body, g, k, &carried, c),
            None => self.body_once(body, g, k, &carried),
        };
        let Some(outs) = outs else {
            self.fail_outputs(node, k);
            return;
        };
        if outs.len() < 1 + n {
            self.fail_node(g, k, format!("its `body` has {} outputs, and must have at least {} (the condition and the loop-carried values)", outs.len(), 1 + n));
            return;
        }
        let trips = match m {
            Some(c) if runs_m && c >= 0 => self.solver.tcx.dims.konst(c),
            _ => {
                let name = super::fresh_name(node, k);
                self.fresh_symbol(&name)
            }
        };
        for j in 0..node.output().len() {
            let t = if j < n {
                outs[1 + j]
            } else if let Some(&each) = outs.get(1 + j) {
                self.with_dim(each, 0, trips)
            } else {
                self.error(
                    Some(node_ref(g, k)),
                    format!("output {j} is not one its `body` gives"),
                    Vec::new(),
                );
                self.solver.fresh_ty()
            };
            self.set_output(k, j, t);
        }
    }

    /// The types of a loop body's inputs: the iteration number, the condition and the
    /// loop-carried values, of types `carried`.
    fn body_inputs(&mut self, carried: &[Ty]) -> Vec<Ty> {
        let int64 = self.solver.tcx.tensor_of(&[], DType::INT64);
        let boolean = self.solver.tcx.tensor_of(&[], DType::BOOL);
        let mut inputs = vec![int64, boolean];
        inputs.extend(carried);
        inputs
    }

    /// A loop body's output types, typed once with the iteration number unknown, each
    /// loop-carried value's joined with its initial type (of `carried`); `None` if the body
    /// could not be typed.
    fn body_once(
        &mut self,
        body: &GraphProto,
        g: &Nodes<'m>,
        k: usize,
        carried: &[Ty],
    ) -> Option<Vec<Ty>> {
        let inputs = self.body_inputs(carried);
        let mut outs = self.subgraph_types(body, g, k, "body", &inputs)?;
        for (j, &c) in carried.iter().enumerate() {
            if let Some(o) = outs.get_mut(1 + j) {
                *o = self.join(c, *o);
            }
        }
        Some(outs)
    }

    /// A loop body's output types over `m` iterations, typed once per iteration with the
    /// iteration number known: each loop-carried value's type the last iteration's, each
    /// other output's joined over all iterations (a scan output whose shape changes is
    /// reported).
    /// A problem is reported once, saying in which iterations it is; `None` if an
    /// iteration could not be typed (the iterations after it are not).
    fn iterations(
        &mut self,
        body: &GraphProto,
        g: &Nodes<'m>,
        k: usize,
        carried: &[Ty],
        m: i64,
    ) -> Option<Vec<Ty>> {
        let n = carried.len();
        let mut state = carried.to_vec();
        let mut joined: Option<Vec<Ty>> = None;
        // Each problem met, and the iterations it is in.
        let mut said: Vec<(Diagnostic, Vec<i64>)> = Vec::new();
        let outer = std::mem::replace(&mut self.unrolled, true);
        let mut typed = true;
        for i in 0..m {
            let inputs = self.body_inputs(&state);
            let index = self.solver.tcx.dims.konst(i);
            let start = self.diagnostics.len();
            let outs = self.subgraph(body, g, k, "body", &inputs, Some(index));
            for d in self.diagnostics.split_off(start) {
                match said.iter_mut().find(|(seen, _)| *seen == d) {
                    Some((_, at)) if at.last() == Some(&i) => {}
                    Some((_, at)) => at.push(i),
                    None => said.push((d, vec![i])),
                }
            }
            let Some(outs) = outs else {
                typed = false;
                break;
            };
            let outs: Vec<Ty> = outs.into_iter().map(|o| o.ty).collect();
            if outs.len() < 1 + n {
                // Reported by the caller.
                joined = Some(outs);
                break;
            }
            // The loop surely runs every iteration: the next one takes these types.
            state.copy_from_slice(&outs[1..=n]);
            if let Some(before) = &joined {
                self.scan_shapes_agree(g, k, before, &outs, n, i);
            }
            // The scan outputs joined over the iterations; the condition and the carried
            // values are the last iteration's (`state`, below).
            joined = Some(match joined {
                None => outs,
                Some(mut before) => {
                    for j in 1 + n..before.len().min(outs.len()) {
                        before[j] = self.join(before[j], outs[j]);
                    }
                    before
                }
            });
        }
        self.unrolled = outer;
        let in_body = format!("in the `body` of {}", node_ref(g, k));
        for (mut d, at) in said {
            if let Some(last) = d.notes.last_mut().filter(|note| **note == in_body) {
                *last = format!(
                    "in {} of the `body` of {}",
                    iteration_list(&at),
                    node_ref(g, k)
                );
            }
            self.diagnostics.push(d);
        }
        let mut outs = joined.filter(|_| typed)?;
        if outs.len() > n {
            outs[1..=n].copy_from_slice(&state);
        }
        Some(outs)
    }
}

impl Checker<'_> {
    /// Reports each scan output (after the condition and the `n` loop-carried values)
    /// whose shape in iteration `i`, `now`, differs from the one of the iterations before
    /// it, `before` (known dimensions that differ, or ranks): runtimes stack them, and
    /// onnxruntime stops there.
    fn scan_shapes_agree(
        &mut self,
        g: &Nodes<'_>,
        k: usize,
        before: &[Ty],
        now: &[Ty],
        n: usize,
        i: i64,
    ) {
        for j in 1 + n..before.len().min(now.len()) {
            let (a, b) = (self.solver.resolve(before[j]), self.solver.resolve(now[j]));
            let dims = |me: &Self, t: Ty| match *me.solver.tcx.data(t) {
                TyData::Tensor(s, _) => me.solver.tcx.shape_dims(s).map(<[Dim]>::to_vec),
                _ => None,
            };
            let (Some(x), Some(y)) = (dims(self, a), dims(self, b)) else {
                continue;
            };
            let mut konst = |d: Dim| {
                let d = self.solver.resolve_dim(d);
                self.solver.tcx.dims.as_const(d)
            };
            let differ = x.len() != y.len()
                || x.iter()
                    .zip(&y)
                    .any(|(&p, &q)| matches!((konst(p), konst(q)), (Some(u), Some(v)) if u != v));
            if differ {
                let (sa, sb) = (self.solver.tcx.show(a), self.solver.tcx.show(b));
                self.error(
                    Some(node_ref(g, k)),
                    format!(
                        "scan output {} of its `body` is `{sb}` in iteration {i}, and `{sa}` before it: a scan output keeps one shape in every iteration",
                        j - 1 - n
                    ),
                    Vec::new(),
                );
            }
        }
    }
}

/// Whether a loop of `m` iterations has its body typed once per iteration: `m` is at
/// least 1 and at most [`MAX_UNROLLED`], the body reads its iteration number, and it has
/// few enough nodes for `m` typings of it (see [`MAX_UNROLLED_NODES`]).
fn unrolls(body: &GraphProto, m: i64) -> bool {
    let Some(index) = body.input.first() else {
        return false;
    };
    if !(1..=MAX_UNROLLED).contains(&m) {
        return false;
    }
    let mut nodes = 0;
    reads(body, &index.name, 0, &mut nodes)
        && nodes.saturating_mul(m as usize) <= MAX_UNROLLED_NODES
}

/// Whether a node of `g`, or of a subgraph in it, reads `name`; `nodes` counts the nodes
/// met.
fn reads(g: &GraphProto, name: &[u8], depth: usize, nodes: &mut usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let graph = GraphRef::of(g);
    let Ok(ns) = Nodes::read(&graph.node) else {
        return false;
    };
    *nodes += ns.len();
    let mut found = false;
    for k in 0..ns.len() {
        found |= ns.inputs(k).contains(&name);
        let Ok(attrs) = ns.attributes(k) else {
            continue;
        };
        for a in &attrs {
            for sub in a.g.iter().chain(&a.graphs) {
                found |= reads(sub, name, depth + 1, nodes);
            }
        }
    }
    found
}

/// The iterations of `at` (increasing), in words: `iteration 3`, `iterations 3 and 4`,
/// `iterations 0 to 4`, `iterations 0, 2 and 5 to 7`.
fn iteration_list(at: &[i64]) -> String {
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for &i in at {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let mut shown: Vec<String> = Vec::new();
    for (a, b) in runs {
        match b - a {
            0 => shown.push(a.to_string()),
            1 => shown.extend([a.to_string(), b.to_string()]),
            _ => shown.push(format!("{a} to {b}")),
        }
    }
    match shown.split_last() {
        Some((last, [])) if at.len() == 1 => format!("iteration {last}"),
        Some((last, [])) => format!("iterations {last}"),
        Some((last, rest)) => format!("iterations {} and {last}", rest.join(", ")),
        None => "no iteration".into(),
    }
}

/// Whether a `Loop` body's condition output is its condition input unchanged (the same
/// name, or an `Identity` of it), as exporters write a loop of a fixed count.
fn passes_condition_on(body: &GraphProto) -> bool {
    let (Some(c_in), Some(c_out)) = (body.input.get(1), body.output.first()) else {
        return false;
    };
    if c_in.name == c_out.name {
        return true;
    }
    let graph = GraphRef::of(body);
    let Ok(nodes) = Nodes::read(&graph.node) else {
        return false;
    };
    (0..nodes.len()).any(|k| {
        nodes.op_type(k) == b"Identity"
            && nodes.domain(k).is_empty()
            && nodes.inputs(k) == [c_in.name.as_ref()]
            && nodes.outputs(k) == [c_out.name.as_ref()]
    })
}

#[cfg(test)]
mod tests {
    use super::iteration_list;

    #[test]
    fn iterations_are_said_in_runs() {
        assert_eq!(iteration_list(&[3]), "iteration 3");
        assert_eq!(iteration_list(&[3, 4]), "iterations 3 and 4");
        assert_eq!(iteration_list(&[0, 1, 2, 3, 4]), "iterations 0 to 4");
        assert_eq!(
            iteration_list(&[0, 2, 5, 6, 7]),
            "iterations 0, 2 and 5 to 7"
        );
        assert_eq!(iteration_list(&[1, 2, 4, 5]), "iterations 1, 2, 4 and 5");
    }
}
