//! Placeholder-free minimal definition used while the error model is built
//! on its own branch; the full validation module replaces this file.

use serde::{Deserialize, Serialize};

/// One invalid or missing field: the shape of
/// `google.rpc.BadRequest.FieldViolation`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FieldViolation {
    /// JSON path of the field, e.g. `message.parts`.
    pub field: String,
    /// Why it is invalid.
    pub description: String,
}
