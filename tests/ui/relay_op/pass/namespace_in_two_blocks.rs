use relay_core::relay_op;

// Two invocations that each declare operators of the `my` namespace in one module, a
// third that shares `my.sub` with the second, and one with a namespace of its own: each
// namespace is one module, which has every operator declared in it.
relay_op! {
    my.first : fn<a>(a) -> a;
    nn.only : fn<a>(a) -> a;
}

relay_op! {
    /// An operator of the second block.
    my.second : fn<a>(a) -> a, attrs { k: int = 1 };
    my.sub.third : fn<a>(a) -> a;
}

relay_op! {
    my.sub.fourth : fn<a>(a) -> a;
    my.fifth : fn<a>(a) -> a;
}

relay_op! {
    other.sixth : fn<a>(a) -> a;
}

mod inner {
    use relay_core::relay_op;

    // A module of its own: its `my` is another.
    relay_op! {
        my.seventh : fn<a>(a) -> a;
    }
}

fn main() {
    let names = [
        my::first(1).build().op.name,
        my::second(2).k(3).build().op.name,
        my::sub::third(3).build().op.name,
        my::sub::fourth(4).build().op.name,
        my::fifth(5).build().op.name,
        nn::only(6).build().op.name,
        other::sixth(7).build().op.name,
        inner::my::seventh(8).build().op.name,
    ];
    assert_eq!(
        names,
        ["my.first", "my.second", "my.sub.third", "my.sub.fourth", "my.fifth", "nn.only", "other.sixth", "my.seventh"]
    );
    // Each operator's definition and builder type, by their names in the namespace.
    let _: my::SecondBuilder<u8> = my::second(0u8);
    assert_eq!(my::SECOND.doc, "An operator of the second block.\n\nAttributes:\n\n- `k: int = 1`");
    assert_eq!(my::sub::FOURTH.name, "my.sub.fourth");
}
