//! Operators: what [`relay_op!`](crate::relay_op) declares and registers.
//!
//! An operator is an [`OpDef`]: its dotted name (`nn.conv2d`), its type scheme
//! (`fn<d: Type, w: Type, o: Type>(d, w) -> o where Conv2D`), the schema of its attributes
//! with their types and defaults, and its support level. The macro writes the definition
//! as a `static`, submits it to the [registry](crate::registry), and generates a typed
//! builder for calls that gives an [`OpCall`].
//!
//! The accepted forms, with a runnable example, are in the documentation of
//! [`relay_op!`](crate::relay_op).

use crate::attrs::{AttrValue, Attrs};
use crate::dtype::DType;
use crate::kind::Kind;
use crate::relation::RelationRef;
use crate::ty::{parse_type, Binding, TypeParseError, TypeScope};
use crate::ty::{Constraint, Ty, TyCtx};
use std::fmt;

/// The type of an operator attribute.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum AttrType {
    /// `int`: an `i64`.
    Int,
    /// `float`: an `f64` (an integer is accepted and converted).
    Float,
    /// `bool`.
    Bool,
    /// `str`.
    Str,
    /// `dtype`: a data type (a string naming one is accepted and parsed).
    DType,
    /// `[T]`: a list.
    List(&'static AttrType),
    /// `Option<T>`: a value or `None`.
    Option(&'static AttrType),
    /// `T | U`: a value of either type (`indices_or_sections: int | [int]`).
    Either(&'static AttrType, &'static AttrType),
}

impl fmt::Display for AttrType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttrType::Int => f.write_str("int"),
            AttrType::Float => f.write_str("float"),
            AttrType::Bool => f.write_str("bool"),
            AttrType::Str => f.write_str("str"),
            AttrType::DType => f.write_str("dtype"),
            AttrType::List(t) => write!(f, "[{t}]"),
            AttrType::Option(t) => write!(f, "Option<{t}>"),
            AttrType::Either(a, b) => write!(f, "{a} | {b}"),
        }
    }
}

/// A constant attribute value, as a declaration writes a default.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum AttrConst {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(&'static str),
    /// A data type by name (checked by the macro).
    DType(&'static str),
    /// A list.
    List(&'static [AttrConst]),
    /// `None`.
    None,
}

impl AttrConst {
    /// The value as an [`AttrValue`].
    pub fn value(&self) -> AttrValue {
        match *self {
            AttrConst::Int(i) => AttrValue::Int(i),
            AttrConst::Float(x) => AttrValue::Float(x),
            AttrConst::Bool(b) => AttrValue::Bool(b),
            AttrConst::Str(s) => AttrValue::Str(s.into()),
            AttrConst::DType(d) => match d.parse::<DType>() {
                Ok(d) => AttrValue::DType(d),
                Err(_) => AttrValue::Str(d.into()),
            },
            AttrConst::List(items) => AttrValue::List(items.iter().map(|c| c.value()).collect()),
            AttrConst::None => AttrValue::None,
        }
    }
}

/// One attribute of an operator's schema.
#[derive(Debug, PartialEq)]
pub struct AttrDef {
    /// Its name (`strides`).
    pub name: &'static str,
    /// Its type.
    pub ty: AttrType,
    /// Its default; `None` for a required attribute.
    pub default: Option<AttrConst>,
}

/// A type parameter of an operator's type scheme.
#[derive(Debug, PartialEq)]
pub struct TypeParamDef {
    /// Its name.
    pub name: &'static str,
    /// Its kind.
    pub kind: Kind,
}

/// An operator, as `relay_op!` declares it.
#[derive(Debug, PartialEq)]
pub struct OpDef {
    /// The dotted name (`nn.conv2d`).
    pub name: &'static str,
    /// The doc comment.
    pub doc: &'static str,
    /// The type parameters of its scheme, with their kinds.
    pub params: &'static [TypeParamDef],
    /// The argument names (`data`, `weight`; `arg0`, `arg1`, ... when not named).
    pub arg_names: &'static [&'static str],
    /// The argument types in the text syntax, over the parameters.
    pub args: &'static [&'static str],
    /// The result type in the text syntax.
    pub ret: &'static str,
    /// The relation over the arguments and the result, if any.
    pub relation: Option<RelationRef>,
    /// The attribute schema, in declaration order.
    pub attrs: &'static [AttrDef],
    /// TVM's support level (1 to 11: 11 is the quantized operators').
    pub level: u8,
    /// Where it was declared (`file!()`).
    pub file: &'static str,
    /// The line it was declared on.
    pub line: u32,
}

