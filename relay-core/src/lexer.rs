//! The lexer of the text format: bytes in, tokens out, one at a time.
//!
//! A token is a kind and a byte span; names and literals are slices of the source, so
//! lexing allocates nothing. Whitespace and comments (`// ...`, `/* ... */`, and the
//! spec's `# ...` when `#` is not followed by `[`) are skipped.

use crate::diag::Span;

/// What a token is (a punctuation token is named for its text: `LParen` is `(`, `Le`
/// is `<=`, `FatArrow` is `=>`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// A name: `fn`, `Cons`, `nn.conv2d`, `_`.
    Ident,
    /// `%x` or `%0`.
    Local,
    /// `@f`.
    Global,
    /// A number with its suffix: `1`, `1.5f`, `2i64`, `1e-5f`.
    Num,
    /// A string literal, quotes included.
    Str,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Comma,
    Semi,
    Colon,
    Dot,
    Question,
    /// `#` before `[` (the version header).
    Hash,
    Eq,
    EqEq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Plus,
    Minus,
    Star,
    Slash,
    Arrow,
    FatArrow,
    /// The end of the text.
    Eof,
    /// Not a token: what [`Lexer::advance`] returns where [`Lexer::next_token`] fails (ask
    /// [`Lexer::error`] why).
    Error,
}

/// A token: its kind and where it is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// What it is.
    pub kind: Tok,
    /// Its first byte.
    pub lo: u32,
    /// One past its last byte.
    pub hi: u32,
}

impl Token {
    /// Its span.
    pub fn span(self) -> Span {
        Span {
            lo: self.lo,
            hi: self.hi,
        }
    }
}

/// An error of the lexer: where and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// Where.
    pub span: Span,
    /// What is wrong.
    pub message: String,
}

/// A cursor over the source. Cheap to copy, so that a parser can look ahead by copying.
#[derive(Copy, Clone, Debug)]
pub struct Lexer<'s> {
    src: &'s [u8],
    pos: usize,
    /// Whether the last token was `.`, so that `%t.0.1` reads as two projections and
    /// not as `%t`, `.`, `0.1`.
    after_dot: bool,
    /// Why the last [`Lexer::advance`] failed.
    failed: Option<Fail>,
}

/// A lexing error, described only when asked ([`Lexer::describe`]): small enough to come
/// back in registers.
#[derive(Copy, Clone, Debug)]
struct Fail {
    kind: FailKind,
    lo: u32,
    hi: u32,
}

#[derive(Copy, Clone, Debug)]
enum FailKind {
    /// `/*` without `*/`.
    Comment,
    /// `"` without its closing quote on the line.
    String,
    /// `%` or `@` without a name.
    Name,
    /// A character no token starts with.
    Char,
}

impl Fail {
    fn new(kind: FailKind, lo: usize, hi: usize) -> Self {
        Fail {
            kind,
            lo: lo as u32,
            hi: hi as u32,
        }
    }
}

/// What each byte can be: [`IDENT`] (in a name), [`START`] (starts one).
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        if b.is_ascii_alphanumeric() || b == b'_' {
            t[c] |= IDENT;
        }
        if b.is_ascii_alphabetic() || b == b'_' {
            t[c] |= START;
        }
        c += 1;
    }
    t
};
const IDENT: u8 = 1;
const START: u8 = 2;

#[inline]
pub(crate) fn is_ident_start(c: u8) -> bool {
    CLASS[c as usize] & START != 0
}

#[inline]
fn is_ident_char(c: u8) -> bool {
    CLASS[c as usize] & IDENT != 0
}

/// The end of the run of name bytes in `s` from `i`.
#[inline]
pub(crate) fn name_end(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && is_ident_char(s[i]) {
        i += 1;
    }
    i
}

/// The end of the run of digits in `s` from `i`.
fn digits_end(s: &[u8], i: usize) -> usize {
    i + s[i..].iter().take_while(|c| c.is_ascii_digit()).count()
}

/// The end of the number in `s` from `i` (digits, an optional fraction and exponent;
/// not its suffix), and whether it has a fraction or an exponent.
pub(crate) fn numeric_end(s: &[u8], i: usize) -> (usize, bool) {
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut end = digits_end(s, i);
    let int = end;
    if at(end) == b'.' && at(end + 1).is_ascii_digit() {
        end = digits_end(s, end + 1);
    }
    if matches!(at(end), b'e' | b'E') {
        let sign = usize::from(matches!(at(end + 1), b'+' | b'-'));
        if at(end + 1 + sign).is_ascii_digit() {
            end = digits_end(s, end + 1 + sign);
        }
    }
    (end, end != int)
}

