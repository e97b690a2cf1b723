//! The HTTP+JSON route table (spec 11.3 and the proto's `google.api.http`
//! annotations on `service A2AService`), as data, with a matcher for the
//! server and a path builder for the client.
//!
//! # Decisions
//!
//! - **Tenant prefix.** Every route also exists under a `/{tenant}`
//!   prefix of exactly one segment (proto `additional_bindings`). A path
//!   is read tenant-less first and tenant-prefixed second, and the first
//!   reading whose shape *and* method match wins. So `GET /tasks/tasks` is
//!   `GetTask` with id `tasks` (not `ListTasks` for tenant `tasks`), and
//!   `GET /tasks/extendedAgentCard` is `GetTask` too. The only tenant
//!   this shadows is one whose raw segment is `tasks`; a client reaches
//!   it by escaping a byte (`/%74asks/tasks`), which
//!   [`Router::build_path`] does. Literal segments are compared raw, so an
//!   escaped segment is never a literal.
//! - **Verbs.** The custom verbs of the table (`:send`, `:stream`,
//!   `:cancel`, `:subscribe`) are recognised only as a suffix of the last
//!   segment after its last raw `:`. Any other raw `:` is data
//!   (`/tasks/urn:x:1` is `GetTask` for `urn:x:1`); an id that itself
//!   ends in `:cancel` must be sent as `%3Acancel`, as the builder does.
//! - **`SubscribeToTask`** is `GET` in the proto and `POST` in spec
//!   11.3: both are accepted; the builder's route (and
//!   [`Route::canonical`]) is the proto's `GET`.
//! - **No normalisation.** A trailing slash, an empty segment (`//`) or
//!   a raw `.`/`..` segment never matches (404): `/tasks/` is neither
//!   `ListTasks` nor `GetTask` with an empty id, and dot segments are
//!   removed by conforming clients (RFC 3986 section 5.2.4), so a raw one
//!   means the path was not meant for us. Escaped forms are data:
//!   `%2E%2E` is the task id `..`.
//! - **Encoded slashes** stay inside their parameter: segments are split
//!   on raw `/` before percent-decoding, so `/tasks/a%2Fb` is the id `a/b`.
//! - **Order of checks**: length (414), shape (404), method (405), then
//!   percent-decoding of the parameters (400).
//! - **Limits.** The whole path (base path included) is refused above
//!   [`Router::max_path_len`] bytes (414) before anything else is read;
//!   a path of more segments than the longest route is 404 without
//!   splitting further.

use std::borrow::Cow;
use std::fmt;

use a2a_types::Operation;
use http::{HeaderValue, Method, StatusCode};

use crate::pct::{self, PercentDecodeError};

/// The HTTP methods the route table uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verb {
    Get,
    Post,
    Delete,
}

impl Verb {
    fn from_method(method: &Method) -> Option<Verb> {
        if method == Method::GET {
            Some(Verb::Get)
        } else if method == Method::POST {
            Some(Verb::Post)
        } else if method == Method::DELETE {
            Some(Verb::Delete)
        } else {
            None
        }
    }

    fn method(self) -> Method {
        match self {
            Verb::Get => Method::GET,
            Verb::Post => Method::POST,
            Verb::Delete => Method::DELETE,
        }
    }

    fn bit(self) -> u8 {
        match self {
            Verb::Get => 1,
            Verb::Post => 2,
            Verb::Delete => 4,
        }
    }
}

/// A parameter that a path carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PathParam {
    /// The optional `/{tenant}` prefix (proto `tenant`, spec 11.3 and the
    /// multi-tenancy topic page).
    Tenant,
    /// The task id: `{id}` of `GetTask`, `CancelTask`, `SubscribeToTask`;
    /// `{task_id}` of the push notification config routes.
    TaskId,
    /// The push notification config id: `{id}` of the Get and Delete
    /// config routes.
    ConfigId,
}

impl PathParam {
    /// A stable name for messages: `tenant`, `taskId` or `configId`.
    pub fn name(self) -> &'static str {
        match self {
            PathParam::Tenant => "tenant",
            PathParam::TaskId => "taskId",
            PathParam::ConfigId => "configId",
        }
    }
}

impl fmt::Display for PathParam {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One segment of a route template.
#[derive(Debug, Clone, Copy)]
enum Seg {
    /// Compared byte for byte with the raw (still encoded) segment.
    Lit(&'static str),
    /// A parameter, and the ProtoJSON name of the request field it fills.
    Param(PathParam, &'static str),
}

/// One row of the route table: an operation reachable by one method at
/// one path template (spec 11.3; proto `google.api.http`).
#[derive(Debug)]
pub struct Route {
    operation: Operation,
    verb: Verb,
    segments: &'static [Seg],
    custom_verb: Option<&'static str>,
    template: &'static str,
    canonical: bool,
    body: RequestBody,
    query: &'static [QueryField],
}

/// Where a route's request message travels besides the path (spec 11.3,
/// 11.5; the proto's `body` rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestBody {
    /// The whole request message is the JSON body (`body: "*"`); the
    /// query carries only service parameters.
    Message,
    /// No body: the fields the path does not carry are query parameters.
    None,
}

/// The ProtoJSON type of a query parameter, which decides how its text is
/// read and written (spec 11.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryKind {
    /// A string field.
    String,
    /// An `int32` field, as a decimal number.
    Int32,
    /// A `bool` field: `true` or `false`.
    Bool,
    /// A `TaskState` field, by its proto name (`TASK_STATE_WORKING`).
    TaskState,
    /// A `google.protobuf.Timestamp` field, in RFC 3339.
    Timestamp,
    /// An `int64` field, as a decimal number (the 1.1 draft's
    /// generations).
    #[cfg(feature = "draft-1-1")]
    Int64,
}

/// A request field that a route carries in the query string: its ProtoJSON
/// name (also the parameter's name) and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QueryField {
    /// The ProtoJSON (camelCase) name.
    pub name: &'static str,
    /// How its text reads.
    pub kind: QueryKind,
}

const fn q(name: &'static str, kind: QueryKind) -> QueryField {
    QueryField { name, kind }
}

/// The query fields of `GET /tasks/{id}` (spec 3.1.3).
const GET_TASK_QUERY: &[QueryField] = &[
    q("historyLength", QueryKind::Int32),
    #[cfg(feature = "draft-1-1")]
    q("currentGeneration", QueryKind::Int64),
    #[cfg(feature = "draft-1-1")]
    q("timelineLength", QueryKind::Int32),
    q("tenant", QueryKind::String),
];
/// The query fields of `GET /tasks` (spec 3.1.4), in the order a client
/// writes them.
const LIST_TASKS_QUERY: &[QueryField] = &[
    q("contextId", QueryKind::String),
    q("status", QueryKind::TaskState),
    q("pageSize", QueryKind::Int32),
    q("pageToken", QueryKind::String),
    q("historyLength", QueryKind::Int32),
    q("statusTimestampAfter", QueryKind::Timestamp),
    q("includeArtifacts", QueryKind::Bool),
    #[cfg(feature = "draft-1-1")]
    q("timelineLength", QueryKind::Int32),
    q("tenant", QueryKind::String),
];
/// The query fields of `GET .../pushNotificationConfigs` (spec 3.1.9).
const LIST_CONFIGS_QUERY: &[QueryField] = &[
    q("pageSize", QueryKind::Int32),
    q("pageToken", QueryKind::String),
    q("tenant", QueryKind::String),
];
/// The only query field of a `GET` or `DELETE` that names one resource.
const TENANT_QUERY: &[QueryField] = &[q("tenant", QueryKind::String)];

const TASKS: Seg = Seg::Lit("tasks");
const PUSH_CONFIGS: Seg = Seg::Lit("pushNotificationConfigs");
const TASK_AS_ID: Seg = Seg::Param(PathParam::TaskId, "id");
const TASK_AS_TASK_ID: Seg = Seg::Param(PathParam::TaskId, "taskId");
const CONFIG_AS_ID: Seg = Seg::Param(PathParam::ConfigId, "id");

