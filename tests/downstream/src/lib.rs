//! A downstream crate: its own relation, operator, data type and prelude functions, found
//! at run time next to those of relay-ops.

use relay_core::{relation, relay_data, relay_op, relay_prelude};

// Link relay-ops so that its declarations are registered next to ours.
use relay_ops as _;

/// `Same(A, A) :- true`: the output is the input.
#[relation(Same(A, A) :- true)]
pub struct Same;

relay_op! {
    /// Returns its argument unchanged (a downstream operator).
    my.identity : fn<a: Type, b: Type>(data: a) -> b where Same,
        attrs { note: str = "" },
        level 9;

    /// The `k` largest values along the last axis (an operator whose relation has the
    /// name of one of relay-ops').
    my.top_k : fn<a, b>(data: a) -> b where TopK,
        attrs { k: int = 1 },
        level 9;
}

/// `TopK(Tensor(s, bt), O)`: the data's shape with `k` last. relay-ops' relation of
/// `topk` is named `TopK` too: relations of different modules may share a name, as an
/// operator names its relation by its Rust type.
#[relation(
    TopK(X @ Tensor(s, bt), O) :-
        assert(len(s) >= 1, "the data of `my.top_k` must be at least 1-D, found `{}`", X),
        O = Tensor([..s[..-1], attrs.k], bt),
        attrs(k: int = 1)
)]
pub struct TopK;

// A second block of the `my` namespace: its builders are in `my` too (`my::patches`).
relay_op! {
    /// Cuts an image into `size`×`size` patches, each a vector (a vision transformer's
    /// patch embedding, before its projection). It is also the ONNX operator `Patches` of
    /// domain `com.example`, whose attribute `patch_size` is `size`: `relay check` of the
    /// crate's own command types the models that use it.
    my.patches : fn<a, b>(data: a) -> b where Patches,
        attrs { size: int = 2 },
        onnx "com.example" Patches since 1 {
            inputs(X) => (data: X),
            attrs { size: patch_size = 2 },
        };
}

/// `Patches(Tensor([n, c, h, w], bt), O)`: `(n, (h / size) * (w / size), c * size * size)`.
#[relation(
    Patches(X @ Tensor(s, bt), O) :-
        assert(len(s) == 4, "the data of `my.patches` must be 4-D (N, C, H, W), found `{}`", X),
        assert(s[2] % attrs.size == 0 && s[3] % attrs.size == 0,
            "the height and width of `{}` must be multiples of the patch size {}", X, attrs.size),
        O = Tensor([s[0], (s[2] / attrs.size) * (s[3] / attrs.size), s[1] * attrs.size * attrs.size], bt),
        attrs(size: int = 2)
)]
pub struct Patches;

relay_data! {
    /// A pair of lists (a downstream data type over the prelude's `List`).
    data Zipper<a> {
        MkZipper : (before: List[a], after: List[a]) -> Zipper,
    }
}

// Its prelude: `@flip` and `@identities`, in scope in every program checked with
// `Prelude::standard()` (its own `relay` command's too).
relay_prelude!("my_prelude.relay");

// The crate's test of its declarations and of every crate it links (a name declared
// twice, a field of an unknown type, a prelude that does not type-check): a mistake fails
// `cargo test` with the messages its `relay` command would print.
#[test]
fn declarations() {
    relay_cli::check_declarations();
}
