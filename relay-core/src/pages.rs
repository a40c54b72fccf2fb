//! How the memory of a large module comes from the system: pages made ready ahead of
//! the writes, and huge pages for the large tables.
//!
//! A check of a large program writes tens of megabytes into memory it has just asked
//! for, whose pages the system maps at their first write: a page fault each, about 3,700
//! of them at 100,000 operators, a fifth of the time of a fresh process. Asked to map a
//! run of pages at once (`MADV_POPULATE_WRITE`, Linux 5.14 on), the system spends half as
//! much a page. So a growing arena has its next 64 KiB made ready when its writes reach
//! them ([`Ahead`]): a chunk at a time, so that the pages are still in the processor's
//! cache when they are written (made ready all at once, the arenas of a million
//! operators would be zeroed long before their writes, and cost more than the faults).
//! A table filled at once is made ready as it is filled, one written at random places
//! all at once.
//!
//! The parser's table of locals is probed at random places: every binding of a chain
//! searches it. At a million operators it is 10 MB, 2,560 pages of 4 KiB, and nearly
//! every such search misses the TLB. Linux
//! backs a range advised `MADV_HUGEPAGE` with 2 MiB pages when its transparent huge pages
//! are set to `madvise` or `always`, as by default: the table is then five pages. So the
//! fixed-size tables of a run (that table, and inference's types by expression and by
//! variable) are allocated so that their whole huge pages can be advised.
//!
//! A table of a megabyte or more is asked for in whole huge pages. glibc maps a request
//! that large by itself, with its 16-byte header in front, and Linux aligns an anonymous
//! mapping of whole huge pages to a huge page; so the table starts 16 bytes past a huge
//! page's start. Only such a mapping is advised, up to the last huge page wholly within
//! the table. The header has already been written, which makes the first huge page's
//! range an ordinary one, so that range is collapsed into a huge page at once
//! (`MADV_COLLAPSE`).
//!
//! All of it is advice, for memory glibc has mapped by itself (fresh from the system):
//! with another allocator, system or setting, or memory that glibc serves from its heap
//! (reused, its pages mapped already), the vectors are ordinary ones. (The arenas of
//! the module, which grow as they are written, gain from huge pages at 100,000 operators
//! but not at a million: there the kernel's zeroing of 2 MiB ahead of the writes costs
//! what the page faults saved.)

/// A huge page (x86-64 and aarch64 with 4 KiB base pages).
const HUGE: usize = 2 << 20;
/// Below this, a table is not worth a huge page.
const MIN: usize = 1 << 20;
/// glibc's header in front of a chunk it maps by itself.
const HEADER: usize = 16;
/// What a request leaves of whole huge pages for glibc's header and rounding.
const SLACK: usize = 64;

/// The bytes a growing arena has made ready at a time.
const CHUNK: usize = 64 << 10;

/// How far a growing vector's pages have been made ready: an index. (Of that vector's
/// memory: a copy of the vector starts again from 0.)
#[derive(Default)]
pub(crate) struct Ahead(usize);

impl Clone for Ahead {
    fn clone(&self) -> Self {
        Ahead(0)
    }
}

impl Ahead {
    /// Before `n` more items are written to `v`: makes the next chunk of its spare
    /// capacity ready when the writes reach it.
    #[inline(always)]
    pub(crate) fn before<T>(&mut self, v: &Vec<T>, n: usize) {
        if v.len() + n > self.0 {
            self.0 = next(
                v.as_ptr() as usize,
                v.len(),
                v.capacity(),
                size_of::<T>(),
                n,
            );
        }
    }

    /// [`Ahead::before`] for text.
    #[inline(always)]
    pub(crate) fn before_text(&mut self, s: &String, n: usize) {
        if s.len() + n > self.0 {
            self.0 = next(s.as_ptr() as usize, s.len(), s.capacity(), 1, n);
        }
    }
}

/// The index of a vector (at `start`, `len` items of `size` bytes, room for `cap`) up to
/// which its pages are ready, once the next chunk is made ready for `n` more items.
#[cold]
fn next(start: usize, len: usize, cap: usize, size: usize, n: usize) -> usize {
    let spare = cap - len;
    if spare < n {
        // It grows at this write: again after that.
        return len;
    }
    if !own_mapping(start) || size == 0 {
        // Pages already mapped, or not ours to tell: again if it grows.
        return cap;
    }
    let items = (CHUNK / size).max(n).min(spare);
    populate(start + len * size, items * size);
    len + items
}

/// Whether `start`, an allocation's address, is that of a chunk glibc mapped by itself:
/// its header starts a page.
fn own_mapping(start: usize) -> bool {
    start % 4096 == HEADER
}

/// Has the system map the pages of `start..start + bytes`, within an allocation, now.
#[cfg(target_os = "linux")]
fn populate(start: usize, bytes: usize) {
    let lo = start & !4095;
    let hi = (start + bytes) & !4095;
    if hi > lo {
        // SAFETY: `lo..hi` lies within the allocation's mapping (from the page that
        // holds `start` to the last whole page of the range). Making pages ready changes
        // nothing the program sees: an anonymous page reads as zeros either way, and a
        // page already mapped is left as it is. A failure (a kernel before 5.14) leaves
        // the pages to be mapped at their first write, so it is ignored.
        unsafe { libc::madvise(lo as *mut libc::c_void, hi - lo, libc::MADV_POPULATE_WRITE) };
    }
}

#[cfg(not(target_os = "linux"))]
fn populate(_: usize, _: usize) {}

impl std::fmt::Debug for Ahead {
    /// Nothing: how far pages are ready depends on the allocator, not on the module.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Ahead")
    }
}