const fn route(
    operation: Operation,
    verb: Verb,
    segments: &'static [Seg],
    custom_verb: Option<&'static str>,
    template: &'static str,
    query: &'static [QueryField],
) -> Route {
    Route {
        operation,
        verb,
        segments,
        custom_verb,
        template,
        canonical: true,
        body: match verb {
            Verb::Post => RequestBody::Message,
            Verb::Get | Verb::Delete => RequestBody::None,
        },
        query,
    }
}

/// The route table: spec 11.3 and the proto's `google.api.http` rules,
/// tenant-less (every row also matches under `/{tenant}`). Templates use
/// the proto's parameter names.
static ROUTES: [Route; 12] = [
    route(
        Operation::SendMessage,
        Verb::Post,
        &[Seg::Lit("message")],
        Some("send"),
        "/message:send",
        &[],
    ),
    route(
        Operation::SendStreamingMessage,
        Verb::Post,
        &[Seg::Lit("message")],
        Some("stream"),
        "/message:stream",
        &[],
    ),
    route(
        Operation::GetTask,
        Verb::Get,
        &[TASKS, TASK_AS_ID],
        None,
        "/tasks/{id}",
        GET_TASK_QUERY,
    ),
    route(
        Operation::ListTasks,
        Verb::Get,
        &[TASKS],
        None,
        "/tasks",
        LIST_TASKS_QUERY,
    ),
    route(
        Operation::CancelTask,
        Verb::Post,
        &[TASKS, TASK_AS_ID],
        Some("cancel"),
        "/tasks/{id}:cancel",
        &[],
    ),
    // The proto says GET ...
    route(
        Operation::SubscribeToTask,
        Verb::Get,
        &[TASKS, TASK_AS_ID],
        Some("subscribe"),
        "/tasks/{id}:subscribe",
        TENANT_QUERY,
    ),
    // ... and spec 11.3 says POST: accepted on input, never built.
    Route {
        canonical: false,
        ..route(
            Operation::SubscribeToTask,
            Verb::Post,
            &[TASKS, TASK_AS_ID],
            Some("subscribe"),
            "/tasks/{id}:subscribe",
            &[],
        )
    },
    route(
        Operation::CreateTaskPushNotificationConfig,
        Verb::Post,
        &[TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS],
        None,
        "/tasks/{task_id}/pushNotificationConfigs",
        &[],
    ),
    route(
        Operation::GetTaskPushNotificationConfig,
        Verb::Get,
        &[TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS, CONFIG_AS_ID],
        None,
        "/tasks/{task_id}/pushNotificationConfigs/{id}",
        TENANT_QUERY,
    ),
    route(
        Operation::ListTaskPushNotificationConfigs,
        Verb::Get,
        &[TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS],
        None,
        "/tasks/{task_id}/pushNotificationConfigs",
        LIST_CONFIGS_QUERY,
    ),
    route(
        Operation::DeleteTaskPushNotificationConfig,
        Verb::Delete,
        &[TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS, CONFIG_AS_ID],
        None,
        "/tasks/{task_id}/pushNotificationConfigs/{id}",
        TENANT_QUERY,
    ),
    route(
        Operation::GetExtendedAgentCard,
        Verb::Get,
        &[Seg::Lit("extendedAgentCard")],
        None,
        "/extendedAgentCard",
        TENANT_QUERY,
    ),
];

const V1: Seg = Seg::Lit("v1");

/// The A2A 0.3 route table (0.3 spec 3.2.3, 3.5.6): the same operations
/// under `/v1`, the task id as `{id}` everywhere, no tenants, the extended
/// card at `/v1/card`. 0.3's JSON-RPC has no `tasks/list` and neither does
/// this table (a 0.3 `GET /v1/tasks` is 404). `SubscribeToTask` is `POST`
/// in 0.3 spec 3.5.6 and `GET` in its method section: both accepted, `POST`
/// built.
static ROUTES_V0_3: [Route; 11] = [
    route(
        Operation::SendMessage,
        Verb::Post,
        &[V1, Seg::Lit("message")],
        Some("send"),
        "/v1/message:send",
        &[],
    ),
    route(
        Operation::SendStreamingMessage,
        Verb::Post,
        &[V1, Seg::Lit("message")],
        Some("stream"),
        "/v1/message:stream",
        &[],
    ),
    route(
        Operation::GetTask,
        Verb::Get,
        &[V1, TASKS, TASK_AS_ID],
        None,
        "/v1/tasks/{id}",
        V03_GET_TASK_QUERY,
    ),
    route(
        Operation::CancelTask,
        Verb::Post,
        &[V1, TASKS, TASK_AS_ID],
        Some("cancel"),
        "/v1/tasks/{id}:cancel",
        &[],
    ),
    route(
        Operation::SubscribeToTask,
        Verb::Post,
        &[V1, TASKS, TASK_AS_ID],
        Some("subscribe"),
        "/v1/tasks/{id}:subscribe",
        &[],
    ),
    Route {
        canonical: false,
        ..route(
            Operation::SubscribeToTask,
            Verb::Get,
            &[V1, TASKS, TASK_AS_ID],
            Some("subscribe"),
            "/v1/tasks/{id}:subscribe",
            &[],
        )
    },
    route(
        Operation::CreateTaskPushNotificationConfig,
        Verb::Post,
        &[V1, TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS],
        None,
        "/v1/tasks/{id}/pushNotificationConfigs",
        &[],
    ),
    route(
        Operation::GetTaskPushNotificationConfig,
        Verb::Get,
        &[V1, TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS, CONFIG_AS_ID],
        None,
        "/v1/tasks/{id}/pushNotificationConfigs/{configId}",
        &[],
    ),
    route(
        Operation::ListTaskPushNotificationConfigs,
        Verb::Get,
        &[V1, TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS],
        None,
        "/v1/tasks/{id}/pushNotificationConfigs",
        &[],
    ),
    route(
        Operation::DeleteTaskPushNotificationConfig,
        Verb::Delete,
        &[V1, TASKS, TASK_AS_TASK_ID, PUSH_CONFIGS, CONFIG_AS_ID],
        None,
        "/v1/tasks/{id}/pushNotificationConfigs/{configId}",
        &[],
    ),
    route(
        Operation::GetExtendedAgentCard,
        Verb::Get,
        &[V1, Seg::Lit("card")],
        None,
        "/v1/card",
        &[],
    ),
];

/// The query of 0.3's `GET /v1/tasks/{id}` (0.3 spec 7.3): no tenant.
const V03_GET_TASK_QUERY: &[QueryField] = &[q("historyLength", QueryKind::Int32)];

/// Which route table a [`Router`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum RouteTable {
    /// A2A 1.0 (spec 11.3), with the `/{tenant}` prefix.
    #[default]
    V1_0,
    /// A2A 0.3 (0.3 spec 3.5.6): under `/v1`, no tenants, no `ListTasks`.
    V0_3,
}

impl RouteTable {
    /// Every route of the table.
    pub fn routes(self) -> &'static [Route] {
        match self {
            RouteTable::V1_0 => &ROUTES,
            RouteTable::V0_3 => &ROUTES_V0_3,
        }
    }

    /// The route a client uses for `operation` in this table; `None` for
    /// an operation the table lacks (`ListTasks` in 0.3).
    pub fn canonical(self, operation: Operation) -> Option<&'static Route> {
        match self {
            RouteTable::V1_0 => Some(Route::canonical(operation)),
            RouteTable::V0_3 => ROUTES_V0_3
                .iter()
                .find(|r| r.operation == operation && r.canonical),
        }
    }

    fn tenants(self) -> bool {
        self == RouteTable::V1_0
    }
}

/// Segments of the longest route: a 1.0 route plus the tenant, or a 0.3
/// route (one more literal, `v1`, and no tenant).
const MAX_SEGMENTS: usize = 5;

