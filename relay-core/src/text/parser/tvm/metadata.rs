//! TVM's metadata section (`#[metadata]` at the end of a printed module; TVM 0.6 wrote a
//! `/* meta data */` line instead): the JSON object graph that `meta[relay.Constant][N]`
//! and `meta[relay.attrs.X][N]` refer to.
//!
//! The graph is a list of nodes (`"nodes"`); node `"root"` is a map from a kind
//! (`"relay.Constant"`) to an array node whose entries are the node indices of that
//! kind's items, in the order of `N`. A constant's node names, in its `"data"`
//! attribute, the index of its tensor in `"b64ndarrays"`: TVM's binary form of a tensor,
//! in base 64, whose header holds its data type and shape. Only the header is read.

use crate::attrs::AttrValue;
use crate::dtype::{DType, DTypeCode};
use crate::op::AttrType;
use serde_json::Value;

/// The lines that start a metadata section: TVM's since 0.7, then TVM 0.6's.
const MARKERS: [&str; 2] = ["#[metadata]", "/* meta data */"];

/// Where the JSON of the metadata section of `src` starts (after the last marker), if
/// it has one.
pub(crate) fn section(src: &str) -> Option<usize> {
    MARKERS
        .iter()
        .filter_map(|m| Some(src.rfind(m)? + m.len()))
        .max()
}

/// Whether `before` (the text before a `{`) ends with TVM 0.6's `/* meta data */` line:
/// the `{` starts its metadata section.
pub(crate) fn after_old_marker(before: &str) -> bool {
    before.trim_end().ends_with(MARKERS[1])
}

/// A metadata section, parsed.
pub(crate) struct Metadata {
    root: Value,
}

/// The bytes of a tensor's header before its dimensions.
const HEADER: usize = 32;

/// The magic number TVM writes before a tensor.
const NDARRAY_MAGIC: u64 = 0xDD5E_40F0_96B4_A13F;

impl Metadata {
    /// Reads the JSON after `#[metadata]`; or why it is not JSON, and the offset in
    /// `json` where that was found.
    pub(crate) fn parse(json: &str) -> Result<Metadata, (String, usize)> {
        let root: Value = serde_json::from_str(json).map_err(|e| {
            let text = e.to_string();
            let what = text.split(" at line ").next().unwrap_or(&text);
            // The line and column (from 1) as a byte offset.
            let line_start: usize = json
                .split_inclusive('\n')
                .take(e.line().saturating_sub(1))
                .map(str::len)
                .sum();
            let at = (line_start + e.column().saturating_sub(1)).min(json.len());
            (format!("the metadata section is not JSON: {what}"), at)
        })?;
        Ok(Metadata { root })
    }

    fn node(&self, i: u64) -> Option<&Value> {
        self.root.get("nodes")?.get(usize::try_from(i).ok()?)
    }

    /// The node of item `n` of kind `kind` (`relay.Constant`, `relay.attrs.Conv2DAttrs`).
    pub(crate) fn item(&self, kind: &str, n: u64) -> Result<&Value, String> {
        let missing = || format!("the metadata section has no `{kind}` {n}");
        let root = self
            .root
            .get("root")
            .and_then(Value::as_u64)
            .ok_or_else(missing)?;
        let map = self.node(root).ok_or_else(missing)?;
        let keys = map
            .get("keys")
            .and_then(Value::as_array)
            .ok_or_else(missing)?;
        let k = keys
            .iter()
            .position(|key| key.as_str() == Some(kind))
            .ok_or_else(missing)?;
        let array = map
            .get("data")
            .and_then(|d| d.get(k))
            .and_then(Value::as_u64)
            .and_then(|i| self.node(i))
            .ok_or_else(missing)?;
        array
            .get("data")
            .and_then(|d| d.get(usize::try_from(n).ok()?))
            .and_then(Value::as_u64)
            .and_then(|i| self.node(i))
            .ok_or_else(missing)
    }

