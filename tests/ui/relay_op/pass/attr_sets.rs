//! Named attribute sets: an operator takes one with `attrs Name`, a clause with
//! `attrs(Name)`; several operators share one set; a set declared in a module
//! (`#[macro_use]`) is in scope after it; a set may take several others' attributes.

use relay_core::{relation, relay_attrs, relay_op};

#[macro_use]
mod sets {
    relay_core::relay_attrs! {
        /// The attributes of the reductions.
        ReduceAttrs { axis: Option<[int]> = None, keepdims: bool = false, exclude: bool = false }
    }
}

relay_attrs! {
    /// A set of one attribute.
    AxisAttrs { axis: int = -1 }
    /// Another's attributes, then one more.
    AxisSizeAttrs { ..AxisAttrs, size: int = 2 }
    /// A stride.
    StrideAttrs { stride: int = 1 }
    /// Two others' attributes, with one between them.
    SpanAttrs { ..AxisAttrs, size: int = 2, ..StrideAttrs }
}

#[relation(Keep(I, I) :- attrs(AxisAttrs))]
pub struct Keep;

relay_op! {
    first : fn<a, b>(a) -> b where Keep, attrs AxisAttrs;
    second : fn<a, b>(a) -> b where Keep, attrs AxisAttrs, level 3;
    total : fn<a, b>(a) -> b, attrs ReduceAttrs, level 4;
    window : fn<a, b>(a) -> b where Keep, attrs AxisSizeAttrs;
    span : fn<a, b>(a) -> b, attrs SpanAttrs;
}

fn main() {
    assert_eq!(FIRST.attrs.len(), 1);
    assert_eq!(SECOND.level, 3);
    assert_eq!(TOTAL.attrs.len(), 3);
    let names: Vec<&str> = WINDOW.attrs.iter().map(|a| a.name).collect();
    assert_eq!(names, ["axis", "size"]);
    let names: Vec<&str> = SPAN.attrs.iter().map(|a| a.name).collect();
    assert_eq!(names, ["axis", "size", "stride"]);
}
