//! Parsing: the attribute's tokens into a [`Decl`] (a clause or a bare name).

use proc_macro2::Span;
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream};
use syn::{bracketed, parenthesized, token, Ident, LitInt, LitStr, Token};

mod kw {
    syn::custom_keyword!(assert);
    syn::custom_keyword!(attrs);
    syn::custom_keyword!(default);
    syn::custom_keyword!(rust);
}

/// What `#[relation(...)]` says.
pub enum Decl {
    /// `Name`: the imperative form, on a function.
    Bare(Ident),
    /// `Name(head...) :- body`: the clause form, on a unit struct.
    Clause(Clause),
}

/// The clause `src` (`Name(head...) :- body`), for the tests of the passes over it.
#[cfg(test)]
pub fn clause(src: &str) -> Clause {
    match syn::parse_str::<Decl>(src).expect("parses") {
        Decl::Clause(c) => c,
        Decl::Bare(_) => panic!("expected a clause"),
    }
}

pub struct Clause {
    pub name: Ident,
    pub head: Vec<Term>,
    pub head_span: Span,
    pub body: Vec<Goal>,
    pub attrs: Vec<AttrBlock>,
}

pub enum Goal {
    Eq(Term, Term),
    /// A condition: a comparison, or any bool term.
    Check(Term),
    Assert {
        cond: Term,
        message: LitStr,
        args: Vec<Term>,
    },
    /// `assert(lhs = rhs, "message", args...)`.
    AssertEq {
        lhs: Term,
        rhs: Term,
        message: LitStr,
        args: Vec<Term>,
    },
    /// `if cond { goals } else { goals }` (`else if` nests in the else branch).
    If {
        cond: Term,
        then: Vec<Goal>,
        els: Vec<Goal>,
    },
    /// `default(x, term)`.
    Default {
        kw: Span,
        var: Term,
        value: Term,
    },
    /// `for x in src { goals }`.
    For {
        kw: Span,
        var: Ident,
        src: Term,
        body: Vec<Goal>,
    },
    /// `Name(args...)` with a capitalised `Name` other than `Tensor` and `Tuple`: the
    /// relation `Name` (a type implementing `Relation`) holds of the arguments.
    Relation {
        name: Ident,
        args: Vec<Term>,
    },
}

/// Whether a call `name(..)` as a goal is a relation's: a capitalised name that is not a
/// constructor (builtins are lowercase).
fn is_relation(name: &Ident) -> bool {
    let n = name.to_string();
    n.starts_with(|c: char| c.is_ascii_uppercase()) && n != "Tensor" && n != "Tuple"
}

/// `attrs(name: type = default, ...)`.
pub struct AttrBlock {
    pub kw: Span,
    pub decls: Vec<AttrDecl>,
}

pub struct AttrDecl {
    pub name: Ident,
    pub ty: AttrTy,
    pub default: Option<Term>,
}

/// An attribute's type: `int`, `bool`, `dtype`, `shape`, `[int]`, or `Option<..>` of one.
pub struct AttrTy {
    /// The base type as written (`int`, `[int]`).
    pub base: String,
    pub span: Span,
    pub optional: bool,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    pub fn symbol(self) -> &'static str {
        match self {
            CmpOp::Eq => "==",
            CmpOp::Ne => "!=",
            CmpOp::Lt => "<",
            CmpOp::Le => "<=",
            CmpOp::Gt => ">",
            CmpOp::Ge => ">=",
        }
    }
}

pub enum ListItem {
    Dim(Term),
    Splice(Span, Term),
}

/// A comprehension `[elem for var in src if cond]`.
pub struct Comp {
    /// The brackets'.
    pub span: Span,
    pub elem: Term,
    pub var: Ident,
    pub src: Term,
    pub cond: Option<Term>,
}

impl Comp {
    /// The element, the variable, the source and the condition.
    pub fn parts(&self) -> (&Term, &Ident, &Term, Option<&Term>) {
        (&self.elem, &self.var, &self.src, self.cond.as_ref())
    }
}

