//! The A2A v1.0 conformance suite, and the library behind the
//! `a2a-conformance` runner.
//!
//! # What it owns
//!
//! - **The scenario library** ([`scenarios::all`]): each [`Scenario`] names
//!   the spec section it checks and the [`Level`] of the requirement
//!   (MUST, SHOULD, MAY), runs on the bindings its [`Kind`] says, and ends
//!   in pass, fail (expected vs got) or skip (why). Behaviour scenarios
//!   talk to the agent through the `A2aService` trait: in process for an
//!   embedded agent, and over JSON-RPC, HTTP+JSON and gRPC through
//!   `a2a_transport::HttpTransport`; their runs must give equivalent
//!   results (spec 5.1), a difference is a failure. Wire scenarios talk
//!   raw HTTP ([`wire`]) and need nothing from the agent but its card.
//!   Behaviour scenarios that need the agent to reach a state ask for it
//!   through a named [`contract`] (`reference`, `tck` or none), probing
//!   each behaviour on its own first ([`Ctx::contract`]); an operation the
//!   agent declines where the spec allows it ([`offers`]) is not offered,
//!   and the scenarios needing it skip.
//! - **The runner** ([`run()`]): every scenario on every binding, a few at
//!   a time, into a [`Report`] (the `--json` file; its schema is
//!   `report.schema.json` beside this crate), a table, a self-contained
//!   HTML page ([`Report::to_html`], `--html`) and JUnit XML
//!   ([`Report::to_junit`], `--junit`).
//! - **TCK requirement ids** ([`tck`]): each scenario names the matching
//!   requirements of the official A2A TCK, where there are any.
//! - **Targets** ([`Target`]): a live agent found through its card, or the
//!   embedded reference agent ([`Embedded`]) on loopback HTTP or in memory
//!   ([`ServerClient`], the server's pure `handle` as an HTTP client).
//! - **Client conformance** ([`client`]): the runner as the agent, a
//!   `TestPeer` answering the legal-but-awkward variants, for a client
//!   command whose requests and JSON-lines output are checked
//!   (`a2a-conformance client -- <command>`).
//! - **Faulty agents** ([`faults`]): the reference agent with one
//!   deliberate fault each, which the suite must catch (the mutation test,
//!   `tests/mutation.rs`).
//!
//! # What it does not own
//!
//! The protocol itself: decoding, bindings, discovery and the reference
//! agent's behaviour belong to the core crates and `a2a-reference-agent`.
//! The suite uses them as any client would.
//!
//! # Example
//!
//! ```no_run
//! use a2a_conformance::{run, scenarios, Embedded, RunOptions};
//!
//! # async fn demo() -> std::io::Result<()> {
//! let (target, _running) = Embedded::default().on_loopback().await?;
//! let report = run(target, &scenarios::all(), &RunOptions::default()).await;
//! println!("{}", report.summary_line());
//! assert!(!report.must_failed());
//! # Ok(())
//! # }
//! ```

mod binding;
mod check;
pub mod client;
mod context;
pub mod contract;
mod describe;
mod embedded;
pub mod faults;
pub mod grpc;
mod html;
mod junit;
mod memory;
mod net;
pub mod offers;
mod remote;
mod report;
mod run;
mod scenario;
pub mod scenarios;
pub mod shape;
mod target;
pub mod tck;
mod webhook;
pub mod wire;

pub use binding::{Binding, Kind, BOTH, GRPC, JSONRPC, REST};
pub use check::{ensure, fail, skip, Check, Level, Stop};
pub use context::{
    abbreviate, describe_error, describe_event, describe_events, expect_error, immediately,
    state_name, with_history, Ctx,
};
pub use contract::{Behaviour, Contract};
pub use embedded::{
    embedded_jwks, embedded_signer, fetch_card, fetch_card_with, Embedded, Running, Wrappers,
    EMBEDDED_JWKS_PATH, EMBEDDED_KID, EMBEDDED_SIGNING_JWK, MEMORY_BASE, MEMORY_HOOKS, TOKENS,
};
pub use memory::{response_body, ServerClient};
pub use net::{loopback_listener, serve_webhook};
pub use remote::{base_url_of, Remote};
pub use report::{Outcome, Record, Report, Totals};
pub use run::{run, Progress, ProgressFn, RunOptions};
pub use scenario::{RunFn, Scenario};
pub use target::{Caller, Target, Timing};
pub use webhook::{Delivery, MemoryPushSender, Webhook};
