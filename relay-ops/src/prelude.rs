//! The data types of Relay's prelude, in the spec's notation.

use relay_core::relay_data;

relay_data! {
    /// A list: empty, or a head and a tail.
    data List<a> {
        Nil : () -> List,
        Cons : (a, List[a]) -> List,
    }

    /// An optional value.
    data Optional<a> {
        None : () -> Optional,
        Some : (a) -> Optional,
    }

    /// A rose tree: a value and a list of subtrees.
    data Tree<a> {
        Rose : (a, List[Tree[a]]) -> Tree,
    }

    /// Natural numbers in unary (TVM's prelude: `type nat { zero, succ(nat) }`).
    data nat {
        zero
        succ(nat)
    }
}