/// An error in the attributes of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrError {
    /// The attribute at fault.
    pub attr: Box<str>,
    /// What is wrong, lowercase, without a trailing period.
    pub message: String,
    /// How to fix it, where that is known (the attribute it was probably meant to be).
    pub help: Option<String>,
}

impl fmt::Display for AttrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for AttrError {}

impl OpDef {
    /// The operator's function type in `tcx`: fresh parameters with their kinds, the
    /// arguments, the result, and the relation over the arguments and the result.
    ///
    /// # Panics
    ///
    /// Never for an operator declared with `relay_op!`, whose types are checked at compile
    /// time; see [`OpDef::try_ty`] for hand-built definitions.
    pub fn ty(&self, tcx: &mut TyCtx) -> Ty {
        match self.try_ty(tcx, &TypeScope::new()) {
            Ok(t) => t,
            Err(e) => panic!("the type of operator `{}` is malformed: {e}", self.name),
        }
    }

    /// Its type and, when that is the common scheme `fn [t1, .., tk](t1, ..) -> tk where
    /// R(t1, .., tk)` of distinct type parameters (most operators), its relation and arity:
    /// a call of it can put the relation straight over its arguments' types and a fresh
    /// result, without instantiating the type.
    ///
    /// ```
    /// let mut tcx = relay_core::TyCtx::new();
    /// let op = relay_core::registry::global().ok().and_then(|r| r.op("add"));
    /// # if let Some(op) = op {
    /// let s = op.scheme(&mut tcx);
    /// assert_eq!((s.relation.map(|r| r.name()), s.arity), (Some("Broadcast"), 2));
    /// # }
    /// ```
    pub fn scheme(&self, tcx: &mut TyCtx) -> OpScheme {
        let ty = self.ty(tcx);
        let crate::ty::TyData::Func(f) = tcx.data(ty).clone() else {
            unreachable!("an operator's type is a function")
        };
        let mut seen = Vec::with_capacity(f.args.len() + 1);
        let distinct = f.args.iter().chain([&f.ret]).all(|&t| match tcx.data(t) {
            crate::ty::TyData::Param(_) if !seen.contains(&t) => {
                seen.push(t);
                true
            }
            _ => false,
        });
        let relation = match &*f.constraints {
            [c] if distinct && c.args[..] == seen[..] => Some(c.relation),
            _ => None,
        };
        OpScheme {
            ty,
            relation,
            arity: f.args.len(),
        }
    }

    /// [`OpDef::ty`], resolving names the parameters do not bind (ADT handles) in `scope`.
    pub fn try_ty(&self, tcx: &mut TyCtx, scope: &TypeScope) -> Result<Ty, TypeParseError> {
        let mut scope = scope.clone();
        let params: Vec<_> = self
            .params
            .iter()
            .map(|p| {
                let param = tcx.param(p.name, p.kind);
                scope.bind(p.name, Binding::Param(param));
                param
            })
            .collect();
        let mut tys = Vec::with_capacity(self.args.len() + 1);
        for src in self.args.iter().chain([&self.ret]) {
            tys.push(parse_type(tcx, &mut scope, src)?);
        }
        let ret = tys.pop().expect("the result type is always there");
        let constraints = match self.relation {
            Some(relation) => {
                let mut args = tys.clone();
                args.push(ret);
                vec![Constraint {
                    relation,
                    args: args.into(),
                }]
            }
            None => Vec::new(),
        };
        Ok(tcx.func(&params, &tys, ret, constraints))
    }

