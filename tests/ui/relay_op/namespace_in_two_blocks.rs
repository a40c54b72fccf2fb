use relay_core::relay_op;

// Two invocations that each declare operators of the `my` namespace in one module.
relay_op! {
    my.first : fn<a>(a) -> a;
}

relay_op! {
    my.second : fn<a>(a) -> a;
}

fn main() {}
