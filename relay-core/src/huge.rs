//! Large tables on transparent huge pages.
//!
//! The parser's table of locals is probed at random places. At a million operators it is
//! 10 MB, 2,560 pages of 4 KiB, and nearly every binding's probe misses the TLB. Linux
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
//! All of it is advice: with another allocator, system or setting, or a table that glibc
//! serves from its heap (memory it reuses), the vectors are ordinary ones. (The arenas of
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

/// `vec![x; n]`, its whole huge pages advised.
pub(crate) fn filled<T: Clone>(n: usize, x: T) -> Vec<T> {
    let mut v: Vec<T> = Vec::new();
    let bytes = n.saturating_mul(size_of::<T>());
    match whole_pages(bytes) {
        Some(cap) => {
            v.reserve_exact(cap / size_of::<T>());
            advise(v.as_ptr().cast(), bytes);
        }
        None => v.reserve_exact(n),
    }
    v.resize(n, x);
    v
}

/// `n` zeros, its whole huge pages advised. The allocation is zeroed by the allocator:
/// a fresh mapping is not written, so a page is first touched where the table is.
pub(crate) fn zeroed<T: Clone + Default>(n: usize) -> Vec<T> {
    let bytes = n.saturating_mul(size_of::<T>());
    let Some(cap) = whole_pages(bytes) else {
        return vec![T::default(); n];
    };
    // (`vec!` of a zero integer asks the allocator for zeroed memory: `calloc`.)
    let mut v = vec![T::default(); cap / size_of::<T>()];
    v.truncate(n);
    advise(v.as_ptr().cast(), bytes);
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
