//! The two HTTP protocol bindings (spec 5.2, 8.3), named once for the
//! server and the client.

use std::fmt;

/// An HTTP protocol binding (spec 5.2, 8.3), named in
/// an [`AgentInterface`](a2a_types::AgentInterface)'s `protocolBinding` as [`Binding::as_str`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec 9), `protocolBinding: "JSONRPC"`.
    JsonRpc,
    /// HTTP+JSON/REST (spec 11), `protocolBinding: "HTTP+JSON"`.
    HttpJson,
}

impl Binding {
    /// Both bindings, JSON-RPC first.
    pub const ALL: [Binding; 2] = [Binding::JsonRpc, Binding::HttpJson];

    /// The `protocolBinding` string of the agent card (proto
    /// `AgentInterface.protocol_binding`): `JSONRPC` or `HTTP+JSON`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
        }
    }

    /// The binding a card's `protocolBinding` names, compared ignoring
    /// ASCII case; `None` for `GRPC`, custom URIs (spec 5.8) and anything
    /// else this client does not speak.
    pub fn from_protocol_binding(name: &str) -> Option<Binding> {
        Binding::ALL
            .into_iter()
            .find(|b| b.as_str().eq_ignore_ascii_case(name.trim()))
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