impl Route {
    /// Every route, in the order of spec 3.1; `SubscribeToTask` appears
    /// twice (`GET` from the proto, then `POST` from spec 11.3).
    pub fn all() -> &'static [Route] {
        &ROUTES
    }

    /// The route a client uses for `operation`: the proto's binding.
    pub fn canonical(operation: Operation) -> &'static Route {
        match operation {
            Operation::SendMessage => &ROUTES[0],
            Operation::SendStreamingMessage => &ROUTES[1],
            Operation::GetTask => &ROUTES[2],
            Operation::ListTasks => &ROUTES[3],
            Operation::CancelTask => &ROUTES[4],
            Operation::SubscribeToTask => &ROUTES[5],
            Operation::CreateTaskPushNotificationConfig => &ROUTES[7],
            Operation::GetTaskPushNotificationConfig => &ROUTES[8],
            Operation::ListTaskPushNotificationConfigs => &ROUTES[9],
            Operation::DeleteTaskPushNotificationConfig => &ROUTES[10],
            Operation::GetExtendedAgentCard => &ROUTES[11],
        }
    }

    /// The operation this route reaches.
    pub fn operation(&self) -> Operation {
        self.operation
    }

    /// The HTTP method of this route.
    pub fn method(&self) -> Method {
        self.verb.method()
    }

    /// The tenant-less path template, in the proto's notation without the
    /// `=*`, e.g. `/tasks/{id}:cancel`.
    pub fn template(&self) -> &'static str {
        self.template
    }

    /// False only for `POST /tasks/{id}:subscribe`, which is accepted
    /// (spec 11.3) but never produced (the proto says `GET`).
    pub fn is_canonical(&self) -> bool {
        self.canonical
    }

    /// Where the request message travels besides the path.
    pub fn body(&self) -> RequestBody {
        self.body
    }

    /// The request fields this route reads from the query string (spec
    /// 11.5), in the order a client writes them; empty when the body
    /// carries the message.
    pub fn query_fields(&self) -> &'static [QueryField] {
        self.query
    }

    /// The path parameters this route carries, tenant first, each with the
    /// ProtoJSON name of the request field it fills.
    pub fn path_fields(&self) -> impl Iterator<Item = (PathParam, &'static str)> + '_ {
        std::iter::once((PathParam::Tenant, "tenant")).chain(self.segments.iter().filter_map(|s| {
            match s {
                Seg::Param(p, field) => Some((*p, *field)),
                Seg::Lit(_) => None,
            }
        }))
    }

    /// The parameters this route's path carries, besides the tenant.
    pub fn params(&self) -> impl Iterator<Item = PathParam> + '_ {
        self.segments.iter().filter_map(|s| match s {
            Seg::Param(p, _) => Some(*p),
            Seg::Lit(_) => None,
        })
    }

    /// The ProtoJSON name of the request field that `param` fills on this
    /// route (`id` or `taskId` for the task, `id` for a config, `tenant`),
    /// for `InvalidParams` field violations; `None` if the route has no
    /// such parameter.
    pub fn field_name(&self, param: PathParam) -> Option<&'static str> {
        if param == PathParam::Tenant {
            return Some("tenant");
        }
        self.segments.iter().find_map(|s| match s {
            Seg::Param(p, field) if *p == param => Some(*field),
            _ => None,
        })
    }

    fn shape_matches(&self, segs: &[&str], custom_verb: Option<&str>) -> bool {
        self.custom_verb == custom_verb
            && self.segments.len() == segs.len()
            && self
                .segments
                .iter()
                .zip(segs)
                .all(|(pattern, raw)| match pattern {
                    Seg::Lit(lit) => lit == raw,
                    Seg::Param(..) => true,
                })
    }
}

/// Methods a path accepts, for the `Allow` header of a 405 answer
/// (RFC 9110 section 15.5.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AllowedMethods(u8);

impl AllowedMethods {
    const ALL: [Verb; 3] = [Verb::Get, Verb::Post, Verb::Delete];

    fn insert(&mut self, verb: Verb) {
        self.0 |= verb.bit();
    }

    /// True if no method is allowed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True if `method` is allowed.
    pub fn contains(self, method: &Method) -> bool {
        Verb::from_method(method).is_some_and(|v| self.0 & v.bit() != 0)
    }

    /// The allowed methods, in the order `GET`, `POST`, `DELETE`.
    pub fn iter(self) -> impl Iterator<Item = Method> {
        Self::ALL
            .into_iter()
            .filter(move |v| self.0 & v.bit() != 0)
            .map(Verb::method)
    }

    /// The `Allow` header text, e.g. `GET, POST`.
    pub fn as_str(self) -> &'static str {
        match self.0 & 7 {
            0 => "",
            1 => "GET",
            2 => "POST",
            3 => "GET, POST",
            4 => "DELETE",
            5 => "GET, DELETE",
            6 => "POST, DELETE",
            _ => "GET, POST, DELETE",
        }
    }

    /// The `Allow` header value.
    pub fn header_value(self) -> HeaderValue {
        HeaderValue::from_static(self.as_str())
    }
}

impl fmt::Display for AllowedMethods {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The parameters of a path, percent-decoded. Borrowed from the request
/// path when it held no escapes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct PathParams<'a> {
    /// The `/{tenant}` prefix, if the path had one.
    pub tenant: Option<Cow<'a, str>>,
    /// The task id, on routes that name a task.
    pub task_id: Option<Cow<'a, str>>,
    /// The push notification config id, on the Get and Delete config routes.
    pub config_id: Option<Cow<'a, str>>,
}

impl<'a> PathParams<'a> {
    /// No parameters.
    pub fn new() -> PathParams<'a> {
        PathParams::default()
    }

    /// Sets the tenant.
    pub fn with_tenant(mut self, tenant: impl Into<Cow<'a, str>>) -> PathParams<'a> {
        self.tenant = Some(tenant.into());
        self
    }

    /// Sets `param` to `value`.
    pub fn with(self, param: PathParam, value: impl Into<Cow<'a, str>>) -> PathParams<'a> {
        match param {
            PathParam::Tenant => self.with_tenant(value),
            PathParam::TaskId => self.with_task_id(value),
            PathParam::ConfigId => self.with_config_id(value),
        }
    }

    /// Sets the task id.
    pub fn with_task_id(mut self, task_id: impl Into<Cow<'a, str>>) -> PathParams<'a> {
        self.task_id = Some(task_id.into());
        self
    }

    /// Sets the config id.
    pub fn with_config_id(mut self, config_id: impl Into<Cow<'a, str>>) -> PathParams<'a> {
        self.config_id = Some(config_id.into());
        self
    }

    /// The value of `param`, if set.
    pub fn get(&self, param: PathParam) -> Option<&str> {
        match param {
            PathParam::Tenant => self.tenant.as_deref(),
            PathParam::TaskId => self.task_id.as_deref(),
            PathParam::ConfigId => self.config_id.as_deref(),
        }
    }

    fn slot(&mut self, param: PathParam) -> &mut Option<Cow<'a, str>> {
        match param {
            PathParam::Tenant => &mut self.tenant,
            PathParam::TaskId => &mut self.task_id,
            PathParam::ConfigId => &mut self.config_id,
        }
    }

    /// The same parameters, owned.
    pub fn into_owned(self) -> PathParams<'static> {
        PathParams {
            tenant: self.tenant.map(|c| Cow::Owned(c.into_owned())),
            task_id: self.task_id.map(|c| Cow::Owned(c.into_owned())),
            config_id: self.config_id.map(|c| Cow::Owned(c.into_owned())),
        }
    }
}

/// A matched request: the route and its decoded parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct RouteMatch<'a> {
    /// The route that matched.
    pub route: &'static Route,
    /// The path parameters, percent-decoded.
    pub params: PathParams<'a>,
}

impl PartialEq for Route {
    fn eq(&self, other: &Route) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Route {}

impl RouteMatch<'_> {
    /// The operation the request asks for.
    pub fn operation(&self) -> Operation {
        self.route.operation
    }
}

/// Why a request path did not route (spec 11.3).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RouteError {
    /// The path is longer than [`Router::max_path_len`]: 414.
    #[error("request path is {len} bytes, over the limit of {max}")]
    PathTooLong {
        /// Length of the path in bytes.
        len: usize,
        /// The configured limit.
        max: usize,
    },
    /// No route has this path: 404.
    #[error("no A2A route matches the request path")]
    NotFound,
    /// A route has this path, but not for this method: 405 with the
    /// `Allow` header from `allowed`.
    #[error("method not allowed; the path accepts {allowed}")]
    MethodNotAllowed {
        /// Every method that would have routed this path.
        allowed: AllowedMethods,
    },
    /// A parameter's escapes are invalid or do not decode to UTF-8: 400.
    #[error("path parameter `{field}`: {error}")]
    InvalidParam {
        /// Which parameter.
        param: PathParam,
        /// The request field it fills (see [`Route::field_name`]).
        field: &'static str,
        /// What is wrong with it.
        error: PercentDecodeError,
    },
}

