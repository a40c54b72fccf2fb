//! Tensor element types: a type code, a bit width and a number of lanes.

use std::fmt;

/// The family of a [`DType`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DTypeCode {
    /// Signed integers (`int8` … `int64`).
    Int,
    /// Unsigned integers (`uint8` … `uint64`).
    UInt,
    /// IEEE floats (`float16`, `float32`, `float64`).
    Float,
    /// Brain floats (`bfloat16`).
    BFloat,
    /// Booleans (`bool`, one bit).
    Bool,
    /// ONNX's (and ml_dtypes') small floats, each of one width, named as ml_dtypes and
    /// later TVM name them: `float8_e4m3fn`.
    Float8E4M3FN,
    /// `float8_e4m3fnuz`.
    Float8E4M3FNUZ,
    /// `float8_e5m2`.
    Float8E5M2,
    /// `float8_e5m2fnuz`.
    Float8E5M2FNUZ,
    /// `float8_e8m0fnu`.
    Float8E8M0FNU,
    /// `float4_e2m1fn`.
    Float4E2M1FN,
    /// Strings (`string`): ONNX's `STRING` elements, which TVM has no type for. Of no
    /// bit width and one lane.
    Str,
}

/// The small floats: code, name and width.
const SMALL_FLOATS: [(DTypeCode, &str, u8); 6] = [
    (DTypeCode::Float8E4M3FN, "float8_e4m3fn", 8),
    (DTypeCode::Float8E4M3FNUZ, "float8_e4m3fnuz", 8),
    (DTypeCode::Float8E5M2, "float8_e5m2", 8),
    (DTypeCode::Float8E5M2FNUZ, "float8_e5m2fnuz", 8),
    (DTypeCode::Float8E8M0FNU, "float8_e8m0fnu", 8),
    (DTypeCode::Float4E2M1FN, "float4_e2m1fn", 4),
];

/// A tensor element type such as `float32`, `int8x4` or `bool`.
///
/// ```
/// use relay_core::DType;
/// let t: DType = "float32x4".parse().unwrap();
/// assert_eq!(t.bits(), 32);
/// assert_eq!(t.lanes(), 4);
/// assert_eq!(t.to_string(), "float32x4");
/// assert!("float13".parse::<DType>().is_err());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DType {
    code: DTypeCode,
    bits: u8,
    lanes: u16,
}

impl DType {
    /// `bool`.
    pub const BOOL: DType = DType {
        code: DTypeCode::Bool,
        bits: 1,
        lanes: 1,
    };
    /// `int8`.
    pub const INT8: DType = DType {
        code: DTypeCode::Int,
        bits: 8,
        lanes: 1,
    };
    /// `int16`.
    pub const INT16: DType = DType {
        code: DTypeCode::Int,
        bits: 16,
        lanes: 1,
    };
    /// `int32`.
    pub const INT32: DType = DType {
        code: DTypeCode::Int,
        bits: 32,
        lanes: 1,
    };
    /// `int64`.
    pub const INT64: DType = DType {
        code: DTypeCode::Int,
        bits: 64,
        lanes: 1,
    };
    /// `uint8`.
    pub const UINT8: DType = DType {
        code: DTypeCode::UInt,
        bits: 8,
        lanes: 1,
    };
    /// `float16`.
    pub const FLOAT16: DType = DType {
        code: DTypeCode::Float,
        bits: 16,
        lanes: 1,
    };
    /// `float32`.
    pub const FLOAT32: DType = DType {
        code: DTypeCode::Float,
        bits: 32,
        lanes: 1,
    };
    /// `float64`.
    pub const FLOAT64: DType = DType {
        code: DTypeCode::Float,
        bits: 64,
        lanes: 1,
    };
    /// `bfloat16`.
    pub const BFLOAT16: DType = DType {
        code: DTypeCode::BFloat,
        bits: 16,
        lanes: 1,
    };

    /// `string`.
    pub const STRING: DType = DType {
        code: DTypeCode::Str,
        bits: 0,
        lanes: 1,
    };

