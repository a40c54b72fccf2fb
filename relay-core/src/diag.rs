//! What diagnostics are made of besides a message: secondary [`Label`]s, "did you mean"
//! suggestions ([`did_you_mean`]) and stable names for the unknowns a message mentions
//! ([`stable_var_names`]).
//!
//! Everything here runs only when an error is reported, never on the success path.

/// A byte range of the source text something was read from: an expression, a token, the
/// place of a diagnostic (empty when built in Rust).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    /// The first byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
}

/// A secondary label: a span that explains the error, with what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The bytes it points at.
    pub span: Span,
    /// What they have to do with the error.
    pub message: String,
}

impl Label {
    /// A label at `span`.
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        Label {
            span,
            message: message.into(),
        }
    }
}

/// The Levenshtein distance between `a` and `b` (by characters).
///
/// ```
/// use relay_core::diag::edit_distance;
/// assert_eq!(edit_distance("stride", "strides"), 1);
/// assert_eq!(edit_distance("kitten", "sitting"), 3);
/// ```
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The most cells of distance tables one suggestion fills: past them, the closest of
/// the candidates seen is the suggestion. A name of a few characters is compared with
/// thousands of candidates within it; a file of ten thousand unknown names among ten
/// thousand in scope costs ten thousand times this, not ten thousand squared.
pub const SUGGESTION_WORK: usize = 1 << 18;

/// The candidate closest to `name`, if one is close enough to be a likely typo: within a
/// third of the name's length (at least 1), ties to the smallest name. A candidate equal to `name`
/// is not a suggestion. Only as many candidates as [`SUGGESTION_WORK`] allows are
/// compared, each within the band of the distance that could still win.
///
/// ```
/// use relay_core::diag::did_you_mean;
/// assert_eq!(did_you_mean("stride", ["pool_size", "strides", "padding"]), Some("strides"));
/// assert_eq!(did_you_mean("x", ["y"]), Some("y"));
/// assert_eq!(did_you_mean("conv", ["dense", "softmax"]), None);
/// ```
pub fn did_you_mean<'c>(
    name: &str,
    candidates: impl IntoIterator<Item = &'c str>,
) -> Option<&'c str> {
    let a: Vec<char> = name.chars().collect();
    let limit = (a.len() / 3).max(1);
    // Far longer or shorter names cannot be close: skipped before counting.
    let near: Vec<&str> = candidates
        .into_iter()
        .filter(|&c| c != name && c.len().abs_diff(name.len()) <= limit)
        .collect();
    let mut work = 0;
    let mut b = Vec::new();
    // Ties go to the smallest name, so that the order of `candidates` (a hash table's,
    // say) does not matter.
    let mut best: Option<(usize, &str)> = None;
    let consider = |best: &mut Option<(usize, &'c str)>, d: usize, c: &'c str| {
        if best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            *best = Some((d, c));
        }
    };
    // A typo is most often one edit: a scan of each candidate to its second difference.
    for &c in &near {
        if work >= SUGGESTION_WORK {
            break;
        }
        b.clear();
        b.extend(c.chars());
        if one_edit_apart(&a, &b, &mut work) {
            consider(&mut best, 1, c);
        }
    }
    if best.is_some() || limit == 1 {
        return best.map(|(_, c)| c);
    }
    // Else the distance, within the band of what could still win.
    let mut rows = (Vec::new(), Vec::new());
    for &c in &near {
        if work >= SUGGESTION_WORK {
            break;
        }
        b.clear();
        b.extend(c.chars());
        let within = best.map_or(limit, |(d, _)| d);
        if let Some(d) = distance_within(&a, &b, within, &mut rows, &mut work) {
            consider(&mut best, d, c);
        }
    }
    best.map(|(_, c)| c)
}

/// Whether `a` and `b` (not equal) are one edit apart: a character replaced, inserted
/// or deleted. `work` counts the characters compared.
fn one_edit_apart(a: &[char], b: &[char], work: &mut usize) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if long.len() - short.len() > 1 {
        return false;
    }
    let same = short.iter().zip(long).take_while(|(x, y)| x == y).count();
    *work += same + 1;
    let (rest_short, rest_long) = if short.len() == long.len() {
        (
            &short[(same + 1).min(short.len())..],
            &long[(same + 1).min(long.len())..],
        )
    } else {
        (&short[same..], &long[same + 1..])
    };
    *work += rest_short.len();
    rest_short == rest_long
}

