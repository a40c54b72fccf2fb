//! A node's attributes, and the integer data of small tensors (initializers, `Constant`
//! nodes, a test's inputs): what shape values start from.

use crate::proto::{text, AttributeProto, AttributeType, TensorView};
use crate::value::MAX_ELEMS;
use relay_core::AttrValue;

/// The attributes of one node, looked up by name.
pub struct NodeAttrs<'a> {
    attrs: &'a [AttributeProto],
}

impl<'a> NodeAttrs<'a> {
    /// The attributes of a node.
    pub fn new(attrs: &'a [AttributeProto]) -> Self {
        NodeAttrs { attrs }
    }

    /// The attribute named `name`.
    pub fn get(&self, name: &str) -> Option<&'a AttributeProto> {
        self.attrs
            .iter()
            .find(|a| a.name.as_ref() == name.as_bytes())
    }

    /// An `INT` attribute.
    pub fn int(&self, name: &str) -> Option<i64> {
        let a = self.get(name)?;
        matches!(kind(a), AttributeType::Int).then_some(a.i)
    }

    /// An `INTS` attribute.
    pub fn ints(&self, name: &str) -> Option<Vec<i64>> {
        let a = self.get(name)?;
        matches!(kind(a), AttributeType::Ints).then(|| a.ints.clone())
    }

    /// A `STRING` attribute.
    pub fn str(&self, name: &str) -> Option<String> {
        let a = self.get(name)?;
        matches!(kind(a), AttributeType::String).then(|| text(&a.s).into_owned())
    }

    /// The integer elements of a `TENSOR` attribute (`Constant`'s `value`,
    /// `ConstantOfShape`'s fill) when it is a small integer tensor.
    pub fn tensor_value(&self, name: &str) -> Option<Vec<i64>> {
        let t = self.get(name)?.t.as_ref()?;
        int_data(&TensorView::of(t)).ok().flatten()
    }

    /// The attribute as a Relay attribute value: `INT` an int, `FLOAT` a float, `STRING` a
    /// string, and lists of those; other types are an error naming the type.
    pub fn relay_value(&self, a: &AttributeProto) -> Result<AttrValue, String> {
        Ok(match kind(a) {
            AttributeType::Int => AttrValue::Int(a.i),
            AttributeType::Float => AttrValue::Float(f64::from(a.f)),
            AttributeType::String => AttrValue::Str(text(&a.s).into()),
            AttributeType::Ints => {
                AttrValue::List(a.ints.iter().map(|&i| AttrValue::Int(i)).collect())
            }
            AttributeType::Floats => AttrValue::List(
                a.floats
                    .iter()
                    .map(|&f| AttrValue::Float(f64::from(f)))
                    .collect(),
            ),
            AttributeType::Strings => AttrValue::List(
                a.strings
                    .iter()
                    .map(|s| AttrValue::Str(text(s).into()))
                    .collect(),
            ),
            other => {
                return Err(format!(
                    "attribute `{}` is of type {}, which this operator does not take",
                    text(&a.name),
                    other.name()
                ))
            }
        })
    }
}

/// The type of an attribute: its declared type, or (for writers that leave it unset)
/// the field that is set.
pub fn kind(a: &AttributeProto) -> AttributeType {
    match AttributeType::of(a.r#type) {
        AttributeType::Undefined => {
            if !a.ints.is_empty() {
                AttributeType::Ints
            } else if !a.floats.is_empty() {
                AttributeType::Floats
            } else if !a.strings.is_empty() {
                AttributeType::Strings
            } else if a.t.is_some() {
                AttributeType::Tensor
            } else if a.g.is_some() {
                AttributeType::Graph
            } else if !a.s.is_empty() {
                AttributeType::String
            } else if a.f != 0.0 {
                AttributeType::Float
            } else {
                AttributeType::Int
            }
        }
        t => t,
    }
}