    /// The data type and shape of constant `n`, from its tensor's header.
    pub(crate) fn constant(&self, n: u64) -> Result<(DType, Vec<i64>), String> {
        let node = self.item("relay.Constant", n)?;
        let bad = |what: &str| format!("constant {n} of the metadata section: {what}");
        let index = node
            .get("attrs")
            .and_then(|a| a.get("data"))
            .and_then(Value::as_str)
            .and_then(|s| s.parse::<usize>().ok())
            .ok_or_else(|| bad("no tensor"))?;
        let b64 = self
            .root
            .get("b64ndarrays")
            .and_then(|a| a.get(index))
            .and_then(Value::as_str)
            .ok_or_else(|| bad("its tensor is missing"))?;
        // Only the header is decoded: its fixed part, then the rank's dimensions.
        let not_b64 = || bad("its tensor is not base 64");
        let fixed = base64(b64, HEADER).ok_or_else(not_b64)?;
        let rank = fixed
            .get(24..28)
            .map_or(0, |r| u32::from_le_bytes(r.try_into().expect("four bytes")));
        let len = HEADER.saturating_add(8usize.saturating_mul(rank as usize));
        let bytes = base64(b64, len).ok_or_else(not_b64)?;
        tensor_header(&bytes).ok_or_else(|| bad("its tensor's header is not TVM's"))
    }

    /// The attributes of item `n` of kind `kind` (`relay.attrs.BatchMatmulAttrs`), each
    /// with its value: a string as TVM writes scalars (`"1"`, `"float32"`), or for a
    /// node (an array of integers), the integers.
    pub(crate) fn attrs(&self, kind: &str, n: u64) -> Result<Vec<(String, AttrText)>, String> {
        let node = self.item(kind, n)?;
        let Some(attrs) = node.get("attrs").and_then(Value::as_object) else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (name, v) in attrs {
            let Some(text) = v.as_str() else { continue };
            out.push((name.clone(), self.attr_text(text)));
        }
        Ok(out)
    }

    /// What an attribute's text stands for: a list when it names an array node of
    /// integer nodes, else the text.
    fn attr_text(&self, text: &str) -> AttrText {
        let array = text
            .parse::<u64>()
            .ok()
            .and_then(|i| self.node(i))
            .filter(|node| node.get("type_key").and_then(Value::as_str) == Some("Array"));
        let Some(items) = array.and_then(|a| a.get("data")).and_then(Value::as_array) else {
            return AttrText::Text(text.to_string());
        };
        let ints: Option<Vec<i64>> = items
            .iter()
            .map(|i| {
                let node = self.node(i.as_u64()?)?;
                node.get("attrs")?.get("value")?.as_str()?.parse().ok()
            })
            .collect();
        match ints {
            Some(v) => AttrText::Ints(v),
            None => AttrText::Text(text.to_string()),
        }
    }
}

/// An attribute's value as the metadata writes it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum AttrText {
    Text(String),
    Ints(Vec<i64>),
}

/// An attribute's value from the metadata, as the operator declares its type `ty` (if
/// it declares the attribute): TVM writes scalars as text (`"1"`, `"0.5"`, `"float32"`,
/// `""` for an unset data type).
pub(crate) fn attr_value(v: AttrText, ty: Option<&AttrType>) -> AttrValue {
    let text = match v {
        AttrText::Ints(v) => return AttrValue::List(v.into_iter().map(AttrValue::Int).collect()),
        AttrText::Text(t) => t,
    };
    let mut ty = ty;
    while let Some(AttrType::Option(inner)) = ty {
        if text.is_empty() {
            return AttrValue::None;
        }
        ty = Some(inner);
    }
    match ty {
        Some(AttrType::Bool) => match text.as_str() {
            "1" | "true" | "True" => AttrValue::Bool(true),
            "0" | "false" | "False" => AttrValue::Bool(false),
            _ => AttrValue::Str(text.into()),
        },
        Some(AttrType::Int) => text
            .parse()
            .map_or_else(|_| AttrValue::Str(text.as_str().into()), AttrValue::Int),
        Some(AttrType::Float) => text
            .parse()
            .map_or_else(|_| AttrValue::Str(text.as_str().into()), AttrValue::Float),
        _ => AttrValue::Str(text.into()),
    }
}