pub enum Term {
    /// A variable, or a dtype literal (`float32`): told apart by the checker.
    Name(Ident),
    Wild(Span),
    /// `?`: the dimension `Any`.
    Any(Span),
    Int(i64, Span),
    Bool(bool, Span),
    /// `name(args...)`: `Tensor`, `Tuple` or a builtin.
    Call {
        name: Ident,
        args: Vec<Term>,
    },
    /// `(a, b)` or `()`.
    Tuple(Span, Vec<Term>),
    /// `..rest` among the fields of a tuple (the span is the `..`'s).
    Rest(Span, Box<Term>),
    List(Span, Vec<ListItem>),
    /// `[d; n]`.
    Repeat(Span, Box<Term>, Box<Term>),
    /// A string literal (a `str` attribute's default, or compared with one).
    Str(LitStr),
    /// A float literal.
    Float(f64, Span),
    /// `X @ pattern`.
    As(Ident, Box<Term>),
    /// `a && b` (`and: true`) or `a || b`.
    Logic(bool, Span, Box<Term>, Box<Term>),
    /// `!a`.
    Not(Span, Box<Term>),
    Index(Box<Term>, Span, Box<Term>),
    Slice(Box<Term>, Span, Option<Box<Term>>, Option<Box<Term>>),
    Binary(BinOp, Span, Box<Term>, Box<Term>),
    Neg(Span, Box<Term>),
    Cmp(CmpOp, Span, Box<Term>, Box<Term>),
    Attr(Span, Ident),
    /// `rust(path)(args...)`, or `rust(path -> kind)(args...)` with the kind the
    /// function returns (`type`, `shape`, `dim`, `dtype` or `bool`) as written.
    Rust {
        kw: Span,
        path: syn::Path,
        ret: Option<Ident>,
        args: Vec<Term>,
    },
    /// `[elem for var in src if cond]`.
    Comp(Box<Comp>),
    /// `lo..hi`: what a comprehension or a `for` goes over (the span is the `..`'s).
    Range(Span, Box<Term>, Box<Term>),
    /// `x in list`.
    In(Span, Box<Term>, Box<Term>),
    /// `if cond { a } else { b }` (the span is the `if`'s).
    IfElse(Span, Box<Term>, Box<Term>, Box<Term>),
}

impl Term {
    /// The token errors about this term point at.
    pub fn span(&self) -> Span {
        match self {
            Term::Name(i) | Term::Call { name: i, .. } | Term::As(i, _) => i.span(),
            Term::Str(l) => l.span(),
            Term::Float(_, s) => *s,
            Term::Wild(s)
            | Term::Any(s)
            | Term::Int(_, s)
            | Term::Bool(_, s)
            | Term::Tuple(s, _)
            | Term::Rest(s, _)
            | Term::List(s, _)
            | Term::Repeat(s, ..)
            | Term::Logic(_, s, ..)
            | Term::Not(s, _)
            | Term::Index(_, s, _)
            | Term::Slice(_, s, ..)
            | Term::Binary(_, s, ..)
            | Term::Neg(s, _)
            | Term::Cmp(_, s, ..)
            | Term::Attr(s, _)
            | Term::Rust { kw: s, .. }
            | Term::Range(s, ..)
            | Term::In(s, ..)
            | Term::IfElse(s, ..) => *s,
            Term::Comp(c) => c.span,
        }
    }
}

impl Term {
    /// The terms directly inside `t`, in source order: the one walker of the term tree
    /// that every pass which looks only at what a term contains uses.
    pub fn children(&self) -> Vec<&Term> {
        match self {
            Term::Name(_)
            | Term::Wild(_)
            | Term::Any(_)
            | Term::Int(..)
            | Term::Bool(..)
            | Term::Str(_)
            | Term::Float(..)
            | Term::Attr(..) => vec![],
            Term::Call { args, .. } | Term::Rust { args, .. } | Term::Tuple(_, args) => {
                args.iter().collect()
            }
            Term::Rest(_, a) | Term::As(_, a) | Term::Not(_, a) | Term::Neg(_, a) => vec![a],
            Term::List(_, items) => items
                .iter()
                .map(|i| match i {
                    ListItem::Dim(t) | ListItem::Splice(_, t) => t,
                })
                .collect(),
            Term::Repeat(_, a, b)
            | Term::Logic(_, _, a, b)
            | Term::Index(a, _, b)
            | Term::Binary(_, _, a, b)
            | Term::Cmp(_, _, a, b)
            | Term::Range(_, a, b)
            | Term::In(_, a, b) => vec![a, b],
            Term::Slice(a, _, lo, hi) => {
                let mut v: Vec<&Term> = vec![a];
                v.extend(lo.as_deref());
                v.extend(hi.as_deref());
                v
            }
            Term::Comp(c) => {
                let mut v: Vec<&Term> = vec![&c.src, &c.elem];
                v.extend(c.cond.as_ref());
                v
            }
            Term::IfElse(_, a, b, c) => vec![a, b, c],
        }
    }

