//! [`Ctx`]: what a scenario body works with. The agent as a service (for
//! behaviour scenarios) or as raw HTTP (for wire scenarios), its card, the
//! callers the suite may act as, the timings, and helpers that turn an
//! unexpected answer into a failure saying what was expected.

use std::fmt;
use std::future::{poll_fn, Future};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use a2a_transport::{A2aService, CallContext, EventStream, HttpClient, HttpTransport};
use a2a_types::{
    A2aError, AgentCard, AgentInterface, ErrorKind, GetTaskRequest, Message,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse, Task,
};
use tokio::sync::OnceCell;

use crate::binding::Binding;
use crate::check::{fail, skip, Check, Stop};
use crate::contract::{Behaviour, Contract};
pub use crate::describe::{
    abbreviate, describe_error, describe_event, describe_events, state_name,
};
use crate::grpc::GrpcWire;
use crate::target::{Target, Timing};
use crate::webhook::Webhook;

/// A contract probe's cached verdict: `Ok` when the agent showed the
/// behaviour, else what it answered.
type Probe = OnceCell<Result<(), String>>;

/// A target prepared for a run: the transports of its bindings and the
/// cached results of the contract probes, one per binding and behaviour.
pub(crate) struct Session {
    pub(crate) target: Target,
    services: Vec<(Binding, Arc<dyn A2aService>)>,
    /// Whether raw gRPC reaches the target (its wire scenarios run).
    grpc: bool,
    interfaces: Vec<(Binding, AgentInterface)>,
    probes: Vec<(Binding, Behaviour, Probe)>,
    run_id: u64,
    counter: AtomicU64,
}

impl Session {
    /// Prepares `target`: one transport per HTTP binding it runs on, built
    /// from the card's interface for that binding. Interfaces that cannot
    /// be used are returned as problems (binding, why).
    pub(crate) fn new(target: Target) -> (Session, Vec<(Binding, String)>) {
        let mut services: Vec<(Binding, Arc<dyn A2aService>)> = Vec::new();
        let mut interfaces = Vec::new();
        let mut problems = Vec::new();
        let mut grpc = false;
        // A bare `host:port` gRPC interface takes the scheme the card was
        // fetched with.
        let card_url: http::Uri = target.base_url.parse().unwrap_or_default();
        for &binding in &target.bindings {
            match binding {
                Binding::InProcess => {
                    if let Some(svc) = &target.in_process {
                        services.push((binding, Arc::clone(svc)));
                    }
                }
                Binding::Lines => {
                    if let Some(svc) = &target.lines {
                        services.push((binding, Arc::clone(svc)));
                    }
                }
                Binding::JsonRpc | Binding::HttpJson => match target.interface(binding) {
                    Some(iface) => {
                        match HttpTransport::for_card_interface(
                            Arc::clone(&target.http),
                            &iface,
                            &card_url,
                        ) {
                            Some(Ok(t)) => {
                                services.push((binding, Arc::new(t)));
                                interfaces.push((binding, iface));
                            }
                            Some(Err(e)) => problems.push((binding, e.to_string())),
                            None => problems.push((binding, "binding not spoken".to_owned())),
                        }
                    }
                    None => problems.push((
                        binding,
                        format!(
                            "the card declares no {binding} interface for protocol version {}",
                            target.version
                        ),
                    )),
                },
                Binding::Grpc => match (target.interface(binding), &target.grpc) {
                    (Some(iface), raw) => {
                        // The typed client for the behaviour scenarios,
                        // raw gRPC for the wire scenarios.
                        match HttpTransport::for_card_interface(
                            Arc::clone(&target.http),
                            &iface,
                            &card_url,
                        ) {
                            Some(Ok(t)) => services.push((binding, Arc::new(t))),
                            Some(Err(e)) => problems.push((binding, e.to_string())),
                            None => problems.push((binding, "binding not spoken".to_owned())),
                        }
                        if raw.is_some() {
                            grpc = true;
                        } else {
                            problems.push((
                                binding,
                                format!(
                                    "the runner's raw gRPC speaks HTTP/2 with prior knowledge, \
                                     not {}: its wire scenarios do not run",
                                    iface.url
                                ),
                            ));
                        }
                        interfaces.push((binding, iface));
                    }
                    (None, _) => problems.push((
                        binding,
                        format!(
                            "the card declares no GRPC interface for protocol version {}",
                            target.version
                        ),
                    )),
                },
                Binding::Http => {}
            }
        }
        let probes = services
            .iter()
            .flat_map(|(b, _)| Behaviour::ALL.map(|behaviour| (*b, behaviour, OnceCell::new())))
            .collect();
        let run_id = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis() as u64 % 1_000_000_000)
            .unwrap_or(0);
        (
            Session {
                target,
                services,
                grpc,
                interfaces,
                probes,
                run_id,
                counter: AtomicU64::new(0),
            },
            problems,
        )
    }

    /// The bindings scenarios may run on: those with a usable transport,
    /// plus binding-independent HTTP.
    pub(crate) fn runnable(&self) -> Vec<Binding> {
        let mut out: Vec<Binding> = self.services.iter().map(|(b, _)| *b).collect();
        if self.grpc && !out.contains(&Binding::Grpc) {
            out.push(Binding::Grpc);
        }
        out.push(Binding::Http);
        out
    }
}

