use relay_core::relay_op;
use relay_ops::relations::Broadcast;

relay_op! {
    add : fn<t1: Type, t1: Type, t3: Type>(t1, t1) -> t3 where Broadcast;
}

fn main() {}