    /// Calls `f` on `self` and every term inside it, outermost first.
    pub fn visit<'t>(&'t self, f: &mut impl FnMut(&'t Term)) {
        f(self);
        for c in self.children() {
            c.visit(f);
        }
    }
}

impl Parse for Decl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Err(input.error(
                "expected a clause `Name(args) :- body` or, on a function, the relation's name",
            ));
        }
        let name: Ident = input.parse()?;
        if input.is_empty() {
            return Ok(Decl::Bare(name));
        }
        if !input.peek(token::Paren) {
            return Err(input.error(format!(
                "expected the head's arguments in parentheses after `{name}`"
            )));
        }
        let content;
        let paren = parenthesized!(content in input);
        let head = comma_list(&content, Term::parse)?;
        if !input.peek(Token![:]) || !input.peek2(Token![-]) {
            return Err(input.error(format!(
                "expected `:-` after the head `{name}(..)`, then the body (`true` or goals)"
            )));
        }
        input.parse::<Token![:]>()?;
        let dash: Token![-] = input.parse()?;
        let mut body = Vec::new();
        let mut attrs = Vec::new();
        if input.is_empty() {
            return Err(syn::Error::new(
                dash.span,
                "expected the body after `:-` (`true` or goals), found nothing",
            ));
        }
        loop {
            if input.peek(kw::attrs) && input.peek2(token::Paren) {
                attrs.push(input.parse()?);
            } else if peek_true(input) {
                input.parse::<syn::LitBool>()?;
            } else {
                body.push(input.parse()?);
            }
            if input.is_empty() {
                break;
            }
            if !input.peek(Token![,]) {
                return Err(input.error("expected `,` between goals, or the end of the clause"));
            }
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
        }
        Ok(Decl::Clause(Clause {
            name,
            head,
            head_span: paren.span.join(),
            body,
            attrs,
        }))
    }
}

/// `true` alone as a goal (followed by `,` or the end).
fn peek_true(input: ParseStream) -> bool {
    let fork = input.fork();
    match fork.parse::<syn::LitBool>() {
        Ok(b) => b.value && (fork.is_empty() || fork.peek(Token![,])),
        Err(_) => false,
    }
}

fn comma_list<T>(
    input: ParseStream,
    item: fn(ParseStream) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    let mut out = Vec::new();
    while !input.is_empty() {
        out.push(item(input)?);
        if input.is_empty() {
            break;
        }
        if !input.peek(Token![,]) {
            return Err(input.error("expected `,` or the closing bracket"));
        }
        input.parse::<Token![,]>()?;
    }
    Ok(out)
}

impl Parse for AttrBlock {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let kw: kw::attrs = input.parse()?;
        let content;
        parenthesized!(content in input);
        let decls = comma_list(&content, |input| {
            let name = Ident::parse_any(input)?;
            if !input.peek(Token![:]) {
                return Err(input.error(format!(
                    "expected `:` and a type after the attribute `{name}` (`{name}: int`)"
                )));
            }
            input.parse::<Token![:]>()?;
            let ty = attr_ty(input)?;
            let default = if input.peek(Token![=]) {
                input.parse::<Token![=]>()?;
                Some(Term::parse(input)?)
            } else {
                None
            };
            Ok(AttrDecl { name, ty, default })
        })?;
        Ok(AttrBlock { kw: kw.span, decls })
    }
}

/// `int`, `[int]`, `Option<int>`, ...
fn attr_ty(input: ParseStream) -> syn::Result<AttrTy> {
    if input.peek(token::Bracket) {
        let content;
        let bracket = bracketed!(content in input);
        let inner = Ident::parse_any(&content)?;
        if !content.is_empty() {
            return Err(content.error("expected `]` after the element type, as in `[int]`"));
        }
        return Ok(AttrTy {
            base: format!("[{inner}]"),
            span: bracket.span.join(),
            optional: false,
        });
    }
    let name = Ident::parse_any(input)?;
    if name == "Option" && input.peek(Token![<]) {
        input.parse::<Token![<]>()?;
        let inner = attr_ty(input)?;
        input.parse::<Token![>]>()?;
        return Ok(AttrTy {
            base: inner.base,
            span: name.span(),
            optional: true,
        });
    }
    Ok(AttrTy {
        base: name.to_string(),
        span: name.span(),
        optional: false,
    })
}

