//! Relay's text syntax: [`parse_module`] reads modules (TVM's text format 0.0.5, with
//! the extensions of the type syntax below), [`parse_type`] reads types.
//!
//! [`parse_type`] reads the type syntax that [`crate::TyCtx::show`] prints, with the
//! extensions of our text format: named symbolic dimensions and arithmetic in shapes
//! (`Tensor[(n, 2*m + 1), float32]`), kinded type parameters on function types
//! (`fn [A, s: Shape](Tensor[s, float32], A) -> A`), `ref(T)`, type calls (`List[A]`).
//!
//! A lowercase name in a dimension that the scope does not know is a new rigid symbol,
//! recorded in the scope so that the same name means the same symbol afterwards (the
//! implicit binding of TVM's size variables). Kinds are checked: a parameter of kind
//! `Type` written as a shape is an error that names it and its kind.
//!
//! ```
//! use relay_core::text::{parse_type, TypeScope};
//! use relay_core::TyCtx;
//! let mut tcx = TyCtx::new();
//! let mut scope = TypeScope::new();
//! let t = parse_type(&mut tcx, &mut scope, "fn [A](Tensor[(n, 2*3*n), float32], A) -> (A,)").unwrap();
//! assert_eq!(tcx.show(t), "fn [A](Tensor[(n, 6*n), float32], A) -> (A,)");
//! let err = parse_type(&mut tcx, &mut scope, "fn [t](Tensor[t, float32]) -> t").unwrap_err();
//! assert_eq!(err.message, "`t` has kind `Type` but is used where a `Shape` is expected");
//! ```

mod parser;
mod printer;

pub use crate::lexer::{LexError, Lexer, Tok, Token};
pub use parser::{
    parse_joined, parse_joined_recovering, parse_module, parse_sources, parse_sources_recovering,
    ParseError, Recovered,
};
pub use printer::print_module;

pub use crate::ty::{parse_type, Binding, TypeParseError, TypeScope, MAX_NESTING};

/// Pushes `items` onto `stack`, a printer's pieces still to print (the last one pushed
/// prints first), each as `piece(item)` and separated by `sep()`, so that they print in
/// order: how the printers write a list without recursion.
pub(crate) fn push_separated<'a, T, P>(
    stack: &mut Vec<P>,
    items: &'a [T],
    piece: impl Fn(&'a T) -> P,
    sep: impl Fn() -> P,
) {
    for (i, item) in items.iter().enumerate().rev() {
        stack.push(piece(item));
        if i > 0 {
            stack.push(sep());
        }
    }
}

/// The span of attribute `name = value` among the attributes of the call at `call` in
/// `src`, if it is written there: how a diagnostic about an attribute
/// ([`crate::infer::TypeError::attr`]) is narrowed from the whole call to the attribute.
/// The attributes of the call itself are the ones directly inside its outermost
/// parentheses, so an attribute of the same name in a nested call is not taken.
///
/// ```
/// use relay_core::expr::Span;
/// use relay_core::text::attribute_span;
/// let src = "f(g(%x, axis=1), axis=[2, 3])";
/// let call = Span { lo: 0, hi: src.len() as u32 };
/// let s = attribute_span(src, call, "axis").unwrap();
/// assert_eq!(&src[s.lo as usize..s.hi as usize], "axis=[2, 3]");
/// assert_eq!(attribute_span(src, call, "axes"), None);
/// ```
pub fn attribute_span(src: &str, call: crate::expr::Span, name: &str) -> Option<crate::expr::Span> {
    let end = (call.hi as usize).min(src.len());
    let mut lex = Lexer::new(&src[..end]);
    lex.seek((call.lo as usize).min(end));
    let mut depth = 0usize;
    let mut found = None;
    // The previous token, and the start of the attribute whose value is being read.
    let mut prev: Option<Token> = None;
    let mut open: Option<(u32, usize)> = None;
    loop {
        let t = lex.next_token().ok()?;
        match t.kind {
            Tok::Eof => break,
            Tok::LParen | Tok::LBracket | Tok::LBrace => depth += 1,
            Tok::RParen | Tok::RBracket | Tok::RBrace => depth = depth.saturating_sub(1),
            Tok::Eq => {
                if let Some(p) = prev.filter(|p| {
                    depth == 1 && p.kind == Tok::Ident && &src[p.lo as usize..p.hi as usize] == name
                }) {
                    open = Some((p.lo, depth));
                }
            }
            _ => {}
        }
        // The value ends before a `,` or `)` at the call's own depth.
        if let Some((lo, d)) = open {
            let closes = match t.kind {
                Tok::Comma => depth == d,
                Tok::RParen => depth < d,
                _ => false,
            };
            if closes {
                let hi = prev.map_or(lo, |p| p.hi);
                found = Some(crate::expr::Span { lo, hi });
                open = None;
            }
        }
        prev = Some(t);
    }
    found
}

/// The type TVM printed in the first `/* .. ty=T .. */` comment that starts in
/// `text[lo..hi]`: where `T` starts, and its text (trailing blanks excluded). How a
/// printed module's `meta[relay.Constant][N] /* ty=T */` and its bindings' types are read.
///
/// ```
/// use relay_core::text::printed_type;
/// let src = "%0 = nn.relu(%x) /* ty=Tensor[(2), float32] */;";
/// let (at, ty) = printed_type(src, 16, src.len()).unwrap();
/// assert_eq!((at, ty), (23, "Tensor[(2), float32]"));
/// assert_eq!(printed_type(src, 0, 16), None);
/// ```
pub fn printed_type(text: &str, lo: usize, hi: usize) -> Option<(usize, &str)> {
    let open = lo + text.get(lo..hi.min(text.len()))?.find("/*")?;
    let inner_lo = open + 2;
    let inner = &text[inner_lo..];
    let comment = &inner[..inner.find("*/")?];
    let at = comment.find("ty=")?;
    Some((inner_lo + at + 3, comment[at + 3..].trim_end()))
}