/// What a scenario body works with, for one binding.
pub struct Ctx<'a> {
    session: &'a Session,
    binding: Binding,
    notes: Mutex<Vec<String>>,
    found: Mutex<Option<String>>,
}

impl fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx")
            .field("binding", &self.binding)
            .finish_non_exhaustive()
    }
}

impl<'a> Ctx<'a> {
    pub(crate) fn new(session: &'a Session, binding: Binding) -> Ctx<'a> {
        Ctx {
            session,
            binding,
            notes: Mutex::new(Vec::new()),
            found: Mutex::new(None),
        }
    }

    pub(crate) fn into_notes(self) -> (Vec<String>, Option<String>) {
        (
            self.notes.into_inner().unwrap_or_else(|e| e.into_inner()),
            self.found.into_inner().unwrap_or_else(|e| e.into_inner()),
        )
    }

    /// What a passing scenario found, reported as its detail (the
    /// algorithm and key id of a verified card signature, say).
    pub fn found(&self, detail: impl fmt::Display) {
        *self.found.lock().unwrap_or_else(|e| e.into_inner()) = Some(detail.to_string());
    }

    /// The binding this run is on.
    pub fn binding(&self) -> Binding {
        self.binding
    }

    /// The target.
    pub fn target(&self) -> &Target {
        &self.session.target
    }

    /// The agent's public card.
    pub fn card(&self) -> &AgentCard {
        &self.session.target.card
    }

    /// The timings.
    pub fn timing(&self) -> &Timing {
        &self.session.target.timing
    }

    /// Skips unless the card declares `capabilities.pushNotifications`:
    /// the reason a push scenario does not apply to an agent without it.
    pub fn needs_push(&self) -> Check {
        if self.card().capabilities.push_notifications == Some(true) {
            Ok(())
        } else {
            Err(skip(
                "the card does not declare capabilities.pushNotifications (push delivery needs it)",
            ))
        }
    }

    /// The webhook receiver, or a skip when the card declares no push
    /// notifications (that is the reason then) or the target has no
    /// receiver.
    pub fn webhook(&self) -> Check<&Webhook> {
        self.needs_push()?;
        self.session.target.webhook.as_ref().ok_or_else(|| {
            skip("needs a webhook receiver the agent can reach (only the embedded agent has one)")
        })
    }

    /// The https webhook receiver, or a skip when the card declares no
    /// push notifications or the target has no such receiver.
    pub fn secure_webhook(&self) -> Check<&Webhook> {
        self.needs_push()?;
        self.session.target.secure_webhook.as_ref().ok_or_else(|| {
            skip("needs an https webhook receiver the agent trusts (only the embedded agent has one)")
        })
    }

    /// Records an observation of this run, compared across bindings
    /// (spec 5.1): it must not depend on the binding (no ids, no times).
    pub fn note(&self, observation: impl fmt::Display) {
        self.notes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(observation.to_string());
    }

    /// A string unique in this run and across runs of the runner, for
    /// message ids, context ids and webhook paths.
    pub fn nonce(&self) -> String {
        let n = self.session.counter.fetch_add(1, Ordering::Relaxed);
        format!("cf{}-{n}", self.session.run_id)
    }

    // ---- behaviour: the agent as a service ----

    /// The agent as a service on this binding.
    pub fn svc(&self) -> &dyn A2aService {
        self.session
            .services
            .iter()
            .find(|(b, _)| *b == self.binding)
            .map(|(_, s)| &**s)
            .unwrap_or(&NoService)
    }

    /// The context of a call by the main caller.
    pub fn cx(&self) -> CallContext {
        self.caller_cx(0).unwrap_or_default()
    }

    /// The context of a call by a second caller, distinct from the main
    /// one; a skip when the target knows only one.
    pub fn other_cx(&self) -> Check<CallContext> {
        self.caller_cx(1)
            .ok_or_else(|| skip("needs two distinct callers (give --bearer or --header twice)"))
    }

    /// The context of a call without credentials.
    pub fn anonymous_cx(&self) -> CallContext {
        CallContext::new()
    }

    fn caller_cx(&self, index: usize) -> Option<CallContext> {
        let caller = self.session.target.callers.get(index)?;
        Some(match self.binding {
            Binding::InProcess => match &caller.principal {
                Some(p) => CallContext::new().with_principal(p.clone()),
                None => CallContext::new(),
            },
            _ => CallContext::new().with_headers(caller.headers.clone()),
        })
    }

    /// The headers of the main caller, for raw HTTP requests.
    pub fn auth_headers(&self) -> http::HeaderMap {
        self.session
            .target
            .callers
            .first()
            .map(|c| c.headers.clone())
            .unwrap_or_default()
    }

    /// Whether the card requires authentication.
    pub fn requires_auth(&self) -> bool {
        a2a_transport::server::security_required(self.card())
    }

    /// The contract the target follows (`--contract`).
    pub fn contract_name(&self) -> Contract {
        self.session.target.contract
    }

    /// Checks that the agent shows `behaviour` when the target's contract
    /// asks for it, probing once per binding and behaviour: passing one
    /// probe says nothing about another. Skips when there is no contract,
    /// or the contract has no way to ask. A contract names behaviours, and
    /// an agent may implement some of them (an echo-only agent completes
    /// every task): a failed probe is a skip saying the behaviour is not
    /// implemented and what the agent answered, not a failure of every
    /// scenario that needs it.
    pub async fn contract(&self, behaviour: Behaviour) -> Check {
        let contract = self.contract_name();
        if contract == Contract::None {
            return Err(skip(format!(
                "needs --contract: the scenario needs the agent to show `{behaviour}` \
                 (--contract reference|tck says how to ask for it)"
            )));
        }
        let Some(ask) = contract.ask(behaviour) else {
            return Err(skip(format!(
                "needs --contract reference: the {contract} contract has no way to ask for `{behaviour}`"
            )));
        };
        if behaviour.streams() {
            needs_streaming(self)?;
        }
        let Some((_, _, cell)) = self
            .session
            .probes
            .iter()
            .find(|(b, p, _)| *b == self.binding && *p == behaviour)
        else {
            return Err(skip("no service on this binding"));
        };
        let verdict = cell.get_or_init(|| self.probe(behaviour)).await.clone();
        verdict.map_err(|why| {
            skip(format!(
                "`{behaviour}` not implemented by the agent (asked as the {contract} \
                 contract says, messageId {}…, text {:?}, it answered: {why})",
                ask.message_id_prefix, ask.text
            ))
        })
    }

    /// Like [`Ctx::contract`], for a scenario that relies on the reference
    /// contract's parameters (chunk counts, delays, echoed text): it skips
    /// under any other contract.
    pub async fn reference(&self, behaviour: Behaviour) -> Check {
        if self.contract_name() != Contract::Reference {
            return Err(skip(format!(
                "needs --contract reference: the scenario uses the reference agent's \
                 parameters for `{behaviour}`"
            )));
        }
        self.contract(behaviour).await
    }

    /// A message asking for `behaviour` (after [`Ctx::contract`] passes):
    /// `reference_text` under the reference contract, which a scenario may
    /// give parameters to (`slow 800`), else the contract's own request.
    pub async fn ask(&self, behaviour: Behaviour, reference_text: &str) -> Check<Message> {
        self.contract(behaviour).await?;
        Ok(self.asking(behaviour, reference_text))
    }

    /// A fresh message asking for `behaviour` as the contract says (once
    /// [`Ctx::contract`] passed); `reference_text` under the reference
    /// contract or without one.
    pub(crate) fn asking(&self, behaviour: Behaviour, reference_text: &str) -> Message {
        match self.contract_name().ask(behaviour) {
            Some(ask) if self.contract_name() != Contract::Reference => Message::user_text(
                format!("{}{}", ask.message_id_prefix, self.nonce()),
                ask.text,
            ),
            _ => self.msg(reference_text),
        }
    }

    async fn probe(&self, behaviour: Behaviour) -> Result<(), String> {
        let ask = self
            .contract_name()
            .ask(behaviour)
            .ok_or_else(|| format!("the contract cannot ask for `{behaviour}`"))?;
        let message = self.asking(behaviour, ask.text);
        let timed_out = |_| format!("nothing within {:?}", self.timing().call_timeout);
        if behaviour.streams() {
            let request = SendMessageRequest::new(message);
            let stream = self
                .within(self.svc().send_streaming_message(&self.cx(), request))
                .await
                .map_err(timed_out)?
                .map_err(|e| describe_error(&e))?;
            let events = self.collect(stream).await.map_err(|stop| match stop {
                Stop::Fail { got, .. } | Stop::Skip(got) => got,
            })?;
            return behaviour.expect_stream(&events);
        }
        let request = match behaviour.immediately() {
            true => immediately(message),
            false => SendMessageRequest::new(message),
        };
        let answer = self
            .within(self.svc().send_message(&self.cx(), request))
            .await
            .map_err(timed_out)?;
        match answer {
            Ok(answer) => behaviour.expect(&answer),
            // A refused request is the failure a contract may ask for.
            Err(_) if behaviour == Behaviour::Failure => Ok(()),
            Err(e) => Err(describe_error(&e)),
        }
    }

    /// A task of the agent's own making: under a contract one that
    /// completes (asked with `reference_text` under the reference
    /// contract); without one, the answer to `reference_text` as a plain
    /// message, skipping when that is a direct Message.
    pub async fn any_task(&self, reference_text: &str) -> Check<Task> {
        let message = match self.contract_name() {
            Contract::None => self.msg(reference_text),
            _ => self.ask(Behaviour::Complete, reference_text).await?,
        };
        match self.send(SendMessageRequest::new(message)).await? {
            SendMessageResponse::Task(t) => Ok(t),
            SendMessageResponse::Message(_) if self.contract_name() == Contract::None => Err(skip(
                "needs --contract: a plain message was answered with a direct Message, \
                     and the scenario needs a task",
            )),
            SendMessageResponse::Message(m) => Err(fail(
                "a Task",
                format!("a Message {:?}", m.text_content().unwrap_or_default()),
            )),
        }
    }

    /// `Some(skip)` when `error` is the agent declining `operation` where
    /// the spec allows it (the rule in [`crate::offers`]): not offered,
    /// rather than failed.
    pub fn declined(&self, operation: a2a_types::Operation, error: &A2aError) -> Option<Stop> {
        crate::offers::rule(operation)
            .declined(self.card(), error)
            .map(skip)
    }

    /// `result` of `operation`, or a skip when it is a decline the spec
    /// allows ([`Ctx::declined`]).
    pub fn offered<T>(
        &self,
        operation: a2a_types::Operation,
        result: Result<T, A2aError>,
    ) -> Check<Result<T, A2aError>> {
        match result {
            Err(e) => match self.declined(operation, &e) {
                Some(stop) => Err(stop),
                None => Ok(Err(e)),
            },
            ok => Ok(ok),
        }
    }

    /// A user message with a fresh id and one text part.
    pub fn msg(&self, text: &str) -> Message {
        Message::user_text(format!("m-{}", self.nonce()), text)
    }

    /// A follow-up message on `task`, with a fresh id.
    pub fn follow_up(&self, task_id: &str, context_id: &str, text: &str) -> Message {
        let mut m = self.msg(text);
        m.task_id = task_id.to_owned();
        m.context_id = context_id.to_owned();
        m
    }

    /// Runs `call` within the scenario's call timeout.
    pub async fn within<F: Future>(&self, call: F) -> Check<F::Output> {
        let limit = self.timing().call_timeout;
        tokio::time::timeout(limit, call)
            .await
            .map_err(|_| fail("an answer", format!("nothing within {limit:?}")))
    }

    /// Calls `SendMessage`; an error answer fails the scenario.
    pub async fn send(&self, request: SendMessageRequest) -> Check<SendMessageResponse> {
        self.within(self.svc().send_message(&self.cx(), request))
            .await?
            .map_err(|e| fail("SendMessage to succeed", describe_error(&e)))
    }

    /// Sends `text` (blocking) and expects a task back.
    pub async fn send_task(&self, text: &str) -> Check<Task> {
        self.send_task_with(SendMessageRequest::new(self.msg(text)))
            .await
    }

    /// Sends `request` and expects a task back.
    pub async fn send_task_with(&self, request: SendMessageRequest) -> Check<Task> {
        let text = request.message.text_content().unwrap_or_default();
        match self.send(request).await? {
            SendMessageResponse::Task(t) => Ok(t),
            SendMessageResponse::Message(m) => Err(fail(
                format!("a Task for {text:?}"),
                format!("a Message {:?}", m.text_content().unwrap_or_default()),
            )),
        }
    }

    /// Sends `text` with `returnImmediately` and expects a task back.
    pub async fn start_task(&self, text: &str) -> Check<Task> {
        self.send_task_with(immediately(self.msg(text))).await
    }

    /// Calls `GetTask`; an error answer fails the scenario.
    pub async fn get(&self, id: &str, history_length: Option<i32>) -> Check<Task> {
        let mut request = GetTaskRequest::new(id);
        request.history_length = history_length;
        self.within(self.svc().get_task(&self.cx(), request))
            .await?
            .map_err(|e| fail("GetTask to succeed", describe_error(&e)))
    }

    /// Polls `GetTask` until the task is terminal or interrupted.
    pub async fn settle(&self, id: &str) -> Check<Task> {
        let deadline = tokio::time::Instant::now() + self.timing().call_timeout;
        loop {
            let task = self.get(id, None).await?;
            let s = task.status.state;
            if s.is_terminal() || s.is_interrupted() {
                return Ok(task);
            }
            if tokio::time::Instant::now() > deadline {
                return Err(fail(
                    "the task to finish",
                    format!(
                        "still {} after {:?}",
                        s.as_str_name(),
                        self.timing().call_timeout
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// Opens a `SendStreamingMessage` stream; an error answer fails.
    pub async fn stream(&self, request: SendMessageRequest) -> Check<EventStream> {
        self.within(self.svc().send_streaming_message(&self.cx(), request))
            .await?
            .map_err(|e| fail("SendStreamingMessage to open a stream", describe_error(&e)))
    }

    /// The next item of `stream`: `None` when it ended, a failure when
    /// nothing arrives within the call timeout or the item is an error.
    pub async fn next(&self, stream: &mut EventStream) -> Check<Option<StreamResponse>> {
        let item = self
            .within(poll_fn(|c| stream.as_mut().poll_next(c)))
            .await
            .map_err(|_| {
                fail(
                    "the next event or the end of the stream",
                    format!("nothing within {:?}", self.timing().call_timeout),
                )
            })?;
        match item {
            None => Ok(None),
            Some(Ok(event)) => Ok(Some(event)),
            Some(Err(e)) => Err(fail("a stream event", describe_error(&e))),
        }
    }

    /// Every event of `stream` until it ends; a failure when it does not
    /// end within the call timeout after its last event.
    pub async fn collect(&self, mut stream: EventStream) -> Check<Vec<StreamResponse>> {
        let mut events = Vec::new();
        while let Some(e) = self.next(&mut stream).await.map_err(|stop| match stop {
            Stop::Fail { got, .. } => fail(
                "the stream to close after its final event",
                format!("{got}; events so far: {}", describe_events(&events)),
            ),
            other => other,
        })? {
            events.push(e);
        }
        Ok(events)
    }

    /// Whether `stream` has ended: it yields nothing more within the quiet
    /// period and then ends. A failure when an event arrives or the stream
    /// stays open.
    pub async fn ended(&self, stream: &mut EventStream) -> Check {
        let quiet = self.timing().quiet * 4;
        match tokio::time::timeout(quiet, poll_fn(|c| stream.as_mut().poll_next(c))).await {
            Ok(None) => Ok(()),
            Ok(Some(Ok(e))) => Err(fail(
                "the stream to close after the final event",
                format!("another event: {}", describe_event(&e)),
            )),
            Ok(Some(Err(e))) => Err(fail(
                "the stream to close after the final event",
                format!("an error: {}", describe_error(&e)),
            )),
            Err(_) => Err(fail(
                "the stream to close after the final event",
                format!("still open {quiet:?} later"),
            )),
        }
    }

    // ---- wire: the agent as raw HTTP ----

    /// The host HTTP client.
    pub fn http(&self) -> &dyn HttpClient {
        &*self.session.target.http
    }

    /// What carries raw gRPC calls to the agent.
    pub fn grpc(&self) -> Check<&dyn GrpcWire> {
        self.session
            .target
            .grpc
            .as_deref()
            .ok_or_else(|| skip("no gRPC carrier for this target"))
    }

    /// The card's interface for this binding.
    pub fn interface(&self) -> Check<&AgentInterface> {
        self.session
            .interfaces
            .iter()
            .find(|(b, _)| *b == self.binding)
            .map(|(_, i)| i)
            .ok_or_else(|| skip(format!("no usable {} interface", self.binding)))
    }
}

/// A `SendMessageRequest` for `message` with `returnImmediately`.
pub fn immediately(message: Message) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(message);
    r.configuration = Some(SendMessageConfiguration {
        return_immediately: true,
        ..Default::default()
    });
    r
}

/// A `SendMessageRequest` for `message` with `historyLength`.
pub fn with_history(message: Message, history_length: i32) -> SendMessageRequest {
    let mut r = SendMessageRequest::new(message);
    r.configuration = Some(SendMessageConfiguration {
        history_length: Some(history_length),
        ..Default::default()
    });
    r
}

/// Expects `result` to be an error of `kind`.
pub fn expect_error<T: fmt::Debug>(
    result: Result<T, A2aError>,
    kind: ErrorKind,
    when: &str,
) -> Check<A2aError> {
    match result {
        Err(e) if e.kind() == kind => Ok(e),
        Err(e) => Err(fail(format!("{} {when}", kind.name()), describe_error(&e))),
        Ok(v) => Err(fail(
            format!("{} {when}", kind.name()),
            format!("success: {}", abbreviate(&format!("{v:?}"))),
        )),
    }
}

/// The service of a binding that has none: every call is unsupported.
struct NoService;
impl A2aService for NoService {}

/// Skips unless the card declares streaming.
pub(crate) fn needs_streaming(cx: &Ctx<'_>) -> Check {
    if cx.card().capabilities.streaming == Some(true) {
        Ok(())
    } else {
        Err(skip("the card does not declare capabilities.streaming"))
    }
}