/// `{ goal, goal, ... }`: the goals of a branch.
fn block(input: ParseStream) -> syn::Result<Vec<Goal>> {
    let content;
    syn::braced!(content in input);
    comma_list(&content, Goal::parse)
}

/// `x in src`: the variable and what a comprehension or a loop goes over.
fn binder(input: ParseStream, what: &str) -> syn::Result<(Ident, Term)> {
    if !input.peek(Ident) {
        return Err(input.error(format!(
            "expected the variable of the {what} after `for` (`for x in list`)"
        )));
    }
    let var: Ident = input.parse()?;
    if !input.peek(Token![in]) {
        return Err(input.error(format!(
            "expected `in` after the variable of the {what} (`for {var} in list`)"
        )));
    }
    input.parse::<Token![in]>()?;
    let lo = additive(input)?;
    if input.peek(Token![..=]) {
        return Err(input.error("expected `..` (inclusive ranges `..=` are not supported)"));
    }
    if !input.peek(Token![..]) {
        return Ok((var, lo));
    }
    let dots: Token![..] = input.parse()?;
    if input.is_empty() || input.peek(token::Brace) || input.peek(Token![if]) {
        return Err(syn::Error::new(
            dots.spans[0],
            "expected the end of the range after `..` (`0..len(s)`)",
        ));
    }
    let hi = additive(input)?;
    Ok((var, Term::Range(dots.spans[0], Box::new(lo), Box::new(hi))))
}

impl Parse for Goal {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![for]) {
            let kw: Token![for] = input.parse()?;
            let (var, src) = binder(input, "loop")?;
            if !input.peek(token::Brace) {
                return Err(input
                    .error("expected the goals of the loop in braces: `for x in list { goals }`"));
            }
            let body = block(input)?;
            return Ok(Goal::For {
                kw: kw.span,
                var,
                src,
                body,
            });
        }
        if input.peek(Token![if]) {
            input.parse::<Token![if]>()?;
            let cond = Term::parse(input)?;
            if !input.peek(token::Brace) {
                return Err(
                    input.error("expected the goals of the branch in braces: `if cond { goals }`")
                );
            }
            let then = block(input)?;
            let els = if input.peek(Token![else]) {
                input.parse::<Token![else]>()?;
                if input.peek(Token![if]) {
                    vec![Goal::parse(input)?]
                } else {
                    block(input)?
                }
            } else {
                Vec::new()
            };
            return Ok(Goal::If { cond, then, els });
        }
        if input.peek(kw::default) && input.peek2(token::Paren) {
            let kw: kw::default = input.parse()?;
            let content;
            parenthesized!(content in input);
            let var = Term::parse(&content)?;
            content.parse::<Token![,]>()?;
            let value = Term::parse(&content)?;
            if !content.is_empty() {
                return Err(content.error("expected `)` after `default(variable, value)`"));
            }
            return Ok(Goal::Default {
                kw: kw.span,
                var,
                value,
            });
        }
        if input.peek(kw::assert) && input.peek2(token::Paren) {
            let kw: kw::assert = input.parse()?;
            let content;
            parenthesized!(content in input);
            let cond = Term::parse(&content)?;
            let rhs = if content.peek(Token![=]) && !content.peek(Token![==]) {
                content.parse::<Token![=]>()?;
                Some(Term::parse(&content)?)
            } else {
                None
            };
            if content.is_empty() {
                return Err(syn::Error::new(
                    kw.span,
                    "expected a message after the condition: `assert(cond, \"message\")`",
                ));
            }
            content.parse::<Token![,]>()?;
            if !content.peek(LitStr) {
                return Err(content.error("expected the message of `assert`, a string literal"));
            }
            let message: LitStr = content.parse()?;
            let mut args = Vec::new();
            while content.peek(Token![,]) {
                content.parse::<Token![,]>()?;
                if content.is_empty() {
                    break;
                }
                args.push(Term::parse(&content)?);
            }
            if !content.is_empty() {
                return Err(
                    content.error("expected `)` or `, value` after the message of `assert`")
                );
            }
            return Ok(match rhs {
                Some(rhs) => Goal::AssertEq {
                    lhs: cond,
                    rhs,
                    message,
                    args,
                },
                None => Goal::Assert {
                    cond,
                    message,
                    args,
                },
            });
        }
        let lhs = Term::parse(input)?;
        if input.peek(Token![=]) && !input.peek(Token![==]) {
            input.parse::<Token![=]>()?;
            let rhs = Term::parse(input)?;
            return Ok(Goal::Eq(lhs, rhs));
        }
        Ok(match lhs {
            Term::Call { name, args } if is_relation(&name) => Goal::Relation { name, args },
            lhs => Goal::Check(lhs),
        })
    }
}

