use relay_core::{relation, relay_op, RelCx};

// A wrong signature on an imperative relation: one error, none at the operator.
#[relation(Count)]
pub fn count(cx: &mut RelCx<'_>) -> bool {
    cx.is_empty()
}

relay_op! {
    count_op : fn<a, b>(a) -> b where Count;
}

fn main() {}
