//! Dtype literals in clauses (`float32`, `int8x4`): told apart from variables by their
//! spelling.

/// The data type of a dtype literal: code name, bits, lanes.
#[derive(Copy, Clone)]
pub struct DTypeLit {
    pub code: &'static str,
    pub bits: u8,
    pub lanes: u16,
}

/// `Some(Ok(..))` for a data type, `Some(Err(()))` for a name that looks like one but
/// is not (`float13`), `None` for any other name (a variable).
pub fn dtype_literal(name: &str) -> Option<Result<DTypeLit, ()>> {
    let (base, lanes) = match name.split_once('x') {
        Some((b, l)) => (b, Some(l)),
        None => (name, None),
    };
    let (code, bits) = if base == "bool" {
        ("Bool", "1")
    } else if let Some(b) = base.strip_prefix("uint") {
        ("UInt", b)
    } else if let Some(b) = base.strip_prefix("int") {
        ("Int", b)
    } else if let Some(b) = base.strip_prefix("bfloat") {
        ("BFloat", b)
    } else if let Some(b) = base.strip_prefix("float") {
        ("Float", b)
    } else {
        return None;
    };
    if code != "Bool" && !bits.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let bits: u8 = match bits.parse() {
        Ok(b) => b,
        Err(_) => return Some(Err(())),
    };
    let ok = match code {
        "Int" | "UInt" => matches!(bits, 8 | 16 | 32 | 64),
        "Float" => matches!(bits, 16 | 32 | 64),
        "BFloat" => bits == 16,
        _ => bits == 1,
    };
    let lanes = match lanes {
        None => 1,
        Some(l) => match l.parse::<u16>() {
            Ok(n) if n >= 1 && l.bytes().all(|b| b.is_ascii_digit()) => n,
            _ => return Some(Err(())),
        },
    };
    if !ok {
        return Some(Err(()));
    }
    Some(Ok(DTypeLit { code, bits, lanes }))
}