impl Parse for Term {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut lhs = conjunction(input)?;
        while input.peek(Token![||]) {
            let span = input.span();
            input.parse::<Token![||]>()?;
            let rhs = conjunction(input)?;
            lhs = Term::Logic(false, span, Box::new(lhs), Box::new(rhs));
        }
        Ok(lhs)
    }
}

/// `a && b && ...`.
fn conjunction(input: ParseStream) -> syn::Result<Term> {
    let mut lhs = comparison(input)?;
    while input.peek(Token![&&]) {
        let span = input.span();
        input.parse::<Token![&&]>()?;
        let rhs = comparison(input)?;
        lhs = Term::Logic(true, span, Box::new(lhs), Box::new(rhs));
    }
    Ok(lhs)
}

/// `a op b` for a comparison `op`, or `a`.
fn comparison(input: ParseStream) -> syn::Result<Term> {
    let lhs = additive(input)?;
    if input.peek(Token![in]) {
        let kw: Token![in] = input.parse()?;
        let rhs = additive(input)?;
        return Ok(Term::In(kw.span, Box::new(lhs), Box::new(rhs)));
    }
    let op = if input.peek(Token![==]) {
        CmpOp::Eq
    } else if input.peek(Token![!=]) {
        CmpOp::Ne
    } else if input.peek(Token![<=]) {
        CmpOp::Le
    } else if input.peek(Token![>=]) {
        CmpOp::Ge
    } else if input.peek(Token![<]) {
        CmpOp::Lt
    } else if input.peek(Token![>]) {
        CmpOp::Gt
    } else {
        return Ok(lhs);
    };
    let span = input.span();
    match op {
        CmpOp::Eq => drop(input.parse::<Token![==]>()?),
        CmpOp::Ne => drop(input.parse::<Token![!=]>()?),
        CmpOp::Le => drop(input.parse::<Token![<=]>()?),
        CmpOp::Ge => drop(input.parse::<Token![>=]>()?),
        CmpOp::Lt => drop(input.parse::<Token![<]>()?),
        CmpOp::Gt => drop(input.parse::<Token![>]>()?),
    }
    let rhs = additive(input)?;
    Ok(Term::Cmp(op, span, Box::new(lhs), Box::new(rhs)))
}

fn additive(input: ParseStream) -> syn::Result<Term> {
    left_assoc(input, multiplicative, |input| {
        Ok(if input.peek(Token![+]) {
            input.parse::<Token![+]>()?;
            Some(BinOp::Add)
        } else if input.peek(Token![-]) && !input.peek(Token![->]) {
            input.parse::<Token![-]>()?;
            Some(BinOp::Sub)
        } else {
            None
        })
    })
}

fn multiplicative(input: ParseStream) -> syn::Result<Term> {
    left_assoc(input, unary, |input| {
        Ok(if input.peek(Token![*]) {
            input.parse::<Token![*]>()?;
            Some(BinOp::Mul)
        } else if input.peek(Token![/]) {
            input.parse::<Token![/]>()?;
            Some(BinOp::Div)
        } else if input.peek(Token![%]) {
            input.parse::<Token![%]>()?;
            Some(BinOp::Rem)
        } else {
            None
        })
    })
}

/// `operand (op operand)*`, grouped to the left; `op` parses an operator of the level
/// if one is next.
fn left_assoc(
    input: ParseStream,
    operand: fn(ParseStream) -> syn::Result<Term>,
    op: fn(ParseStream) -> syn::Result<Option<BinOp>>,
) -> syn::Result<Term> {
    let mut lhs = operand(input)?;
    loop {
        let span = input.span();
        let Some(op) = op(input)? else {
            return Ok(lhs);
        };
        let rhs = operand(input)?;
        lhs = Term::Binary(op, span, Box::new(lhs), Box::new(rhs));
    }
}

