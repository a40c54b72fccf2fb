//! What diagnostics are made of besides a message: secondary [`Label`]s, "did you mean"
//! suggestions ([`did_you_mean`]) and stable names for the unknowns a message mentions
//! ([`stable_var_names`]).
//!
//! Everything here runs only when an error is reported, never on the success path.

use crate::expr::Span;

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

/// The candidate closest to `name`, if one is close enough to be a likely typo: within a
/// third of the name's length (at least 1), ties to the smallest name. A candidate equal to `name`
/// is not a suggestion.
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
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        // Far longer or shorter names cannot be close: skip them before counting.
        if c == name || c.len().abs_diff(name.len()) > limit {
            continue;
        }
        let d = edit_distance(name, c);
        // Ties go to the smallest name, so that the order of `candidates` (a hash
        // table's, say) does not matter.
        if d <= limit && best.is_none_or(|(bd, bc)| (d, c) < (bd, bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
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
