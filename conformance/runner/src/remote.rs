//! A live agent as a [`Target`], found through its card (`--url`).

use std::sync::Arc;

use a2a_hyper::HyperClient;
use a2a_transport::HttpClient;
use a2a_types::AgentCard;

use crate::binding::Binding;
use crate::check::Level;
use crate::contract::Contract;
use crate::embedded::fetch_card_with;
use crate::grpc::{GrpcWire, H2cGrpc};
use crate::run::notice;
use crate::target::{Caller, Target, Timing};

/// How to reach a live agent.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Remote {
    /// The base URL the card is found under (`{url}/.well-known/agent-card.json`).
    pub url: String,
    /// The bindings to run on; empty: every binding the card declares
    /// that the runner speaks.
    pub bindings: Vec<Binding>,
    /// Who the suite acts as (the first is the main caller).
    pub callers: Vec<Caller>,
    /// The contract the agent follows (`--contract`; none by default).
    pub contract: Contract,
    /// The timings.
    pub timing: Timing,
    /// Keys trusted to verify the card's signatures (`--jwks`).
    pub trusted_keys: Option<a2a_signing::JwkSet>,
    /// Whether a valid card signature is required (`--require-signature`).
    pub require_signature: bool,
}

impl Remote {
    /// A live agent at `url`, with the defaults: every binding, one
    /// anonymous caller, standard timings.
    pub fn new(url: impl Into<String>) -> Remote {
        Remote {
            url: url.into(),
            bindings: Vec::new(),
            callers: vec![Caller::default()],
            contract: Contract::None,
            timing: Timing::STANDARD,
            trusted_keys: None,
            require_signature: false,
        }
    }

    /// Fetches the card and prepares the target. Nothing is refused
    /// silently: an unreachable agent or an invalid card becomes a failed
    /// `runner.card` record, a binding the card declares but the runner
    /// does not speak a failed `runner.binding` record.
    ///
    /// A URL that names the card itself (`…/.well-known/agent-card.json`,
    /// a common slip for the base URL) is taken as the base URL it is
    /// under ([`base_url_of`]), rather than doubling the path.
    pub async fn connect(&self) -> Target {
        let http: Arc<dyn HttpClient> = Arc::new(HyperClient::new());
        let headers = self
            .callers
            .first()
            .map(|c| c.headers.clone())
            .unwrap_or_default();
        let base = base_url_of(&self.url).unwrap_or(&self.url).to_owned();
        let name = base.clone();
        let mut target = match fetch_card_with(&http, &base, headers).await {
            Ok(card) => Target::new(name, base.clone(), Arc::clone(&http), card),
            Err(problem) => {
                let mut t = Target::new(name, base.clone(), http, AgentCard::default());
                t.notices.push(problem);
                t.bindings.clear();
                t.callers = self.callers.clone();
                t.require_signature = self.require_signature;
                return t;
            }
        };
        target.grpc = target
            .interface(Binding::Grpc)
            .and_then(|iface| H2cGrpc::for_url(&iface.url))
            .map(|g| Arc::new(g) as Arc<dyn GrpcWire>);
        for iface in &target.card.supported_interfaces {
            // gRPC is spoken by its wire scenarios (the Session reports a
            // URL they cannot reach).
            let grpc = iface.protocol_binding.trim().eq_ignore_ascii_case("GRPC");
            if !grpc
                && a2a_transport::Binding::from_protocol_binding(&iface.protocol_binding).is_none()
            {
                target.notices.push(notice(
                    "runner.binding",
                    "5.2",
                    Level::May,
                    Binding::Http,
                    format!(
                        "the card declares {} at {}, which this runner does not speak (it speaks JSONRPC, HTTP+JSON and GRPC): not tested",
                        iface.protocol_binding, iface.url
                    ),
                ));
            }
        }
        if !self.bindings.is_empty() {
            target.bindings = self.bindings.clone();
        }
        if target.bindings.is_empty() {
            target.notices.push(notice(
                "runner.binding",
                "5.2",
                Level::Must,
                Binding::Http,
                "the card declares no JSONRPC, HTTP+JSON or GRPC interface at protocol version 1.0: nothing to test".to_owned(),
            ));
        }
        target.callers = self.callers.clone();
        target.contract = self.contract;
        target.timing = self.timing;
        target.trusted_keys.clone_from(&self.trusted_keys);
        target.require_signature = self.require_signature;
        target
    }
}

/// The base URL under which `url` names the agent card, when `url` ends
/// with the well-known card path (spec 8.2:
/// `/.well-known/agent-card.json`), e.g. `http://h:9/.well-known/agent-card.json`
/// is under `http://h:9`. `None` for any other URL.
pub fn base_url_of(url: &str) -> Option<&str> {
    let trimmed = url.trim_end_matches('/');
    trimmed
        .strip_suffix(a2a_transport::server::AGENT_CARD_PATH)
        .filter(|base| base.contains("://"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_url_names_its_base() {
        assert_eq!(
            base_url_of("http://127.0.0.1:9/.well-known/agent-card.json"),
            Some("http://127.0.0.1:9")
        );
        assert_eq!(
            base_url_of("https://a.test/agents/x/.well-known/agent-card.json"),
            Some("https://a.test/agents/x")
        );
        assert_eq!(base_url_of("http://127.0.0.1:9"), None);
        assert_eq!(base_url_of("http://a.test/agent-card.json"), None);
    }
}