fn unary(input: ParseStream) -> syn::Result<Term> {
    if input.peek(Token![!]) && !input.peek(Token![!=]) {
        let span = input.span();
        input.parse::<Token![!]>()?;
        return Ok(Term::Not(span, Box::new(unary(input)?)));
    }
    if input.peek(Token![-]) {
        let span = input.span();
        input.parse::<Token![-]>()?;
        let inner = unary(input)?;
        // A negative literal is a literal.
        if let Term::Int(c, _) = inner {
            return Ok(Term::Int(-c, span));
        }
        if let Term::Float(x, _) = inner {
            return Ok(Term::Float(-x, span));
        }
        return Ok(Term::Neg(span, Box::new(inner)));
    }
    postfix(input)
}

fn postfix(input: ParseStream) -> syn::Result<Term> {
    let mut base = primary(input)?;
    while input.peek(token::Bracket) {
        let content;
        let bracket = bracketed!(content in input);
        let span = bracket.span.join();
        let lo = if content.peek(Token![..]) {
            None
        } else {
            Some(Box::new(Term::parse(&content)?))
        };
        if content.peek(Token![..=]) {
            return Err(content.error("expected `..` (inclusive slices `..=` are not supported)"));
        }
        if content.peek(Token![..]) {
            content.parse::<Token![..]>()?;
            let hi = if content.is_empty() {
                None
            } else {
                Some(Box::new(Term::parse(&content)?))
            };
            if !content.is_empty() {
                return Err(content.error("expected `]` after the slice"));
            }
            base = Term::Slice(Box::new(base), span, lo, hi);
        } else {
            if !content.is_empty() {
                return Err(content.error("expected `]` or `..` after the index"));
            }
            let index = lo.expect("an index was parsed");
            base = Term::Index(Box::new(base), span, index);
        }
    }
    Ok(base)
}