/// The data type and shape in the header of TVM's binary form of a tensor: its magic
/// number, a reserved word, the device (two 32-bit integers), the rank (32 bits), the
/// data type (code, bits, lanes), then the dimensions (64 bits each), all little-endian.
fn tensor_header(b: &[u8]) -> Option<(DType, Vec<i64>)> {
    let u64_at = |i: usize| Some(u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?));
    if u64_at(0)? != NDARRAY_MAGIC {
        return None;
    }
    let ndim = u32::from_le_bytes(b.get(24..28)?.try_into().ok()?);
    let (code, bits) = (*b.get(28)?, *b.get(29)?);
    let lanes = u16::from_le_bytes(b.get(30..32)?.try_into().ok()?);
    let code = match code {
        0 => DTypeCode::Int,
        1 => DTypeCode::UInt,
        2 => DTypeCode::Float,
        4 => DTypeCode::BFloat,
        6 => DTypeCode::Bool,
        _ => return None,
    };
    // TVM writes a bool as 1-bit `uint` or as code 6 with 8 bits.
    let dtype = match (code, bits) {
        (DTypeCode::Bool, _) | (DTypeCode::UInt, 1) => DType::BOOL,
        _ => DType::new(code, bits, lanes)?,
    };
    // The rank is bounded by the bytes there are.
    let shape = (0..ndim as usize)
        .map(|k| u64_at(32 + 8 * k).map(|d| d as i64))
        .collect::<Option<Vec<i64>>>()?;
    shape.iter().all(|&d| d >= 0).then_some((dtype, shape))
}

/// Decodes base 64 (the standard alphabet, `=` padding, blanks skipped), at most the
/// first `limit` bytes.
fn base64(text: &str, limit: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(limit.min(text.len() / 4 * 3));
    let (mut acc, mut n) = (0u32, 0u32);
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => break,
            c if c.is_ascii_whitespace() => continue,
            _ => return None,
        };
        acc = acc << 6 | u32::from(v);
        n += 6;
        if n >= 8 {
            n -= 8;
            out.push((acc >> n) as u8);
            if out.len() == limit {
                break;
            }
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_decodes() {
        assert_eq!(base64("TWFu", 9).unwrap(), b"Man");
        assert_eq!(base64("TWFu", 2).unwrap(), b"Ma");
        assert_eq!(base64("TWE=", 9).unwrap(), b"Ma");
        assert_eq!(base64("TQ==", 9).unwrap(), b"M");
        assert_eq!(base64("T$", 9), None);
    }

    /// A float32 tensor of shape (2, 3) and an int32 one of shape (0), as TVM 0.8 and
    /// 0.9 wrote them.
    #[test]
    fn tensor_headers_give_dtype_and_shape() {
        let a = base64(
            "P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAgAAAAIgAQACAAAAAAAAAAMAAAAAAAAAGAAAAAAAAAAAAIA/AAAAQAAAQEAAAIBAAACgQAAAwEA=",
            usize::MAX,
        )
        .unwrap();
        assert_eq!(tensor_header(&a), Some((DType::FLOAT32, vec![2, 3])));
        let b = base64(
            "P6G0lvBAXt0AAAAAAAAAAAEAAAAAAAAAAQAAAAAgAQAAAAAAAAAAAAAAAAAAAAAA",
            usize::MAX,
        )
        .unwrap();
        assert_eq!(tensor_header(&b), Some((DType::INT32, vec![0])));
        assert_eq!(tensor_header(&b[..30]), None);
    }
}
