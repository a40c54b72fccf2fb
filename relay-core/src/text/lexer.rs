//! The lexer of the text format: bytes in, tokens out, one at a time.
//!
//! A token is a kind and a byte span; names and literals are slices of the source, so
//! lexing allocates nothing. Whitespace and comments (`// ...`, `/* ... */`, and the
//! spec's `# ...` when `#` is not followed by `[`) are skipped.

use crate::expr::Span;

/// What a token is.
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
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `[`
    LBracket,
    /// `]`
    RBracket,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `,`
    Comma,
    /// `;`
    Semi,
    /// `:`
    Colon,
    /// `.`
    Dot,
    /// `?`
    Question,
    /// `#` before `[` (the version header).
    Hash,
    /// `=`
    Eq,
    /// `==`
    EqEq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Plus,
    /// `-`
    Minus,
    /// `*`
    Star,
    /// `/`
    Slash,
    /// `->`
    Arrow,
    /// `=>`
    FatArrow,
    /// The end of the text.
    Eof,
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
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

impl<'s> Lexer<'s> {
    /// A lexer at the start of `src`.
    pub fn new(src: &'s str) -> Self {
        Lexer {
            src: src.as_bytes(),
            pos: 0,
            after_dot: false,
        }
    }

    /// The byte offset of the next unread byte.
    pub fn pos(&self) -> usize {
        self.pos
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

    fn skip_trivia(&mut self) -> Result<(), LexError> {
        loop {
            match self.at(self.pos) {
                b' ' | b'\n' | b'\t' | b'\r' | b'\x0c' => self.pos += 1,
                b'/' if self.at(self.pos + 1) == b'/' => self.skip_line(),
                b'#' if self.at(self.pos + 1) != b'[' => self.skip_line(),
                b'/' if self.at(self.pos + 1) == b'*' => {
                    let start = self.pos;
                    self.pos += 2;
                    loop {
                        if self.pos >= self.src.len() {
                            return Err(self.err(
                                start,
                                start + 2,
                                "unterminated comment: expected `*/`, found the end of the text"
                                    .into(),
                            ));
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
        while self.pos < self.src.len() && self.src[self.pos] != b'\n' {
            self.pos += 1;
        }
    }

    /// The next token.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
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
            b'"' => return self.string(lo),
            c if c.is_ascii_digit() => return Ok(self.number(lo, after_dot)),
            c if is_ident_start(c) => return Ok(self.ident(lo)),
            _ => {
                let ch = std::str::from_utf8(&self.src[lo..])
                    .ok()
                    .and_then(|s| s.chars().next())
                    .map_or_else(|| format!("byte 0x{c:02x}"), |ch| format!("`{ch}`"));
                let width = if c < 0x80 { 1 } else { ch.len().min(4) };
                return Err(self.err(
                    lo,
                    lo + width,
                    format!("expected a token, found the character {ch}"),
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
        self.pos = lo;
        loop {
            while is_ident_char(self.at(self.pos)) {
                self.pos += 1;
            }
            if self.at(self.pos) == b'.' && is_ident_start(self.at(self.pos + 1)) {
                self.pos += 1;
            } else {
                break;
            }
        }
        self.tok(Tok::Ident, lo)
    }

    /// `%name`, `%0`, `@name`.
    fn sigil(&mut self, lo: usize, c: u8) -> Result<Token, LexError> {
        self.pos = lo + 1;
        while is_ident_char(self.at(self.pos)) {
            self.pos += 1;
        }
        if c == b'@' {
            // Global names may be dotted like operator names.
            while self.at(self.pos) == b'.' && is_ident_start(self.at(self.pos + 1)) {
                self.pos += 1;
                while is_ident_char(self.at(self.pos)) {
                    self.pos += 1;
                }
            }
        }
        if self.pos == lo + 1 {
            let what = if c == b'%' {
                "a local variable's name"
            } else {
                "a global's name"
            };
            return Err(self.err(lo, lo + 1, format!("expected {what} after `{}`", c as char)));
        }
        Ok(self.tok(if c == b'%' { Tok::Local } else { Tok::Global }, lo))
    }

    /// Digits, an optional fraction and exponent, and a suffix of letters and digits (the
    /// parser checks it).
    fn number(&mut self, lo: usize, after_dot: bool) -> Token {
        self.pos = lo;
        while self.at(self.pos).is_ascii_digit() {
            self.pos += 1;
        }
        if !after_dot {
            if self.at(self.pos) == b'.' && self.at(self.pos + 1).is_ascii_digit() {
                self.pos += 1;
                while self.at(self.pos).is_ascii_digit() {
                    self.pos += 1;
                }
            }
            let e = self.at(self.pos);
            if e == b'e' || e == b'E' {
                let mut i = self.pos + 1;
                if matches!(self.at(i), b'+' | b'-') {
                    i += 1;
                }
                if self.at(i).is_ascii_digit() {
                    self.pos = i;
                    while self.at(self.pos).is_ascii_digit() {
                        self.pos += 1;
                    }
                }
            }
            while is_ident_char(self.at(self.pos)) {
                self.pos += 1;
            }
        }
        self.tok(Tok::Num, lo)
    }

    fn string(&mut self, lo: usize) -> Result<Token, LexError> {
        self.pos = lo + 1;
        loop {
            match self.src.get(self.pos) {
                None | Some(b'\n') => {
                    return Err(self.err(lo, self.pos, "unterminated string: expected `\"`".into()))
                }
                Some(b'\\') => self.pos += 2,
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(self.tok(Tok::Str, lo));
                }
                Some(_) => self.pos += 1,
            }
        }
    }
}