/// The end of a name from `i` with `.` inside where a letter follows it (`nn.conv2d`).
#[inline]
pub(crate) fn dotted_end(s: &[u8], i: usize) -> usize {
    let mut i = name_end(s, i);
    while i + 1 < s.len() && s[i] == b'.' && is_ident_start(s[i + 1]) {
        i = name_end(s, i + 1);
    }
    i
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'s str) -> Self {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            after_dot: false,
            failed: None,
        }
    }

    /// Moves to byte `pos` (after a type read by the type parser).
    pub fn seek(&mut self, pos: usize) {
        self.pos = pos;
        self.after_dot = false;
    }

    fn at(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn err(&self, lo: usize, hi: usize, message: String) -> LexError {
        LexError {
            span: Span {
                lo: lo as u32,
                hi: hi as u32,
            },
            message,
        }
    }

    #[cold]
    fn describe(&self, f: Fail) -> LexError {
        let (lo, hi) = (f.lo as usize, f.hi as usize);
        let message = match f.kind {
            FailKind::Comment => {
                "unterminated comment: expected `*/`, found the end of the text".into()
            }
            FailKind::String => {
                format!("unterminated string: expected `{}`", self.src[lo] as char)
            }
            FailKind::Name => {
                let c = self.src[lo];
                let what = if c == b'%' {
                    "a local variable's name"
                } else {
                    "a global's name"
                };
                format!("expected {what} after `{}`", c as char)
            }
            FailKind::Char => {
                let c = self.src[lo];
                let ch = std::str::from_utf8(&self.src[lo..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or_else(
                        || format!("byte 0x{c:02x}"),
                        // A control character (NUL among them) is shown escaped.
                        |ch| match ch.is_control() {
                            true => format!("`{}`", ch.escape_debug()),
                            false => format!("`{ch}`"),
                        },
                    );
                format!("expected a token, found the character {ch}")
            }
        };
        self.err(lo, hi, message)
    }

    /// The next token, or a [`Tok::Error`] token spanning the problem where
    /// [`Lexer::next_token`] fails ([`Lexer::error`] says why). Cheaper than
    /// `next_token`: the token comes back in registers.
    #[inline]
    pub fn advance(&mut self) -> Token {
        match self.scan() {
            Ok(t) => t,
            Err(f) => {
                self.failed = Some(f);
                Token {
                    kind: Tok::Error,
                    lo: f.lo,
                    hi: f.hi,
                }
            }
        }
    }

    /// Why the last [`Lexer::advance`] returned a [`Tok::Error`] token.
    #[cold]
    pub fn error(&self) -> LexError {
        match self.failed {
            Some(f) => self.describe(f),
            None => self.err(self.pos, self.pos, "expected a token".into()),
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        self.scan().map_err(|f| self.describe(f))
    }

    fn skip_trivia(&mut self) -> Result<(), Fail> {
        loop {
            let mut i = self.pos;
            while i < self.src.len()
                && matches!(self.src[i], b' ' | b'\n' | b'\t' | b'\r' | b'\x0c')
            {
                i += 1;
            }
            self.pos = i;
            match self.at(i) {
                b'/' if self.at(self.pos + 1) == b'/' => self.skip_line(),
                b'#' if self.at(self.pos + 1) != b'[' => self.skip_line(),
                b'/' if self.at(self.pos + 1) == b'*' => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        if self.pos >= self.src.len() {
                            return Err(Fail::new(FailKind::Comment, start, start + 2));
                        }
                        if self.src[self.pos] == b'*' && self.at(self.pos + 1) == b'/' {
                            self.pos += 2;
                            break;
                        }
                        self.pos += 1;
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn skip_line(&mut self) {
        self.pos += self.src[self.pos..]
            .iter()
            .take_while(|&&c| c != b'\n')
            .count();
    }

    fn scan(&mut self) -> Result<Token, Fail> {
        self.skip_trivia()?;
        let after_dot = std::mem::replace(&mut self.after_dot, false);
        let lo = self.pos;
        let Some(&c) = self.src.get(lo) else {
            return Ok(self.tok(Tok::Eof, lo));
        };
        let next = self.at(lo + 1);
        let (kind, len) = match c {
            b'(' => (Tok::LParen, 1),
            b')' => (Tok::RParen, 1),
            b',' => (Tok::Comma, 1),
            b'[' => (Tok::LBracket, 1),
            b']' => (Tok::RBracket, 1),
            b'{' => (Tok::LBrace, 1),
            b'}' => (Tok::RBrace, 1),
            b';' => (Tok::Semi, 1),
            b':' => (Tok::Colon, 1),
            b'?' => (Tok::Question, 1),
            b'#' => (Tok::Hash, 1),
            b'+' => (Tok::Plus, 1),
            b'*' => (Tok::Star, 1),
            b'/' => (Tok::Slash, 1),
            b'.' => {
                self.after_dot = true;
                (Tok::Dot, 1)
            }
            b'=' => match next {
                b'=' => (Tok::EqEq, 2),
                b'>' => (Tok::FatArrow, 2),
                _ => (Tok::Eq, 1),
            },
            b'!' if next == b'=' => (Tok::Ne, 2),
            b'<' if next == b'=' => (Tok::Le, 2),
            b'<' => (Tok::Lt, 1),
            b'>' if next == b'=' => (Tok::Ge, 2),
            b'>' => (Tok::Gt, 1),
            b'-' if next == b'>' => (Tok::Arrow, 2),
            b'-' => (Tok::Minus, 1),
            b'%' | b'@' => return self.sigil(lo, c),
            // TVM prints a function's name in an attribute between single quotes
            // (`prim_fn_var='tvmgen_default_fused_add'`).
            b'"' | b'\'' => return self.string(lo),
            c if c.is_ascii_digit() => return Ok(self.number(lo, after_dot)),
            c if is_ident_start(c) => return Ok(self.ident(lo)),
            // (The span covers the character, whose length its first byte gives: the
            // text is UTF-8 and `lo` is at a character's start.)
            _ => {
                let len = match c {
                    0xC0..=0xDF => 2,
                    0xE0..=0xEF => 3,
                    0xF0..=0xF7 => 4,
                    _ => 1,
                };
                return Err(Fail::new(
                    FailKind::Char,
                    lo,
                    (lo + len).min(self.src.len()),
                ));
            }
        };
        self.pos += len;
        Ok(self.tok(kind, lo))
    }

    fn tok(&self, kind: Tok, lo: usize) -> Token {
        Token {
            kind,
            lo: lo as u32,
            hi: self.pos as u32,
        }
    }

    /// A name: letters, digits and `_`, with `.` inside when a letter follows it
    /// (`nn.conv2d`).
    fn ident(&mut self, lo: usize) -> Token {
        self.pos = dotted_end(self.src, lo);
        self.tok(Tok::Ident, lo)
    }

    /// `%name`, `%0`, `@name`.
    fn sigil(&mut self, lo: usize, c: u8) -> Result<Token, Fail> {
        // Names may be dotted like operator names (`@nn.f`; TVM prints a parameter
        // imported from Paddle as `%conv2d_0.w_0`); `%t.0` is a projection. TVM prints
        // the names the frontends give as they are: with slashes from TensorFlow
        // (`%bert/embeddings/Gather/resource`), `::` from PyTorch's ONNX export
        // (`%onnx::Conv_0`), `:0` from TFLite (`%serving_default_input:0`). A `:` before
        // anything else starts the annotation (`%x: T`, `%x:T`).
        self.pos = dotted_end(self.src, lo + 1);
        while self.pos > lo + 1 {
            let (c, d) = (self.at(self.pos), self.at(self.pos + 1));
            let part = match (c, d) {
                (b'/', d) if is_ident_char(d) => 1,
                (b':', d) if d.is_ascii_digit() => 1,
                (b':', b':') if is_ident_char(self.at(self.pos + 2)) => 2,
                _ => break,
            };
            self.pos = dotted_end(self.src, self.pos + part);
        }
        if self.pos == lo + 1 {
            return Err(Fail::new(FailKind::Name, lo, lo + 1));
        }
        Ok(self.tok(if c == b'%' { Tok::Local } else { Tok::Global }, lo))
    }

    /// Digits, an optional fraction and exponent, and a suffix of letters and digits (the
    /// parser checks it).
    fn number(&mut self, lo: usize, after_dot: bool) -> Token {
        self.pos = match after_dot {
            true => digits_end(self.src, lo),
            false => name_end(self.src, numeric_end(self.src, lo).0),
        };
        self.tok(Tok::Num, lo)
    }

    fn string(&mut self, lo: usize) -> Result<Token, Fail> {
        let quote = self.src[lo];
        self.pos = lo + 1;
        loop {
            match self.src.get(self.pos) {
                None | Some(b'\n') => return Err(Fail::new(FailKind::String, lo, self.pos)),
                Some(b'\\') => self.pos += 2,
                Some(&c) if c == quote => {
                    self.pos += 1;
                    return Ok(self.tok(Tok::Str, lo));
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}
