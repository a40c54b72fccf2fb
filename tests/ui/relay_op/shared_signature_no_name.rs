use relay_core::relay_op;

relay_op! {
    add, subtract, : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where Broadcast;
}

fn main() {}
