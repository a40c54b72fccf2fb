//! The fast table behind [`super::Names`]: the local variables in scope while a module is
//! read, by name. It earns its lines at N = 1,000,000 (the reference workload): a plain
//! hash table with a log spends 2.9x the parse's time and 12 MB more there, where the
//! table no longer fits in the processor's cache; `hashbrown`'s `HashTable` in its place,
//! which cannot be asked for a slot ahead of a binding, took 1.2x the parse's time there.
//!
//! - **The table**: open addressing with linear probing over variable ids, whose names
//!   live in the module (no keys of its own); beside each slot a byte of the name's hash,
//!   so a probe reads a name only when that byte matches, and a search for a name not
//!   there reads tags only. Its home slot is known from the name alone, so a parser that
//!   has read a name it is about to bind can ask for that line early
//!   ([`Locals::prefetch`]). A log of the bindings, with what each shadowed, undoes them
//!   at the end of their scopes.
//! - **A cache of the latest bindings** by hash in front of it: most mentions are of a
//!   name bound a few statements before; and a guess of the next parameter (a model's
//!   weights are used in their order).
//! - **Pending bindings**: those of a definition's own `let` chain ([`Locals::bind_unlogged`])
//!   are kept as runs of consecutive variables, the latest few also in a window searched
//!   by hash, and go into the table only when a mention finds none of them. A chain
//!   whose mentions are of its last few statements never puts them there.

use crate::expr::{Module, VarId};

pub(crate) struct Locals {
    table: Table,
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
    next: VarId,
    /// Bindings made without an entry in `log` ([`Locals::bind_unlogged`]), and whether
    /// one of them shadowed a variable of the table.
    unlogged: usize,
    unlogged_shadowed: bool,
    /// The unlogged bindings not in the table yet, in order, as runs of consecutive
    /// variables (first, how many): none of their names is in the table.
    pending: Vec<(u32, u32)>,
    /// The latest pending bindings, with the low half of their names' hashes: a ring,
    /// written at `window_at` (mod [`WINDOW`]); emptied when the pending ones go in the
    /// table.
    window: Box<[(u32, VarId); WINDOW]>,
    window_at: usize,
}

/// Slots in the cache of recent bindings.
const RECENT: usize = 1024;

/// The latest pending bindings searched before all of them go into the table: more than
/// the distance back of a model's mentions (a residual connection's, a block's input).
const WINDOW: usize = 64;

impl Default for Locals {
    fn default() -> Self {
        Locals {
            table: Table::default(),
            recent: Box::new([NONE; RECENT]),
            log: Vec::new(),
            shadowed: Vec::new(),
            params: Vec::new(),
            next: NONE,
            unlogged: 0,
            unlogged_shadowed: false,
            pending: Vec::new(),
            window: Box::new([(0, NONE); WINDOW]),
            window_at: 0,
        }
    }
}

/// A set of variables with distinct names, found by name: open addressing, linear
/// probing, a power of two of slots, at most 7/8 of them full.
#[derive(Default)]
struct Table {
    /// By slot, the top byte of its variable's hash, made nonzero; 0 for an empty slot.
    tags: Vec<u8>,
    /// By slot, its variable's id (meaningless where the tag is 0: zero, as allocated, so
    /// the pages of a large table are not written before they are used).
    slots: Vec<u32>,
    /// Full slots.
    len: usize,
}

/// The byte of hash `h` kept beside its slot: never 0, which marks an empty slot.
#[inline]
fn tag(h: u64) -> u8 {
    ((h >> 56) as u8).max(1)
}

impl Table {
    /// The variable in slot `i`.
    #[inline]
    fn var(&self, i: usize) -> VarId {
        VarId(self.slots[i])
    }

    fn mask(&self) -> usize {
        self.tags.len().wrapping_sub(1)
    }

    /// Most variables the table holds before it grows.
    fn limit(&self) -> usize {
        self.tags.len() / 8 * 7
    }