    /// A data type, if the combination exists (`float` of 16, 32 or 64 bits; `int` and
    /// `uint` of 2, 4, 8, 16, 32 or 64; `bfloat` of 16; `bool` of 1; the small floats of
    /// their width; lanes from 1 to 65535).
    ///
    /// ```
    /// use relay_core::{DType, DTypeCode};
    /// assert_eq!(DType::new(DTypeCode::Int, 4, 1).unwrap().to_string(), "int4");
    /// let f8 = DType::new(DTypeCode::Float8E5M2, 8, 1).unwrap();
    /// assert_eq!(f8.to_string(), "float8_e5m2");
    /// assert_eq!("float8_e5m2".parse::<DType>(), Ok(f8));
    /// assert!(f8.is_float());
    /// ```
    pub fn new(code: DTypeCode, bits: u8, lanes: u16) -> Option<DType> {
        let ok = match code {
            DTypeCode::Int | DTypeCode::UInt => matches!(bits, 2 | 4 | 8 | 16 | 32 | 64),
            DTypeCode::Float => matches!(bits, 16 | 32 | 64),
            DTypeCode::BFloat => bits == 16,
            DTypeCode::Bool => bits == 1,
            DTypeCode::Str => return (bits == 0 && lanes == 1).then_some(DType::STRING),
            small => SMALL_FLOATS
                .iter()
                .any(|&(c, _, b)| c == small && b == bits),
        };
        (ok && lanes >= 1).then_some(DType { code, bits, lanes })
    }

    /// The type code.
    pub fn code(self) -> DTypeCode {
        self.code
    }

    /// The width of one lane in bits.
    pub fn bits(self) -> u8 {
        self.bits
    }

    /// The number of lanes (1 for scalars).
    pub fn lanes(self) -> u16 {
        self.lanes
    }

    /// The same type with `lanes` lanes.
    pub fn with_lanes(self, lanes: u16) -> Option<DType> {
        DType::new(self.code, self.bits, lanes)
    }

    /// Whether it is a signed or unsigned integer type.
    pub fn is_int(self) -> bool {
        matches!(self.code, DTypeCode::Int | DTypeCode::UInt)
    }

    /// Whether it is a floating-point type (`float*` or `bfloat16`).
    pub fn is_float(self) -> bool {
        !matches!(
            self.code,
            DTypeCode::Int | DTypeCode::UInt | DTypeCode::Bool | DTypeCode::Str
        )
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.code {
            DTypeCode::Bool => f.write_str("bool")?,
            DTypeCode::Str => f.write_str("string")?,
            DTypeCode::Int => write!(f, "int{}", self.bits)?,
            DTypeCode::UInt => write!(f, "uint{}", self.bits)?,
            DTypeCode::Float => write!(f, "float{}", self.bits)?,
            DTypeCode::BFloat => write!(f, "bfloat{}", self.bits)?,
            small => {
                let name = SMALL_FLOATS
                    .iter()
                    .find(|&&(c, _, _)| c == small)
                    .map_or("", |e| e.1);
                f.write_str(name)?
            }
        }
        if self.lanes != 1 {
            write!(f, "x{}", self.lanes)?;
        }
        Ok(())
    }
}

/// A string that names no data type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DTypeParseError(pub String);

impl fmt::Display for DTypeParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a data type (expected one of bool, int8-64, uint8-64, float16/32/64, bfloat16, optionally with lanes as in `float32x4`)",
            self.0
        )
    }
}

impl std::error::Error for DTypeParseError {}

impl std::str::FromStr for DType {
    type Err = DTypeParseError;

    fn from_str(s: &str) -> Result<DType, DTypeParseError> {
        let err = || DTypeParseError(s.to_string());
        if s == "string" {
            return Ok(DType::STRING);
        }
        let (base, lanes) = match s.split_once('x') {
            Some((base, lanes)) => {
                if !canonical_number(lanes) {
                    return Err(err());
                }
                (base, lanes.parse::<u16>().map_err(|_| err())?)
            }
            None => (s, 1),
        };
        if let Some(&(code, _, bits)) = SMALL_FLOATS.iter().find(|e| e.1 == base) {
            return DType::new(code, bits, lanes).ok_or_else(err);
        }
        let (code, bits) = if base == "bool" {
            (DTypeCode::Bool, "1")
        } else if let Some(b) = base.strip_prefix("uint") {
            (DTypeCode::UInt, b)
        } else if let Some(b) = base.strip_prefix("int") {
            (DTypeCode::Int, b)
        } else if let Some(b) = base.strip_prefix("bfloat") {
            (DTypeCode::BFloat, b)
        } else if let Some(b) = base.strip_prefix("float") {
            (DTypeCode::Float, b)
        } else {
            return Err(err());
        };
        // TVM reads `int`, `uint` and `float` as their 32-bit types.
        let bits = if bits.is_empty() && code != DTypeCode::BFloat {
            "32"
        } else {
            bits
        };
        if !canonical_number(bits) {
            return Err(err());
        }
        let bits = bits.parse::<u8>().map_err(|_| err())?;
        DType::new(code, bits, lanes).ok_or_else(err)
    }
}

/// Whether `s` is a number written as the printer writes it: digits only, without a
/// leading zero (`int008` and `float32x04` are not data types, so that every data type
/// has one spelling).
fn canonical_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) && (s == "0" || !s.starts_with('0'))
}
