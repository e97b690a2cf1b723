//! The three protocol bindings (spec 5.2, 8.3), named once for the
//! server and the client.

use std::fmt;

/// A protocol binding (spec 5.2, 8.3), named in
/// an [`AgentInterface`](a2a_types::AgentInterface)'s `protocolBinding` as [`Binding::as_str`] says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Binding {
    /// JSON-RPC 2.0 over HTTP (spec 9), `protocolBinding: "JSONRPC"`.
    JsonRpc,
    /// HTTP+JSON/REST (spec 11), `protocolBinding: "HTTP+JSON"`.
    HttpJson,
    /// gRPC over HTTP/2 (spec 10), `protocolBinding: "GRPC"`.
    Grpc,
}

impl Binding {
    /// The three bindings, JSON-RPC first, gRPC last.
    pub const ALL: [Binding; 3] = [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc];

    /// The two bindings that carry JSON over HTTP/1.1 or HTTP/2 (spec 9, 11).
    pub const JSON: [Binding; 2] = [Binding::JsonRpc, Binding::HttpJson];

    /// The `protocolBinding` string of the agent card (proto
    /// `AgentInterface.protocol_binding`): `JSONRPC`, `HTTP+JSON` or `GRPC`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
            Binding::Grpc => "GRPC",
        }
    }

    /// The binding a card's `protocolBinding` names, compared ignoring
    /// ASCII case; `None` for custom URIs (spec 5.8) and anything else
    /// that is not one of the three.
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