    /// Where the variable named `name` (hash `h`) is: `Ok` its slot, or `Err` the empty
    /// slot that ends its probe (where it would go). The table must have a slot.
    #[inline(always)]
    fn probe(&self, m: &Module, h: u64, name: &[u8]) -> Result<usize, usize> {
        let mask = self.mask();
        let t = tag(h);
        let mut i = h as usize & mask;
        loop {
            let ti = self.tags[i];
            if ti == 0 {
                return Err(i);
            }
            if ti == t && same(m.var_name_bytes(self.var(i)), name) {
                return Ok(i);
            }
            i = (i + 1) & mask;
        }
    }

    /// The slot of the variable named `name` (hash `h`), if there is one.
    #[inline]
    fn find(&self, m: &Module, h: u64, name: &[u8]) -> Option<usize> {
        if self.len == 0 {
            return None;
        }
        self.probe(m, h, name).ok()
    }

    /// Puts `v` (its name `name`, hashed `h`) in the table: the variable of that name it
    /// replaces, if any.
    #[inline]
    fn insert(&mut self, m: &Module, h: u64, name: &[u8], v: VarId) -> Option<VarId> {
        if self.len >= self.limit() {
            self.grow(m, self.len + 1);
        }
        match self.probe(m, h, name) {
            Ok(i) => Some(VarId(std::mem::replace(&mut self.slots[i], v.0))),
            Err(i) => {
                self.tags[i] = tag(h);
                self.slots[i] = v.0;
                self.len += 1;
                None
            }
        }
    }

    /// Empties slot `i`, moving back the variables after it that would no longer be found
    /// past the hole (backward-shift deletion: no tombstones).
    fn remove_at(&mut self, m: &Module, mut i: usize) {
        let mask = self.mask();
        let mut j = i;
        loop {
            j = (j + 1) & mask;
            if self.tags[j] == 0 {
                break;
            }
            let home = hash(m.var_name_bytes(self.var(j))) as usize & mask;
            // The variable at `j` stays if its home is cyclically in `(i, j]`.
            let stays = if i <= j {
                i < home && home <= j
            } else {
                i < home || home <= j
            };
            if !stays {
                self.tags[i] = self.tags[j];
                self.slots[i] = self.slots[j];
                i = j;
            }
        }
        self.tags[i] = 0;
        self.len -= 1;
    }

    /// Room for `n` more variables without growing.
    fn reserve(&mut self, m: &Module, n: usize) {
        let want = self.len.saturating_add(n);
        if want > self.limit() {
            self.grow(m, want);
        }
    }

    /// Rebuilds the table with room for at least `want` variables.
    #[cold]
    fn grow(&mut self, m: &Module, want: usize) {
        let buckets = want
            .checked_mul(8)
            .map(|x| (x / 7).max(16).next_power_of_two())
            .expect("a table of fewer than 2^61 slots");
        let old_tags = std::mem::replace(&mut self.tags, vec![0; buckets]);
        let old_slots = std::mem::replace(&mut self.slots, vec![0; buckets]);
        let mask = buckets - 1;
        for (&t, &v) in old_tags.iter().zip(old_slots.iter()) {
            if t == 0 {
                continue;
            }
            let mut i = hash(m.var_name_bytes(VarId(v))) as usize & mask;
            while self.tags[i] != 0 {
                i = (i + 1) & mask;
            }
            self.tags[i] = t;
            self.slots[i] = v;
        }
    }

    /// Asks the processor for the line of tags of the home slot of hash `h` (a search
    /// for a name not there reads only tags).
    #[inline]
    fn prefetch(&self, h: u64) {
        if let Some(t) = self.tags.get(h as usize & self.mask()) {
            prefetch_line(std::ptr::from_ref(t).cast());
        }
    }

    fn clear(&mut self) {
        if self.len != 0 {
            self.tags.fill(0);
            self.len = 0;
        }
    }

    fn iter(&self) -> impl Iterator<Item = VarId> + '_ {
        self.tags
            .iter()
            .zip(self.slots.iter())
            .filter(|&(&t, _)| t != 0)
            .map(|(_, &v)| VarId(v))
    }
}

