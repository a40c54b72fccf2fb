use relay_core::relay_op;
use relay_ops::relations::Broadcast;

relay_op! {
    /// The spec's form.
    add2 : fn<t1 : Type, t2 : Type, t3 : Type>(t1, t2) -> t3 where Broadcast;
    /// Named arguments, kinds, attributes of every type, a level, a dotted name.
    nn.conv2d : fn<d: Type, w: Type, o: Type>(data: d, weight: w) -> o where Broadcast,
        attrs {
            strides: [int] = [1, 1],
            padding: [int] = [0, 0],
            channels: Option<int> = None,
            data_layout: str = "NCHW",
            out_dtype: Option<dtype> = None,
            epsilon: float = -1e-5,
            center: bool = true,
            dtype: dtype = float32,
            axes: Option<[int]> = Some([0, -1]),
            sections: int | [int] = [1, 2],
        },
        level 2;
    /// Clauses in any order; a required attribute; no relation.
    nn.reshape : fn<t, u>(data: t) -> u, level 3, attrs { newshape: [int] };
    /// Types of the text syntax over parameters of every kind.
    cast : fn<s: Shape, a: BaseType, n: ShapeVar>(Tensor[s, a], Tensor[(n, 2*n), a]) -> (Tensor[s, float32], fn (Tensor[s, a]) -> float32)
}

fn main() {
    let call = nn::conv2d(1, 2).strides([2, 2]).channels(64).center(false).sections(3).build();
    assert_eq!(call.attrs.iter().count(), 10);
    let _ = nn::reshape(1, [0, -1]).build();
    let _ = add2(1, 2).build();
    let _ = cast(1, 2).build();
    assert_eq!(nn::CONV2D.level, 2);
    // The registered doc ends with the attributes as declared, defaults as written.
    assert_eq!(ADD2.doc, "The spec's form.\n\nAttributes: none.");
    assert_eq!(
        nn::RESHAPE.doc,
        "Clauses in any order; a required attribute; no relation.\n\nAttributes:\n\n- `newshape: [int]` (required)"
    );
    assert_eq!(
        nn::CONV2D.doc,
        "Named arguments, kinds, attributes of every type, a level, a dotted name.\n\nAttributes:\n\n\
         - `strides: [int] = [1, 1]`\n\
         - `padding: [int] = [0, 0]`\n\
         - `channels: Option<int> = None`\n\
         - `data_layout: str = \"NCHW\"`\n\
         - `out_dtype: Option<dtype> = None`\n\
         - `epsilon: float = -1e-5`\n\
         - `center: bool = true`\n\
         - `dtype: dtype = float32`\n\
         - `axes: Option<[int]> = Some([0, -1])`\n\
         - `sections: int | [int] = [1, 2]`"
    );
}