fn primary(input: ParseStream) -> syn::Result<Term> {
    if input.peek(LitInt) {
        let lit: LitInt = input.parse()?;
        let value = lit.base10_parse::<i64>()?;
        return Ok(Term::Int(value, lit.span()));
    }
    if input.peek(LitStr) {
        return Ok(Term::Str(input.parse()?));
    }
    if input.peek(syn::LitFloat) {
        let lit: syn::LitFloat = input.parse()?;
        return Ok(Term::Float(lit.base10_parse::<f64>()?, lit.span()));
    }
    if input.peek(syn::LitBool) {
        let lit: syn::LitBool = input.parse()?;
        return Ok(Term::Bool(lit.value, lit.span));
    }
    if input.peek(Token![_]) {
        let t: Token![_] = input.parse()?;
        return Ok(Term::Wild(t.span));
    }
    if input.peek(Token![..]) {
        let dots: Token![..] = input.parse()?;
        return Ok(Term::Rest(dots.spans[0], Box::new(postfix(input)?)));
    }
    if input.peek(Token![?]) {
        let t: Token![?] = input.parse()?;
        return Ok(Term::Any(t.span));
    }
    if input.peek(token::Bracket) {
        let content;
        let bracket = bracketed!(content in input);
        let fork = content.fork();
        if !fork.peek(Token![..]) && Term::parse(&fork).is_ok() && fork.peek(Token![;]) {
            let item = Term::parse(&content)?;
            content.parse::<Token![;]>()?;
            let count = Term::parse(&content)?;
            if !content.is_empty() {
                return Err(content.error("expected `]` after `[dimension; count]`"));
            }
            return Ok(Term::Repeat(
                bracket.span.join(),
                Box::new(item),
                Box::new(count),
            ));
        }
        let fork = content.fork();
        if !fork.peek(Token![..]) && Term::parse(&fork).is_ok() && fork.peek(Token![for]) {
            let elem = Term::parse(&content)?;
            content.parse::<Token![for]>()?;
            let (var, src) = binder(&content, "comprehension")?;
            let cond = if content.peek(Token![if]) {
                content.parse::<Token![if]>()?;
                Some(Term::parse(&content)?)
            } else {
                None
            };
            if !content.is_empty() {
                return Err(
                    content.error("expected `]` or `if condition` after `[element for x in list`")
                );
            }
            return Ok(Term::Comp(Box::new(Comp {
                span: bracket.span.join(),
                elem,
                var,
                src,
                cond,
            })));
        }
        let items = comma_list(&content, |input| {
            if input.peek(Token![..]) {
                let dots: Token![..] = input.parse()?;
                Ok(ListItem::Splice(dots.spans[0], Term::parse(input)?))
            } else {
                Ok(ListItem::Dim(Term::parse(input)?))
            }
        })?;
        return Ok(Term::List(bracket.span.join(), items));
    }
    if input.peek(token::Paren) {
        let content;
        let paren = parenthesized!(content in input);
        let span = paren.span.join();
        if content.is_empty() {
            return Ok(Term::Tuple(span, Vec::new()));
        }
        let first = Term::parse(&content)?;
        if content.is_empty() {
            // `(..rest)` is a tuple, `(x)` is `x`.
            return Ok(match first {
                rest @ Term::Rest(..) => Term::Tuple(span, vec![rest]),
                other => other,
            });
        }
        content.parse::<Token![,]>()?;
        let mut items = vec![first];
        items.extend(comma_list(&content, Term::parse)?);
        return Ok(Term::Tuple(span, items));
    }
    if input.peek(Token![if]) {
        return if_else(input);
    }
    if input.peek(kw::attrs) && input.peek2(Token![.]) {
        let kw: kw::attrs = input.parse()?;
        input.parse::<Token![.]>()?;
        let name = Ident::parse_any(input)?;
        return Ok(Term::Attr(kw.span, name));
    }
    if input.peek(kw::rust) && input.peek2(token::Paren) {
        let kw: kw::rust = input.parse()?;
        let content;
        parenthesized!(content in input);
        let path: syn::Path = content.parse()?;
        let ret = if content.peek(Token![->]) {
            content.parse::<Token![->]>()?;
            if content.is_empty() {
                return Err(content.error(
                    "expected the kind the function returns after `->`: `type`, `shape`, `dim`, `dtype` or `bool`",
                ));
            }
            Some(Ident::parse_any(&content)?)
        } else {
            None
        };
        if !content.is_empty() {
            return Err(content.error(
                "expected `)` after the function's path in `rust(path)`, or `-> kind` before it",
            ));
        }
        if !input.peek(token::Paren) {
            return Err(input.error("expected the call's arguments: `rust(path)(args...)`"));
        }
        let content;
        parenthesized!(content in input);
        let args = comma_list(&content, Term::parse)?;
        return Ok(Term::Rust {
            kw: kw.span,
            path,
            ret,
            args,
        });
    }
    if input.peek(Ident) && input.peek2(Token![@]) {
        let name: Ident = input.parse()?;
        input.parse::<Token![@]>()?;
        let pattern = postfix(input)?;
        return Ok(Term::As(name, Box::new(pattern)));
    }
    if input.peek(Ident) {
        let name: Ident = input.parse()?;
        if input.peek(token::Paren) {
            let content;
            parenthesized!(content in input);
            let args = comma_list(&content, Term::parse)?;
            return Ok(Term::Call { name, args });
        }
        return Ok(Term::Name(name));
    }
    Err(input.error(
        "expected a term: a variable, an integer, `_`, `Tensor(shape, dtype)`, a tuple, a list `[..]`, a builtin call or `attrs.name`",
    ))
}

/// `if cond { a } else { b }` as a term (`else if` nests).
fn if_else(input: ParseStream) -> syn::Result<Term> {
    let kw: Token![if] = input.parse()?;
    let cond = Term::parse(input)?;
    let arm = |input: ParseStream| -> syn::Result<Term> {
        if !input.peek(token::Brace) {
            return Err(input.error("expected a term in braces: `if cond { a } else { b }`"));
        }
        let content;
        syn::braced!(content in input);
        let t = Term::parse(&content)?;
        if !content.is_empty() {
            return Err(content.error("expected `}` after the term of the branch"));
        }
        Ok(t)
    };
    let then = arm(input)?;
    if !input.peek(Token![else]) {
        return Err(syn::Error::new(
            kw.span,
            "expected `else { .. }`: an `if` term needs a value in both branches",
        ));
    }
    input.parse::<Token![else]>()?;
    let els = if input.peek(Token![if]) {
        if_else(input)?
    } else {
        arm(input)?
    };
    Ok(Term::IfElse(
        kw.span,
        Box::new(cond),
        Box::new(then),
        Box::new(els),
    ))
}
