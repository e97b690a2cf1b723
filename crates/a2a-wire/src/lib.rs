//! The wire layer of A2A's HTTP side, shared by the server, the client and
//! push delivery (`a2a-server`, `a2a-client`, `a2a-push`): what both ends
//! of a call must agree on, and nothing that only one end does.
//!
//! - The service: [`A2aService`](crate::A2aService) (one method per
//!   operation of spec 3.1), [`Forward`](crate::Forward) for wrappers,
//!   [`dispatch`](crate::dispatch), the per-call
//!   [`CallContext`](crate::CallContext) and [`BoxFuture`](crate::BoxFuture).
//! - The bindings ([`Binding`](crate::Binding)) and their tables: the
//!   HTTP+JSON routes and query strings ([`http_json`]), the service
//!   parameters `A2A-Version` and `A2A-Extensions` ([`service_params`]),
//!   the media types, and with the `grpc` feature the gRPC wire format
//!   ([`grpc`](crate#features)).
//! - The host's side of I/O: the [`HttpClient`](crate::HttpClient) trait
//!   a client or a push sender sends through, and the
//!   [`Timer`](crate::Timer) both ends wait with.
//! - Interface URLs ([`parse_interface_url`](crate::parse_interface_url))
//!   and the agent card's well-known path
//!   ([`AGENT_CARD_PATH`](crate::AGENT_CARD_PATH)).
//! - Trace context and spans ([`trace`]).
//!
//! Like every core crate it never opens a socket, reads a clock or needs
//! an executor. The server and the client build on it and never on each
//! other; `a2a-transport` re-exports all of them under the paths it has
//! always had.
//!
//! # Features
//!
//! - `grpc`: the module `grpc` (spec 10's framing, status and timeout),
//!   with a2a-proto and prost. Off by default.
//! - `opentelemetry-trace`, `tracing`: the tracers of [`trace`].
//! - `draft-1-1`: the A2A 1.1 draft's version and query fields.

#![deny(missing_docs)]
#![allow(rustdoc::redundant_explicit_links)] // module pages name targets from the crate root
mod binding;
mod codec;
mod extensions;
mod failure;
#[cfg(feature = "grpc")]
mod grpc_wire;
mod http_client;
mod media;
mod pct;
mod query;
mod route;
mod service;
mod stream_next;
mod timer;
pub mod trace;
mod url;
mod version;

