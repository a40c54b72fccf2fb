//! The local variables in scope while a module is read, by name.
//!
//! A table of variable ids hashed by their names, which live in the module's text of
//! names: no key strings of its own (a million-binding `let` chain keeps a million names
//! in scope at once), and a log of the bindings made, with what each shadowed, to undo
//! them at the end of their scopes.

use crate::expr::{Module, VarId};
use hashbrown::HashTable;
use std::hash::BuildHasher;

#[derive(Default)]
pub(super) struct Locals {
    table: HashTable<VarId>,
    /// Every binding made, and what it shadowed.
    /// (What was shadowed is [`NONE`] when nothing was: eight bytes an entry.)
    log: Vec<(VarId, VarId)>,
}

/// No variable: what a binding that shadowed nothing logs.
const NONE: VarId = VarId(u32::MAX);

fn hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

impl Locals {
    /// Room for `n` bindings.
    pub(super) fn reserve(&mut self, m: &Module, n: usize) {
        self.table.reserve(n, |&v| hash(m.var_name(v)));
        self.log.reserve(n);
    }

    /// The variable `name` means.
    #[inline]
    pub(super) fn get(&self, m: &Module, name: &str) -> Option<VarId> {
        self.table
            .find(hash(name), |&v| m.var_name(v) == name)
            .copied()
    }

    /// Binds `v` under its own name, shadowing whatever had it.
    pub(super) fn bind(&mut self, m: &Module, v: VarId) {
        let name = m.var_name(v);
        let h = hash(name);
        let prev = match self.table.find_mut(h, |&u| m.var_name(u) == name) {
            Some(slot) => Some(std::mem::replace(slot, v)),
            None => {
                self.table.insert_unique(h, v, |&u| hash(m.var_name(u)));
                None
            }
        };
        self.log.push((v, prev.unwrap_or(NONE)));
    }

    /// How many bindings have been made: a mark to undo back to.
    pub(super) fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes the bindings made after `mark`, latest first.
    pub(super) fn unbind_to(&mut self, m: &Module, mark: usize) {
        if mark == 0 {
            // Every local goes: no need to undo them one by one.
            self.clear();
            return;
        }
        while self.log.len() > mark {
            let (v, prev) = self.log.pop().expect("above the mark");
            let prev = (prev != NONE).then_some(prev);
            let name = m.var_name(v);
            let Ok(entry) = self
                .table
                .find_entry(hash(name), |&u| m.var_name(u) == name)
            else {
                continue;
            };
            match prev {
                Some(p) => *entry.into_mut() = p,
                None => {
                    entry.remove();
                }
            }
        }
    }

    /// No locals.
    pub(super) fn clear(&mut self) {
        self.table.clear();
        self.log.clear();
    }

    /// The names in scope (for a "did you mean").
    pub(super) fn names<'m>(&self, m: &'m Module) -> Vec<&'m str> {
        self.table.iter().map(|&v| m.var_name(v)).collect()
    }
}
