//! Hash-consing: one table per kind of term, so that equal terms are equal ids.
//!
//! Each table stores a value once, in a `Vec`, and finds it again through a
//! `hashbrown::HashTable` of indices, so lookups hash the value but never
//! clone it.

use hashbrown::HashTable;
use std::hash::{BuildHasher, Hash};

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

    #[inline]
    pub(crate) fn get(&self, index: u32) -> &T {
        &self.values[index as usize]
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }
}
