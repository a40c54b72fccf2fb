//! Arbitrary bytes and mutated valid programs never panic the parser or the checker.

use relay_core::{adt, infer::infer, text::parse_module, TyCtx};
use relay_ops as _;

fn check(src: &str) {
    let mut tcx = TyCtx::new();
    let mut adts = adt::load(&mut tcx).unwrap();
    if let Ok(m) = parse_module(src, &mut tcx, &mut adts) {
        let _ = infer(tcx, &adts, &m);
    }
}

const PROGRAM: &str = include_str!("../../examples/mlp.relay");

#[test]
fn every_truncation_and_every_deleted_byte() {
    for i in 0..=PROGRAM.len() {
        if PROGRAM.is_char_boundary(i) {
            check(&PROGRAM[..i]);
            let mut s = PROGRAM.to_string();
            if i < s.len() && s.is_char_boundary(i + 1) {
                s.remove(i);
                check(&s);
            }
        }
    }
}

#[test]
fn pseudo_random_bytes_and_token_soup() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let tokens = [
        "def", "@f", "(", ")", "{", "}", "%x", ":", "Tensor", "[", "]", ",", "let", "=", ";", "fn",
        "->", "match", "_", "1", "float32", "nn.dense", "if", "else", "(n, 3)", "?", "type",
        "data",
    ];
    for _ in 0..2000 {
        let mut s = String::new();
        for _ in 0..24 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if x.is_multiple_of(3) {
                s.push(char::from((x >> 8) as u8 % 128));
            } else {
                s.push_str(tokens[(x >> 16) as usize % tokens.len()]);
                s.push(' ');
            }
        }
        check(&s);
    }
}