pub mod http_json {
    //! The HTTP+JSON binding's tables and codecs, shared by the server and
    //! the client (spec 11): the route table with each route's rule for
    //! the path, query and body ([`Router`](crate::http_json::Router), [`Route`](crate::http_json::Route), spec 11.3 and the
    //! proto's `google.api.http` annotations), and query strings
    //! ([`QueryParams`](crate::http_json::QueryParams), [`QueryBuilder`](crate::http_json::QueryBuilder), spec 11.5).
    //!
    //! # The routes
    //!
    //! Every route also exists under a `/{tenant}` prefix of one segment.
    //! `POST` routes carry the whole request message as the JSON body;
    //! `GET` and `DELETE` routes carry the fields their path does not in
    //! the query, by ProtoJSON name.
    //!
    //! | operation | method and path | query |
    //! | --- | --- | --- |
    //! | `SendMessage` | `POST /message:send` | |
    //! | `SendStreamingMessage` | `POST /message:stream` | |
    //! | `GetTask` | `GET /tasks/{id}` | `historyLength`, `tenant` |
    //! | `ListTasks` | `GET /tasks` | `contextId`, `status`, `pageSize`, `pageToken`, `historyLength`, `statusTimestampAfter`, `includeArtifacts`, `tenant` |
    //! | `CancelTask` | `POST /tasks/{id}:cancel` | |
    //! | `SubscribeToTask` | `GET /tasks/{id}:subscribe` (also `POST`, spec 11.3) | `tenant` |
    //! | `CreateTaskPushNotificationConfig` | `POST /tasks/{task_id}/pushNotificationConfigs` | |
    //! | `GetTaskPushNotificationConfig` | `GET /tasks/{task_id}/pushNotificationConfigs/{id}` | `tenant` |
    //! | `ListTaskPushNotificationConfigs` | `GET /tasks/{task_id}/pushNotificationConfigs` | `pageSize`, `pageToken`, `tenant` |
    //! | `DeleteTaskPushNotificationConfig` | `DELETE /tasks/{task_id}/pushNotificationConfigs/{id}` | `tenant` |
    //! | `GetExtendedAgentCard` | `GET /extendedAgentCard` | `tenant` |
    //!
    //! The table is data ([`Route::all`](crate::http_json::Route::all)); a test checks this page against it.
    //!
    //! # The 0.3 routes
    //!
    //! [`RouteTable::V0_3`](crate::http_json::RouteTable::V0_3) (0.3 spec 3.5.6): under `/v1`, without
    //! tenants, and without `ListTasks` (0.3's JSON-RPC has no `tasks/list`).
    //! Beside each route, the JSON-RPC 0.3 method of the same operation.
    //!
    //! | JSON-RPC 0.3 method | operation | method and path |
    //! | --- | --- | --- |
    //! | `message/send` | `SendMessage` | `POST /v1/message:send` |
    //! | `message/stream` | `SendStreamingMessage` | `POST /v1/message:stream` |
    //! | `tasks/get` | `GetTask` | `GET /v1/tasks/{id}` |
    //! | `tasks/cancel` | `CancelTask` | `POST /v1/tasks/{id}:cancel` |
    //! | `tasks/resubscribe` | `SubscribeToTask` | `POST /v1/tasks/{id}:subscribe` (also `GET`) |
    //! | `tasks/pushNotificationConfig/set` | `CreateTaskPushNotificationConfig` | `POST /v1/tasks/{id}/pushNotificationConfigs` |
    //! | `tasks/pushNotificationConfig/get` | `GetTaskPushNotificationConfig` | `GET /v1/tasks/{id}/pushNotificationConfigs/{configId}` |
    //! | `tasks/pushNotificationConfig/list` | `ListTaskPushNotificationConfigs` | `GET /v1/tasks/{id}/pushNotificationConfigs` |
    //! | `tasks/pushNotificationConfig/delete` | `DeleteTaskPushNotificationConfig` | `DELETE /v1/tasks/{id}/pushNotificationConfigs/{configId}` |
    //! | `agent/getAuthenticatedExtendedCard` | `GetExtendedAgentCard` | `GET /v1/card` |
    pub use crate::pct::PercentDecodeError;
    pub use crate::query::{QueryBuilder, QueryConfig, QueryError, QueryParams};
    pub use crate::route::{
        AllowedMethods, BasePathError, BuildPathError, PathParam, PathParams, QueryField,
        QueryKind, RequestBody, Route, RouteError, RouteMatch, RouteTable, Router,
    };
}

