//! A graph's values by name: the slot of each name, in a table of 8-byte entries (the
//! slot and 32 bits of the name's hash), so that a probe compares names only when their
//! hashes agree, and the table of a 100,000-node model stays a few megabytes.

use hashbrown::HashTable;
use std::hash::BuildHasher;

#[derive(Default)]
pub(super) struct NameTable {
    table: HashTable<(u32, u32)>,
}

/// 32 bits of `name`'s hash.
fn hash32(name: &[u8]) -> u32 {
    (rustc_hash::FxBuildHasher.hash_one(name) >> 32) as u32
}

/// The table's hash of an entry's 32 bits (spread over 64, as the table takes its
/// position from the low bits and its tag from the high ones).
fn spread(h: u32) -> u64 {
    u64::from(h).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl NameTable {
    /// Room for `n` more names.
    pub(super) fn reserve(&mut self, n: usize) {
        self.table.reserve(n, |&(h, _)| spread(h));
    }

    /// The slot of `name`, where `names` are the slots' names.
    pub(super) fn get(&self, name: &[u8], names: &[&[u8]]) -> Option<usize> {
        let h = hash32(name);
        self.table
            .find(spread(h), |&(eh, id)| eh == h && names[id as usize] == name)
            .map(|&(_, id)| id as usize)
    }

    /// Records slot `id` for `name` unless the name has one (the first value of a name is
    /// the one its users mean).
    pub(super) fn insert_first(&mut self, name: &[u8], id: usize, names: &[&[u8]]) {
        let h = hash32(name);
        let found = self
            .table
            .find(spread(h), |&(eh, e)| eh == h && names[e as usize] == name);
        if found.is_none() {
            let id = u32::try_from(id).expect("the checker's slots are counted in u32");
            self.table
                .insert_unique(spread(h), (h, id), |&(eh, _)| spread(eh));
        }
    }
}