impl RouteError {
    /// The HTTP status this error answers with.
    pub fn status(&self) -> StatusCode {
        match self {
            RouteError::PathTooLong { .. } => StatusCode::URI_TOO_LONG,
            RouteError::NotFound => StatusCode::NOT_FOUND,
            RouteError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            RouteError::InvalidParam { .. } => StatusCode::BAD_REQUEST,
        }
    }
}

/// Why [`Router::build_path`] could not build a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BuildPathError {
    /// The route needs this parameter and none was given.
    #[error("{operation} needs the path parameter `{param}`")]
    MissingParam {
        /// The operation being built.
        operation: Operation,
        /// The missing parameter.
        param: PathParam,
    },
    /// The parameter was given but the route has no place for it.
    #[error("{operation} has no path parameter `{param}`")]
    UnexpectedParam {
        /// The operation being built.
        operation: Operation,
        /// The parameter that was given.
        param: PathParam,
    },
    /// The parameter is the empty string, which a path cannot carry.
    #[error("path parameter `{param}` is empty")]
    EmptyParam {
        /// The empty parameter.
        param: PathParam,
    },
    /// The router's table has no route for the operation (`ListTasks` in
    /// 0.3).
    #[error("{operation} has no route in this version's table")]
    NoRoute {
        /// The operation being built.
        operation: Operation,
    },
}

/// Why a base path was refused by [`Router::with_base_path`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("invalid base path: {reason}")]
pub struct BasePathError {
    reason: &'static str,
}

impl BasePathError {
    /// What is wrong with the base path.
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

/// Matches HTTP+JSON requests to operations, and builds paths for them
/// (spec 11.3), under an optional base path.
///
/// ```
/// use a2a_wire::{http_json::{Router, PathParams}};
/// use a2a_types::Operation;
/// use http::Method;
///
/// let router = Router::with_base_path("/a2a")?;
/// let m = router.match_route(&Method::POST, "/a2a/acme/tasks/t%2F1:cancel")?;
/// assert_eq!(m.operation(), Operation::CancelTask);
/// assert_eq!(m.params.tenant.as_deref(), Some("acme"));
/// assert_eq!(m.params.task_id.as_deref(), Some("t/1"));
///
/// let path = router.build_path(
///     Operation::CancelTask,
///     &PathParams::new().with_tenant("acme").with_task_id("t/1"),
/// )?;
/// assert_eq!(path, "/a2a/acme/tasks/t%2F1:cancel");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Router {
    base: String,
    max_path_len: usize,
    table: RouteTable,
}

impl Default for Router {
    fn default() -> Router {
        Router::new()
    }
}

impl Router {
    /// Default for [`Router::max_path_len`]: 2048 bytes, the de facto URL
    /// limit of browsers and many proxies, ample for two ids and a tenant.
    pub const DEFAULT_MAX_PATH_LEN: usize = 2048;

    /// Routes at the root (no base path).
    pub fn new() -> Router {
        Router {
            base: String::new(),
            max_path_len: Router::DEFAULT_MAX_PATH_LEN,
            table: RouteTable::V1_0,
        }
    }

    /// Routes under `base_path`, e.g. `/a2a` (the path of the interface
    /// URL in the agent card). `""` and `/` mean the root; one trailing
    /// `/` is dropped. The base path must start with `/` and hold no empty
    /// segment, `?`, `#`, whitespace or control character; it is compared
    /// byte for byte with the request path.
    pub fn with_base_path(base_path: &str) -> Result<Router, BasePathError> {
        let base = base_path.strip_suffix('/').unwrap_or(base_path);
        let fail = |reason| Err(BasePathError { reason });
        if !base.is_empty() && !base.starts_with('/') {
            return fail("must start with `/`");
        }
        if base.contains("//") || base.ends_with('/') {
            return fail("must not contain an empty segment");
        }
        if base
            .bytes()
            .any(|b| b == b'?' || b == b'#' || b.is_ascii_whitespace() || b.is_ascii_control())
        {
            return fail("must not contain `?`, `#`, whitespace or control characters");
        }
        Ok(Router {
            base: base.to_owned(),
            max_path_len: Router::DEFAULT_MAX_PATH_LEN,
            table: RouteTable::V1_0,
        })
    }

    /// The same router over another route table (default
    /// [`RouteTable::V1_0`]).
    pub fn with_table(mut self, table: RouteTable) -> Router {
        self.table = table;
        self
    }

    /// The route table this router reads.
    pub fn table(&self) -> RouteTable {
        self.table
    }

    /// Sets the path length limit in bytes (default
    /// [`Router::DEFAULT_MAX_PATH_LEN`]).
    pub fn with_max_path_len(mut self, max: usize) -> Router {
        self.max_path_len = max;
        self
    }

    /// The base path, without a trailing `/` (`""` for the root).
    pub fn base_path(&self) -> &str {
        &self.base
    }

    /// The path length limit in bytes.
    pub fn max_path_len(&self) -> usize {
        self.max_path_len
    }

    /// Matches a request. `path` is the request target's path only, as
    /// given by [`http::Uri::path`] (no query, still percent-encoded).
    ///
    /// Errors: [`RouteError::PathTooLong`] (414), [`RouteError::NotFound`]
    /// (404), [`RouteError::MethodNotAllowed`] (405) and
    /// [`RouteError::InvalidParam`] (400). The module documentation lists
    /// the matching rules.
    pub fn match_route<'p>(
        &self,
        method: &Method,
        path: &'p str,
    ) -> Result<RouteMatch<'p>, RouteError> {
        if path.len() > self.max_path_len {
            return Err(RouteError::PathTooLong {
                len: path.len(),
                max: self.max_path_len,
            });
        }
        let rest = path
            .strip_prefix(self.base.as_str())
            .and_then(|r| r.strip_prefix('/'))
            .ok_or(RouteError::NotFound)?;

        let mut segs = [""; MAX_SEGMENTS];
        let mut n = 0;
        for seg in rest.split('/') {
            let slot = segs.get_mut(n).ok_or(RouteError::NotFound)?;
            if seg.is_empty() || seg == "." || seg == ".." {
                return Err(RouteError::NotFound);
            }
            *slot = seg;
            n += 1;
        }
        let segs = segs.get_mut(..n).ok_or(RouteError::NotFound)?;
        let custom_verb = match segs.last_mut() {
            Some(last) => match split_custom_verb(last) {
                Some((body, verb)) => {
                    if body.is_empty() {
                        return Err(RouteError::NotFound);
                    }
                    *last = body;
                    Some(verb)
                }
                None => None,
            },
            None => return Err(RouteError::NotFound),
        };
        let segs: &[&'p str] = segs;

        let verb = Verb::from_method(method);
        let mut allowed = AllowedMethods::default();
        // Tenant-less reading first, then the `/{tenant}` reading (1.0 only).
        let tenanted = if self.table.tenants() {
            segs.get(1..)
        } else {
            None
        };
        let readings = [(None, Some(segs)), (segs.first(), tenanted)];
        for (tenant, body) in readings {
            let Some(body) = body else { continue };
            let routes = self.table.routes().iter();
            for route in routes.filter(|r| r.shape_matches(body, custom_verb)) {
                if verb == Some(route.verb) {
                    return route_match(route, tenant.copied(), body);
                }
                allowed.insert(route.verb);
            }
        }
        if allowed.is_empty() {
            Err(RouteError::NotFound)
        } else {
            Err(RouteError::MethodNotAllowed { allowed })
        }
    }

    /// Builds the path (base path included, no query) of `operation`'s
    /// canonical route, percent-encoding every parameter so that it is
    /// one segment that [`Router::match_route`] reads back unchanged.
    ///
    /// Every parameter the route names must be given and non-empty; a
    /// parameter it does not name is an error. An empty tenant is the
    /// same as none (proto3: an empty `tenant` is unset).
    pub fn build_path(
        &self,
        operation: Operation,
        params: &PathParams<'_>,
    ) -> Result<String, BuildPathError> {
        let route = self
            .table
            .canonical(operation)
            .ok_or(BuildPathError::NoRoute { operation })?;
        if !self.table.tenants() && params.tenant.as_deref().is_some_and(|t| !t.is_empty()) {
            return Err(BuildPathError::UnexpectedParam {
                operation,
                param: PathParam::Tenant,
            });
        }
        for param in [PathParam::TaskId, PathParam::ConfigId] {
            let wanted = route.params().any(|p| p == param);
            match (wanted, params.get(param)) {
                (true, None) => return Err(BuildPathError::MissingParam { operation, param }),
                (true, Some("")) => return Err(BuildPathError::EmptyParam { param }),
                (false, Some(_)) => {
                    return Err(BuildPathError::UnexpectedParam { operation, param })
                }
                _ => {}
            }
        }

        let mut path = String::with_capacity(self.base.len() + route.template.len() + 32);
        path.push_str(&self.base);
        if let Some(tenant) = params.tenant.as_deref().filter(|t| !t.is_empty()) {
            path.push('/');
            encode_tenant(&mut path, tenant);
        }
        for seg in route.segments {
            path.push('/');
            match seg {
                Seg::Lit(lit) => path.push_str(lit),
                Seg::Param(p, _) => encode_segment(&mut path, params.get(*p).unwrap_or_default()),
            }
        }
        if let Some(verb) = route.custom_verb {
            path.push(':');
            path.push_str(verb);
        }
        Ok(path)
    }
}

