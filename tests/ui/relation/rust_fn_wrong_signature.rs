use relay_core::relation;

fn double(x: u32) -> u32 {
    x * 2
}

#[relation(Bad(Tensor([n], bt), O) :- O = Tensor([rust(double)(n)], bt))]
pub struct Bad;

fn main() {}
