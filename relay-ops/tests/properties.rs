//! Property tests on random inputs: Broadcast against NumPy's rule, reshape's element
//! count on valid special-value patterns, conv2d's output size against the direct
//! formula. The oracles are those of the exhaustive tests (`common::oracles`).

mod common;

use common::oracles::{conv_empty_message, conv_out, dims_of, numpy_broadcast_to, tensor, D};
use common::{infer, int, ints};
use proptest::prelude::*;

// ---------------------------------------------------------------------------------------
// Broadcast
// ---------------------------------------------------------------------------------------

/// A dimension from {1, 2, 3, 7, n, ?}.
fn dim() -> impl Strategy<Value = D> {
    prop_oneof![
        Just(D::C(1)),
        Just(D::C(2)),
        Just(D::C(3)),
        Just(D::C(7)),
        Just(D::N),
        Just(D::Any),
    ]
}

/// A shape of rank 0 to 5.
fn shape() -> impl Strategy<Value = Vec<D>> {
    prop::collection::vec(dim(), 0..=5)
}

/// A pair of shapes that NumPy broadcasts: the second is the first with each dimension
/// kept, made 1 or made `?`, then cut to a suffix or lengthened on the left (up to rank
/// 5); the two are swapped at random.
fn compatible_pair() -> impl Strategy<Value = (Vec<D>, Vec<D>)> {
    shape()
        .prop_flat_map(|a| {
            let n = a.len();
            (
                Just(a),
                prop::collection::vec(0..3u8, n),
                0..=n,
                prop::collection::vec(dim(), 0..=2),
                any::<bool>(),
            )
        })
        .prop_map(|(a, how, cut, extra, swap)| {
            let changed: Vec<D> = a
                .iter()
                .zip(&how)
                .map(|(&d, h)| match h {
                    0 => d,
                    1 => D::C(1),
                    _ => D::Any,
                })
                .collect();
            let mut b: Vec<D> = changed[cut..].to_vec();
            if cut == 0 {
                let room = 5 - b.len().min(5);
                b.splice(0..0, extra.into_iter().take(room));
            }
            if swap {
                (b, a)
            } else {
                (a, b)
            }
        })
}

