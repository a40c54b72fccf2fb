use relay_core::{relation, Relation};

/// Resize by scales: `floor(h * scale)`.
#[relation(
    Resize(Tensor([n, c, h, w], bt), O) :-
        O = Tensor([n, c, h * attrs.scales[0], attrs.scales[1] * w], bt),
        attrs(scales: [float] = [1.0, 1.0])
)]
pub struct Resize;

/// A `float` attribute and a float literal.
#[relation(Up(Tensor([h], bt), O) :- O = Tensor([h * attrs.scale * 0.5], bt), attrs(scale: float = 2))]
pub struct Up;

fn main() {
    assert_eq!(Resize::DEF.name, "Resize");
    assert_eq!(Up::DEF.name, "Up");
}
