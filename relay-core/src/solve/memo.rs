//! Relation results remembered by their inputs.
//!
//! A relation run on inputs without unknowns, whose last argument (the result) is still an
//! unknown, is a function of the relation, the call's attributes and those inputs: every
//! relation reads its arguments and attributes through [`crate::RelCx`] and nothing else.
//! When such a run solves the result to a type without unknowns, the solver remembers it,
//! and the next call with the same inputs and attributes (a model's repeated block) gets
//! its result without running the relation. Types are interned, so the key is a few
//! integers; interned types outlive rollbacks, so the entries stay valid across them.

use super::*;

/// The inputs a result is remembered for, up to this many.
const MAX_INPUTS: usize = 4;

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub(super) struct Key {
    relation: usize,
    attrs: usize,
    len: u8,
    inputs: [Ty; MAX_INPUTS],
}

#[derive(Default)]
pub(super) struct Memo {
    results: FxHashMap<Key, Ty>,
    /// The attribute lists keys point to, kept alive so that no other list gets their
    /// address.
    kept: Vec<Arc<Attrs>>,
}

impl Memo {
    /// The key of a run over `args` (inputs, then the result), if its result may be
    /// remembered: known inputs, an unknown result.
    pub(super) fn key(
        tcx: &TyCtx,
        relation: RelationRef,
        attrs: Option<&Arc<Attrs>>,
        args: &[Ty],
    ) -> Option<Key> {
        let (&out, inputs) = args.split_last()?;
        if !matches!(tcx.data(out), TyData::Var(_)) {
            return None;
        }
        Self::key_of_inputs(tcx, relation, attrs, inputs)
    }

    /// The key of `inputs` (the arguments but the result), if they are all known.
    pub(super) fn key_of_inputs(
        tcx: &TyCtx,
        relation: RelationRef,
        attrs: Option<&Arc<Attrs>>,
        inputs: &[Ty],
    ) -> Option<Key> {
        if inputs.len() > MAX_INPUTS || inputs.iter().any(|&t| tcx.has_vars(t)) {
            return None;
        }
        let mut key = Key {
            relation: relation.addr(),
            attrs: attrs.map_or(0, |a| Arc::as_ptr(a) as usize),
            len: inputs.len() as u8,
            inputs: [Ty(0); MAX_INPUTS],
        };
        key.inputs[..inputs.len()].copy_from_slice(inputs);
        Some(key)
    }

    pub(super) fn get(&self, key: &Key) -> Option<Ty> {
        self.results.get(key).copied()
    }

    pub(super) fn insert(&mut self, key: Key, attrs: Option<&Arc<Attrs>>, result: Ty) {
        if self.results.insert(key, result).is_none() {
            if let Some(a) = attrs {
                self.kept.push(a.clone());
            }
        }
    }
}
