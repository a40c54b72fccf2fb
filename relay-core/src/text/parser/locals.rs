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
    /// Every binding made (four bytes an entry: a million-binding chain's log is 4 MB).
    log: Vec<VarId>,
    /// The bindings of `log` that shadowed a variable, usually few: where each is in
    /// `log`, and the variable it shadowed.
    shadowed: Vec<(u32, VarId)>,
}

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
        match self.table.find_mut(h, |&u| m.var_name(u) == name) {
            Some(slot) => {
                let prev = std::mem::replace(slot, v);
                let at = u32::try_from(self.log.len()).expect("fewer than 4 billion bindings");
                self.shadowed.push((at, prev));
            }
            None => {
                self.table.insert_unique(h, v, |&u| hash(m.var_name(u)));
            }
        }
        self.log.push(v);
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
            let v = self.log.pop().expect("above the mark");
            let prev = match self.shadowed.last() {
                Some(&(at, prev)) if at as usize == self.log.len() => {
                    self.shadowed.pop();
                    Some(prev)
                }
                _ => None,
            };
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
        self.shadowed.clear();
    }

    /// The names in scope (for a "did you mean").
    pub(super) fn names<'m>(&self, m: &'m Module) -> Vec<&'m str> {
        self.table.iter().map(|&v| m.var_name(v)).collect()
    }
}