#[cfg(feature = "grpc")]
pub mod grpc {
    //! The gRPC binding's wire format (spec 10), as pure functions over
    //! `http` types, for the server and the client; the host's HTTP/2
    //! stack carries the bytes.
    //!
    //! - **Calls**: `POST /lf.a2a.v1.A2AService/{Method}`
    //!   ([`method_path`](crate::grpc::method_path), [`operation_of_path`](crate::grpc::operation_of_path)) with
    //!   `content-type: application/grpc` or `application/grpc+proto`
    //!   ([`check_request_head`](crate::grpc::check_request_head): 405 and 415 for requests that are not
    //!   gRPC, `UNIMPLEMENTED` for an unknown method or a compression).
    //! - **Messages**: a 5-byte prefix and the protobuf bytes
    //!   ([`encode_frame`](crate::grpc::encode_frame), [`encode_message`](crate::grpc::encode_message)); the push decoder
    //!   [`FrameDecoder`](crate::grpc::FrameDecoder) refuses a message over its limit on the prefix
    //!   (`RESOURCE_EXHAUSTED`) and a compressed one (`INTERNAL`: messages
    //!   are never compressed, `grpc-accept-encoding: identity`).
    //! - **Status** (spec 10.6): [`error_trailers`](crate::grpc::error_trailers) and [`ok_trailers`](crate::grpc::ok_trailers);
    //!   `grpc-status` from the error table's gRPC column (spec 5.4,
    //!   [`GrpcCode::of_kind`](crate::grpc::GrpcCode::of_kind)), `grpc-message` percent-encoded,
    //!   `grpc-status-details-bin` the `google.rpc.Status` with the A2A
    //!   `ErrorInfo` and any `BadRequest`, base64 without padding. An
    //!   error before any message is a trailers-only response
    //!   ([`error_response`](crate::grpc::error_response)). Clients read a status with
    //!   [`read_status`](crate::grpc::read_status).
    //! - **Metadata**: service parameters are headers (`a2a-version`,
    //!   `a2a-extensions`, spec 10.2), read by the same code as on the
    //!   other bindings; `grpc-timeout` is read as a [`Duration`](std::time::Duration) for the
    //!   host to enforce ([`request_timeout`](crate::grpc::request_timeout), [`encode_timeout`](crate::grpc::encode_timeout)).
    //!
    //! ```
    //! use a2a_wire::grpc::{self, GrpcStatus};
    //! use a2a_types::{A2aError, ErrorKind, GetTaskRequest, Operation};
    //!
    //! // A client frames a request...
    //! let request = GetTaskRequest::new("t-1");
    //! let body = grpc::encode_message(&request)?;
    //! assert_eq!(grpc::method_path(Operation::GetTask), "/lf.a2a.v1.A2AService/GetTask");
    //! // ...the server reads it back...
    //! let message = grpc::decode_unary(&body, grpc::DEFAULT_MAX_MESSAGE_SIZE)?;
    //! assert_eq!(a2a_proto::decode::<GetTaskRequest>(&message)?, request);
    //! // ...and answers an error in the trailers, which the client reads.
    //! let trailers = grpc::error_trailers(&A2aError::task_not_found("t-1"));
    //! assert_eq!(trailers["grpc-status"], "5"); // NOT_FOUND
    //! let Some(GrpcStatus::Error(_, error)) = grpc::read_status(&trailers) else { unreachable!() };
    //! assert_eq!(error.kind(), ErrorKind::TaskNotFound);
    //! # Ok::<(), Box<dyn std::error::Error>>(())
    //! ```
    pub use crate::grpc_wire::{
        check_request_head, decode_grpc_message, decode_unary, encode_frame, encode_grpc_message,
        encode_message, encode_timeout, error_response, error_trailers, is_grpc_content_type,
        method_path, ok_trailers, operation_of_path, parse_timeout, read_status, request_timeout,
        response_head, status_fields, FrameDecoder, GrpcError, GrpcStatus,
        DEFAULT_MAX_MESSAGE_SIZE, GRPC_ACCEPT_ENCODING, GRPC_CONTENT_TYPE, GRPC_ENCODING,
        GRPC_MESSAGE, GRPC_PROTO_CONTENT_TYPE, GRPC_STATUS, GRPC_STATUS_DETAILS, GRPC_TIMEOUT,
        PREFIX_LEN, SERVICE_NAME,
    };
    pub use a2a_proto::GrpcCode;
}

pub mod service_params {
    //! The service parameters every binding carries beside the request
    //! message (spec 3.2.6): `A2A-Version` with its negotiation (spec 3.6)
    //! and `A2A-Extensions` (spec 3.2.6, 11.2).
    pub use crate::extensions::{
        encode_extensions, ExtensionLimits, RequestedExtensions, A2A_EXTENSIONS,
        A2A_EXTENSIONS_PARAM,
    };
    pub use crate::version::{
        negotiate_version, ProtocolVersion, VersionError, A2A_VERSION, A2A_VERSION_PARAM,
        MAX_ECHO_LEN, MAX_VERSION_LEN,
    };
}

pub use binding::Binding;
pub use codec::JsonCodec;
pub use failure::ClientFailure;
pub use http_client::{
    next_chunk, read_body, BodyChunk, HttpClient, HttpError, ReadBody, ResponseBody,
};
pub use media::{
    check_json_content_type, is_json_media_type, range_specificity, response_json_type,
    ContentTypeError, A2A_JSON, A2A_JSON_VALUE, APPLICATION_JSON, APPLICATION_JSON_VALUE,
    EVENT_STREAM, EVENT_STREAM_VALUE,
};
pub use service::{
    dispatch, A2aService, BoxFuture, CallContext, EventIds, EventStream, Forward, Principal,
    LAST_EVENT_ID,
};
pub use stream_next::{Next, StreamNext};
pub use timer::Timer;
pub use url::{
    parse_grpc_url, parse_http_url, parse_interface_url, InterfaceUrlError, AGENT_CARD_PATH,
};
pub use version::ProtocolVersion;