/// Splits `last` at its last raw `:` when what follows is a custom verb
/// of the table.
fn split_custom_verb(last: &str) -> Option<(&str, &str)> {
    let (body, verb) = last.rsplit_once(':')?;
    ROUTES
        .iter()
        .any(|r| r.custom_verb == Some(verb))
        .then_some((body, verb))
}

fn decode_param<'p>(
    route: &Route,
    param: PathParam,
    raw: &'p str,
) -> Result<Cow<'p, str>, RouteError> {
    pct::decode(raw, false).map_err(|error| RouteError::InvalidParam {
        param,
        field: route.field_name(param).unwrap_or(param.name()),
        error,
    })
}

fn route_match<'p>(
    route: &'static Route,
    tenant: Option<&'p str>,
    body: &[&'p str],
) -> Result<RouteMatch<'p>, RouteError> {
    let mut params = PathParams::default();
    if let Some(raw) = tenant {
        params.tenant = Some(decode_param(route, PathParam::Tenant, raw)?);
    }
    for (seg, raw) in route.segments.iter().zip(body) {
        if let Seg::Param(p, _) = seg {
            *params.slot(*p) = Some(decode_param(route, *p, raw)?);
        }
    }
    Ok(RouteMatch { route, params })
}

/// Encodes one parameter as one segment; `.` and `..` are escaped so that
/// they are not dot segments.
fn encode_segment(out: &mut String, value: &str) {
    match value {
        "." => out.push_str("%2E"),
        ".." => out.push_str("%2E%2E"),
        _ => pct::encode_into(out, value),
    }
}

/// Encodes a tenant; one that would read as the first literal of a
/// tenant-less route (`tasks`) gets its first byte escaped, so that the
/// tenant-less reading cannot take it.
fn encode_tenant(out: &mut String, tenant: &str) {
    let shadowed = ROUTES.iter().any(|r| {
        r.segments.len() >= 2 && matches!(r.segments.first(), Some(Seg::Lit(l)) if *l == tenant)
    });
    match tenant.char_indices().nth(1) {
        Some((second, _)) if shadowed => {
            let (head, tail) = tenant.split_at(second);
            for b in head.bytes() {
                pct::push_escaped(out, b);
            }
            pct::encode_into(out, tail);
        }
        _ => encode_segment(out, tenant),
    }
}

#[cfg(test)]
mod tests {
    /// The route table in the `http_json` module docs is this table.
    #[test]
    fn the_documented_routes_are_the_table() {
        let docs = include_str!("lib.rs");
        let mut documented = Vec::new();
        for line in docs.lines() {
            let Some(row) = line.trim().strip_prefix("//! | `") else {
                continue;
            };
            let cells: Vec<&str> = row.split(" | ").collect();
            let op = cells[0].trim_end_matches('`');
            if cells.len() < 3 || Operation::from_name(op).is_none() {
                continue;
            }
            let route = cells[1]
                .split(" (")
                .next()
                .unwrap_or_default()
                .trim_matches('`');
            let query: Vec<&str> = cells[2]
                .trim_end_matches('|')
                .split(',')
                .map(|q| q.trim().trim_matches('`'))
                .filter(|q| !q.is_empty())
                .collect();
            documented.push((op.to_owned(), route.to_owned(), query.join(",")));
        }
        let table: Vec<(String, String, String)> = ROUTES
            .iter()
            .filter(|r| r.is_canonical())
            .map(|r| {
                // The docs describe 1.0; the 1.1 draft's query fields are
                // added by the feature (draft spec 11.5 table).
                let draft = ["currentGeneration", "timelineLength"];
                let names: Vec<&str> = r
                    .query_fields()
                    .iter()
                    .map(|q| q.name)
                    .filter(|n| !cfg!(feature = "draft-1-1") || !draft.contains(n))
                    .collect();
                (
                    r.operation().name().to_owned(),
                    format!("{} {}", r.method(), r.template()),
                    names.join(","),
                )
            })
            .collect();
        assert_eq!(documented, table);
    }

    /// The 0.3 table in the same docs is `ROUTES_V0_3`, each route beside
    /// the 0.3 JSON-RPC method of its operation.
    #[test]
    fn the_documented_0_3_routes_are_the_0_3_table() {
        let docs = include_str!("lib.rs");
        let documented: Vec<String> = docs
            .lines()
            .filter_map(|l| l.trim().strip_prefix("//! | `"))
            .filter(|row| row.split('`').next().is_some_and(|m| m.contains('/')))
            .map(|row| {
                let cells: Vec<&str> = row.split(" | ").collect();
                let path = cells[2]
                    .trim_end_matches(" |")
                    .split(" (")
                    .next()
                    .unwrap_or_default();
                format!(
                    "{} {} {}",
                    cells[0].trim_matches('`'),
                    cells[1].trim_matches('`'),
                    path.trim_matches('`')
                )
            })
            .collect();
        let table: Vec<String> = RouteTable::V0_3
            .routes()
            .iter()
            .filter(|r| r.is_canonical())
            .map(|r| {
                let method = a2a_jsonrpc::MethodTable::V0_3
                    .name_of(r.operation())
                    .unwrap_or("-");
                format!(
                    "{method} {} {} {}",
                    r.operation().name(),
                    r.method(),
                    r.template()
                )
            })
            .collect();
        assert_eq!(documented, table);
        // Every 0.3 method has a route, and ListTasks has neither.
        for op in Operation::ALL {
            assert_eq!(
                RouteTable::V0_3.canonical(op).is_some(),
                a2a_jsonrpc::MethodTable::V0_3.name_of(op).is_some(),
                "{op}"
            );
        }
    }

