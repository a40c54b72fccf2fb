//! A clause's attributes agree with its operator's when declared alike: every type and
//! the forms of its defaults; an operator's `Option<T> = None` is the clause's `T = d`.

use relay_core::{relation, relay_op};

#[relation(
    Resize(Tensor(s, bt), O) :-
        if attrs.method == "nearest" && attrs.scale > 0.5 { O = Tensor(s, attrs.out) } else { O = Tensor(s, bt) },
        assert(len(attrs.size) == 2, "two sizes"),
        assert(attrs.axis < len(s) || attrs.flag, "axis"),
        attrs(
            method: str = "nearest",
            scale: float = 1,
            out: dtype = int32,
            size: [int] = [1, -1],
            axis: int = -1,
            flag: bool = false,
            pad: Option<[int]> = None,
            scales: [float] = [1, 2.5],
        )
)]
pub struct Resize;

relay_op! {
    resize : fn<a, b>(a) -> b where Resize,
        attrs {
            method: str = "nearest",
            scale: float = 1.0,
            out: Option<dtype> = None,
            size: [int] = [1, -1],
            axis: int = -1,
            flag: bool = false,
            pad: Option<[int]> = None,
            unread: int = 3,
            scales: [float] = [1.0, 2.5],
        };
}

fn main() {
    assert_eq!(RESIZE.attrs.len(), 9);
}
