//! [`ReferenceAgent`]: the [`ReferenceExecutor`] on the agent kit's
//! [`AgentHandler`] and [`InMemoryTaskStore`] (or any [`TaskStore`], such
//! as the PostgreSQL one `--store postgres://...` connects).

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::{AgentHandler, HandlerConfig, InMemoryTaskStore, MemoryLimits, TaskStore};
use a2a_hyper::TokioRuntime;
use a2a_transport::metrics::{Metrics, MetricsRecorder, PrometheusRecorder};
use a2a_transport::{A2aService, BoxFuture, CallContext, ServerConfig};
use a2a_types::{A2aError, AgentCard};

use crate::card;
use crate::config::AgentConfig;
use crate::executor::ReferenceExecutor;
use crate::push::{PushObserver, PushSender};

/// The reference agent: an [`A2aService`](a2a_transport::A2aService) that
/// honours every server-side requirement of spec sections 3 and 13,
/// driven by the message (see the [crate documentation](crate) for the
/// contract). It is the agent kit's [`AgentHandler`] running the
/// [`ReferenceExecutor`] on an [`InMemoryTaskStore`].
///
/// Cloning is cheap and shares the tasks. Methods must be called from
/// within a tokio runtime: tasks run on spawned tokio tasks.
#[derive(Clone)]
pub struct ReferenceAgent {
    inner: Arc<Inner>,
}

struct Inner {
    config: AgentConfig,
    handler: AgentHandler<ReferenceExecutor>,
    /// The in-memory store, when the agent keeps its tasks there.
    memory: Option<InMemoryTaskStore>,
    store: Arc<dyn TaskStore>,
    public_card: AgentCard,
    /// When the card changed, for `Last-Modified`.
    card_changed: std::time::SystemTime,
    /// Where calls, streams and pushes are recorded (`config.metrics`).
    prometheus: Option<Arc<PrometheusRecorder>>,
}

impl std::fmt::Debug for ReferenceAgent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReferenceAgent")
            .field("config", &self.inner.config)
            .field("in_memory_tasks", &self.task_count())
            .finish_non_exhaustive()
    }
}

impl ReferenceAgent {
    /// An agent delivering push notifications with `sender`.
    pub fn new(config: AgentConfig, sender: Arc<dyn PushSender>) -> ReferenceAgent {
        ReferenceAgent::build(config, sender, None)
    }

    /// An agent delivering push notifications with `sender` and telling
    /// `observer` what happened to each one.
    pub fn with_push_observer(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: PushObserver,
    ) -> ReferenceAgent {
        ReferenceAgent::build(config, sender, Some(observer))
    }

    /// An agent keeping its tasks in `store` (a durable one, say) instead
    /// of memory; `config.limits`' store bounds are then `store`'s to keep.
    /// `observer`, when given, is told what happened to each push.
    pub fn on_store(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: Option<PushObserver>,
        store: Arc<dyn TaskStore>,
    ) -> ReferenceAgent {
        ReferenceAgent::assemble(config, sender, observer, None, store)
    }

    fn build(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: Option<PushObserver>,
    ) -> ReferenceAgent {
        let limits = &config.limits;
        let mut memory = MemoryLimits::default();
        memory.max_tasks = limits.max_tasks;
        memory.task_ttl = limits.task_ttl;
        memory.max_store_bytes = limits.max_store_bytes;
        memory.max_tasks_per_owner = limits.max_tasks_per_owner;
        memory.max_bytes_per_owner = limits.max_bytes_per_owner;
        memory.max_running_bytes = limits.max_running_bytes;
        memory.max_history = limits.max_history;
        memory.max_events_per_task = limits.max_events_per_task;
        memory.max_push_configs_per_task = limits.max_push_configs_per_task;
        let memory = InMemoryTaskStore::new(memory);
        let store: Arc<dyn TaskStore> = Arc::new(memory.clone());
        ReferenceAgent::assemble(config, sender, observer, Some(memory), store)
    }

