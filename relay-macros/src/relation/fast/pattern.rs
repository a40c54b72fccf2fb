//! Patterns and unification: taking a computed value apart along a pattern, and
//! unifying two computed values.

use super::*;

impl Gen<'_> {
    /// Matches the computed `src` against `pattern`: binds its variables not bound yet,
    /// takes `Tensor`s, tuples and lists apart, unifies what is computable.
    pub(super) fn pattern(&mut self, src: Val, pattern: &Term) -> Option<TokenStream> {
        let f = f();
        if let Term::As(id, p) = pattern {
            let s = self.fresh("as");
            let code = &src.code;
            let mut out = quote!(let #s = #code;);
            out.extend(self.pattern(Val::new(src.rep, quote!(#s)), &Term::Name(id.clone()))?);
            out.extend(self.pattern(Val::new(src.rep, quote!(#s)), p)?);
            return Some(out);
        }
        if let Term::Name(id) = pattern {
            let name = id.to_string();
            if self.c.vars.contains(&name) && !self.env.contains_key(&name) {
                if self.loops > 0 {
                    return self.bind_in_loop(&name, src);
                }
                let v = self.bind(&name, src.rep)?;
                let code = src.code;
                return Some(quote!(let #v = #code;));
            }
        }
        if let Term::Wild(_) = pattern {
            let code = src.code;
            return Some(quote!(let _ = #code;));
        }
        if self.computable(pattern) {
            let b = self.term(pattern)?;
            return self.unify(src, b);
        }
        // What a Rust function gave, taken apart as the type or shape the pattern is.
        let src = match (pattern, src.rep) {
            (Term::Call { .. } | Term::Tuple(..), Rep::Value) => {
                Val::new(Rep::Ty, self.convert(src, Rep::Ty)?)
            }
            (Term::List(..), Rep::Value) => Val::new(Rep::Dims, self.convert(src, Rep::Dims)?),
            _ => src,
        };
        let code = &src.code;
        match (pattern, src.rep) {
            (Term::Call { name, args }, Rep::Ty | Rep::Tuple) if name == "Tensor" => {
                let (s, d) = (self.fresh("s"), self.fresh("d"));
                let mut out = quote! {
                    let (#s, #d) = { let __t = #code; #f::tensor_parts(cx, __t)? };
                };
                if let Term::Name(id) = &args[0] {
                    let n = id.to_string();
                    let top = self.loops == 0 && self.branches == 0;
                    if top && self.c.vars.contains(&n) && !self.env.contains_key(&n) {
                        self.shapes.insert(n, s.clone());
                    }
                }
                // The dimensions are read only when the pattern names them.
                if !matches!(args[0], Term::Wild(_)) {
                    let dims = Val::new(Rep::Dims, quote!(#f::shape_dims(cx, #s)?));
                    out.extend(self.pattern(dims, &args[0])?);
                }
                out.extend(self.pattern(Val::new(Rep::DType, quote!(#d)), &args[1])?);
                Some(out)
            }
            (Term::Call { name, args }, Rep::Ty | Rep::Tuple) if name == "Tuple" => {
                self.tuple(code, src.rep, args)
            }
            (Term::Tuple(_, fields), Rep::Ty | Rep::Tuple) => self.tuple(code, src.rep, fields),
            (Term::List(_, items), Rep::Ints | Rep::Dims) => {
                let item_rep = if src.rep == Rep::Ints {
                    Rep::Int
                } else {
                    Rep::Dim
                };
                let mut splices =
                    (0..items.len()).filter(|&k| matches!(items[k], ListItem::Splice(..)));
                let splice = splices.next();
                if splices.next().is_some() {
                    return None;
                }
                let l = self.fresh("l");
                let n = items.len() as i64;
                let mut out = quote!(let #l = #code;);
                out.extend(match splice {
                    None => quote!(if #l.len() != #n { return ::core::option::Option::None; }),
                    Some(_) => {
                        quote!(if #l.len() < #n - 1 { return ::core::option::Option::None; })
                    }
                });
                let after = splice.map_or(0, |s| items.len() - s - 1) as i64;
                for (k, item) in items.iter().enumerate() {
                    let k = k as i64;
                    match item {
                        ListItem::Dim(t) => {
                            let at = match splice {
                                Some(s) if k > s as i64 => {
                                    let back = -(items.len() as i64 - k);
                                    quote!(#l.at(#back)?)
                                }
                                _ => quote!(#l.at(#k)?),
                            };
                            out.extend(self.pattern(Val::new(item_rep, at), t)?);
                        }
                        ListItem::Splice(_, t) => {
                            let part = quote!(#l.slice(::core::option::Option::Some(#k), ::core::option::Option::Some(#l.len() - #after)));
                            out.extend(self.pattern(Val::new(src.rep, part), t)?);
                        }
                    }
                }
                Some(out)
            }
            _ => None,
        }
    }

    /// A tuple pattern against the type in `code` (held as `rep`): its fields, one of them
    /// a `..rest` or none.
    pub(super) fn tuple(
        &mut self,
        code: &TokenStream,
        rep: Rep,
        fields: &[Term],
    ) -> Option<TokenStream> {
        let f = f();
        let t = self.fresh("t");
        let mut out = match rep {
            Rep::Tuple => quote!(let #t = #code;),
            _ => quote!(let #t = { let __t = #code; #f::tuple(cx, __t)? };),
        };
        match fields.iter().position(|f| matches!(f, Term::Rest(..))) {
            Some(at) => {
                let (before, after) = (at as i64, (fields.len() - at - 1) as i64);
                let min = before + after;
                if min > 0 {
                    out.extend(quote!(if #f::tuple_len(cx, #t)? < #min { return ::core::option::Option::None; }));
                }
                for (k, field) in fields.iter().enumerate() {
                    let k = k as i64;
                    let (v, field) = match field {
                        Term::Rest(_, rest) => (
                            Val::new(Rep::Tuple, quote!(#f::middle(cx, #t, #before, #after)?)),
                            &**rest,
                        ),
                        _ if k < before => {
                            (Val::new(Rep::Ty, quote!(#f::field(cx, #t, #k)?)), field)
                        }
                        _ => {
                            let back = k - fields.len() as i64;
                            (Val::new(Rep::Ty, quote!(#f::field(cx, #t, #back)?)), field)
                        }
                    };
                    out.extend(self.pattern(v, field)?);
                }
            }
            None => {
                let n = fields.len() as i64;
                out.extend(
                    quote!(if #f::tuple_len(cx, #t)? != #n { return ::core::option::Option::None; }),
                );
                for (k, field) in fields.iter().enumerate() {
                    let k = k as i64;
                    let v = Val::new(Rep::Ty, quote!(#f::field(cx, #t, #k)?));
                    out.extend(self.pattern(v, field)?);
                }
            }
        }
        Some(out)
    }

    /// Unifies two computed values.
    pub(super) fn unify(&mut self, a: Val, b: Val) -> Option<TokenStream> {
        let f = f();
        // What a Rust function gave, held as what it is unified with.
        let (a, b) = match (a.rep, b.rep) {
            (Rep::Value, Rep::Value) => return None,
            (Rep::Value, rep) => (Val::new(rep, self.convert(a, rep)?), b),
            (rep, Rep::Value) => {
                let b = Val::new(rep, self.convert(b, rep)?);
                (a, b)
            }
            _ => (a, b),
        };
        let none = quote!(return ::core::option::Option::None;);
        let (x, y) = (&a.code, &b.code);
        Some(match (a.rep, b.rep) {
            (Rep::Ty | Rep::Tuple, Rep::Ty | Rep::Tuple) => {
                quote!({ let __a = #x; let __b = #y; #f::unify(cx, __a, __b)?; })
            }
            (Rep::Int, Rep::Int) | (Rep::Bool, Rep::Bool) => {
                quote!({ let __a = #x; let __b = #y; if __a != __b { #none } })
            }
            (Rep::Ints, Rep::Ints) => {
                quote!({ let __a = #x; let __b = #y; if __a.items() != __b.items() { #none } })
            }
            (Rep::DType, Rep::DType) => {
                quote!({ let __a = #x; let __b = #y; #f::unify_dtype(cx, __a, __b)?; })
            }
            (Rep::Int | Rep::Dim, Rep::Int | Rep::Dim) => {
                let (x, y) = (self.convert(a, Rep::Dim)?, self.convert(b, Rep::Dim)?);
                quote!({ let __a = #x; let __b = #y; #f::unify_dim(cx, __a, __b)?; })
            }
            (Rep::Ints | Rep::Dims, Rep::Ints | Rep::Dims) => {
                let (x, y) = (self.convert(a, Rep::Dims)?, self.convert(b, Rep::Dims)?);
                let (ba, a) = by_ref(&x, format_ident!("__a"));
                let (bb, b) = by_ref(&y, format_ident!("__b"));
                quote!({ #ba #bb #f::unify_dims(cx, &#a, &#b)?; })
            }
            _ => return None,
        })
    }

    /// `v` held as `rep`: a constant as a dimension, a dimension as a constant (giving up
    /// when it is not one).
    pub(super) fn convert(&mut self, v: Val, rep: Rep) -> Option<TokenStream> {
        let f = f();
        let code = v.code;
        Some(match (v.rep, rep) {
            (a, b) if a == b => code,
            (Rep::Tuple, Rep::Ty) => code,
            (Rep::Value, Rep::Dim) => quote!((#code).dim()?),
            (Rep::Value, Rep::Int) => {
                quote!({ let __d = (#code).dim()?; #f::int(cx, __d)? })
            }
            (Rep::Value, Rep::Dims) => quote!({ let __v = #code; #f::value_dims(cx, __v)? }),
            (Rep::Value, Rep::Ints) => {
                quote!({ let __v = #code; let __l = #f::value_dims(cx, __v)?; #f::ints(cx, &__l)? })
            }
            (Rep::Value, Rep::Ty) => quote!((#code).ty()?),
            (Rep::Value, Rep::DType) => quote!((#code).dtype()?),
            (Rep::Value, Rep::Bool) => quote!((#code).bool()?),
            (Rep::Int, Rep::Dim) => quote!({ let __c = #code; #f::dim(cx, __c) }),
            (Rep::Dim, Rep::Int) => quote!({ let __d = #code; #f::int(cx, __d)? }),
            (Rep::Dims, Rep::Ints) => {
                let (bind, l) = by_ref(&code, format_ident!("__l"));
                quote!({ #bind #f::ints(cx, &#l)? })
            }
            (Rep::Ints, Rep::Dims) => {
                let (bind, l) = by_ref(&code, format_ident!("__l"));
                quote!({ #bind #f::dims(cx, &#l) })
            }
            _ => return None,
        })
    }

    /// The term `t` held as `rep`.
    pub(super) fn expect(&mut self, t: &Term, rep: Rep) -> Option<TokenStream> {
        let v = self.term(t)?;
        self.convert(v, rep)
    }
}