/// `add` (a `float32` result) and `less` (a `bool` one) on `a` and `b`, against NumPy.
fn check_broadcast(a: &[D], b: &[D]) -> Result<(), TestCaseError> {
    for (op, out) in [("add", "float32"), ("less", "bool")] {
        let got = infer(op, &[&tensor(a), &tensor(b)], &[]);
        prop_assert_eq!(
            got,
            numpy_broadcast_to(a, b, out),
            "{}({}, {})",
            op,
            tensor(a),
            tensor(b)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// Independent random shapes: mostly clashes, whose message names the leftmost one.
    #[test]
    fn broadcast_of_random_shapes_matches_numpy(a in shape(), b in shape()) {
        check_broadcast(&a, &b)?;
    }

    /// Shapes that broadcast: the result is NumPy's.
    #[test]
    fn broadcast_of_compatible_shapes_matches_numpy((a, b) in compatible_pair()) {
        prop_assert!(numpy_broadcast_to(&a, &b, "float32").is_ok());
        check_broadcast(&a, &b)?;
    }
}

// ---------------------------------------------------------------------------------------
// Reshape
// ---------------------------------------------------------------------------------------

/// A valid `newshape` for `shape` built from `choices`, and the output it gives: each
/// step covers the next input dimension(s) with `0` (copy), the dimension as a constant,
/// `-1` (inferred; at most once), `-3` (merge two), `-4` (split in two factors, one of
/// them possibly `-1`) or `-2` (copy the rest).
fn valid_pattern(shape: &[i64], choices: &[u8]) -> (Vec<i64>, Vec<i64>) {
    let (mut pattern, mut out) = (Vec::new(), Vec::new());
    let mut next = choices.iter().cycle().copied();
    let mut inferred = false;
    let mut i = 0;
    while i < shape.len() {
        let d = shape[i];
        match next.next().unwrap() % 6 {
            1 => {
                pattern.push(d);
                out.push(d);
                i += 1;
            }
            2 if !inferred => {
                inferred = true;
                pattern.push(-1);
                out.push(d);
                i += 1;
            }
            3 if i + 1 < shape.len() => {
                pattern.push(-3);
                out.push(d * shape[i + 1]);
                i += 2;
            }
            4 => {
                let divisors: Vec<i64> = (1..=d).filter(|k| d % k == 0).collect();
                let a = divisors[usize::from(next.next().unwrap()) % divisors.len()];
                let b = d / a;
                let (x, y) = match next.next().unwrap() % 3 {
                    1 if !inferred => {
                        inferred = true;
                        (-1, b)
                    }
                    2 if !inferred => {
                        inferred = true;
                        (a, -1)
                    }
                    _ => (a, b),
                };
                pattern.extend([-4, x, y]);
                out.extend([a, b]);
                i += 1;
            }
            5 => {
                pattern.push(-2);
                out.extend(&shape[i..]);
                i = shape.len();
            }
            _ => {
                pattern.push(0);
                out.push(d);
                i += 1;
            }
        }
    }
    (pattern, out)
}

#[test]
fn valid_patterns_are_built_as_specified() {
    // 0, a constant, -3, -4 (6 = 3 * 2 as (3, -1)), a second -1 refused (0 instead), -2.
    assert_eq!(
        valid_pattern(&[2, 3, 4, 5, 6, 12, 1], &[0, 1, 3, 4, 2, 2, 2, 5]),
        (
            vec![0, 3, -3, -4, 3, -1, 0, -2],
            vec![2, 3, 20, 3, 2, 12, 1]
        )
    );
    // -1 once; the choices cycle.
    assert_eq!(valid_pattern(&[2, 3], &[2]), (vec![-1, 0], vec![2, 3]));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// On a random shape over {1, 2, 3, 4, 6, 12} and a random valid pattern, reshape
    /// gives the pattern's output, whose element count is the input's.
    #[test]
    fn reshape_keeps_the_element_count_on_valid_patterns(
        shape in prop::collection::vec(prop::sample::select(vec![1i64, 2, 3, 4, 6, 12]), 1..=4),
        choices in prop::collection::vec(any::<u8>(), 1..=12),
    ) {
        let (pattern, want) = valid_pattern(&shape, &choices);
        let dims: Vec<String> = shape.iter().map(i64::to_string).collect();
        let ty = format!("Tensor[({}), float32]", dims.join(", "));
        let got = infer("reshape", &[&ty], &[("newshape", ints(&pattern))]);
        let got = match got {
            Ok(t) => dims_of(&t),
            Err(e) => return Err(TestCaseError::fail(format!("{ty} with {pattern:?}: {e}"))),
        };
        prop_assert_eq!(
            got.iter().product::<i64>(),
            shape.iter().product::<i64>(),
            "{} with {:?}", ty, pattern
        );
        prop_assert_eq!(got, want, "{} with {:?}", ty, pattern);
    }
}

// ---------------------------------------------------------------------------------------
// conv2d
// ---------------------------------------------------------------------------------------

/// `padding` in one of its three forms, and the (top, left, bottom, right) it means.
fn padding() -> impl Strategy<Value = (Vec<i64>, [i64; 4])> {
    prop::collection::vec(0..=3i64, 4).prop_flat_map(|p| {
        prop_oneof![
            Just((vec![p[0]], [p[0]; 4])),
            Just((vec![p[0], p[1]], [p[0], p[1], p[0], p[1]])),
            Just((p.clone(), [p[0], p[1], p[2], p[3]])),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    /// conv2d on random sizes, kernels, strides, dilations and paddings (with the weight
    /// inferred from `channels` and `kernel_size`): the output size is the formula's on
    /// both axes, or the error names the first empty axis.
    #[test]
    fn conv2d_output_size_matches_the_formula(
        (h, w) in (1..=20i64, 1..=20i64),
        (kh, kw) in (1..=5i64, 1..=5i64),
        (sh, sw) in (1..=4i64, 1..=4i64),
        (dh, dw) in (1..=3i64, 1..=3i64),
        (pad, [pt, pl, pb, pr]) in padding(),
    ) {
        let data = format!("Tensor[(n, 3, {h}, {w}), float32]");
        let got = infer(
            "nn.conv2d",
            &[&data, "_"],
            &[
                ("channels", int(4)),
                ("kernel_size", ints(&[kh, kw])),
                ("strides", ints(&[sh, sw])),
                ("dilation", ints(&[dh, dw])),
                ("padding", ints(&pad)),
            ],
        );
        let want = match (conv_out(h, pt + pb, kh, sh, dh), conv_out(w, pl + pr, kw, sw, dw)) {
            (Ok(oh), Ok(ow)) => Ok(format!("Tensor[(n, 4, {oh}, {ow}), float32]")),
            (Err(_), _) => Err(conv_empty_message("nn.conv2d", "H", h, pt + pb, kh, sh, dh)),
            (Ok(_), Err(_)) => Err(conv_empty_message("nn.conv2d", "W", w, pl + pr, kw, sw, dw)),
        };
        prop_assert_eq!(got, want, "{} padding {:?}", data, pad);
    }
}
