//! Several operators of one signature: `a, b : fn..` declares each name, with its own
//! docs, from the one signature and its clauses (an attribute set among them), and each
//! has its builder, its registration and its doc.

use relay_core::{relay_attrs, relay_op};
use relay_ops::relations::Broadcast;

relay_attrs! {
    /// Where the channels are.
    ChannelAttrs { axis: int = 1 }
}

relay_op! {
    /// Adds.
    my.add,
    /// Subtracts, as `my.add`.
    my.subtract,
    my.mul : fn<t1, t2, t3>(lhs: t1, rhs: t2) -> t3 where Broadcast,
        attrs ChannelAttrs,
        level 10;

    /// Alone again.
    plain : fn<t1, t2, t3>(t1, t2) -> t3 where Broadcast;

    top, my.sub.deep : fn<t1, t2, t3>(t1, t2) -> t3 where Broadcast, level 3
}

fn main() {
    assert_eq!(my::add(1, 2).axis(0).build().attrs.iter().count(), 1);
    assert_eq!(my::subtract(1, 2).build().op.name, "my.subtract");
    assert_eq!(my::mul(1, 2).build().op.name, "my.mul");
    assert_eq!(my::ADD.doc, "Adds.\n\nAttributes:\n\n- `axis: int = 1`");
    assert_eq!(
        my::SUBTRACT.doc,
        "Subtracts, as `my.add`.\n\nAttributes:\n\n- `axis: int = 1`"
    );
    assert_eq!(my::MUL.doc, "Attributes:\n\n- `axis: int = 1`");
    assert_eq!((my::ADD.level, my::SUBTRACT.level, my::MUL.level), (10, 10, 10));
    assert_eq!(my::ADD.arg_names, ["lhs", "rhs"]);
    assert_eq!(my::MUL.args, ["t1", "t2"]);
    assert_eq!((PLAIN.level, PLAIN.doc), (10, "Alone again.\n\nAttributes: none."));
    assert_eq!((TOP.level, my::sub::DEEP.level), (3, 3));
}