    /// The schema of attribute `name`, if the operator has one.
    pub fn attr(&self, name: &str) -> Option<&'static AttrDef> {
        self.attrs.iter().find(|a| a.name == name)
    }

    /// The attributes of a call given `given`: every attribute of the schema in
    /// declaration order, the given value or the default. An unknown attribute, a value of
    /// the wrong type or a missing required attribute is an error.
    ///
    /// ```
    /// use relay_core::op::{AttrConst, AttrDef, AttrType, OpDef};
    /// use relay_core::{AttrValue, Attrs};
    /// static OP: OpDef = OpDef {
    ///     name: "sum", doc: "", params: &[], arg_names: &[], args: &[], ret: "float32",
    ///     relation: None, level: 4, file: file!(), line: line!(),
    ///     attrs: &[AttrDef { name: "keepdims", ty: AttrType::Bool, default: Some(AttrConst::Bool(false)) }],
    /// };
    /// let attrs = OP.attrs_for_call(&Attrs::EMPTY).unwrap();
    /// assert_eq!(attrs.get("keepdims"), Some(&AttrValue::Bool(false)));
    /// let err = OP.attrs_for_call(&Attrs::new(vec![("axes".into(), AttrValue::Int(1))])).unwrap_err();
    /// assert_eq!(err.message, "`sum` has no attribute `axes` (its attribute is `keepdims`)");
    /// ```
    ///
    /// An optional dtype given as `""` (how TVM prints an unset dtype) is `None`; a
    /// required one must name a dtype:
    ///
    /// ```
    /// use relay_core::op::{AttrConst, AttrDef, AttrType, OpDef};
    /// use relay_core::{AttrValue, Attrs, DType};
    /// static OP: OpDef = OpDef {
    ///     name: "nn.dense", doc: "", params: &[], arg_names: &[], args: &[], ret: "float32",
    ///     relation: None, level: 1, file: file!(), line: line!(),
    ///     attrs: &[
    ///         AttrDef { name: "out_dtype", ty: AttrType::Option(&AttrType::DType), default: Some(AttrConst::None) },
    ///         AttrDef { name: "dtype", ty: AttrType::DType, default: Some(AttrConst::DType("int32")) },
    ///     ],
    /// };
    /// let call = |name: &str, v: &str| OP.attrs_for_call(&Attrs::new(vec![(name.into(), AttrValue::Str(v.into()))]));
    /// assert_eq!(call("out_dtype", "").unwrap().get("out_dtype"), Some(&AttrValue::None));
    /// assert_eq!(call("out_dtype", "float16").unwrap().get("out_dtype"), Some(&AttrValue::DType(DType::FLOAT16)));
    /// assert_eq!(call("dtype", "").unwrap_err().message, "attribute `dtype` of `nn.dense` expects `dtype`, found `\"\"`");
    /// ```
    pub fn attrs_for_call(&self, given: &Attrs) -> Result<Attrs, AttrError> {
        let mut values: Vec<Option<AttrValue>> = vec![None; self.attrs.len()];
        for (name, value) in given.iter() {
            let Some(i) = self.attrs.iter().position(|a| a.name == name) else {
                let known = self.attrs.iter().map(|a| a.name);
                return Err(AttrError {
                    attr: name.into(),
                    message: self.unknown_attr(name),
                    help: crate::diag::did_you_mean(name, known)
                        .map(|a| format!("did you mean `{a}`?")),
                });
            };
            let def = &self.attrs[i];
            let value = coerce(def.ty, value).ok_or_else(|| AttrError {
                attr: name.into(),
                message: format!(
                    "attribute `{name}` of `{}` expects `{}`, found `{value}`",
                    self.name, def.ty
                ),
                help: None,
            })?;
            values[i] = Some(value);
        }
        let mut out = Vec::with_capacity(self.attrs.len());
        for (def, value) in self.attrs.iter().zip(values) {
            let value = match (value, &def.default) {
                (Some(v), _) => v,
                (None, Some(d)) => d.value(),
                (None, None) => {
                    return Err(AttrError {
                        attr: def.name.into(),
                        message: format!(
                            "`{}` needs attribute `{}` of type `{}`",
                            self.name, def.name, def.ty
                        ),
                        help: Some(format!("add `{}=...` to the call", def.name)),
                    })
                }
            };
            out.push((def.name.into(), value));
        }
        Ok(Attrs::new(out))
    }

    fn unknown_attr(&self, name: &str) -> String {
        let known: Vec<String> = self.attrs.iter().map(|a| format!("`{}`", a.name)).collect();
        match known.len() {
            0 => format!("`{}` has no attribute `{name}` (it takes none)", self.name),
            1 => format!(
                "`{}` has no attribute `{name}` (its attribute is {})",
                self.name, known[0]
            ),
            _ => format!(
                "`{}` has no attribute `{name}` (its attributes are {})",
                self.name,
                known.join(", ")
            ),
        }
    }
}

