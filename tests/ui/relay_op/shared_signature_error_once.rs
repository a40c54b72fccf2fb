use relay_core::relay_op;
use relay_ops::relations::Broadcast;

relay_op! {
    add, subtract, mul : fn<t1, t2, t3>(lhs: t1, rhs: t4) -> t3 where Broadcast, level 4;
}

fn main() {}
