//! How deep a JSON document may nest: one limit for the crate's reader
//! and for `serde_json` behind it.

/// `serde_json`'s recursion limit, which this crate keeps enabled: a
/// document may nest arrays and objects at most `RECURSION_LIMIT - 1`
/// (127) levels deep; deeper input is a syntax error ("recursion limit
/// exceeded"; `a2a_types::DecodeErrorKind::Syntax`), never a stack overflow. Every level
/// counts, the A2A messages included (a `Part.data` value inside
/// a message inside a task starts five levels down).
pub const RECURSION_LIMIT: usize = 128;
