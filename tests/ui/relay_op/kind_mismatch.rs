use relay_core::relay_op;
use relay_ops::relations::Broadcast;

relay_op! {
    add : fn<t1: Type, s: Shape, t3: Type>(t1, s) -> t3 where Broadcast;
}

fn main() {}
