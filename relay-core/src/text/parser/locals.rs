//! The local variables in scope while a module is read, by name.
//!
//! A table of variable ids hashed by their names, which live in the module's text of
//! names: no key strings of its own (a million-binding `let` chain keeps a million names
//! in scope at once), and a log of the bindings made, with what each shadowed, to undo
//! them at the end of their scopes.
//!
//! In front of the table, a small cache of the latest bindings by hash: most mentions
//! are of a name bound a few statements before, whose record is still in the processor's
//! cache, while the table of a million names is not.

use crate::expr::{Module, VarId};
use hashbrown::HashTable;
use std::cell::Cell;

pub(super) struct Locals {
    table: HashTable<VarId>,
    /// By the low bits of its name's hash, a variable that is the latest binding of its
    /// name, or [`NONE`]. Kept so: a binding takes its name's slot, an undone one gives
    /// it back to what it shadowed.
    recent: Box<[VarId; RECENT]>,
    /// Every binding made (four bytes an entry: a million-binding chain's log is 4 MB).
    log: Vec<VarId>,
    /// The bindings of `log` that shadowed a variable, usually few: where each is in
    /// `log`, and the variable it shadowed.
    shadowed: Vec<(u32, VarId)>,
    /// The parameter lists bound, each of consecutive variables: the first, how many,
    /// and where in `log` they are.
    params: Vec<(u32, u32, usize)>,
    /// The variable after the last one a lookup found: a parameter list is mostly used in
    /// its order (a model's weights), and the next one's record is close at hand, where
    /// the table's entry for its name is not.
    next: Cell<VarId>,
}

/// Slots in the cache of recent bindings.
const RECENT: usize = 1024;

impl Default for Locals {
    fn default() -> Self {
        Locals {
            table: HashTable::new(),
            recent: Box::new([NONE; RECENT]),
            log: Vec::new(),
            shadowed: Vec::new(),
            params: Vec::new(),
            next: Cell::new(NONE),
        }
    }
}

fn slot(h: u64) -> usize {
    h as usize % RECENT
}

/// No variable: an empty slot of the cache of recent bindings.
const NONE: VarId = VarId(u32::MAX);

/// The hash of a name: a few folded multiplications over its bytes read as words
/// (overlapping at the end), as fast as a name is short. Collisions cost only probes: the table
/// compares the names themselves.
#[inline]
fn hash(name: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let n = name.len();
    let word = |i: usize| u64::from_le_bytes(name[i..i + 8].try_into().expect("eight bytes"));
    let half = |i: usize| u64::from(u32::from_le_bytes(name[i..i + 4].try_into().expect("four")));
    // The two halves of a full product, folded: every bit of the word reaches every bit.
    let mix = |h: u64, w: u64| {
        let p = u128::from(h ^ w) * u128::from(K);
        (p as u64) ^ ((p >> 64) as u64)
    };
    let mut h = n as u64;
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            h = mix(h, word(i));
            i += 8;
        }
        h = mix(h, word(n - 8));
    } else if n >= 4 {
        h = mix(h, half(0) | half(n - 4) << 32);
    } else if n > 0 {
        let w = u64::from(name[0]) | u64::from(name[n / 2]) << 8 | u64::from(name[n - 1]) << 16;
        h = mix(h, w);
    }
    h
}

/// Whether two names are the same, compared a word at a time (overlapping at the end)
/// without a call for the short names of a program.
#[inline]
fn same(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("eight"));
    let half = |s: &[u8], i: usize| u32::from_le_bytes(s[i..i + 4].try_into().expect("four"));
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4),
        8..=16 => word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8),
        _ => a == b,
    }
}

impl Locals {
    /// Room for `n` bindings.
    pub(super) fn reserve(&mut self, m: &Module, n: usize) {
        self.table.reserve(n, |&v| hash(m.var_name_bytes(v)));
        self.log.reserve(n);
    }

    /// The variable `name` means.
    #[inline]
    pub(super) fn get(&self, m: &Module, name: &str) -> Option<VarId> {
        let name = name.as_bytes();
        let h = hash(name);
        let v = self.recent[slot(h)];
        if v != NONE && same(m.var_name_bytes(v), name) {
            return Some(v);
        }
        // The next parameter, if no binding shadows another (then a bound parameter of
        // that name is the name's binding).
        let p = self.next.get();
        let bound = |&(first, n, _): &(u32, u32, usize)| p.0 >= first && p.0 - first < n;
        if self.shadowed.is_empty()
            && self.params.iter().rev().any(bound)
            && same(m.var_name_bytes(p), name)
        {
            self.next.set(VarId(p.0.wrapping_add(1)));
            return Some(p);
        }
        let v = self
            .table
            .find(h, |&v| same(m.var_name_bytes(v), name))
            .copied()?;
        self.next.set(VarId(v.0.wrapping_add(1)));
        Some(v)
    }

    /// Binds a function's parameters, in order.
    pub(super) fn bind_params(&mut self, m: &Module, vars: &[VarId]) {
        let Some(&first) = vars.first() else {
            return;
        };
        let consecutive = vars.iter().zip(first.0..).all(|(v, i)| v.0 == i);
        let n = u32::try_from(vars.len()).expect("fewer than 4 billion parameters");
        if consecutive {
            self.params.push((first.0, n, self.log.len()));
        }
        for &v in vars {
            self.bind(m, v);
        }
    }

    /// Binds `v` under its own name, shadowing whatever had it.
    pub(super) fn bind(&mut self, m: &Module, v: VarId) {
        let name = m.var_name_bytes(v);
        let h = hash(name);
        self.recent[slot(h)] = v;
        let entry = self.table.entry(
            h,
            |&u| same(m.var_name_bytes(u), name),
            |&u| hash(m.var_name_bytes(u)),
        );
        match entry {
            hashbrown::hash_table::Entry::Occupied(mut o) => {
                let prev = std::mem::replace(o.get_mut(), v);
                let at = u32::try_from(self.log.len()).expect("fewer than 4 billion bindings");
                self.shadowed.push((at, prev));
            }
            hashbrown::hash_table::Entry::Vacant(e) => {
                e.insert(v);
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
        while self.params.last().is_some_and(|&(_, _, at)| at >= mark) {
            self.params.pop();
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
            let name = m.var_name_bytes(v);
            let h = hash(name);
            let r = &mut self.recent[slot(h)];
            if *r == v {
                *r = prev.unwrap_or(NONE);
            }
            let Ok(entry) = self
                .table
                .find_entry(h, |&u| same(m.var_name_bytes(u), name))
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
        self.recent.fill(NONE);
        self.log.clear();
        self.shadowed.clear();
        self.params.clear();
        self.next.set(NONE);
    }

    /// The names in scope (for a "did you mean").
    pub(super) fn names<'m>(&self, m: &'m Module) -> Vec<&'m str> {
        self.table.iter().map(|&v| m.var_name(v)).collect()
    }
}
