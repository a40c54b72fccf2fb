use relay_core::relay_op;

relay_op! {
    head : fn<a: Type>(List[a]) -> a;
}

fn main() {}
