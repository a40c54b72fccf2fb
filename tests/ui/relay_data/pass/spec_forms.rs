use relay_core::relay_data;

relay_data! {
    /// The spec's notation without commas.
    data List<a> {
        Nil : () -> List
        Cons : (a, List[a]) -> List
    }
    /// With commas, a type call as the result, named fields.
    data Optional<a> {
        None : () -> Optional,
        Some : (value: a) -> Optional[a],
    }
    /// Recursion through another data type of the invocation; tensors, tuples, functions.
    data Tree<a> { Rose : (a, List[Tree[a]]) -> Tree }
    data Numbers {
        Empty : () -> Numbers,
        Single : (Tensor[(), int32]) -> Numbers,
        Pair : ((int32, float32), fn (int32) -> int32) -> Numbers,
    }
    /// TVM's form and an empty data type.
    data nat { zero, succ(nat) }
    data Void {}
}

fn main() {
    let _ = List::cons(1, 2);
    let _ = Optional::some(1);
    let _ = Tree::rose(1, 2);
    let _ = Numbers::pair(1, 2);
    let _ = nat::succ(0);
    assert_eq!(Void::DEF.ctors.len(), 0);
}
