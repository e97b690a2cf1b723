//! The A2A v1.0 data model (`a2a-v1.0.proto`) as Rust types with serde in
//! ProtoJSON form.

mod error;
mod operation;
mod validate;

pub use error::*;
pub use operation::Operation;
pub use validate::FieldViolation;