    #[test]
    fn the_0_3_router_reads_v1_paths_without_tenants() {
        let r = Router::new().with_table(RouteTable::V0_3);
        let m = r.match_route(&Method::POST, "/v1/message:send").unwrap();
        assert_eq!(m.operation(), Operation::SendMessage);
        let m = r
            .match_route(&Method::GET, "/v1/tasks/t%2F1/pushNotificationConfigs/c1")
            .unwrap();
        assert_eq!(m.operation(), Operation::GetTaskPushNotificationConfig);
        assert_eq!(m.params.task_id.as_deref(), Some("t/1"));
        assert_eq!(m.params.config_id.as_deref(), Some("c1"));
        for method in [Method::GET, Method::POST] {
            let m = r.match_route(&method, "/v1/tasks/t:subscribe").unwrap();
            assert_eq!(m.operation(), Operation::SubscribeToTask);
        }
        assert_eq!(
            r.match_route(&Method::GET, "/v1/card").unwrap().operation(),
            Operation::GetExtendedAgentCard
        );
        // No tasks/list, no tenant prefix, no 1.0 paths.
        assert_eq!(
            r.match_route(&Method::GET, "/v1/tasks"),
            Err(RouteError::NotFound)
        );
        assert_eq!(
            r.match_route(&Method::POST, "/acme/v1/message:send"),
            Err(RouteError::NotFound)
        );
        assert_eq!(
            r.match_route(&Method::POST, "/message:send"),
            Err(RouteError::NotFound)
        );
        // And the 1.0 router does not read 0.3 paths.
        assert!(Router::new().match_route(&Method::GET, "/v1/card").is_err());
        // Building: the 0.3 canonical routes; no ListTasks, no tenant.
        let path = r
            .build_path(
                Operation::SubscribeToTask,
                &PathParams::new().with_task_id("t 1"),
            )
            .unwrap();
        assert_eq!(path, "/v1/tasks/t%201:subscribe");
        assert_eq!(
            r.build_path(Operation::ListTasks, &PathParams::new()),
            Err(BuildPathError::NoRoute {
                operation: Operation::ListTasks
            })
        );
        assert!(r
            .build_path(
                Operation::GetExtendedAgentCard,
                &PathParams::new().with_tenant("a")
            )
            .is_err());
    }

    #[test]
    fn rows_say_where_each_field_travels() {
        for route in Route::all() {
            let body = route.method() == Method::POST;
            assert_eq!(
                route.body() == RequestBody::Message,
                body,
                "{}",
                route.template()
            );
            if body {
                assert!(route.query_fields().is_empty(), "{}", route.template());
            } else {
                assert!(
                    route.query_fields().iter().any(|q| q.name == "tenant"),
                    "{} reads its tenant from the query",
                    route.template()
                );
            }
            let fields: Vec<&str> = route.path_fields().map(|(_, f)| f).collect();
            assert_eq!(fields[0], "tenant");
            for field in fields {
                let mut request = a2a_types::A2aRequest::empty(route.operation());
                assert!(
                    request.string_field_mut(field).is_some(),
                    "{} binds {field}",
                    route.template()
                );
            }
        }
    }

    use super::*;

