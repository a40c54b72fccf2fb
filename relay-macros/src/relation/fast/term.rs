//! Terms: each form of the notation as a Rust expression of its representation.

use super::super::ast::{BinOp, CmpOp};
use super::super::builtins::{self, Run};
use super::super::check::{dtype_literal, is_none};
use super::super::expand::{arith, cmp, flip, float_attr, literal};
use super::rust_fn;
use super::*;

impl Gen<'_> {
    /// The attribute `name`'s local (read at the start of the function).
    pub(super) fn attr(&mut self, name: &str) -> Option<Attr> {
        if let Some((_, a)) = self.attrs.iter().find(|(n, _)| n == name) {
            return Some(a.clone());
        }
        let decl = self.decls.iter().find(|d| d.name == name)?;
        let rep = match decl.ty.base.as_str() {
            "int" => Rep::Int,
            "bool" => Rep::Bool,
            "dtype" => Rep::DType,
            "[int]" | "shape" => Rep::Ints,
            _ => return None,
        };
        // `None` given to an optional attribute with another default is not its default.
        if decl.ty.optional && decl.default.as_ref().is_some_and(|d| !is_none(d)) {
            return None;
        }
        let a = Attr {
            ident: format_ident!("a_{}", name),
            rep,
            optional: decl.ty.optional,
        };
        self.attrs.push((name.to_string(), a.clone()));
        Some(a)
    }

    /// The statement reading attribute `name` into its local.
    pub(super) fn read_attr(&mut self, name: &str, a: &Attr) -> Option<TokenStream> {
        let f = f();
        let decl = *self.decls.iter().find(|d| d.name == name)?;
        let read = match decl.ty.base.as_str() {
            "int" => quote!(#f::attr_int(cx, #name)?),
            "bool" => quote!(#f::attr_bool(cx, #name)?),
            "dtype" => quote!(#f::attr_dtype(cx, #name)?),
            "[int]" => quote!(#f::attr_ints(cx, #name, true)?),
            _ => quote!(#f::attr_ints(cx, #name, false)?),
        };
        let ident = &a.ident;
        if a.optional {
            return Some(quote!(let #ident = #read;));
        }
        let default = match &decl.default {
            Some(d) => {
                let saved = std::mem::take(&mut self.env);
                let v = self.expect(d, a.rep);
                self.env = saved;
                v?
            }
            // No value: the interpreter reports it.
            None => quote!(return ::core::option::Option::None),
        };
        Some(quote! {
            let #ident = match #read {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => #default,
            };
        })
    }

    pub(super) fn term(&mut self, t: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        if is_shape_dim(t) && !self.memo.is_empty() {
            let key = show(t);
            if let Some((_, v)) = self.memo.iter().find(|(k, _)| *k == key) {
                let ident = &v.ident;
                return Some(Val::new(v.rep, quote!(#ident)));
            }
        }
        Some(match t {
            Term::Name(id) => {
                let n = id.to_string();
                if let Some(v) = self.env.get(&n) {
                    let ident = &v.ident;
                    if v.once {
                        return Some(Val::new(v.rep, quote!((#ident?))));
                    }
                    return Some(Val::new(v.rep, quote!(#ident)));
                }
                if self.c.vars.contains(&n) {
                    return None;
                }
                let Some(Ok(d)) = dtype_literal(&n) else {
                    return None;
                };
                let code = Ident::new(d.code, id.span());
                let (bits, lanes) = (d.bits, d.lanes);
                Val::new(
                    Rep::DType,
                    quote!(#f::dtype(#p::DTypeCode::#code, #bits, #lanes)),
                )
            }
            Term::Int(v, _) => Val::new(Rep::Int, quote!(#v)),
            Term::Bool(b, _) => Val::new(Rep::Bool, quote!(#b)),
            Term::Any(_) => Val::new(Rep::Dim, quote!(::relay_core::Dims::ANY)),
            Term::Call { name, args } => return self.call(&name.to_string(), args),
            Term::List(_, items) => {
                let mut vals = Vec::new();
                for item in items {
                    vals.push(match item {
                        ListItem::Dim(t) => (false, self.term(t)?),
                        ListItem::Splice(_, t) => (true, self.term(t)?),
                    });
                }
                let ints = vals
                    .iter()
                    .all(|(_, v)| matches!(v.rep, Rep::Int | Rep::Ints));
                let (rep, item_rep) = if ints {
                    (Rep::Ints, Rep::Int)
                } else {
                    (Rep::Dims, Rep::Dim)
                };
                let mut pushes = Vec::new();
                for (splice, v) in vals {
                    pushes.push(if splice {
                        let code = self.convert(v, rep)?;
                        let (bx, x) = by_ref(&code, format_ident!("__x"));
                        quote!({ #bx __l.extend(#x.items())?; })
                    } else {
                        let code = self.convert(v, item_rep)?;
                        quote!({ let __x = #code; __l.push(__x)?; })
                    });
                }
                Val::new(
                    rep,
                    quote!({ let mut __l = #f::List::default(); #(#pushes)* __l }),
                )
            }
            Term::Index(b, _, i) if self.c.shape_index(i) => {
                let b = self.term(b)?;
                if !matches!(b.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let i = self.expect(i, Rep::Ints)?;
                let code = &b.code;
                Val::new(b.rep, quote!({ let __i = #i; (#code).gather(&__i)? }))
            }
            // A dimension of a tensor's shape, without the shape.
            Term::Index(b, _, i) if is_call(b, "shape") => {
                let Term::Call { args, .. } = &**b else {
                    return None;
                };
                let x = self.expect(&args[0], Rep::Ty)?;
                let i = self.expect(i, Rep::Int)?;
                Val::new(
                    Rep::Dim,
                    quote!({ let __t = #x; let __i = #i; #f::shape_dim(cx, __t, __i)? }),
                )
            }
            Term::Index(b, _, i) => {
                let b = self.term(b)?;
                let i = self.expect(i, Rep::Int)?;
                let code = &b.code;
                match b.rep {
                    Rep::Ints => Val::new(Rep::Int, quote!({ let __i = #i; (#code).at(__i)? })),
                    Rep::Dims => Val::new(Rep::Dim, quote!({ let __i = #i; (#code).at(__i)? })),
                    Rep::Ty => Val::new(
                        Rep::Ty,
                        quote!({ let __i = #i; let __t = #code; let __t = #f::tuple(cx, __t)?; #f::field(cx, __t, __i)? }),
                    ),
                    Rep::Tuple => Val::new(
                        Rep::Ty,
                        quote!({ let __i = #i; #f::field(cx, #code, __i)? }),
                    ),
                    _ => return None,
                }
            }
            Term::Slice(b, _, lo, hi) => {
                let b = self.term(b)?;
                if !matches!(b.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let mut bound = |t: &Option<Box<Term>>| -> Option<TokenStream> {
                    Some(match t {
                        Some(t) => {
                            let v = self.expect(t, Rep::Int)?;
                            quote!(::core::option::Option::Some(#v))
                        }
                        None => quote!(::core::option::Option::None),
                    })
                };
                let (lo, hi) = (bound(lo)?, bound(hi)?);
                let code = &b.code;
                Val::new(
                    b.rep,
                    quote!({ let __lo = #lo; let __hi = #hi; (#code).slice(__lo, __hi) }),
                )
            }
            // `floor(d * x)` for a float `x`.
            Term::Binary(BinOp::Mul, _, a, b) if self.c.is_float(a) || self.c.is_float(b) => {
                let (d, x) = if self.c.is_float(b) { (a, b) } else { (b, a) };
                let (d, x) = (self.expect(d, Rep::Dim)?, self.float(x)?);
                Val::new(
                    Rep::Dim,
                    quote!({ let __d = #d; let __x = #x; #f::scale_floor(cx, __d, __x)? }),
                )
            }
            Term::Binary(op, _, a, b) => self.arith(arith(*op), a, b)?,
            Term::Neg(_, a) => {
                let a = self.term(a)?;
                let code = &a.code;
                match a.rep {
                    Rep::Int => Val::new(Rep::Int, quote!((#code).checked_neg()?)),
                    Rep::Dim => Val::new(Rep::Dim, quote!({ let __a = #code; #f::neg(cx, __a)? })),
                    _ => return None,
                }
            }
            Term::Logic(and, _, a, b) => {
                let (a, b) = (self.expect(a, Rep::Bool)?, self.expect(b, Rep::Bool)?);
                let code = if *and {
                    quote!((#a && #b))
                } else {
                    quote!((#a || #b))
                };
                Val::new(Rep::Bool, code)
            }
            Term::Not(_, a) => {
                let a = self.expect(a, Rep::Bool)?;
                Val::new(Rep::Bool, quote!((!#a)))
            }
            Term::Cmp(op, _, a, b) => return self.cmp(*op, a, b),
            Term::Attr(_, name) => {
                let Attr {
                    ident,
                    rep,
                    optional,
                } = self.attr(&name.to_string())?;
                if optional {
                    Val::new(rep, quote!((*#ident.as_ref()?)))
                } else {
                    Val::new(rep, quote!(#ident))
                }
            }
            Term::Comp(comp) => {
                let (elem, var, src, cond) = comp.parts();
                let saved = self.env.clone();
                let mut rep = None;
                let mut used: Vec<&Term> = vec![elem];
                used.extend(cond.as_ref());
                let body = self.each(src, var, &used, |g| {
                    let e = g.term(elem)?;
                    rep = Some(e.rep);
                    let e = e.code;
                    let push = quote!({ let __x = #e; __out.push(__x)?; });
                    Some(match cond {
                        Some(c) => {
                            let c = g.expect(c, Rep::Bool)?;
                            quote!(if (#c) #push)
                        }
                        None => push,
                    })
                });
                self.env = saved;
                let body = body?;
                let rep = match rep? {
                    Rep::Int => Rep::Ints,
                    Rep::Dim => Rep::Dims,
                    _ => return None,
                };
                Val::new(
                    rep,
                    quote!({ let mut __out = #f::List::default(); #body __out }),
                )
            }
            Term::In(_, x, l) => {
                let (x, l) = (self.term(x)?, self.term(l)?);
                if x.rep == Rep::Int && l.rep == Rep::Ints {
                    let (x, l) = (x.code, l.code);
                    Val::new(Rep::Bool, {
                        let (bl, l) = by_ref(&l, format_ident!("__l"));
                        quote!({ let __x = #x; #bl #l.items().contains(&__x) })
                    })
                } else {
                    let (x, l) = (self.convert(x, Rep::Dim)?, self.convert(l, Rep::Dims)?);
                    Val::new(Rep::Bool, {
                        let (bl, l) = by_ref(&l, format_ident!("__l"));
                        quote!({ let __x = #x; #bl #f::dim_in(cx, __x, &#l)? })
                    })
                }
            }
            Term::IfElse(_, c, a, b) => {
                let c = self.expect(c, Rep::Bool)?;
                let (a, b) = (self.term(a)?, self.term(b)?);
                let rep = match (a.rep, b.rep) {
                    (x, y) if x == y => x,
                    (Rep::Int, Rep::Dim) | (Rep::Dim, Rep::Int) => Rep::Dim,
                    (Rep::Ints, Rep::Dims) | (Rep::Dims, Rep::Ints) => Rep::Dims,
                    _ => return None,
                };
                let (a, b) = (self.convert(a, rep)?, self.convert(b, rep)?);
                Val::new(rep, quote!(if (#c) { #a } else { #b }))
            }
            Term::Repeat(_, d, n) => {
                let (d, n) = (self.term(d)?, self.expect(n, Rep::Int)?);
                let rep = match d.rep {
                    Rep::Int => Rep::Ints,
                    Rep::Dim => Rep::Dims,
                    _ => return None,
                };
                let d = d.code;
                Val::new(
                    rep,
                    quote!({ let __d = #d; let __n = #n; #f::List::repeat(__d, __n)? }),
                )
            }
            Term::Tuple(_, fields) => return self.mk_tuple(fields),
            Term::Rust { args, .. } => {
                let k = rust_fn(&self.c.rust_calls, t);
                let mut vals = Vec::new();
                for a in args {
                    vals.push(self.value(a)?);
                }
                Val::new(
                    Rep::Value,
                    quote!({ let mut __args = [#(#vals),*]; #f::call(cx, #k, &mut __args)? }),
                )
            }
            Term::Wild(_)
            | Term::Rest(..)
            | Term::Str(_)
            | Term::Float(..)
            | Term::As(..)
            | Term::Range(..) => return None,
        })
    }

    /// The float `t`: a literal, a `float` attribute, or `attrs.name[k]` of a `[float]`
    /// one (what the checker calls a float).
    fn float(&mut self, t: &Term) -> Option<TokenStream> {
        let f = f();
        let literal = |t: &Term| match t {
            Term::Float(x, _) => Some(*x),
            Term::Int(v, _) => Some(*v as f64),
            _ => None,
        };
        let decl = |g: &Self, name: &Ident| g.decls.iter().find(|d| d.name == *name).copied();
        Some(match t {
            Term::Float(x, _) => quote!(#x),
            Term::Attr(_, name) => {
                let d = decl(self, name)?;
                let has_default = d.default.as_ref().is_some_and(|x| !is_none(x));
                let default = match d.default.as_ref().and_then(literal) {
                    Some(x) => quote!(::core::option::Option::Some(#x)),
                    None => quote!(::core::option::Option::None),
                };
                let name = name.to_string();
                quote!(#f::float_attr(cx, #name, #default, #has_default)?)
            }
            Term::Index(b, _, k) => {
                let Term::Attr(_, name) = &**b else {
                    return None;
                };
                let d = decl(self, name)?;
                let has_default = d.default.as_ref().is_some_and(|x| !is_none(x));
                let default = match &d.default {
                    Some(Term::List(_, items)) => {
                        let xs = items.iter().filter_map(|i| match i {
                            ListItem::Dim(t) => literal(t),
                            ListItem::Splice(..) => None,
                        });
                        quote!(::core::option::Option::Some(&[#(#xs),*]))
                    }
                    _ => quote!(::core::option::Option::None),
                };
                let k = self.expect(k, Rep::Int)?;
                let name = name.to_string();
                quote!({ let __k = #k; #f::float_at(cx, #name, #default, #has_default, __k)? })
            }
            _ => return None,
        })
    }

    /// `t` as a value passed to a Rust function.
    fn value(&mut self, t: &Term) -> Option<TokenStream> {
        let f = f();
        let p = quote!(::relay_core::__private);
        if let Term::Str(s) = t {
            return Some(quote!(#f::text_value(cx, #s)));
        }
        if let Term::Attr(_, name) = t {
            let decl = self.decls.iter().find(|d| d.name == *name)?;
            if decl.ty.base == "str" {
                let name = name.to_string();
                let default = match &decl.default {
                    Some(Term::Str(d)) => quote!(::core::option::Option::Some(#d)),
                    _ => quote!(::core::option::Option::None),
                };
                return Some(quote!(#f::attr_text(cx, #name, #default)?));
            }
        }
        let v = self.term(t)?;
        let code = v.code.clone();
        Some(match v.rep {
            Rep::Value => code,
            Rep::Int | Rep::Dim => {
                let d = self.convert(v, Rep::Dim)?;
                quote!(#p::Value::Dim(#d))
            }
            Rep::Ints | Rep::Dims => {
                let l = self.convert(v, Rep::Dims)?;
                quote!({ let __l = #l; #f::dims_value(cx, &__l) })
            }
            Rep::Ty | Rep::Tuple => quote!(#p::Value::Ty(#code)),
            Rep::DType => quote!(#p::Value::DType(#code)),
            Rep::Bool => quote!(#p::Value::Bool(#code)),
        })
    }

    /// A tuple type built of `fields` (a `..rest` among them gives its fields).
    pub(super) fn mk_tuple(&mut self, fields: &[Term]) -> Option<Val> {
        let f = f();
        let mut pushes = Vec::new();
        for field in fields {
            pushes.push(match field {
                Term::Rest(_, rest) => {
                    let t = self.expect(rest, Rep::Ty)?;
                    quote!({ let __t = #t; #f::push_fields(cx, __t, &mut __f)?; })
                }
                _ => {
                    let t = self.expect(field, Rep::Ty)?;
                    quote!({ let __t = #t; __f.push(__t); })
                }
            });
        }
        Some(Val::new(
            Rep::Tuple,
            quote!({ let mut __f = ::std::vec::Vec::new(); #(#pushes)* #f::mk_tuple(cx, &__f) }),
        ))
    }

    /// `a op b` on dimensions: natively on integers.
    pub(super) fn arith(&mut self, op: TokenStream, a: &Term, b: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        let (a, b) = (self.term(a)?, self.term(b)?);
        Some(if a.rep == Rep::Int && b.rep == Rep::Int {
            let (x, y) = (a.code, b.code);
            Val::new(
                Rep::Int,
                quote!({ let __a = #x; let __b = #y; #f::arith_int(#p::Arith::#op, __a, __b)? }),
            )
        } else {
            let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
            Val::new(
                Rep::Dim,
                quote!({ let __a = #x; let __b = #y; #f::arith(cx, #p::Arith::#op, __a, __b)? }),
            )
        })
    }

    pub(super) fn cmp(&mut self, op: CmpOp, a: &Term, b: &Term) -> Option<Val> {
        let f = f();
        let p = quote!(::relay_core::__private);
        if is_none(a) || is_none(b) {
            let attr = if is_none(b) { a } else { b };
            let Term::Attr(_, name) = attr else {
                return None;
            };
            let Attr {
                ident, optional, ..
            } = self.attr(&name.to_string())?;
            if !optional {
                return None;
            }
            return Some(Val::new(
                Rep::Bool,
                match op {
                    CmpOp::Eq => quote!(#ident.is_none()),
                    _ => quote!(#ident.is_some()),
                },
            ));
        }
        if let Some(v) = self.literal_cmp(op, a, b) {
            return v;
        }
        // `==` or `!=`, for values compared only so.
        let eq = match op {
            CmpOp::Eq => Some(quote!(==)),
            CmpOp::Ne => Some(quote!(!=)),
            _ => None,
        };
        let cmp = cmp(op);
        let (a, b) = (self.term(a)?, self.term(b)?);
        Some(Val::new(
            Rep::Bool,
            match (a.rep, b.rep) {
                (Rep::Int, Rep::Int) => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; #p::Cmp::#cmp.holds(__a, __b) })
                }
                (Rep::Int | Rep::Dim, Rep::Int | Rep::Dim) => {
                    let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
                    quote!({ let __a = #x; let __b = #y; #f::cmp(cx, #p::Cmp::#cmp, __a, __b)? })
                }
                (Rep::DType, Rep::DType) => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; #f::cmp_dtype(cx, #p::Cmp::#cmp, __a, __b)? })
                }
                (Rep::Ints, Rep::Ints) if eq.is_some() => {
                    let (ba, x) = by_ref(&a.code, format_ident!("__a"));
                    let (bb, y) = by_ref(&b.code, format_ident!("__b"));
                    quote!({ #ba #bb #x.items() #eq #y.items() })
                }
                (Rep::Ints | Rep::Dims, Rep::Ints | Rep::Dims) if eq.is_some() => {
                    let (x, y) = (self.convert(a, Rep::Dims)?, self.convert(b, Rep::Dims)?);
                    let (ba, x) = by_ref(&x, format_ident!("__a"));
                    let (bb, y) = by_ref(&y, format_ident!("__b"));
                    let not = (op == CmpOp::Ne).then(|| quote!(!));
                    quote!({ #ba #bb #not #f::same_dims(cx, &#x, &#y)? })
                }
                (Rep::Bool, Rep::Bool) if eq.is_some() => {
                    let (x, y) = (a.code, b.code);
                    quote!({ let __a = #x; let __b = #y; __a #eq __b })
                }
                _ => return None,
            },
        ))
    }

    /// `attrs.name op literal` for a `str` or `float` attribute, the literal on either
    /// side: `Some(None)` for another form the code does not compile.
    pub(super) fn literal_cmp(&mut self, op: CmpOp, a: &Term, b: &Term) -> Option<Option<Val>> {
        let f = f();
        let p = quote!(::relay_core::__private);
        // The forms the static form reads as a `StrCmp` or a `FloatCmp`.
        if !(literal(a) || literal(b) || float_attr(a, b, self.c)) {
            return None;
        }
        let (attr, lit, op) = match (a, b) {
            (Term::Attr(_, n), lit) => (n.to_string(), lit, op),
            (lit, Term::Attr(_, n)) => (n.to_string(), lit, flip(op)),
            _ => return Some(None),
        };
        let Some(decl) = self.decls.iter().find(|d| d.name == attr) else {
            return Some(None);
        };
        let has_default = decl.default.as_ref().is_some_and(|d| !is_none(d));
        let cmp = cmp(op);
        let none = quote!(::core::option::Option::None);
        let code = match (decl.ty.base.as_str(), lit) {
            ("str", Term::Str(text)) => {
                let default = match &decl.default {
                    Some(Term::Str(d)) => quote!(::core::option::Option::Some(#d)),
                    _ => none,
                };
                quote!(#f::str_cmp(cx, #attr, #default, #has_default, #p::Cmp::#cmp, #text)?)
            }
            ("float", Term::Float(..) | Term::Int(..)) => {
                let x = match lit {
                    Term::Float(x, _) => *x,
                    Term::Int(v, _) => *v as f64,
                    _ => return Some(None),
                };
                let default = match &decl.default {
                    Some(Term::Float(d, _)) => quote!(::core::option::Option::Some(#d)),
                    Some(Term::Int(d, _)) => {
                        let d = *d as f64;
                        quote!(::core::option::Option::Some(#d))
                    }
                    _ => none,
                };
                quote!(#f::float_cmp(cx, #attr, #default, #has_default, #p::Cmp::#cmp, #x)?)
            }
            _ => return Some(None),
        };
        Some(Some(Val::new(Rep::Bool, code)))
    }

    /// A test of dimension `d` (`is_any`, `is_int`): `on_int` for an integer (known, so
    /// the test is too), the code `on_dim` over the dimension `__d` otherwise.
    fn dim_test(&mut self, d: &Term, on_int: bool, on_dim: TokenStream) -> Option<Val> {
        let d = self.term(d)?;
        let code = d.code;
        match d.rep {
            Rep::Int => Some(Val::new(Rep::Bool, quote!({ let _ = #code; #on_int }))),
            Rep::Dim => Some(Val::new(Rep::Bool, quote!({ let __d = #code; #on_dim }))),
            _ => None,
        }
    }

    /// A builtin or `Tensor(..)`.
    pub(super) fn call(&mut self, name: &str, args: &[Term]) -> Option<Val> {
        let f = f();
        Some(match (name, args) {
            ("Tensor", [Term::Name(id), d]) if self.shapes.contains_key(&id.to_string()) => {
                let s = self.shapes[&id.to_string()].clone();
                let d = self.expect(d, Rep::DType)?;
                Val::new(
                    Rep::Ty,
                    quote!({ let __d = #d; #f::mk_tensor_of(cx, #s, __d) }),
                )
            }
            ("Tensor", [s, d]) => {
                let (s, d) = (self.expect(s, Rep::Dims)?, self.expect(d, Rep::DType)?);
                Val::new(Rep::Ty, {
                    let (bs, s) = by_ref(&s, format_ident!("__s"));
                    quote!({ #bs let __d = #d; #f::mk_tensor(cx, &#s, __d) })
                })
            }
            ("len", [Term::Call { name, args }]) if name == "shape" && args.len() == 1 => {
                let x = self.expect(&args[0], Rep::Ty)?;
                Val::new(Rep::Int, quote!({ let __t = #x; #f::rank(cx, __t)? }))
            }
            ("len", [x]) => {
                let x = self.term(x)?;
                let code = x.code;
                match x.rep {
                    Rep::Ints | Rep::Dims => Val::new(Rep::Int, quote!((#code).len())),
                    Rep::Ty => Val::new(
                        Rep::Int,
                        quote!({ let __t = #code; let __t = #f::tuple(cx, __t)?; #f::tuple_len(cx, __t)? }),
                    ),
                    Rep::Tuple => Val::new(Rep::Int, quote!(#f::tuple_len(cx, #code)?)),
                    _ => return None,
                }
            }
            ("shape", [x]) => {
                let x = self.expect(x, Rep::Ty)?;
                Val::new(
                    Rep::Dims,
                    quote!({ let __t = #x; let (__s, _) = #f::tensor_parts(cx, __t)?; #f::shape_dims(cx, __s)? }),
                )
            }
            ("dtype", [x]) => {
                let x = self.expect(x, Rep::Ty)?;
                Val::new(
                    Rep::DType,
                    quote!({ let __t = #x; #f::dtype_of_tensor(cx, __t)? }),
                )
            }
            ("sum", [l]) => {
                let l = self.expect(l, Rep::Dims)?;
                let (bl, l) = by_ref(&l, format_ident!("__l"));
                Val::new(Rep::Dim, quote!({ #bl #f::sum(cx, &#l)? }))
            }
            ("Tuple", fields) => return self.mk_tuple(fields),
            ("broadcast", [a, b]) => {
                let (a, b) = (self.expect(a, Rep::Dims)?, self.expect(b, Rep::Dims)?);
                let (ba, a) = by_ref(&a, format_ident!("__a"));
                let (bb, b) = by_ref(&b, format_ident!("__b"));
                Val::new(Rep::Dims, quote!({ #ba #bb #f::broadcast(cx, &#a, &#b)? }))
            }
            ("prod", [l]) => {
                let l = self.expect(l, Rep::Dims)?;
                let (bl, l) = by_ref(&l, format_ident!("__l"));
                Val::new(Rep::Dim, quote!({ #bl #f::prod(cx, &#l)? }))
            }
            ("reverse", [l]) => {
                let l = self.term(l)?;
                if !matches!(l.rep, Rep::Ints | Rep::Dims) {
                    return None;
                }
                let code = l.code;
                Val::new(l.rep, quote!((#code).reversed()))
            }
            ("is_any", [d]) => self.dim_test(d, false, quote!(#f::is_any(cx, __d)))?,
            // Natively (the call over values costs a clause like softmax's 40%).
            ("is_axis", [a, x]) => {
                let (a, x) = (self.expect(a, Rep::Int)?, self.expect(x, Rep::Ty)?);
                Val::new(
                    Rep::Bool,
                    quote!({ let __a = #a; let __t = #x; #f::is_axis(cx, __a, __t)? }),
                )
            }
            ("is_int", [d]) => self.dim_test(d, true, quote!(#f::is_int(cx, __d)?))?,
            (name, args) => match builtins::find(name)?.run {
                Run::Arith(op) => {
                    let [a, b] = args else { return None };
                    let op = format_ident!("{}", op);
                    self.arith(quote!(#op), a, b)?
                }
                Run::Value(fun) => {
                    let fun = format_ident!("{}", fun);
                    let mut vals = Vec::new();
                    for a in args {
                        vals.push(self.value(a)?);
                    }
                    let p = quote!(::relay_core::__private);
                    Val::new(
                        Rep::Value,
                        quote!({ let mut __args = [#(#vals),*]; #f::builtin(cx, #p::builtin::#fun, &mut __args)? }),
                    )
                }
                // The builtins of a term of their own are above.
                Run::Term(_) => return None,
            },
        })
    }
}