/// The edit distance between `a` and `b` if it is at most `k`: only the band of cells
/// within `k` of the diagonal is filled (`work` counts them), and the search stops when
/// a whole row of the band is above `k`.
fn distance_within(
    a: &[char],
    b: &[char],
    k: usize,
    (prev, cur): &mut (Vec<usize>, Vec<usize>),
    work: &mut usize,
) -> Option<usize> {
    let (m, n) = (a.len(), b.len());
    if m.abs_diff(n) > k {
        return None;
    }
    const FAR: usize = usize::MAX / 2;
    prev.clear();
    prev.resize(n + 1, FAR);
    for (j, p) in prev.iter_mut().enumerate().take(k.min(n) + 1) {
        *p = j;
    }
    cur.clear();
    cur.resize(n + 1, FAR);
    for i in 1..=m {
        let lo = i.saturating_sub(k).max(1);
        let hi = (i + k).min(n);
        cur[lo - 1] = if lo == 1 && i <= k { i } else { FAR };
        let mut least = cur[lo - 1];
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let v = (prev[j - 1] + cost).min(prev[j] + 1).min(cur[j - 1] + 1);
            cur[j] = v;
            least = least.min(v);
        }
        if hi < n {
            cur[hi + 1] = FAR;
        }
        *work += hi + 1 - lo.min(hi + 1);
        if least > k {
            return None;
        }
        std::mem::swap(prev, cur);
    }
    (prev[n] <= k).then_some(prev[n])
}

/// Renames the unknowns printed in `texts` (`'t178`, `'s3`, `'d7`, `'b2`: the solver's
/// numbers, which change whenever anything else is checked first) to `'a`, `'b`, ... in
/// order of first appearance across `texts`, the same unknown getting the same name
/// throughout.
///
/// ```
/// use relay_core::diag::stable_var_names;
/// let mut m = "`fn ('t178) -> 't12` vs `'t178`".to_string();
/// let mut n = "from `'t12`".to_string();
/// stable_var_names(&mut [&mut m, &mut n]);
/// assert_eq!(m, "`fn ('a) -> 'b` vs `'a`");
/// assert_eq!(n, "from `'b`");
/// ```
pub fn stable_var_names(texts: &mut [&mut String]) {
    let mut owned: Vec<String> = Vec::new();
    for text in texts.iter_mut() {
        if !text.contains('\'') {
            continue;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(at) = rest.find('\'') {
            out.push_str(&rest[..at]);
            let tail = &rest[at + 1..];
            let b = tail.as_bytes();
            let digits = b.iter().skip(1).take_while(|c| c.is_ascii_digit()).count();
            let is_var = matches!(b.first(), Some(b't' | b's' | b'd' | b'b'))
                && digits > 0
                && !b
                    .get(1 + digits)
                    .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_');
            if !is_var {
                out.push('\'');
                rest = tail;
                continue;
            }
            let var = &tail[..1 + digits];
            let k = match owned.iter().position(|o| o == var) {
                Some(k) => k,
                None => {
                    owned.push(var.to_string());
                    owned.len() - 1
                }
            };
            out.push('\'');
            out.push_str(&var_name(k));
            rest = &tail[1 + digits..];
        }
        out.push_str(rest);
        **text = out;
    }
}

/// `a`, ..., `z`, `a1`, ..., `z1`, `a2`, ...: the `k`-th stable name.
fn var_name(k: usize) -> String {
    let letter = char::from(b'a' + (k % 26) as u8);
    match k / 26 {
        0 => letter.to_string(),
        n => format!("{letter}{n}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_past_z_get_a_number() {
        assert_eq!(var_name(0), "a");
        assert_eq!(var_name(25), "z");
        assert_eq!(var_name(26), "a1");
    }

    #[test]
    fn only_numbered_unknowns_are_renamed() {
        let mut s = "`'t1`, 'x, 'b, 's2x, `'d40` and `'t1`".to_string();
        stable_var_names(&mut [&mut s]);
        assert_eq!(s, "`'a`, 'x, 'b, 's2x, `'b` and `'a`");
    }

    #[test]
    fn no_suggestion_far_away_or_for_the_same_name() {
        assert_eq!(did_you_mean("map", ["map"]), None);
        assert_eq!(did_you_mean("mapp", ["map", "zip"]), Some("map"));
        assert_eq!(did_you_mean("reshape", ["transpose"]), None);
    }
}
