use relay_core::relay_op;
use relay_ops::relations::Broadcast;

relay_op! {
    add, subtract, add : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where Broadcast;
}

fn main() {}
