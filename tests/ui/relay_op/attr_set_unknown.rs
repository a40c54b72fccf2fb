use relay_core::relay_op;

relay_op! {
    // No set of this name is in scope.
    pick : fn<a, b>(a) -> b, attrs PickAttrs;
}

fn main() {}
