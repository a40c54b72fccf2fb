//! `layout_transform`'s relation: a tensor from one layout to another, as TVM's
//! `BijectiveLayout` maps shapes.

use crate::level2::util::{need, parse_layout, Axis, Layout};
use relay_core::{relation, Attrs, Progress, RelCx, RelError, RelResult};

/// The primal axes of `axes`, in order (`NCHW` of `NCHW16c`).
fn primal(axes: &[Axis]) -> String {
    axes.iter()
        .filter_map(|a| match a {
            Axis::Primal(c) => Some(*c),
            Axis::Sub(..) => None,
        })
        .collect()
}

/// A subordinate axis of `axes` whose primal axis is missing (the `d` of `NCHW4d`).
fn orphan(axes: &[Axis]) -> Option<char> {
    axes.iter().find_map(|a| match a {
        Axis::Sub(_, l) if !axes.contains(&Axis::Primal(l.to_ascii_uppercase())) => Some(*l),
        _ => None,
    })
}

/// `layout_transform(data)`: the data (in `src_layout`) laid out in `dst_layout`. The two
/// layouts hold the same primal axes (any letters, in any order), each packed by any
/// subordinate axes: a primal dimension of the result is the source's dimension times
/// its source factors, divided by its destination factors and rounded up (TVM pads the
/// tensor with zeros: `NCHW` with C = 3 to `NCHW4c` gives one block of 4), a subordinate
/// one is its factor. The data's subordinate dimensions must be their factors (TVM checks
/// only constants, by a crash).
#[relation(LayoutTransform)]
pub fn layout_transform(cx: &mut RelCx<'_>) -> RelResult {
    let src = need(cx, "src_layout", Attrs::str)?.to_owned();
    let dst = need(cx, "dst_layout", Attrs::str)?.to_owned();
    let (src_axes, dst_axes) = (
        parse_layout("src_layout", &src)?,
        parse_layout("dst_layout", &dst)?,
    );
    for (attr, name, axes) in [
        ("src_layout", &src, &src_axes),
        ("dst_layout", &dst, &dst_axes),
    ] {
        if let Some(l) = orphan(axes) {
            return Err(RelError::new(format!(
                "`{attr}` \"{name}\" is not a layout: its axis `{l}` has no primal axis `{}`",
                l.to_ascii_uppercase()
            )));
        }
    }
    let canon = primal(&src_axes);
    let (mut a, mut b): (Vec<char>, Vec<char>) =
        (canon.chars().collect(), primal(&dst_axes).chars().collect());
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        return Err(RelError::new(format!(
            "`layout_transform` cannot convert from {src} to {dst}: their primal axes differ ({} and {})",
            canon,
            primal(&dst_axes)
        )));
    }
    let sl = Layout::new_repacked("src_layout", &src, &canon)?;
    let dl = Layout::new_repacked("dst_layout", &dst, &canon)?;
    let Some((data, dt)) = cx.tensor_dims(0)? else {
        return Ok(Progress::NotYet);
    };
    let c = sl.canonical_arg(cx, "layout_transform", (0, "data"), &data, &canon)?;
    let out = dl.lay_out_padded(cx, &c, &canon)?;
    cx.unify_tensor(1, &out, dt)?;
    Ok(Progress::Solved)
}
