//! Bridge to the REQUIRED-field validation of `a2a-types`.

use a2a_types::{FieldViolation, Validate};

/// Every REQUIRED field `params` lacks (empty when valid).
pub(crate) fn violations<T: Validate>(params: &T) -> Vec<FieldViolation> {
    params.validate().err().unwrap_or_default()
}