/// `vec![x; n]`, its whole huge pages advised, its pages made ready as it is filled.
pub(crate) fn filled<T: Clone>(n: usize, x: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::new();
    let size = size_of::<T>();
    let bytes = n.saturating_mul(size);
    match whole_pages(bytes) {
        Some(cap) => {
            v.reserve_exact(cap / size);
            advise(v.as_ptr().cast(), bytes);
        }
        None => v.reserve_exact(n),
    }
    let mut ahead = Ahead::default();
    let step = (CHUNK / size.max(1)).max(1);
    while v.len() < n {
        let k = step.min(n - v.len());
        ahead.before(&v, k);
        v.resize(v.len() + k, x.clone());
    }
    v
}

/// `n` zeros, for a table written at random places: its whole huge pages advised, and
/// all its pages made ready at once. The allocation is zeroed by the allocator: a fresh
/// mapping is not written.
pub(crate) fn zeroed<T: Clone + Default>(n: usize) -> Vec<T> {
    let bytes = n.saturating_mul(size_of::<T>());
    // (`vec!` of a zero integer asks the allocator for zeroed memory: `calloc`.)
    let v = match whole_pages(bytes) {
        None => vec![T::default(); n],
        Some(cap) => {
            let mut v = vec![T::default(); cap / size_of::<T>()];
            v.truncate(n);
            advise(v.as_ptr().cast(), bytes);
            v
        }
    };
    if own_mapping(v.as_ptr() as usize) {
        populate(v.as_ptr() as usize, bytes);
    }
    v
}

/// The bytes to ask for, for `bytes`, in whole huge pages less [`SLACK`]; `None` below
/// [`MIN`] (or for a size too large to round).
fn whole_pages(bytes: usize) -> Option<usize> {
    if bytes < MIN {
        return None;
    }
    let pages = bytes.checked_add(SLACK)?.div_ceil(HUGE);
    Some(pages.checked_mul(HUGE)? - SLACK)
}

/// Advises the huge pages wholly within the `bytes` from `start`, counted from the start
/// of the mapping, if it is one of glibc's own mappings aligned to a huge page.
#[cfg(target_os = "linux")]
fn advise(start: *const u8, bytes: usize) {
    let start = start as usize;
    if start % HUGE != HEADER {
        return;
    }
    let base = start - HEADER;
    let end = (start + bytes) / HUGE * HUGE;
    if end <= base {
        return;
    }
    // SAFETY: `base..end` lies within the mapping of the vector's allocation (from its
    // header to the end of its last whole huge page). Neither advice changes what the
    // memory holds: `MADV_HUGEPAGE` only lets later faults map huge pages, and
    // `MADV_COLLAPSE` copies the range's pages into one. A failure (an older kernel, huge
    // pages disabled or none free) leaves ordinary pages, so it is ignored.
    unsafe {
        let at = base as *mut libc::c_void;
        libc::madvise(at, end - base, libc::MADV_HUGEPAGE);
        libc::madvise(at, HUGE, libc::MADV_COLLAPSE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise(_: *const u8, _: usize) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_pages_leave_room_for_the_header() {
        assert_eq!(whole_pages(MIN - 1), None);
        assert_eq!(whole_pages(MIN), Some(HUGE - SLACK));
        assert_eq!(whole_pages(HUGE - SLACK), Some(HUGE - SLACK));
        assert_eq!(whole_pages(HUGE - SLACK + 1), Some(2 * HUGE - SLACK));
        assert_eq!(whole_pages(usize::MAX), None);
    }

    /// A vector written through [`Ahead`] grows and holds what was written, whether its
    /// memory is glibc's own mapping or its heap's.
    #[test]
    fn vectors_made_ready_ahead_are_ordinary_vectors() {
        for first in [0, 10, 1 << 20] {
            let mut v: Vec<u32> = Vec::with_capacity(first);
            let mut a = Ahead::default();
            for i in 0..300_000u32 {
                a.before(&v, 1);
                v.push(i);
            }
            assert!(v.iter().enumerate().all(|(i, &x)| x as usize == i));
        }
        // A copy's vector is another allocation: nothing of it is ready.
        assert_eq!(Ahead(CHUNK).clone().0, 0);
    }

    /// The pages of glibc's own mapping (a request above its largest threshold, 32 MiB)
    /// are made ready a chunk ahead of the writes.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    #[test]
    fn the_next_chunk_is_made_ready() {
        let v: Vec<u8> = Vec::with_capacity(40 << 20);
        let start = v.as_ptr() as usize;
        assert!(own_mapping(start), "{start:#x}");
        let resident = || {
            let mut pages = [0u8; 32];
            // SAFETY: the range is the vector's first 32 pages, within its allocation;
            // `mincore` only reports on them, into `pages`, one byte a page.
            let r = unsafe {
                libc::mincore(
                    (start & !4095) as *mut libc::c_void,
                    32 * 4096,
                    pages.as_mut_ptr(),
                )
            };
            assert_eq!(r, 0);
            pages.iter().filter(|&&p| p & 1 != 0).count()
        };
        // glibc's header is written: its page only.
        assert_eq!(resident(), 1);
        let mut a = Ahead::default();
        a.before(&v, 1);
        assert_eq!(a.0, CHUNK);
        // From the page of the header (already one of them) to the chunk's end.
        assert_eq!(resident(), CHUNK / 4096);
    }

    #[test]
    fn the_tables_are_ordinary_vectors() {
        for n in [0, 5, 1 << 18, (3 << 20) / 4 + 1] {
            let v: Vec<u32> = filled(n, 7);
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x == 7));
            let z: Vec<u32> = zeroed(n);
            assert_eq!(z.len(), n);
            assert!(z.iter().all(|&x| x == 0));
        }
    }
}