    fn assemble(
        config: AgentConfig,
        sender: Arc<dyn PushSender>,
        observer: Option<PushObserver>,
        memory: Option<InMemoryTaskStore>,
        store: Arc<dyn TaskStore>,
    ) -> ReferenceAgent {
        let limits = &config.limits;
        let public_card = card::public_card(&config);
        let mut handler_config = HandlerConfig::new()
            .with_streaming(config.streaming)
            .with_push_notifications(config.push_notifications)
            .with_output_modes(public_card.default_output_modes.clone())
            .with_push_allowlist(config.push_allowlist.clone())
            .with_push_schedule(config.push.schedule())
            .with_max_pending_notifications(limits.max_push_queue)
            .with_max_running_tasks(limits.max_running_tasks)
            .with_page_sizes(limits.default_page_size, limits.max_page_size);
        if config.bearer_scheme.is_some() {
            handler_config = handler_config.with_extended_card(card::extended_card(&config));
        }
        let executor = if config.fire_and_forget {
            // Its tasks never settle by themselves: a blocking send
            // answers the task as it stands (0.3's `blocking` allows it).
            handler_config = handler_config.with_max_blocking_wait(Duration::ZERO);
            ReferenceExecutor::fire_and_forget(config.limits.clone())
        } else {
            ReferenceExecutor::new(config.limits.clone())
        };
        let mut builder = AgentHandler::builder(executor, Arc::clone(&store), TokioRuntime)
            .config(handler_config)
            .push_sender(sender);
        if let Some(observer) = observer {
            builder = builder.push_observer(observer);
        }
        if let Some(tracer) = &config.tracer {
            builder = builder.tracer(Arc::clone(tracer));
        }
        let prometheus = config
            .metrics
            .then(|| Arc::new(crate::metrics::recorder(memory.as_ref())));
        if let Some(recorder) = &prometheus {
            builder = builder.metrics(Arc::clone(recorder) as Arc<dyn MetricsRecorder>);
        }
        ReferenceAgent {
            inner: Arc::new(Inner {
                handler: builder.build(),
                memory,
                store,
                public_card,
                card_changed: config
                    .card_last_modified
                    .unwrap_or_else(std::time::SystemTime::now),
                prometheus,
                config,
            }),
        }
    }

    /// The configuration.
    pub fn config(&self) -> &AgentConfig {
        &self.inner.config
    }

    /// The handler the agent is: every operation goes to it.
    pub fn handler(&self) -> &AgentHandler<ReferenceExecutor> {
        &self.inner.handler
    }

    /// The public agent card (spec 8), served at
    /// `/.well-known/agent-card.json` by the binary.
    pub fn agent_card(&self) -> &AgentCard {
        &self.inner.public_card
    }

    /// The server settings the agent is served with: `ServerConfig`'s
    /// defaults, with the input-mode check on (a part the card's
    /// `defaultInputModes` does not accept is `ContentTypeNotSupportedError`,
    /// spec 3.3.2), the card's `Last-Modified` (spec 8.6.1), and the
    /// configuration's metrics and tracer.
    pub fn server_config(&self) -> ServerConfig {
        let mut config = ServerConfig::new()
            .with_input_mode_check(true)
            .with_card_last_modified(self.inner.card_changed);
        if let Some(tracer) = &self.inner.config.tracer {
            config = config.with_tracer(Arc::clone(tracer));
        }
        match &self.inner.prometheus {
            Some(recorder) => config.with_metrics(Metrics::new(
                Arc::clone(recorder) as Arc<dyn MetricsRecorder>,
                Arc::new(crate::metrics::InstantClock::new()),
            )),
            None => config,
        }
    }

    /// The metrics recorder, when `config.metrics` asked for one: what
    /// `/metrics` renders.
    pub fn prometheus(&self) -> Option<&Arc<PrometheusRecorder>> {
        self.inner.prometheus.as_ref()
    }

    /// How many tasks the agent holds in memory now (at most
    /// `limits.max_tasks`); 0 on another store ([`on_store`](Self::on_store)).
    pub fn task_count(&self) -> usize {
        self.inner.memory.as_ref().map_or(0, |m| m.len())
    }

    /// What the tasks in memory weigh, in estimated bytes (at most about
    /// `limits.max_store_bytes` after the next task or sweep); 0 on
    /// another store.
    pub fn store_weight(&self) -> usize {
        self.inner.memory.as_ref().map_or(0, |m| m.weight())
    }

    /// How many events the in-memory log of task `id` holds now (`None`:
    /// no such task, or the tasks are not in memory).
    pub fn logged_events(&self, id: &str) -> Option<usize> {
        self.inner.memory.as_ref().and_then(|m| m.logged(id))
    }

    /// Evicts expired tasks and what the byte budget requires without
    /// waiting for a new task to arrive; returns how many went. The
    /// binary runs it every second ([`SWEEP_INTERVAL`]).
    pub fn sweep(&self) -> usize {
        self.inner.handler.sweep()
    }

    /// The store, as the handler sees it.
    pub fn store(&self) -> &dyn TaskStore {
        &*self.inner.store
    }
}

/// How often the binary sweeps the store ([`ReferenceAgent::sweep`]).
pub const SWEEP_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

/// Every operation goes straight to the handler (written from the
/// operation table, so that none is missed).
macro_rules! delegate_to_handler {
    ($(
        $name:ident {
            method: $method:ident, section: $section:literal, answer: $answer:ident,
            params: $params:ty,
            result: $result:ty,
            reply: $reply:ty,
            item: $item:ty,
            default: $default:ident,
            fields: { $($json:literal => $field:ident),* $(,)? },
            v0_3: [$($v03:literal)?],
        }
    )*) => {
        impl A2aService for ReferenceAgent {$(
            fn $method<'a>(
                &'a self,
                cx: &'a CallContext,
                request: $params,
            ) -> BoxFuture<'a, Result<$result, A2aError>> {
                self.inner.handler.$method(cx, request)
            }
        )*}
    };
}

a2a_types::operation_table!(delegate_to_handler);
