use relay_core::{relation, RelCx};

#[relation(Concat)]
fn concat(cx: &mut RelCx<'_>) {
    let _ = cx;
}

fn main() {}
