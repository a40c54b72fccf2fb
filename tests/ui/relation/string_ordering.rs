use relay_core::relation;

#[relation(L(T, O) :- if attrs.layout < "NC" { O = T } else { O = T }, attrs(layout: str = "NC"))]
pub struct L;

fn main() {}