    fn ok(method: Method, path: &str) -> RouteMatch<'_> {
        match Router::new().match_route(&method, path) {
            Ok(m) => m,
            Err(e) => panic!("{method} {path}: {e}"),
        }
    }

    fn err(method: Method, path: &str) -> RouteError {
        match Router::new().match_route(&method, path) {
            Ok(m) => panic!("{method} {path} matched {:?}", m.operation()),
            Err(e) => e,
        }
    }

    fn p(s: &str) -> Option<&str> {
        Some(s)
    }

    #[test]
    fn table_covers_every_operation_and_templates_match_segments() {
        for op in Operation::ALL {
            let canonical = Route::canonical(op);
            assert_eq!(canonical.operation(), op);
            assert!(canonical.is_canonical());
            assert_eq!(
                Route::all()
                    .iter()
                    .filter(|r| r.operation() == op && r.is_canonical())
                    .count(),
                1
            );
        }
        assert_eq!(Route::all().len(), 12);
        for r in Route::all() {
            // Rebuild the template from the segments.
            let mut t = String::new();
            for s in r.segments {
                t.push('/');
                match s {
                    Seg::Lit(l) => t.push_str(l),
                    Seg::Param(PathParam::TaskId, "id") | Seg::Param(PathParam::ConfigId, "id") => {
                        t.push_str("{id}")
                    }
                    Seg::Param(PathParam::TaskId, "taskId") => t.push_str("{task_id}"),
                    Seg::Param(..) => panic!("unexpected param in {}", r.template),
                }
            }
            if let Some(v) = r.custom_verb {
                t.push(':');
                t.push_str(v);
            }
            assert_eq!(t, r.template(), "{}", r.operation());
            assert!(r.segments.len() < MAX_SEGMENTS);
        }
    }

    #[test]
    fn spec_11_3_routes() {
        let cases = [
            (
                Method::POST,
                "/message:send",
                Operation::SendMessage,
                None,
                None,
            ),
            (
                Method::POST,
                "/message:stream",
                Operation::SendStreamingMessage,
                None,
                None,
            ),
            (
                Method::GET,
                "/tasks/t-1",
                Operation::GetTask,
                p("t-1"),
                None,
            ),
            (Method::GET, "/tasks", Operation::ListTasks, None, None),
            (
                Method::POST,
                "/tasks/t-1:cancel",
                Operation::CancelTask,
                p("t-1"),
                None,
            ),
            (
                Method::POST,
                "/tasks/t-1:subscribe",
                Operation::SubscribeToTask,
                p("t-1"),
                None,
            ),
            (
                Method::GET,
                "/tasks/t-1:subscribe",
                Operation::SubscribeToTask,
                p("t-1"),
                None,
            ),
            (
                Method::POST,
                "/tasks/t-1/pushNotificationConfigs",
                Operation::CreateTaskPushNotificationConfig,
                p("t-1"),
                None,
            ),
            (
                Method::GET,
                "/tasks/t-1/pushNotificationConfigs/c-1",
                Operation::GetTaskPushNotificationConfig,
                p("t-1"),
                p("c-1"),
            ),
            (
                Method::GET,
                "/tasks/t-1/pushNotificationConfigs",
                Operation::ListTaskPushNotificationConfigs,
                p("t-1"),
                None,
            ),
            (
                Method::DELETE,
                "/tasks/t-1/pushNotificationConfigs/c-1",
                Operation::DeleteTaskPushNotificationConfig,
                p("t-1"),
                p("c-1"),
            ),
            (
                Method::GET,
                "/extendedAgentCard",
                Operation::GetExtendedAgentCard,
                None,
                None,
            ),
        ];
        for (method, path, op, task, config) in cases {
            let m = ok(method.clone(), path);
            assert_eq!(m.operation(), op, "{method} {path}");
            assert_eq!(m.params.tenant, None);
            assert_eq!(m.params.task_id.as_deref(), task, "{path}");
            assert_eq!(m.params.config_id.as_deref(), config, "{path}");
            // And under a tenant.
            let tenanted = format!("/acme{path}");
            let m = ok(method, &tenanted);
            assert_eq!(m.operation(), op, "{tenanted}");
            assert_eq!(m.params.tenant.as_deref(), Some("acme"));
            assert_eq!(m.params.task_id.as_deref(), task);
            assert_eq!(m.params.config_id.as_deref(), config);
        }
        assert!(!ok(Method::POST, "/tasks/x:subscribe").route.is_canonical());
        assert!(ok(Method::GET, "/tasks/x:subscribe").route.is_canonical());
    }

    #[test]
    fn params_borrow_unless_escaped() {
        let m = ok(Method::GET, "/tasks/plain");
        assert!(matches!(m.params.task_id, Some(Cow::Borrowed("plain"))));
        let m = ok(Method::GET, "/tasks/a%20b");
        assert!(matches!(m.params.task_id, Some(Cow::Owned(ref s)) if s == "a b"));
        let owned: PathParams<'static> = m.params.into_owned();
        assert_eq!(owned.task_id.as_deref(), Some("a b"));
    }

    #[test]
    fn tenant_less_reading_wins() {
        let m = ok(Method::GET, "/tasks/tasks");
        assert_eq!(
            (m.operation(), m.params.tenant, m.params.task_id.as_deref()),
            (Operation::GetTask, None, Some("tasks"))
        );
        let m = ok(Method::GET, "/tasks/extendedAgentCard");
        assert_eq!(m.operation(), Operation::GetTask);
        let m = ok(Method::GET, "/tasks/t/pushNotificationConfigs");
        assert_eq!(
            (m.operation(), m.params.tenant),
            (Operation::ListTaskPushNotificationConfigs, None)
        );
        // When the tenant-less reading has no such shape, `tasks` is a tenant.
        let m = ok(Method::POST, "/tasks/message:send");
        assert_eq!(
            (m.operation(), m.params.tenant.as_deref()),
            (Operation::SendMessage, Some("tasks"))
        );
        let m = ok(Method::GET, "/tasks/tasks/t1");
        assert_eq!(
            (
                m.operation(),
                m.params.tenant.as_deref(),
                m.params.task_id.as_deref()
            ),
            (Operation::GetTask, Some("tasks"), Some("t1"))
        );
        // An escaped byte makes it a tenant: literals compare raw.
        let m = ok(Method::GET, "/%74asks/tasks");
        assert_eq!(
            (m.operation(), m.params.tenant.as_deref()),
            (Operation::ListTasks, Some("tasks"))
        );
        let m = ok(Method::GET, "/%74asks/extendedAgentCard");
        assert_eq!(m.operation(), Operation::GetExtendedAgentCard);
        // Tenants that look like other literals are fine.
        let m = ok(Method::GET, "/message/tasks");
        assert_eq!(m.params.tenant.as_deref(), Some("message"));
        let m = ok(Method::GET, "/extendedAgentCard/extendedAgentCard");
        assert_eq!(
            (m.operation(), m.params.tenant.as_deref()),
            (Operation::GetExtendedAgentCard, Some("extendedAgentCard"))
        );
        let m = ok(Method::POST, "/message:send/message:send");
        assert_eq!(
            (m.operation(), m.params.tenant.as_deref()),
            (Operation::SendMessage, Some("message:send"))
        );
    }

    #[test]
    fn tenant_reading_is_tried_when_the_method_does_not_fit() {
        // Tenant-less: Get/Delete config (task `tasks`, config `pNC`);
        // tenant `tasks`: List/Create config for task `pNC`.
        let path = "/tasks/tasks/pushNotificationConfigs/pushNotificationConfigs";
        let m = ok(Method::GET, path);
        assert_eq!(
            (m.operation(), m.params.tenant.as_deref()),
            (Operation::GetTaskPushNotificationConfig, None)
        );
        let m = ok(Method::POST, path);
        assert_eq!(
            (
                m.operation(),
                m.params.tenant.as_deref(),
                m.params.task_id.as_deref()
            ),
            (
                Operation::CreateTaskPushNotificationConfig,
                Some("tasks"),
                Some("pushNotificationConfigs")
            )
        );
        // The Allow header is the union over both readings.
        assert_eq!(
            err(Method::PUT, path),
            RouteError::MethodNotAllowed {
                allowed: AllowedMethods(7)
            }
        );
        // DELETE fits neither reading of /tasks/tasks: 405 with GET.
        assert_eq!(
            err(Method::DELETE, "/tasks/tasks"),
            RouteError::MethodNotAllowed {
                allowed: AllowedMethods(Verb::Get.bit())
            }
        );
    }

    #[test]
    fn custom_verbs() {
        // Unknown verbs are part of the id.
        let m = ok(Method::GET, "/tasks/urn:x:1");
        assert_eq!(m.params.task_id.as_deref(), Some("urn:x:1"));
        let m = ok(Method::GET, "/tasks/a:b:subscribe");
        assert_eq!(
            (m.operation(), m.params.task_id.as_deref()),
            (Operation::SubscribeToTask, Some("a:b"))
        );
        let m = ok(Method::GET, "/tasks/a%3Acancel");
        assert_eq!(
            (m.operation(), m.params.task_id.as_deref()),
            (Operation::GetTask, Some("a:cancel"))
        );
        // A known verb where no route has it.
        assert_eq!(err(Method::POST, "/tasks/a:send"), RouteError::NotFound);
        assert_eq!(err(Method::POST, "/message:cancel"), RouteError::NotFound);
        assert_eq!(err(Method::POST, "/message:bogus"), RouteError::NotFound);
        assert_eq!(err(Method::POST, "/message"), RouteError::NotFound);
        assert_eq!(err(Method::POST, "/tasks/:cancel"), RouteError::NotFound);
        assert_eq!(
            err(Method::POST, "/tasks/t1/pushNotificationConfigs:cancel"),
            RouteError::NotFound
        );
        // Verbs are case-sensitive.
        assert_eq!(
            ok(Method::GET, "/tasks/a:Cancel").params.task_id.as_deref(),
            Some("a:Cancel")
        );
    }

    #[test]
    fn method_not_allowed_lists_every_method_that_routes() {
        let get = AllowedMethods(1);
        let post = AllowedMethods(2);
        let get_post = AllowedMethods(3);
        let get_delete = AllowedMethods(5);
        let cases = [
            (Method::GET, "/message:send", post),
            (Method::PUT, "/tasks", get),
            (Method::POST, "/tasks/t1", get),
            (Method::GET, "/tasks/t1:cancel", post),
            (Method::DELETE, "/tasks/t1:subscribe", get_post),
            (Method::PUT, "/tasks/t1/pushNotificationConfigs", get_post),
            (
                Method::POST,
                "/acme/tasks/t1/pushNotificationConfigs/c",
                get_delete,
            ),
            (Method::HEAD, "/extendedAgentCard", get),
            (Method::OPTIONS, "/tasks/t1:subscribe", get_post),
        ];
        for (method, path, allowed) in cases {
            let e = err(method.clone(), path);
            assert_eq!(
                e,
                RouteError::MethodNotAllowed { allowed },
                "{method} {path}"
            );
            assert_eq!(e.status(), StatusCode::METHOD_NOT_ALLOWED);
            for m in allowed.iter() {
                assert!(
                    Router::new().match_route(&m, path).is_ok(),
                    "{m} {path} must route"
                );
            }
        }
        assert_eq!(get_post.header_value(), "GET, POST");
        assert_eq!(get_delete.to_string(), "GET, DELETE");
        assert!(get_post.contains(&Method::POST) && !get_post.contains(&Method::DELETE));
        assert!(!get.contains(&Method::PUT));
        assert_eq!(
            get_delete.iter().collect::<Vec<_>>(),
            [Method::GET, Method::DELETE]
        );
        for bits in 0..8 {
            let a = AllowedMethods(bits);
            assert_eq!(
                a.as_str(),
                a.iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }

    #[test]
    fn no_normalisation() {
        for path in [
            "",
            "/",
            "tasks",
            "//tasks",
            "/tasks/",
            "/tasks//",
            "/acme/tasks/",
            "/tasks/t1/",
            "/message:send/",
            "/acme//tasks",
            "/tasks/./x",
            "/tasks/..",
            "/tasks/.",
            "/./tasks",
            "/../tasks",
            "/a/b/c/d/e/f",
            "/a/tasks/t/pushNotificationConfigs/c/x",
            "/TASKS",
            "/Tasks/t1",
            "/tasks/t1/pushnotificationconfigs",
            "/*",
            "*",
            "/extendedAgentCard/x",
            "/a/b",
            "/message:send?x",
        ] {
            assert_eq!(err(Method::GET, path), RouteError::NotFound, "{path:?}");
            assert_eq!(err(Method::POST, path), RouteError::NotFound, "{path:?}");
        }
        // Escaped dots are data.
        assert_eq!(
            ok(Method::GET, "/tasks/%2E%2E").params.task_id.as_deref(),
            Some("..")
        );
        assert_eq!(
            ok(Method::GET, "/tasks/.x").params.task_id.as_deref(),
            Some(".x")
        );
        assert_eq!(
            ok(Method::GET, "/tasks/...").params.task_id.as_deref(),
            Some("...")
        );
    }

    #[test]
    fn encoded_slashes_stay_in_their_segment() {
        let m = ok(
            Method::DELETE,
            "/a%2Fb/tasks/t%2F1/pushNotificationConfigs/c%2F%2F",
        );
        assert_eq!(m.params.tenant.as_deref(), Some("a/b"));
        assert_eq!(m.params.task_id.as_deref(), Some("t/1"));
        assert_eq!(m.params.config_id.as_deref(), Some("c//"));
        assert_eq!(
            ok(Method::GET, "/tasks/%2F").params.task_id.as_deref(),
            Some("/")
        );
    }

    #[test]
    fn invalid_escapes_name_the_field() {
        assert_eq!(
            err(Method::GET, "/tasks/ab%zz"),
            RouteError::InvalidParam {
                param: PathParam::TaskId,
                field: "id",
                error: PercentDecodeError::InvalidEscape { offset: 2 }
            }
        );
        assert_eq!(
            err(Method::GET, "/tasks/t/pushNotificationConfigs/%FF"),
            RouteError::InvalidParam {
                param: PathParam::ConfigId,
                field: "id",
                error: PercentDecodeError::InvalidUtf8 { offset: 0 }
            }
        );
        let e = err(Method::GET, "/tasks/%C3/pushNotificationConfigs");
        assert!(matches!(
            e,
            RouteError::InvalidParam {
                param: PathParam::TaskId,
                field: "taskId",
                ..
            }
        ));
        assert_eq!(e.status(), StatusCode::BAD_REQUEST);
        assert!(matches!(
            err(Method::GET, "/%zz/tasks"),
            RouteError::InvalidParam {
                param: PathParam::Tenant,
                field: "tenant",
                ..
            }
        ));
        // The method is checked before parameters are decoded.
        assert_eq!(
            err(Method::POST, "/%zz/tasks"),
            RouteError::MethodNotAllowed {
                allowed: AllowedMethods(1)
            }
        );
        // A bad escape in a path that does not route is still 404.
        assert_eq!(err(Method::GET, "/%zz"), RouteError::NotFound);
    }

    #[test]
    fn base_path() {
        let r = Router::with_base_path("/api/a2a/").unwrap();
        assert_eq!(r.base_path(), "/api/a2a");
        assert_eq!(
            r.match_route(&Method::GET, "/api/a2a/tasks")
                .unwrap()
                .operation(),
            Operation::ListTasks
        );
        assert_eq!(
            r.match_route(&Method::GET, "/api/a2a/t/tasks")
                .unwrap()
                .params
                .tenant
                .as_deref(),
            Some("t")
        );
        for path in [
            "/tasks",
            "/api/a2atasks",
            "/api/a2a",
            "/api/a2a/",
            "/api/tasks",
            "/API/a2a/tasks",
            "/api/a2a//tasks",
        ] {
            assert_eq!(
                r.match_route(&Method::GET, path),
                Err(RouteError::NotFound),
                "{path}"
            );
        }
        assert_eq!(
            r.build_path(Operation::ListTasks, &PathParams::new())
                .unwrap(),
            "/api/a2a/tasks"
        );
        for root in ["", "/"] {
            let r = Router::with_base_path(root).unwrap();
            assert_eq!(r, Router::new());
            assert_eq!(r.base_path(), "");
        }
        for bad in [
            "a2a", "/a2a//", "//", "/a//b", "/a?b", "/a#b", "/a b", "/a\n",
        ] {
            assert!(Router::with_base_path(bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Router::with_base_path("x").unwrap_err().reason(),
            "must start with `/`"
        );
    }

    #[test]
    fn path_length_limit() {
        let r = Router::new().with_max_path_len(16);
        assert_eq!(r.max_path_len(), 16);
        assert!(r.match_route(&Method::GET, "/tasks/123456789").is_ok()); // 16 bytes
        let e = r
            .match_route(&Method::GET, "/tasks/1234567890")
            .unwrap_err();
        assert_eq!(e, RouteError::PathTooLong { len: 17, max: 16 });
        assert_eq!(e.status(), StatusCode::URI_TOO_LONG);
        let long = format!("/tasks/{}", "x".repeat(Router::DEFAULT_MAX_PATH_LEN));
        assert!(matches!(
            Router::new().match_route(&Method::GET, &long),
            Err(RouteError::PathTooLong { .. })
        ));
    }

    #[test]
    fn build_paths() {
        let r = Router::new();
        let t = |task: &'static str| PathParams::new().with_task_id(task);
        assert_eq!(
            r.build_path(Operation::SendMessage, &PathParams::new())
                .unwrap(),
            "/message:send"
        );
        assert_eq!(
            r.build_path(Operation::SubscribeToTask, &t("a b")).unwrap(),
            "/tasks/a%20b:subscribe"
        );
        assert_eq!(
            r.build_path(
                Operation::GetTaskPushNotificationConfig,
                &t("t:1").with_config_id("c/1")
            )
            .unwrap(),
            "/tasks/t%3A1/pushNotificationConfigs/c%2F1"
        );
        assert_eq!(
            r.build_path(Operation::GetTask, &t("..")).unwrap(),
            "/tasks/%2E%2E"
        );
        assert_eq!(
            r.build_path(Operation::GetTask, &t(".")).unwrap(),
            "/tasks/%2E"
        );
        assert_eq!(
            r.build_path(Operation::ListTasks, &PathParams::new().with_tenant(""))
                .unwrap(),
            "/tasks"
        );
        assert_eq!(
            r.build_path(
                Operation::ListTasks,
                &PathParams::new().with_tenant("tasks")
            )
            .unwrap(),
            "/%74asks/tasks"
        );
        assert_eq!(
            r.build_path(
                Operation::ListTasks,
                &PathParams::new().with_tenant("message")
            )
            .unwrap(),
            "/message/tasks"
        );
        assert_eq!(
            r.build_path(
                Operation::ListTasks,
                &PathParams::new().with_tenant("\u{e9}t\u{e9}")
            )
            .unwrap(),
            "/%C3%A9t%C3%A9/tasks"
        );

        assert_eq!(
            r.build_path(Operation::GetTask, &PathParams::new()),
            Err(BuildPathError::MissingParam {
                operation: Operation::GetTask,
                param: PathParam::TaskId
            })
        );
        assert_eq!(
            r.build_path(Operation::GetTaskPushNotificationConfig, &t("x")),
            Err(BuildPathError::MissingParam {
                operation: Operation::GetTaskPushNotificationConfig,
                param: PathParam::ConfigId
            })
        );
        assert_eq!(
            r.build_path(Operation::ListTasks, &t("x")),
            Err(BuildPathError::UnexpectedParam {
                operation: Operation::ListTasks,
                param: PathParam::TaskId
            })
        );
        assert_eq!(
            r.build_path(Operation::GetTask, &t("x").with_config_id("c")),
            Err(BuildPathError::UnexpectedParam {
                operation: Operation::GetTask,
                param: PathParam::ConfigId
            })
        );
        assert_eq!(
            r.build_path(Operation::GetTask, &t("")),
            Err(BuildPathError::EmptyParam {
                param: PathParam::TaskId
            })
        );
    }

    #[test]
    fn build_then_match_round_trips_for_every_operation() {
        let ids = [
            "t-1",
            "a/b",
            "a:b",
            "x:cancel",
            "a b",
            "\u{e9}\u{1f600}",
            "..",
            ".",
            "%41",
            "tasks",
            "+",
            "?#&=,",
        ];
        let tenants = [
            None,
            Some("acme"),
            Some("tasks"),
            Some("a/b"),
            Some("message:send"),
            Some("t t"),
            Some("\u{4e2d}"),
        ];
        for base in ["", "/a2a"] {
            let r = Router::with_base_path(base).unwrap();
            for op in Operation::ALL {
                let route = Route::canonical(op);
                for tenant in tenants {
                    for id in ids {
                        let mut params = PathParams::new();
                        params.tenant = tenant.map(Cow::Borrowed);
                        if route.params().any(|p| p == PathParam::TaskId) {
                            params.task_id = Some(Cow::Borrowed(id));
                        }
                        if route.params().any(|p| p == PathParam::ConfigId) {
                            params.config_id = Some(Cow::Borrowed(id));
                        }
                        let path = r.build_path(op, &params).unwrap();
                        let m = r
                            .match_route(&route.method(), &path)
                            .unwrap_or_else(|e| panic!("{path}: {e}"));
                        assert_eq!(m.operation(), op, "{path}");
                        assert_eq!(m.params, params, "{path}");
                        assert!(path.is_ascii());
                    }
                }
            }
        }
    }

    #[test]
    fn field_names_follow_the_proto() {
        let f = |op, p| Route::canonical(op).field_name(p);
        assert_eq!(f(Operation::GetTask, PathParam::TaskId), Some("id"));
        assert_eq!(f(Operation::CancelTask, PathParam::TaskId), Some("id"));
        assert_eq!(
            f(
                Operation::ListTaskPushNotificationConfigs,
                PathParam::TaskId
            ),
            Some("taskId")
        );
        assert_eq!(
            f(
                Operation::DeleteTaskPushNotificationConfig,
                PathParam::ConfigId
            ),
            Some("id")
        );
        assert_eq!(f(Operation::ListTasks, PathParam::TaskId), None);
        assert_eq!(f(Operation::ListTasks, PathParam::Tenant), Some("tenant"));
    }
}