/// The number of elements of a tensor with these dims, if it is at most `limit`.
pub fn elem_count(dims: &[i64], limit: usize) -> Option<usize> {
    let mut n: usize = 1;
    for &d in dims {
        n = n.checked_mul(usize::try_from(d).ok()?)?;
        if n > limit {
            return None;
        }
    }
    Some(n)
}

/// The elements of a small integer or boolean tensor: `Ok(None)` when the tensor is not
/// one (a float, large, or stored outside the file), an error when its data does not
/// match its dims.
pub fn int_data(t: &TensorView<'_>) -> Result<Option<Vec<i64>>, String> {
    let width = match t.data_type {
        2 | 3 | 9 => 1, // uint8, int8, bool
        4 | 5 => 2,     // uint16, int16
        6 | 12 => 4,    // int32, uint32
        7 | 13 => 8,    // int64, uint64
        _ => return Ok(None),
    };
    if t.external {
        return Ok(None);
    }
    let Some(n) = elem_count(&t.dims, MAX_ELEMS) else {
        return Ok(None);
    };
    let signed = matches!(t.data_type, 3 | 5 | 6 | 7);
    if !t.raw_data.is_empty() {
        let raw = t.raw_data;
        if raw.len() != n * width {
            return Err(format!(
                "its raw data is {} bytes, but {n} elements of {width} byte{} are {}",
                raw.len(),
                if width == 1 { "" } else { "s" },
                n * width
            ));
        }
        let out = raw
            .chunks_exact(width)
            .map(|c| {
                let mut b = [0u8; 8];
                b[..width].copy_from_slice(c);
                let u = u64::from_le_bytes(b);
                if signed && width < 8 && c[width - 1] & 0x80 != 0 {
                    // Sign-extend.
                    (u | (!0u64 << (width * 8))) as i64
                } else {
                    u as i64
                }
            })
            .collect();
        return Ok(Some(out));
    }
    let out: Vec<i64> = match t.data_type {
        7 | 13 => t.int64_data.clone(),
        _ => t.int32_data.iter().map(|&i| i64::from(i)).collect(),
    };
    if out.len() != n {
        return Err(format!(
            "it holds {} elements, but its dims {:?} make {n}",
            out.len(),
            &t.dims[..]
        ));
    }
    Ok(Some(out))
}

/// The elements of a small float tensor (float32 or float64) stored in the file.
pub fn float_data(t: &TensorView<'_>) -> Option<Vec<f64>> {
    if t.external {
        return None;
    }
    let n = elem_count(&t.dims, MAX_ELEMS)?;
    use std::borrow::Cow;
    let raw_or = |typed| {
        Cow::Borrowed(if t.raw_data.is_empty() {
            typed
        } else {
            t.raw_data
        })
    };
    let (width, raw) = match t.data_type {
        1 => (4, raw_or(t.float_data)),
        11 => (8, raw_or(t.double_data)),
        // float16 and bfloat16: two bytes each, in `int32_data` (one per element) when
        // not raw.
        10 | 16 if t.raw_data.is_empty() => (
            2,
            Cow::Owned(
                t.int32_data
                    .iter()
                    .flat_map(|&x| (x as u16).to_le_bytes())
                    .collect(),
            ),
        ),
        10 | 16 => (2, raw_or(t.raw_data)),
        _ => return None,
    };
    if raw.len() != n * width {
        return None;
    }
    Some(
        raw.chunks_exact(width)
            .map(|c| match t.data_type {
                1 => f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
                11 => f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]),
                16 => f64::from(f32::from_bits(
                    u32::from(u16::from_le_bytes([c[0], c[1]])) << 16,
                )),
                _ => half_to_f64(u16::from_le_bytes([c[0], c[1]])),
            })
            .collect(),
    )
}

/// An IEEE 754 half-precision number's value.
fn half_to_f64(h: u16) -> f64 {
    let sign = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1.0 + frac / 1024.0) * 2f64.powi(exp - 15),
    }
}