/// `value` as a value of type `ty`, converting an integer to a float and a string naming
/// a data type to that data type; `None` if it is not of that type. For an optional data
/// type the empty string is `None`: TVM prints an unset `DataType` (its `void`, 0 bits) as
/// `""` (`out_dtype=""`), and its relations read it as "the input's dtype".
fn coerce(ty: AttrType, value: &AttrValue) -> Option<AttrValue> {
    Some(match (ty, value) {
        (AttrType::Option(AttrType::DType), AttrValue::Str(s)) if s.is_empty() => AttrValue::None,
        (AttrType::Int, AttrValue::Int(_))
        | (AttrType::Float, AttrValue::Float(_))
        | (AttrType::Bool, AttrValue::Bool(_))
        | (AttrType::Str, AttrValue::Str(_))
        | (AttrType::DType, AttrValue::DType(_))
        | (AttrType::Option(_), AttrValue::None) => value.clone(),
        (AttrType::Float, AttrValue::Int(i)) => AttrValue::Float(*i as f64),
        (AttrType::DType, AttrValue::Str(s)) => AttrValue::DType(s.parse().ok()?),
        (AttrType::List(t), AttrValue::List(items)) => AttrValue::List(
            items
                .iter()
                .map(|v| coerce(*t, v))
                .collect::<Option<Vec<_>>>()?,
        ),
        (AttrType::Option(t), v) => coerce(*t, v)?,
        (AttrType::Either(a, b), v) => coerce(*a, v).or_else(|| coerce(*b, v))?,
        _ => return None,
    })
}

/// An operator's type and, for the common scheme, its relation and arity: see
/// [`OpDef::scheme`].
#[derive(Copy, Clone, Debug)]
pub struct OpScheme {
    /// The operator's type.
    pub ty: Ty,
    /// Its one relation over its arguments and result in order, if it has that form.
    pub relation: Option<RelationRef>,
    /// Its number of arguments.
    pub arity: usize,
}

/// A call of an operator built in Rust: the operator, its arguments and its attributes
/// with the defaults filled in. Generic over the argument type, which is whatever the
/// caller builds expressions with.
#[derive(Clone, Debug, PartialEq)]
pub struct OpCall<E> {
    /// The operator.
    pub op: &'static OpDef,
    /// The arguments, in order.
    pub args: Vec<E>,
    /// Every attribute of the operator's schema, in declaration order.
    pub attrs: Attrs,
}

/// The value of a `T | [T]` attribute (TVM's `indices_or_sections: int | [int]`): one
/// value or a list of them. A builder's setter of such an attribute takes anything that
/// converts into it: a value, an array or a `Vec`.
///
/// ```
/// use relay_core::op::OneOrList;
/// use relay_core::AttrValue;
/// assert_eq!(OneOrList::from(3), OneOrList::One(3));
/// assert_eq!(OneOrList::from([2, 5]), OneOrList::List(vec![2, 5]));
/// assert_eq!(AttrValue::from(OneOrList::<i64>::from([2, 5])).to_string(), "[2, 5]");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum OneOrList<T> {
    /// One value (`3`).
    One(T),
    /// A list of values (`[2, 5]`).
    List(Vec<T>),
}

impl<T> From<T> for OneOrList<T> {
    fn from(value: T) -> Self {
        OneOrList::One(value)
    }
}

impl<T, const N: usize> From<[T; N]> for OneOrList<T> {
    fn from(items: [T; N]) -> Self {
        OneOrList::List(items.into())
    }
}

impl<T> From<Vec<T>> for OneOrList<T> {
    fn from(items: Vec<T>) -> Self {
        OneOrList::List(items)
    }
}

impl<T: Into<AttrValue>> From<OneOrList<T>> for AttrValue {
    fn from(value: OneOrList<T>) -> Self {
        match value {
            OneOrList::One(v) => v.into(),
            OneOrList::List(items) => items.into(),
        }
    }
}

/// The state of a generated builder: the operator, the arguments and the attributes set
/// so far. The generated builder wraps it and adds one typed setter per attribute.
#[derive(Clone, Debug)]
pub struct CallBuilder<E> {
    op: &'static OpDef,
    args: Vec<E>,
    given: Vec<(Box<str>, AttrValue)>,
}

impl<E> CallBuilder<E> {
    /// A call of `op` on `args` with no attribute set.
    pub fn new(op: &'static OpDef, args: Vec<E>) -> Self {
        CallBuilder {
            op,
            args,
            given: Vec::new(),
        }
    }

    /// Sets attribute `name` (replacing an earlier value).
    pub fn set(mut self, name: &'static str, value: AttrValue) -> Self {
        match self.given.iter_mut().find(|(n, _)| &**n == name) {
            Some(slot) => slot.1 = value,
            None => self.given.push((name.into(), value)),
        }
        self
    }

    /// The call, with defaults filled in.
    ///
    /// # Panics
    ///
    /// Never through a generated builder, whose setters are typed and whose constructor
    /// takes every required attribute.
    pub fn build(self) -> OpCall<E> {
        let attrs = match self.op.attrs_for_call(&Attrs::new(self.given)) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        };
        OpCall {
            op: self.op,
            args: self.args,
            attrs,
        }
    }
}
