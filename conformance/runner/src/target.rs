//! [`Target`]: the agent under test, as the suite sees it.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use a2a_transport::{A2aService, HttpClient, Principal, ProtocolVersion};
use a2a_types::{AgentCard, AgentInterface};
use http::HeaderMap;

use crate::binding::Binding;
use crate::contract::Contract;
use crate::grpc::GrpcWire;
use crate::report::Record;
use crate::webhook::Webhook;

/// Someone the suite acts as.
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// Headers sent with every HTTP request (`Authorization`, say).
    pub headers: HeaderMap,
    /// The principal of in-process calls.
    pub principal: Option<Principal>,
}

impl Caller {
    /// A caller sending `Authorization: Bearer <token>`, who is `principal`
    /// in process.
    pub fn bearer(token: &str, principal: Option<Principal>) -> Caller {
        let mut headers = HeaderMap::new();
        if let Ok(v) = http::HeaderValue::from_str(&format!("Bearer {token}")) {
            headers.insert(http::header::AUTHORIZATION, v);
        }
        Caller { headers, principal }
    }
}

/// How long things take and how long the suite waits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Timing {
    /// The length of a `slow` task: long enough to be observed while
    /// working, canceled, subscribed to.
    pub slow: Duration,
    /// The pause between the chunks of a `stream` task.
    pub stream_gap: Duration,
    /// How long silence must last to count as "nothing more comes".
    pub quiet: Duration,
    /// The longest wait for one answer or one event.
    pub call_timeout: Duration,
    /// The longest a scenario may take.
    pub scenario_timeout: Duration,
}

impl Timing {
    /// For agents over a network: a 1.5 s `slow` task, 10 s per answer.
    pub const STANDARD: Timing = Timing {
        slow: Duration::from_millis(1500),
        stream_gap: Duration::from_millis(40),
        quiet: Duration::from_millis(250),
        call_timeout: Duration::from_secs(10),
        scenario_timeout: Duration::from_secs(30),
    };

    /// For in-memory agents in tests: short tasks and waits.
    pub const FAST: Timing = Timing {
        slow: Duration::from_millis(400),
        stream_gap: Duration::from_millis(15),
        quiet: Duration::from_millis(80),
        call_timeout: Duration::from_secs(4),
        scenario_timeout: Duration::from_secs(12),
    };

    /// `slow` in whole milliseconds, for the `slow <ms>` command.
    pub fn slow_ms(&self) -> u128 {
        self.slow.as_millis()
    }
}

impl Default for Timing {
    fn default() -> Timing {
        Timing::STANDARD
    }
}

/// The agent under test.
#[non_exhaustive]
pub struct Target {
    /// What it is, for the report: `embedded reference agent`, a URL.
    pub name: String,
    /// The base URL its card was found under.
    pub base_url: String,
    /// The HTTP client that reaches it (real sockets or in memory).
    pub http: Arc<dyn HttpClient>,
    /// Its public agent card.
    pub card: AgentCard,
    /// What carries raw gRPC calls to it, when its card offers `GRPC`.
    pub grpc: Option<Arc<dyn GrpcWire>>,
    /// The agent itself, for in-process runs (embedded agents only).
    pub in_process: Option<Arc<dyn A2aService>>,
    /// The agent over the line transport (embedded agents only).
    pub lines: Option<Arc<dyn A2aService>>,
    /// Who the suite acts as: the first is the main caller, the second
    /// (when there is one) the other caller of the scoping scenarios.
    pub callers: Vec<Caller>,
    /// The bindings to run on.
    pub bindings: Vec<Binding>,
    /// A webhook receiver the agent can reach, for push delivery.
    pub webhook: Option<Webhook>,
    /// A webhook receiver at `https` URLs the agent can reach and trusts.
    pub secure_webhook: Option<Webhook>,
    /// The timings.
    pub timing: Timing,
    /// The contract the agent follows (`--contract`), through which the
    /// scenarios needing a behaviour ask for it; a behaviour whose probe
    /// fails is reported as not implemented (its scenarios skip).
    /// [`Contract::None`]: those scenarios skip.
    pub contract: Contract,
    /// Problems found while reaching the target (a binding the runner does
    /// not speak, say), reported with the results.
    pub notices: Vec<Record>,
    /// Keys trusted to verify the card's signatures (spec 8.4.3): the
    /// embedded agent's, or `--jwks`. `None`: each signature's `jku` is
    /// fetched, to report whether the card verifies under the key it names.
    pub trusted_keys: Option<a2a_signing::JwkSet>,
    /// `--require-signature`: a card without a valid signature fails
    /// `card.signature-required`.
    pub require_signature: bool,
    /// The protocol version the run speaks (`--version`): the card's
    /// interfaces at this version are tested. Default 1.0; see
    /// [`Target::at_version`].
    pub version: ProtocolVersion,
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Target")
            .field("name", &self.name)
            .field("base_url", &self.base_url)
            .field("bindings", &self.bindings)
            .field("callers", &self.callers.len())
            .field("timing", &self.timing)
            .finish_non_exhaustive()
    }
}

