//! The ways a scenario reaches the agent ([`Binding`]) and where each
//! kind of scenario runs ([`Kind`]).

use std::fmt;

use serde::{Deserialize, Serialize};

/// The way a scenario reaches the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Binding {
    /// Calls on the `A2aService` trait of an embedded agent, in process.
    #[serde(rename = "in-process")]
    InProcess,
    /// The JSON-RPC binding (spec 9).
    #[serde(rename = "JSONRPC")]
    JsonRpc,
    /// The HTTP+JSON binding (spec 11).
    #[serde(rename = "HTTP+JSON")]
    HttpJson,
    /// The gRPC binding (spec 10), over HTTP/2.
    #[serde(rename = "GRPC")]
    Grpc,
    /// A custom binding: line-delimited JSON-RPC on a byte stream
    /// (`a2a_examples::lines`), the server side through the same public
    /// pipeline as HTTP (spec 12).
    #[serde(rename = "json-lines")]
    Lines,
    /// Plain HTTP that belongs to no binding: the agent card endpoint
    /// (spec 8.2), and the runner's own checks of the target.
    #[serde(rename = "HTTP")]
    Http,
}

impl Binding {
    /// The name used in reports and on the command line's output.
    pub const fn as_str(self) -> &'static str {
        match self {
            Binding::InProcess => "in-process",
            Binding::JsonRpc => "JSONRPC",
            Binding::HttpJson => "HTTP+JSON",
            Binding::Grpc => "GRPC",
            Binding::Lines => "json-lines",
            Binding::Http => "HTTP",
        }
    }

    /// The transport crate's binding for the three bindings of the spec.
    pub fn transport(self) -> Option<a2a_transport::Binding> {
        match self {
            Binding::JsonRpc => Some(a2a_transport::Binding::JsonRpc),
            Binding::HttpJson => Some(a2a_transport::Binding::HttpJson),
            Binding::Grpc => Some(a2a_transport::Binding::Grpc),
            Binding::InProcess | Binding::Lines | Binding::Http => None,
        }
    }
}

impl fmt::Display for Binding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a scenario runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Over the `A2aService` trait: in process (for an embedded agent),
    /// then over JSON-RPC, HTTP+JSON and gRPC through the client
    /// transport (each where the card declares it), and
    /// over the line transport (for an embedded agent). The
    /// runs must give equivalent results (spec 5.1): each run's
    /// observations ([`Ctx::note`](crate::Ctx::note)) are compared.
    Behaviour,
    /// Raw HTTP on these bindings (a subset of JSON-RPC and HTTP+JSON).
    Wire(&'static [Binding]),
    /// Raw HTTP independent of any binding (the agent card), run once.
    Card,
}

/// Both HTTP bindings, for [`Kind::Wire`].
pub const BOTH: &[Binding] = &[Binding::JsonRpc, Binding::HttpJson];
/// gRPC only, for [`Kind::Wire`].
pub const GRPC: &[Binding] = &[Binding::Grpc];
/// JSON-RPC only, for [`Kind::Wire`].
pub const JSONRPC: &[Binding] = &[Binding::JsonRpc];
/// HTTP+JSON only, for [`Kind::Wire`].
pub const REST: &[Binding] = &[Binding::HttpJson];

impl Kind {
    /// The bindings this kind runs on, among those of a target.
    pub fn bindings(self, available: &[Binding]) -> Vec<Binding> {
        match self {
            Kind::Behaviour => [
                Binding::InProcess,
                Binding::JsonRpc,
                Binding::HttpJson,
                Binding::Grpc,
                Binding::Lines,
            ]
            .into_iter()
            .filter(|b| available.contains(b))
            .collect(),
            Kind::Wire(on) => on
                .iter()
                .copied()
                .filter(|b| available.contains(b))
                .collect(),
            Kind::Card => vec![Binding::Http],
        }
    }
}
