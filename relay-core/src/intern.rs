//! Hash-consing: one table per kind of term, so that equal terms are equal ids.
//!
//! Each table stores a value once, in a `Vec`, and finds it again through a
//! `hashbrown::HashTable` of indices, so lookups hash the value but never
//! clone it.

use hashbrown::HashTable;
use std::hash::{BuildHasher, Hash, Hasher as _};

type Hasher = rustc_hash::FxBuildHasher;

/// A table of interned values of type `T`, addressed by `u32` indices.
pub(crate) struct Interner<T> {
    values: Vec<T>,
    table: HashTable<u32>,
}

impl<T: Hash + Eq> Interner<T> {
    pub(crate) fn new() -> Self {
        Interner {
            values: Vec::new(),
            table: HashTable::new(),
        }
    }

    /// The index of `value`, adding it if it is new.
    pub(crate) fn intern(&mut self, value: T) -> u32 {
        let hash = Hasher::default().hash_one(&value);
        let values = &self.values;
        if let Some(&index) = self.table.find(hash, |&i| values[i as usize] == value) {
            return index;
        }
        let index = u32::try_from(self.values.len()).expect("more than 4 billion interned terms");
        self.values.push(value);
        let values = &self.values;
        self.table.insert_unique(hash, index, |&i| {
            Hasher::default().hash_one(&values[i as usize])
        });
        index
    }

    /// The index of the value that `eq` recognizes, hashed by `hash` (which must be the
    /// value's own `Hash`), making it with `make` only if it is new: lookups of existing
    /// values allocate nothing.
    pub(crate) fn intern_with(
        &mut self,
        hash: u64,
        eq: impl Fn(&T) -> bool,
        make: impl FnOnce() -> T,
    ) -> u32 {
        let values = &self.values;
        if let Some(&index) = self.table.find(hash, |&i| eq(&values[i as usize])) {
            return index;
        }
        let index = u32::try_from(self.values.len()).expect("more than 4 billion interned terms");
        self.values.push(make());
        let values = &self.values;
        self.table.insert_unique(hash, index, |&i| {
            Hasher::default().hash_one(&values[i as usize])
        });
        index
    }

    /// Adds a value that is known to be new and that is never looked up by value (a
    /// fresh variable): it gets an index but no hash-table entry.
    pub(crate) fn push_unique(&mut self, value: T) -> u32 {
        let index = u32::try_from(self.values.len()).expect("more than 4 billion interned terms");
        self.values.push(value);
        index
    }

    /// Makes room for `n` more values.
    pub(crate) fn reserve(&mut self, n: usize) {
        self.values.reserve(n);
    }

    #[inline]
    pub(crate) fn get(&self, index: u32) -> &T {
        &self.values[index as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }
}

/// The hash `Interner` uses, computed by feeding a hasher (to hash a borrowed form of a
/// value exactly as the value's own `Hash` would).
pub(crate) fn hash_with(feed: impl FnOnce(&mut rustc_hash::FxHasher)) -> u64 {
    let mut h = Hasher::default().build_hasher();
    feed(&mut h);
    h.finish()
}