impl Target {
    /// A target reached through `http` at `base_url`, with its `card`, on
    /// every binding the card declares that the runner speaks.
    pub fn new(
        name: impl Into<String>,
        base_url: impl Into<String>,
        http: Arc<dyn HttpClient>,
        card: AgentCard,
    ) -> Target {
        let bindings = bindings_at(&card, ProtocolVersion::V1_0);
        Target {
            name: name.into(),
            base_url: base_url.into(),
            http,
            card,
            grpc: None,
            in_process: None,
            lines: None,
            callers: vec![Caller::default()],
            bindings,
            webhook: None,
            secure_webhook: None,
            timing: Timing::STANDARD,
            contract: Contract::None,
            notices: Vec::new(),
            trusted_keys: None,
            require_signature: false,
            version: ProtocolVersion::V1_0,
        }
    }

    /// The same target tested at `version`: its bindings become those the
    /// card declares at that version (in-process and line runs have no
    /// version, and run with 1.0 only). A 0.3 run speaks 0.3 to the card's
    /// 0.3 interfaces through the same client (`HttpTransport` at 0.3).
    pub fn at_version(mut self, version: ProtocolVersion) -> Target {
        self.version = version;
        if version != ProtocolVersion::V1_0 {
            self.bindings = bindings_at(&self.card, version);
        }
        self
    }

    /// The version a run against `card` speaks when none is asked for:
    /// 1.0, or 0.3 when the card offers only 0.3 interfaces.
    pub fn version_for(card: &AgentCard) -> ProtocolVersion {
        if bindings_at(card, ProtocolVersion::V1_0).is_empty()
            && !bindings_at(card, ProtocolVersion::V0_3).is_empty()
        {
            ProtocolVersion::V0_3
        } else {
            ProtocolVersion::V1_0
        }
    }

    /// The card's first interface for `binding` at protocol version 1.0
    /// (spec 8.3.2: earlier entries are preferred).
    pub fn interface(&self, binding: Binding) -> Option<AgentInterface> {
        interface_of(&self.card, binding, self.version).cloned()
    }
}

/// The bindings `card` declares at `version` that the runner speaks.
fn bindings_at(card: &AgentCard, version: ProtocolVersion) -> Vec<Binding> {
    [Binding::JsonRpc, Binding::HttpJson, Binding::Grpc]
        .into_iter()
        .filter(|b| interface_of(card, *b, version).is_some())
        .collect()
}

/// The first interface of `card` for `binding` at protocol `version`
/// (`Major.Minor`; a patch is ignored, spec 3.6).
pub(crate) fn interface_of(
    card: &AgentCard,
    binding: Binding,
    version: ProtocolVersion,
) -> Option<&AgentInterface> {
    let at = |i: &AgentInterface| {
        ProtocolVersion::parse(i.protocol_version.trim()).is_ok_and(|v| v == version)
    };
    if binding == Binding::Grpc {
        return card
            .supported_interfaces
            .iter()
            .find(|i| i.protocol_binding.trim().eq_ignore_ascii_case("GRPC") && at(i));
    }
    let want = binding.transport()?;
    card.supported_interfaces.iter().find(|i| {
        a2a_transport::Binding::from_protocol_binding(&i.protocol_binding) == Some(want) && at(i)
    })
}
