//! Values across the two engines: parameters bound the same way on SQLite and PostgreSQL
//! ([`Param`], key lists as arrays), and columns read back loosely typed ([`Loose`],
//! [`FromCol`]).

use super::*;

impl Param for i64 {
    fn pg(&self) -> PgValue {
        PgValue::Int(*self)
    }
}
impl Param for u32 {
    fn pg(&self) -> PgValue {
        PgValue::Int(i64::from(*self))
    }
}
impl Param for f64 {
    fn pg(&self) -> PgValue {
        PgValue::Real(*self)
    }
}
impl Param for bool {
    fn pg(&self) -> PgValue {
        PgValue::Int(i64::from(*self))
    }
}
impl Param for str {
    fn pg(&self) -> PgValue {
        PgValue::Text(self.to_string())
    }
}
impl Param for String {
    fn pg(&self) -> PgValue {
        PgValue::Text(self.clone())
    }
}
impl Param for [u8] {
    fn pg(&self) -> PgValue {
        PgValue::Blob(self.to_vec())
    }
}
impl Param for Vec<u8> {
    fn pg(&self) -> PgValue {
        PgValue::Blob(self.clone())
    }
}
impl<T: Param + ?Sized> Param for &T {
    fn pg(&self) -> PgValue {
        (**self).pg()
    }
}
impl<T: Param> Param for Option<T> {
    fn pg(&self) -> PgValue {
        match self {
            Some(v) => v.pg(),
            None => PgValue::Null,
        }
    }
}

impl Param for SqlValue {
    fn pg(&self) -> PgValue {
        match self {
            SqlValue::Null => PgValue::Null,
            SqlValue::Integer(i) => PgValue::Int(*i),
            SqlValue::Real(x) => PgValue::Real(*x),
            SqlValue::Text(t) => PgValue::Text(t.clone()),
            SqlValue::Blob(b) => PgValue::Blob(b.clone()),
        }
    }
}

/// A list of text keys as one parameter: `rarray(?N)` in SQLite, `text[]` in PostgreSQL.
#[derive(Debug, Clone, Default)]
pub(crate) struct Keys(Array);

impl Keys {
    /// The non-empty keys of `keys`, in order.
    pub(crate) fn new(keys: impl IntoIterator<Item = String>) -> Keys {
        Keys(Rc::new(
            keys.into_iter()
                .filter(|k| !k.is_empty())
                .map(SqlValue::Text)
                .collect(),
        ))
    }

    /// How many keys.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// `true` without keys.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl rusqlite::ToSql for Keys {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        self.0.to_sql()
    }
}
impl Param for Keys {
    fn pg(&self) -> PgValue {
        PgValue::TextArray(
            self.0
                .iter()
                .filter_map(|v| match v {
                    SqlValue::Text(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
        )
    }
}

/// A value sent to PostgreSQL, converted to the type the statement expects there (an integer
/// bound where text is expected is sent as its digits, as SQLite would store it).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PgValue {
    /// `NULL`.
    Null,
    /// An integer.
    Int(i64),
    /// A real.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes.
    Blob(Vec<u8>),
    /// A list of text keys.
    TextArray(Vec<String>),
}

type BoxError = Box<dyn std::error::Error + Sync + Send>;

impl ToSql for PgValue {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> std::result::Result<IsNull, BoxError> {
        match self {
            PgValue::Null => Ok(IsNull::Yes),
            PgValue::Int(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(*i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(*i)?.to_sql(ty, out),
                Type::FLOAT8 => (*i as f64).to_sql(ty, out),
                Type::FLOAT4 => (*i as f32).to_sql(ty, out),
                Type::BOOL => (*i != 0).to_sql(ty, out),
                _ => i.to_string().as_str().to_sql(&Type::TEXT, out),
            },
            PgValue::Real(x) => match *ty {
                Type::FLOAT4 => (*x as f32).to_sql(ty, out),
                Type::INT8 if x.fract() == 0.0 => (*x as i64).to_sql(ty, out),
                Type::FLOAT8 => x.to_sql(ty, out),
                _ => x.to_sql(&Type::FLOAT8, out),
            },
            PgValue::Text(s) => match *ty {
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                _ => s.as_str().to_sql(&Type::TEXT, out),
            },
            PgValue::Blob(b) => b.as_slice().to_sql(&Type::BYTEA, out),
            PgValue::TextArray(v) => v.to_sql(&Type::TEXT_ARRAY, out),
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A column value read from PostgreSQL, whatever its type, as SQLite would hand it over.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Loose {
    /// `NULL`.
    Null,
    /// An integer (any width, or a boolean as 0 / 1).
    Int(i64),
    /// A real.
    Real(f64),
    /// Text.
    Text(String),
    /// Bytes.
    Blob(Vec<u8>),
}

impl<'a> FromSql<'a> for Loose {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Self, BoxError> {
        Ok(match *ty {
            Type::INT8 => Loose::Int(i64::from_sql(ty, raw)?),
            Type::INT4 => Loose::Int(i32::from_sql(ty, raw)?.into()),
            Type::INT2 => Loose::Int(i16::from_sql(ty, raw)?.into()),
            Type::BOOL => Loose::Int(bool::from_sql(ty, raw)?.into()),
            Type::FLOAT8 => Loose::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => Loose::Real(f32::from_sql(ty, raw)?.into()),
            Type::BYTEA => Loose::Blob(raw.to_vec()),
            _ => Loose::Text(String::from_sql(ty, raw).map_err(|_| {
                format!("a column of type {ty} (the store reads integers, reals, text and bytes)")
            })?),
        })
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Self, BoxError> {
        Ok(Loose::Null)
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// A Rust value read from a column of either engine.
pub(crate) trait FromCol: rusqlite::types::FromSql + Sized {
    /// The value of a PostgreSQL column; `Err` names what was found instead.
    fn from_loose(v: Loose) -> std::result::Result<Self, String>;
}

fn wrong(want: &str, got: &Loose) -> String {
    format!("expected {want}, found {got:?}")
}

impl FromCol for i64 {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        match v {
            Loose::Int(i) => Ok(i),
            other => Err(wrong("an integer", &other)),
        }
    }
}
impl FromCol for f64 {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        match v {
            Loose::Real(x) => Ok(x),
            Loose::Int(i) => Ok(i as f64),
            other => Err(wrong("a real", &other)),
        }
    }
}
impl FromCol for bool {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        i64::from_loose(v).map(|i| i != 0)
    }
}
impl FromCol for String {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        match v {
            Loose::Text(s) => Ok(s),
            other => Err(wrong("text", &other)),
        }
    }
}
impl FromCol for Vec<u8> {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        match v {
            Loose::Blob(b) => Ok(b),
            Loose::Text(s) => Ok(s.into_bytes()),
            other => Err(wrong("bytes", &other)),
        }
    }
}
impl<T: FromCol> FromCol for Option<T> {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        match v {
            Loose::Null => Ok(None),
            v => T::from_loose(v).map(Some),
        }
    }
}
impl FromCol for SqlValue {
    fn from_loose(v: Loose) -> std::result::Result<Self, String> {
        Ok(match v {
            Loose::Null => SqlValue::Null,
            Loose::Int(i) => SqlValue::Integer(i),
            Loose::Real(x) => SqlValue::Real(x),
            Loose::Text(s) => SqlValue::Text(s),
            Loose::Blob(b) => SqlValue::Blob(b),
        })
    }
}