/// A hint to bring the line at `p` into the cache.
#[inline(always)]
fn prefetch_line(p: *const i8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint: it reads nothing into the program, never
        // faults (whatever the address), and writes nothing; its one requirement, the
        // `sse` target feature, is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
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
    /// The variable `name` means.
    #[inline]
    pub(crate) fn get(&mut self, m: &Module, name: &(impl AsRef<[u8]> + ?Sized)) -> Option<VarId> {
        let name = name.as_ref();
        let h = hash(name);
        let v = self.recent[slot(h)];
        if v != NONE && same(m.var_name_bytes(v), name) {
            return Some(v);
        }
        // The next parameter, if no binding shadows another (then a bound parameter of
        // that name is the name's binding).
        let p = self.next;
        let bound = |&(first, n, _): &(u32, u32, usize)| p.0 >= first && p.0 - first < n;
        if self.shadowed.is_empty()
            && !self.unlogged_shadowed
            && self.params.iter().rev().any(bound)
            && same(m.var_name_bytes(p), name)
        {
            self.next = VarId(p.0.wrapping_add(1));
            return Some(p);
        }
        if let Some(v) = self.in_window(m, h, name) {
            return Some(v);
        }
        // No pending binding has a name of the table: the table's is the latest.
        let i = match self.table.find(m, h, name) {
            Some(i) => i,
            None if !self.pending.is_empty() => {
                self.flush(m);
                self.table.find(m, h, name)?
            }
            None => return None,
        };
        let v = self.table.var(i);
        self.next = VarId(v.0.wrapping_add(1));
        Some(v)
    }

    /// The latest pending binding of `name` (hash `h`), if the window has it.
    #[inline]
    fn in_window(&self, m: &Module, h: u64, name: &[u8]) -> Option<VarId> {
        let n = self.window_at.min(WINDOW);
        (1..=n)
            .map(|k| self.window[(self.window_at - k) % WINDOW])
            .find(|&(wh, v)| wh == h as u32 && same(m.var_name_bytes(v), name))
            .map(|(_, v)| v)
    }

    /// Puts the pending bindings in the table, in order.
    #[cold]
    fn flush(&mut self, m: &Module) {
        let pending = std::mem::take(&mut self.pending);
        let n: u32 = pending.iter().map(|&(_, n)| n).sum();
        self.table.reserve(m, n as usize);
        for &(first, n) in &pending {
            for v in (first..first + n).map(VarId) {
                let name = m.var_name_bytes(v);
                if self.table.insert(m, hash(name), name, v).is_some() {
                    self.unlogged_shadowed = true;
                }
            }
        }
        self.pending = pending;
        self.pending.clear();
        self.window_at = 0;
    }

    /// Binds a function's parameters, in order.
    ///
    /// Returns each parameter whose name an earlier one of `vars` has, with that one.
    pub(crate) fn bind_params(&mut self, m: &Module, vars: &[VarId]) -> Vec<(VarId, VarId)> {
        let Some(&first) = vars.first() else {
            return Vec::new();
        };
        let consecutive = vars.iter().zip(first.0..).all(|(v, i)| v.0 == i);
        let n = u32::try_from(vars.len()).expect("fewer than 4 billion parameters");
        if consecutive {
            self.params.push((first.0, n, self.log.len()));
        }
        // Room for twice as many: the table is mostly searched for names it does not
        // have (a definition's body binding new ones), which half full is quick to say.
        self.table.reserve(m, vars.len().saturating_mul(2));
        self.log.reserve(vars.len());
        let mut twice = Vec::new();
        for &v in vars {
            let shadows = self.shadowed.len();
            self.bind(m, v);
            if let Some(&(_, prev)) = self.shadowed.get(shadows) {
                if vars.contains(&prev) {
                    twice.push((v, prev));
                }
            }
        }
        twice
    }

    /// Asks for the part of the table where `name` would be bound, ahead of binding it.
    #[inline]
    pub(crate) fn prefetch(&self, name: &[u8]) {
        self.table.prefetch(hash(name));
    }

    /// Binds `v` under its own name, shadowing whatever had it.
    pub(crate) fn bind(&mut self, m: &Module, v: VarId) {
        if !self.pending.is_empty() {
            // The table keeps the bindings' order: the pending ones go in first.
            self.flush(m);
        }
        let name = m.var_name_bytes(v);
        let h = hash(name);
        self.recent[slot(h)] = v;
        if let Some(prev) = self.table.insert(m, h, name, v) {
            let at = u32::try_from(self.log.len()).expect("fewer than 4 billion bindings");
            self.shadowed.push((at, prev));
        }
        self.log.push(v);
    }

    /// Binds `v` for good: until [`Locals::clear`], with no entry in the log, which a
    /// million-binding chain would fill with 4 MB. For the bindings of a definition's
    /// body, made outside every scope that ends before the definition does. Pending (not
    /// in the table) unless its name is in the table already.
    pub(crate) fn bind_unlogged(&mut self, m: &Module, v: VarId) {
        let name = m.var_name_bytes(v);
        let h = hash(name);
        self.recent[slot(h)] = v;
        self.unlogged += 1;
        if self.table.find(m, h, name).is_some() {
            // It shadows a variable of the table: in it, in order.
            self.flush(m);
            self.table.insert(m, h, name, v);
            self.unlogged_shadowed = true;
            return;
        }
        match self.pending.last_mut() {
            Some((first, n)) if first.wrapping_add(*n) == v.0 => *n += 1,
            _ => self.pending.push((v.0, 1)),
        }
        self.window[self.window_at % WINDOW] = (h as u32, v);
        self.window_at += 1;
    }

    /// How many bindings have been made: a mark to undo back to.
    pub(crate) fn mark(&self) -> usize {
        self.log.len()
    }

    /// Undoes the bindings made after `mark`, latest first (not the unlogged ones, made
    /// before it).
    pub(crate) fn unbind_to(&mut self, m: &Module, mark: usize) {
        if mark == 0 && self.unlogged == 0 {
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
            let Some(i) = self.table.find(m, h, name) else {
                continue;
            };
            match prev {
                Some(p) => self.table.slots[i] = p.0,
                None => self.table.remove_at(m, i),
            }
        }
    }

    /// No locals.
    pub(crate) fn clear(&mut self) {
        self.table.clear();
        self.recent.fill(NONE);
        self.log.clear();
        self.shadowed.clear();
        self.params.clear();
        self.next = NONE;
        self.unlogged = 0;
        self.unlogged_shadowed = false;
        self.pending.clear();
        self.window_at = 0;
    }

    /// The names in scope (for a "did you mean").
    pub(crate) fn names<'m>(&mut self, m: &'m Module) -> Vec<&'m str> {
        self.flush(m);
        self.table.iter().map(|v| m.var_name(v)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A small random number generator (xorshift): `rand(n)` is below `n`.
    fn rng(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        }
    }

    /// Random definitions against a map of stacks: each binds its parameters (logged),
    /// then, outside every scope, its body's bindings (unlogged), and in scopes (marks)
    /// bindings undone at their ends; many of a few names (shadowing, long probe runs,
    /// the table growing).
    #[test]
    fn matches_a_map_of_stacks() {
        let mut m = Module::new();
        let mut locals = Locals::default();
        let mut model: HashMap<String, Vec<VarId>> = HashMap::new();
        let mut log: Vec<String> = Vec::new();
        let mut marks: Vec<usize> = Vec::new();
        let mut rand = rng(0x2545_f491_4f6c_dd1d_u64);
        let name = |k: u64| format!("x{k}");
        let check =
            |locals: &mut Locals, m: &Module, model: &HashMap<String, Vec<VarId>>, k: &str| {
                let want = model.get(k).and_then(|s| s.last().copied());
                assert_eq!(locals.get(m, k), want, "{k}");
            };
        // A definition's parameters.
        fn define(
            m: &mut Module,
            locals: &mut Locals,
            model: &mut HashMap<String, Vec<VarId>>,
            log: &mut Vec<String>,
            ks: Vec<String>,
        ) {
            let vs: Vec<VarId> = ks.iter().map(|k| m.var(k, None)).collect();
            locals.bind_params(m, &vs);
            for (k, &v) in ks.into_iter().zip(&vs) {
                model.entry(k.clone()).or_default().push(v);
                log.push(k);
            }
        }
        let ks = (0..3).map(|_| name(rand(3000))).collect();
        define(&mut m, &mut locals, &mut model, &mut log, ks);
        let (mut unlogged, mut zero_marks) = (0, 0);
        for round in 0..100_000 {
            match rand(22) {
                0..=13 => {
                    if marks.is_empty() {
                        marks.push(locals.mark());
                    }
                    let k = name(rand(if round % 2 == 0 { 3000 } else { 40 }));
                    let v = m.var(&k, None);
                    locals.bind(&m, v);
                    model.entry(k.clone()).or_default().push(v);
                    log.push(k);
                }
                14 => marks.push(locals.mark()),
                15 | 16 => match marks.pop() {
                    Some(mark) => {
                        zero_marks += usize::from(mark == 0);
                        locals.unbind_to(&m, mark);
                        while log.len() > mark {
                            let k = log.pop().expect("above the mark");
                            model.get_mut(&k).expect("bound").pop();
                        }
                    }
                    // The definition's end, and the next one's start.
                    None if rand(20) == 0 => {
                        locals.clear();
                        model.clear();
                        log.clear();
                        // Its parameters looked up in their order (the parser's guess of
                        // the next one).
                        let n = rand(6);
                        let ks = (0..n).map(|_| name(rand(3000))).collect();
                        define(&mut m, &mut locals, &mut model, &mut log, ks);
                        for k in &log {
                            check(&mut locals, &m, &model, k);
                        }
                    }
                    None => {}
                },
                19 if marks.is_empty() => {
                    // A definition's chain: a run of bindings (pending, more than the
                    // window holds), names bound again, mentions of the latest ones and
                    // of older ones (from the table, or all pending put in it).
                    let mut run: Vec<String> = Vec::new();
                    for _ in 0..rand(300) {
                        let few = rand(2) == 0;
                        let k = name(rand(if few { 60 } else { 3000 }));
                        let v = m.var(&k, None);
                        locals.bind_unlogged(&m, v);
                        model.entry(k.clone()).or_default().push(v);
                        run.push(k);
                        unlogged += 1;
                        if rand(4) == 0 {
                            let back = rand(run.len() as u64) as usize;
                            check(&mut locals, &m, &model, &run[run.len() - 1 - back]);
                        }
                    }
                }
                20 | 21 if marks.is_empty() => {
                    let k = name(rand(3000));
                    let v = m.var(&k, None);
                    locals.bind_unlogged(&m, v);
                    model.entry(k).or_default().push(v);
                    unlogged += 1;
                }
                _ => check(&mut locals, &m, &model, &name(rand(3000))),
            }
            if round % 100 == 0 {
                let mut names = locals.names(&m);
                names.sort_unstable();
                let mut want: Vec<&str> = model
                    .iter()
                    .filter(|(_, s)| !s.is_empty())
                    .map(|(k, _)| k.as_str())
                    .collect();
                want.sort_unstable();
                assert_eq!(names, want);
                for k in model.keys() {
                    check(&mut locals, &m, &model, k);
                }
            }
        }
        for k in model.keys() {
            check(&mut locals, &m, &model, k);
        }
        assert!(
            unlogged > 300 && zero_marks > 100,
            "{unlogged} unlogged, {zero_marks} marks at 0"
        );
        locals.clear();
        assert!(locals.names(&m).is_empty());
    }

    /// Binds, unlogged, a new name that takes the recent cache's slot of `name`: the
    /// cache then no longer has `name`'s binding.
    fn evict(m: &mut Module, locals: &mut Locals, name: &str) {
        let h = slot(hash(name.as_bytes()));
        let other = (0..)
            .map(|i| format!("z{i}"))
            .find(|k| k != name && slot(hash(k.as_bytes())) == h)
            .expect("a name of that slot");
        let z = m.var(&other, None);
        locals.bind_unlogged(m, z);
    }

    /// A definition's body binds, unlogged, the name of a parameter: the guess of the next
    /// parameter (the one after the last found) must not find the parameter, even when
    /// the cache of recent bindings has lost the new binding.
    #[test]
    fn an_unlogged_binding_hides_the_next_parameter() {
        let mut m = Module::new();
        let mut locals = Locals::default();
        let params: Vec<VarId> = ["w0", "w1", "w2"].iter().map(|k| m.var(k, None)).collect();
        locals.bind_params(&m, &params);
        evict(&mut m, &mut locals, "w0");
        // Found in the table: the guess is now `w1`.
        assert_eq!(locals.get(&m, "w0"), Some(params[0]));
        let w1 = m.var("w1", None);
        locals.bind_unlogged(&m, w1);
        evict(&mut m, &mut locals, "w1");
        assert_eq!(locals.get(&m, "w1"), Some(w1));
    }

    /// The bindings of a chain, pending: the latest of a name is found when the cache of
    /// recent bindings has lost it, within the window and beyond it (all pending go into
    /// the table then, in order), and after it.
    #[test]
    fn pending_bindings_are_found_latest_first() {
        let mut m = Module::new();
        let mut locals = Locals::default();
        let params: Vec<VarId> = ["w0", "w1"].iter().map(|k| m.var(k, None)).collect();
        locals.bind_params(&m, &params);
        let bind = |m: &mut Module, locals: &mut Locals, k: &str| {
            let v = m.var(k, None);
            locals.bind_unlogged(m, v);
            v
        };
        // In the window.
        let _a0 = bind(&mut m, &mut locals, "a");
        let a1 = bind(&mut m, &mut locals, "a");
        evict(&mut m, &mut locals, "a");
        assert_eq!(locals.get(&m, "a"), Some(a1));
        assert!(locals.pending.len() == 1 && locals.window_at == 3);
        // Beyond it: all pending go into the table.
        let b1 = bind(&mut m, &mut locals, "b");
        for i in 0..WINDOW {
            bind(&mut m, &mut locals, &format!("c{i}"));
        }
        evict(&mut m, &mut locals, "b");
        assert_eq!(locals.get(&m, "b"), Some(b1));
        assert!(locals.pending.is_empty() && locals.window_at == 0);
        assert_eq!(locals.get(&m, "a"), Some(a1));
        // A binding of a name of the table goes in at once, and the parameters' guess is
        // off from then on.
        let w1 = bind(&mut m, &mut locals, "w1");
        assert_eq!(locals.get(&m, "w0"), Some(params[0]));
        assert_eq!(locals.get(&m, "w1"), Some(w1));
        assert!(locals.unlogged_shadowed);
        assert_eq!(locals.get(&m, "nowhere"), None);
    }

    /// The table alone, its variables removed in any order (the parser's are removed
    /// latest first, which rarely moves any).
    #[test]
    fn table_removes_in_any_order() {
        let mut m = Module::new();
        let mut t = Table::default();
        let mut rand = rng(0x9e37_79b9_7f4a_7c15_u64);
        let mut vars: HashMap<String, VarId> = HashMap::new();
        for round in 0..100_000 {
            let k = format!("y{}", rand(2000));
            let h = hash(k.as_bytes());
            if rand(2) == 0 {
                let v = m.var(&k, None);
                assert_eq!(t.insert(&m, h, k.as_bytes(), v), vars.insert(k, v));
            } else {
                let want = vars.remove(&k);
                let i = t.find(&m, h, k.as_bytes());
                assert_eq!(i.map(|i| t.var(i)), want);
                if let Some(i) = i {
                    t.remove_at(&m, i);
                }
            }
            assert_eq!(t.len, vars.len());
            if round % 500 == 0 {
                for (k, &v) in &vars {
                    let i = t.find(&m, hash(k.as_bytes()), k.as_bytes());
                    assert_eq!(i.map(|i| t.var(i)), Some(v), "{k}");
                }
            }
        }
    }
}
