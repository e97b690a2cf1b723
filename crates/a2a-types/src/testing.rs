//! Test support shared by the crate's tests, its `wire` example, its
//! benchmarks and the fuzz targets. Not part of the public API.
//!
//! - [`Gen`]: a deterministic generator of values of every type (a tiny
//!   splitmix64 PRNG, no dependency), covering every oneof member,
//!   non-ASCII text, extreme and negative-zero numbers in `data`, and
//!   `optional` fields unset, set to their default and set to a value.
//! - [`corpus`]: `TYPE<TAB>JSON` documents for the wire oracle.
//! - [`reencode`] / [`check_roundtrip`]: decode and encode by type name.
//! - [`check_writer`]: the crate's writer against `serde_json`, by type name
//!   (with `fast-json`).
//! - [`fuzz_decode`]: the fuzz harness.
//! - [`reader_check`] / [`reader_agrees`] / [`fuzz_reader`]: the fast
//!   reader of [`json`](crate::json) against `serde_json`, its referee
//!   (with `fast-json`).

use std::collections::BTreeMap;
use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Number, Value};

use crate::{
    from_slice, from_str, APIKeySecurityScheme, AgentCapabilities, AgentCard, AgentCardSignature,
    AgentExtension, AgentInterface, AgentProvider, AgentSkill, Artifact, AuthenticationInfo,
    AuthorizationCodeOAuthFlow, CancelTaskRequest, ClientCredentialsOAuthFlow,
    DeleteTaskPushNotificationConfigRequest, DeviceCodeOAuthFlow, GetExtendedAgentCardRequest,
    GetTaskPushNotificationConfigRequest, GetTaskRequest, HTTPAuthSecurityScheme,
    ImplicitOAuthFlow, ListTaskPushNotificationConfigsRequest,
    ListTaskPushNotificationConfigsResponse, ListTasksRequest, ListTasksResponse, Message,
    MutualTlsSecurityScheme, OAuth2SecurityScheme, OAuthFlows, OpenIdConnectSecurityScheme, Part,
    PartContent, PasswordOAuthFlow, Role, SecurityRequirement, SecurityScheme,
    SendMessageConfiguration, SendMessageRequest, SendMessageResponse, StreamResponse, StringList,
    Struct, SubscribeToTaskRequest, Task, TaskArtifactUpdateEvent, TaskPushNotificationConfig,
    TaskState, TaskStatus, TaskStatusUpdateEvent, Timestamp, Validate,
};

/// Calls `$m!` with the names of all 44 message types of the proto: the
/// one list, which `a2a-proto`'s test support reads too.
#[doc(hidden)]
#[macro_export]
macro_rules! with_message_types {
    ($m:ident) => {
        $m! {
            SendMessageConfiguration, Task, TaskStatus, Part, Message, Artifact,
            TaskStatusUpdateEvent, TaskArtifactUpdateEvent, AuthenticationInfo, AgentInterface,
            AgentCard, AgentProvider, AgentCapabilities, AgentExtension, AgentSkill,
            AgentCardSignature, TaskPushNotificationConfig, StringList, SecurityRequirement,
            SecurityScheme, APIKeySecurityScheme, HTTPAuthSecurityScheme, OAuth2SecurityScheme,
            OpenIdConnectSecurityScheme, MutualTlsSecurityScheme, OAuthFlows,
            AuthorizationCodeOAuthFlow, ClientCredentialsOAuthFlow, ImplicitOAuthFlow,
            PasswordOAuthFlow, DeviceCodeOAuthFlow, SendMessageRequest, GetTaskRequest,
            ListTasksRequest, ListTasksResponse, CancelTaskRequest,
            GetTaskPushNotificationConfigRequest, DeleteTaskPushNotificationConfigRequest,
            SubscribeToTaskRequest, ListTaskPushNotificationConfigsRequest,
            GetExtendedAgentCardRequest, SendMessageResponse, StreamResponse,
            ListTaskPushNotificationConfigsResponse
        }
    };
}

macro_rules! names {
    ($($t:ident),+) => {
        /// The proto names of all 44 message types, in proto order.
        pub const TYPE_NAMES: &[&str] = &[$(stringify!($t)),+];
    };
}
with_message_types!(names);

/// A deterministic generator of values (splitmix64).
#[derive(Debug, Clone)]
pub struct Gen {
    state: u64,
}

const TEXTS: &[&str] = &[
    "",
    "hello",
    "What is the weather today?",
    "naïve café",
    "日本語のテキスト",
    "Ünïcödé ✓ ±½",
    "emoji 🚀🌍👩‍💻",
    "ελληνικά και русский",
    "עברית ومرحبا",
    "line one\nline two\ttabbed\r\n",
    "quote \" backslash \\ slash /",
    "control \u{1}\u{1f}\u{7f}",
    "\u{2028}\u{2029}\u{85} separators",
    " ",
    "a",
    "<script>alert(1)</script>",
    "{\"looks\": \"like json\"}",
    "null",
    "TASK_STATE_WORKING",
];

const MEDIA_TYPES: &[&str] = &[
    "text/plain",
    "application/json",
    "image/png",
    "application/vnd.geo+json",
];

impl Gen {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Gen {
        Gen {
            state: seed ^ 0x5DEE_CE66_D1A4_F87B,
        }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// True with probability `percent`/100.
    pub fn chance(&mut self, percent: u64) -> bool {
        self.next_u64() % 100 < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    /// Some text, often non-ASCII, sometimes long.
    pub fn text(&mut self) -> String {
        let mut s = self.pick(TEXTS).to_owned();
        if self.chance(10) {
            for _ in 0..self.below(40) {
                s.push(' ');
                s.push_str(self.pick(TEXTS));
            }
        }
        s
    }

    /// Text for a non-REQUIRED string: empty (omitted) half the time.
    fn maybe_text(&mut self) -> String {
        if self.chance(50) {
            String::new()
        } else {
            self.text()
        }
    }

    /// A non-empty identifier.
    fn id(&mut self, prefix: &str) -> String {
        if self.chance(15) {
            format!("{prefix}-{}", self.pick(TEXTS).trim())
                .trim_end_matches('-')
                .to_owned()
        } else {
            format!("{prefix}-{:08x}", self.next_u64() as u32)
        }
    }

    fn maybe_id(&mut self, prefix: &str) -> String {
        if self.chance(50) {
            String::new()
        } else {
            self.id(prefix)
        }
    }

    fn url(&mut self) -> String {
        let host = self.pick(&["agent.example.com", "例え.jp", "localhost:8080"]);
        format!("https://{host}/p/{:x}", self.next_u64() as u16)
    }

    fn maybe<T>(&mut self, percent: u64, f: impl FnOnce(&mut Gen) -> T) -> Option<T> {
        if self.chance(percent) {
            Some(f(self))
        } else {
            None
        }
    }

    fn list<T>(&mut self, min: usize, max: usize, mut f: impl FnMut(&mut Gen) -> T) -> Vec<T> {
        let n = min + self.below(max - min + 1);
        (0..n).map(|_| f(self)).collect()
    }

    fn strings(&mut self, min: usize, max: usize) -> Vec<String> {
        self.list(min, max, Gen::text)
    }

    fn int32(&mut self) -> i32 {
        match self.below(6) {
            0 => 0,
            1 => i32::MAX,
            2 => i32::MIN,
            3 => -1,
            _ => (self.next_u64() % 1000) as i32,
        }
    }

    /// An int64 with its edges (the 1.1 draft's generations).
    #[cfg(feature = "draft-1-1")]
    fn int64(&mut self) -> i64 {
        match self.below(6) {
            0 => 0,
            1 => i64::MAX,
            2 => i64::MIN,
            3 => 1,
            _ => (self.next_u64() % 100_000) as i64,
        }
    }

    /// An `optional int64`: unset, `0` or a value.
    #[cfg(feature = "draft-1-1")]
    fn optional_int64(&mut self) -> Option<i64> {
        match self.below(3) {
            0 => None,
            1 => Some(0),
            _ => Some(self.int64()),
        }
    }

    /// An `optional bool`: unset, `false` or `true`.
    fn optional_bool(&mut self) -> Option<bool> {
        match self.below(3) {
            0 => None,
            1 => Some(false),
            _ => Some(true),
        }
    }

    /// An `optional int32`: unset, `0` or a value.
    fn optional_int32(&mut self) -> Option<i32> {
        match self.below(3) {
            0 => None,
            1 => Some(0),
            _ => Some(self.int32()),
        }
    }

    /// An `optional string`: unset, `""` or a value.
    fn optional_string(&mut self) -> Option<String> {
        match self.below(3) {
            0 => None,
            1 => Some(String::new()),
            _ => Some(self.url()),
        }
    }

    /// A JSON number, including the extremes and negative zero.
    pub fn number(&mut self) -> Number {
        let f = |v: f64| Number::from_f64(v).unwrap_or_else(|| Number::from(0));
        match self.below(12) {
            0 => f(-0.0),
            1 => f(1e308),
            2 => f(-1.797_693_134_862_315_7e308),
            3 => f(5e-324),
            4 => Number::from(u64::MAX),
            5 => Number::from(i64::MIN),
            6 => Number::from(9_007_199_254_740_993u64),
            7 => f(0.1),
            8 => f(-123_456.789),
            9 => Number::from(0),
            _ => Number::from(self.next_u64() as i32),
        }
    }

    /// Any JSON value, nested at most `depth` levels.
    pub fn value(&mut self, depth: u32) -> Value {
        let kinds = if depth == 0 { 4 } else { 6 };
        match self.below(kinds) {
            0 => Value::Null,
            1 => Value::Bool(self.chance(50)),
            2 => Value::Number(self.number()),
            3 => Value::String(self.text()),
            4 => Value::Array(self.list(0, 4, |g| g.value(depth - 1))),
            _ => Value::Object(self.object(depth - 1)),
        }
    }

    /// A JSON object (a `google.protobuf.Struct`), values nested at most
    /// `depth` levels.
    pub fn object(&mut self, depth: u32) -> Struct {
        let n = self.below(4);
        (0..n).map(|_| (self.text(), self.value(depth))).collect()
    }

    fn metadata(&mut self) -> Option<Struct> {
        self.maybe(30, |g| g.object(2))
    }

    /// A timestamp in the protobuf range, at millisecond precision (what
    /// the wire keeps).
    pub fn timestamp(&mut self) -> Timestamp {
        match self.below(8) {
            0 => Timestamp::MIN,
            1 => Timestamp::MAX.truncated_to_millis(),
            2 => Timestamp::UNIX_EPOCH,
            _ => {
                let span = (Timestamp::MAX.unix_millis() - Timestamp::MIN.unix_millis()) as u64;
                let millis = Timestamp::MIN.unix_millis() + (self.next_u64() % span) as i64;
                Timestamp::from_unix_millis(millis).unwrap_or_default()
            }
        }
    }

    fn map<V>(&mut self, max: usize, mut f: impl FnMut(&mut Gen) -> V) -> BTreeMap<String, V> {
        let n = self.below(max + 1);
        (0..n).map(|_| (self.text(), f(self))).collect()
    }
}

/// Values the generator can make.
pub trait Generate: Sized {
    /// A value drawn from `g`.
    fn generate(g: &mut Gen) -> Self;
}

impl Generate for crate::Empty {
    fn generate(_: &mut Gen) -> crate::Empty {
        crate::Empty
    }
}

impl Generate for Part {
    fn generate(g: &mut Gen) -> Part {
        let content = match g.below(4) {
            0 => PartContent::Text(g.text()),
            1 => PartContent::Raw(g.list(0, 40, |g| g.next_u64() as u8)),
            2 => PartContent::Url(g.url()),
            _ => PartContent::Data(g.value(3)),
        };
        Part {
            content,
            metadata: g.metadata(),
            filename: if g.chance(30) {
                g.text()
            } else {
                String::new()
            },
            media_type: if g.chance(40) {
                g.pick(MEDIA_TYPES).to_owned()
            } else {
                String::new()
            },
        }
    }
}

impl Generate for Message {
    fn generate(g: &mut Gen) -> Message {
        Message {
            message_id: g.id("msg"),
            context_id: g.maybe_id("ctx"),
            task_id: g.maybe_id("task"),
            role: if g.chance(50) {
                Role::User
            } else {
                Role::Agent
            },
            parts: g.list(1, 3, Part::generate),
            metadata: g.metadata(),
            extensions: g.list(0, 2, Gen::url),
            reference_task_ids: g.list(0, 2, |g| g.id("task")),
        }
    }
}

impl Generate for Artifact {
    fn generate(g: &mut Gen) -> Artifact {
        Artifact {
            artifact_id: g.id("art"),
            name: g.maybe_text(),
            description: g.maybe_text(),
            parts: g.list(1, 3, Part::generate),
            metadata: g.metadata(),
            extensions: g.list(0, 2, Gen::url),
            ..DraftFields::generate_draft(g)
        }
    }
}

fn valid_state(g: &mut Gen) -> TaskState {
    TaskState::ALL[1 + g.below(TaskState::ALL.len() - 1)]
}

impl Generate for TaskStatus {
    fn generate(g: &mut Gen) -> TaskStatus {
        TaskStatus {
            state: valid_state(g),
            message: g.maybe(30, Message::generate),
            timestamp: g.maybe(60, Gen::timestamp),
        }
    }
}

impl Generate for Task {
    fn generate(g: &mut Gen) -> Task {
        Task {
            id: g.id("task"),
            context_id: g.maybe_id("ctx"),
            status: TaskStatus::generate(g),
            artifacts: g.list(0, 2, Artifact::generate),
            history: g.list(0, 2, Message::generate),
            metadata: g.metadata(),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for TaskStatusUpdateEvent {
    fn generate(g: &mut Gen) -> TaskStatusUpdateEvent {
        TaskStatusUpdateEvent {
            task_id: g.id("task"),
            context_id: g.id("ctx"),
            status: TaskStatus::generate(g),
            metadata: g.metadata(),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for TaskArtifactUpdateEvent {
    fn generate(g: &mut Gen) -> TaskArtifactUpdateEvent {
        TaskArtifactUpdateEvent {
            task_id: g.id("task"),
            context_id: g.id("ctx"),
            artifact: Artifact::generate(g),
            append: g.chance(50),
            last_chunk: g.chance(50),
            metadata: g.metadata(),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for AuthenticationInfo {
    fn generate(g: &mut Gen) -> AuthenticationInfo {
        AuthenticationInfo {
            scheme: g.pick(&["Bearer", "Basic", "Digest"]).to_owned(),
            credentials: g.maybe_text(),
        }
    }
}

impl Generate for TaskPushNotificationConfig {
    fn generate(g: &mut Gen) -> TaskPushNotificationConfig {
        TaskPushNotificationConfig {
            tenant: g.maybe_id("tenant"),
            id: g.maybe_id("cfg"),
            task_id: g.maybe_id("task"),
            url: g.url(),
            token: g.maybe_text(),
            authentication: g.maybe(50, AuthenticationInfo::generate),
        }
    }
}

impl Generate for AgentInterface {
    fn generate(g: &mut Gen) -> AgentInterface {
        AgentInterface {
            url: g.url(),
            protocol_binding: g.pick(&["JSONRPC", "GRPC", "HTTP+JSON"]).to_owned(),
            tenant: g.maybe_id("tenant"),
            protocol_version: g.pick(&["1.0", "0.3"]).to_owned(),
        }
    }
}

impl Generate for AgentProvider {
    fn generate(g: &mut Gen) -> AgentProvider {
        AgentProvider {
            url: g.url(),
            organization: g.text().trim().to_owned() + "org",
        }
    }
}

impl Generate for AgentExtension {
    fn generate(g: &mut Gen) -> AgentExtension {
        AgentExtension {
            uri: if g.chance(80) { g.url() } else { String::new() },
            description: g.maybe_text(),
            required: g.chance(50),
            params: g.metadata(),
        }
    }
}

impl Generate for AgentCapabilities {
    fn generate(g: &mut Gen) -> AgentCapabilities {
        AgentCapabilities {
            streaming: g.optional_bool(),
            push_notifications: g.optional_bool(),
            extensions: g.list(0, 2, AgentExtension::generate),
            extended_agent_card: g.optional_bool(),
        }
    }
}

impl Generate for StringList {
    fn generate(g: &mut Gen) -> StringList {
        StringList {
            list: g.strings(0, 3),
        }
    }
}

impl Generate for SecurityRequirement {
    fn generate(g: &mut Gen) -> SecurityRequirement {
        SecurityRequirement {
            schemes: g.map(2, StringList::generate),
        }
    }
}

impl Generate for AgentSkill {
    fn generate(g: &mut Gen) -> AgentSkill {
        AgentSkill {
            id: g.id("skill"),
            name: g.id("name"),
            description: g.text() + ".",
            tags: g.strings(1, 3),
            examples: g.strings(0, 2),
            input_modes: g.list(0, 2, |g| g.pick(MEDIA_TYPES).to_owned()),
            output_modes: g.list(0, 2, |g| g.pick(MEDIA_TYPES).to_owned()),
            security_requirements: g.list(0, 1, SecurityRequirement::generate),
        }
    }
}

impl Generate for AgentCardSignature {
    fn generate(g: &mut Gen) -> AgentCardSignature {
        AgentCardSignature {
            protected: format!("eyJhbGciOiJFUzI1NiJ9{:x}", g.next_u64()),
            signature: format!("sig_{:x}-{:x}", g.next_u64(), g.next_u64()),
            header: g.metadata(),
        }
    }
}

impl Generate for APIKeySecurityScheme {
    fn generate(g: &mut Gen) -> APIKeySecurityScheme {
        APIKeySecurityScheme {
            description: g.maybe_text(),
            location: g.pick(&["query", "header", "cookie"]).to_owned(),
            name: g.id("X-Api-Key"),
        }
    }
}

impl Generate for HTTPAuthSecurityScheme {
    fn generate(g: &mut Gen) -> HTTPAuthSecurityScheme {
        HTTPAuthSecurityScheme {
            description: g.maybe_text(),
            scheme: g.pick(&["Bearer", "Basic"]).to_owned(),
            bearer_format: if g.chance(50) {
                "JWT".into()
            } else {
                String::new()
            },
        }
    }
}

fn scopes(g: &mut Gen) -> BTreeMap<String, String> {
    g.map(3, Gen::text)
}

impl Generate for AuthorizationCodeOAuthFlow {
    fn generate(g: &mut Gen) -> AuthorizationCodeOAuthFlow {
        AuthorizationCodeOAuthFlow {
            authorization_url: g.url(),
            token_url: g.url(),
            refresh_url: if g.chance(50) { g.url() } else { String::new() },
            scopes: scopes(g),
            pkce_required: g.chance(50),
        }
    }
}

impl Generate for ClientCredentialsOAuthFlow {
    fn generate(g: &mut Gen) -> ClientCredentialsOAuthFlow {
        ClientCredentialsOAuthFlow {
            token_url: g.url(),
            refresh_url: if g.chance(50) { g.url() } else { String::new() },
            scopes: scopes(g),
        }
    }
}

impl Generate for ImplicitOAuthFlow {
    fn generate(g: &mut Gen) -> ImplicitOAuthFlow {
        ImplicitOAuthFlow {
            authorization_url: if g.chance(70) { g.url() } else { String::new() },
            refresh_url: if g.chance(50) { g.url() } else { String::new() },
            scopes: scopes(g),
        }
    }
}

impl Generate for PasswordOAuthFlow {
    fn generate(g: &mut Gen) -> PasswordOAuthFlow {
        PasswordOAuthFlow {
            token_url: if g.chance(70) { g.url() } else { String::new() },
            refresh_url: if g.chance(50) { g.url() } else { String::new() },
            scopes: scopes(g),
        }
    }
}

impl Generate for DeviceCodeOAuthFlow {
    fn generate(g: &mut Gen) -> DeviceCodeOAuthFlow {
        DeviceCodeOAuthFlow {
            device_authorization_url: g.url(),
            token_url: g.url(),
            refresh_url: if g.chance(50) { g.url() } else { String::new() },
            scopes: scopes(g),
        }
    }
}

impl Generate for OAuthFlows {
    fn generate(g: &mut Gen) -> OAuthFlows {
        match g.below(5) {
            0 => OAuthFlows::AuthorizationCode(Generate::generate(g)),
            1 => OAuthFlows::ClientCredentials(Generate::generate(g)),
            2 => OAuthFlows::Implicit(Generate::generate(g)),
            3 => OAuthFlows::Password(Generate::generate(g)),
            _ => OAuthFlows::DeviceCode(Generate::generate(g)),
        }
    }
}

impl Generate for OAuth2SecurityScheme {
    fn generate(g: &mut Gen) -> OAuth2SecurityScheme {
        OAuth2SecurityScheme {
            description: g.maybe_text(),
            flows: Some(OAuthFlows::generate(g)),
            oauth2_metadata_url: if g.chance(50) { g.url() } else { String::new() },
        }
    }
}

impl Generate for OpenIdConnectSecurityScheme {
    fn generate(g: &mut Gen) -> OpenIdConnectSecurityScheme {
        OpenIdConnectSecurityScheme {
            description: g.maybe_text(),
            open_id_connect_url: g.url(),
        }
    }
}

impl Generate for MutualTlsSecurityScheme {
    fn generate(g: &mut Gen) -> MutualTlsSecurityScheme {
        MutualTlsSecurityScheme {
            description: g.maybe_text(),
        }
    }
}

impl Generate for SecurityScheme {
    fn generate(g: &mut Gen) -> SecurityScheme {
        match g.below(5) {
            0 => SecurityScheme::ApiKey(Generate::generate(g)),
            1 => SecurityScheme::HttpAuth(Generate::generate(g)),
            2 => SecurityScheme::OAuth2(Generate::generate(g)),
            3 => SecurityScheme::OpenIdConnect(Generate::generate(g)),
            _ => SecurityScheme::MutualTls(Generate::generate(g)),
        }
    }
}

impl Generate for AgentCard {
    fn generate(g: &mut Gen) -> AgentCard {
        AgentCard {
            name: g.id("agent"),
            description: g.text() + ".",
            supported_interfaces: g.list(1, 3, AgentInterface::generate),
            provider: g.maybe(50, AgentProvider::generate),
            version: format!("{}.{}.{}", g.below(3), g.below(10), g.below(10)),
            documentation_url: g.optional_string(),
            capabilities: AgentCapabilities::generate(g),
            security_schemes: g.map(3, SecurityScheme::generate),
            security_requirements: g.list(0, 2, SecurityRequirement::generate),
            default_input_modes: g.list(1, 2, |g| g.pick(MEDIA_TYPES).to_owned()),
            default_output_modes: g.list(1, 2, |g| g.pick(MEDIA_TYPES).to_owned()),
            skills: g.list(1, 3, AgentSkill::generate),
            signatures: g.list(0, 2, AgentCardSignature::generate),
            icon_url: g.optional_string(),
        }
    }
}

impl Generate for SendMessageConfiguration {
    fn generate(g: &mut Gen) -> SendMessageConfiguration {
        SendMessageConfiguration {
            accepted_output_modes: g.list(0, 3, |g| g.pick(MEDIA_TYPES).to_owned()),
            task_push_notification_config: g
                .maybe(50, |g| Box::new(TaskPushNotificationConfig::generate(g))),
            history_length: g.optional_int32(),
            return_immediately: g.chance(50),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for SendMessageRequest {
    fn generate(g: &mut Gen) -> SendMessageRequest {
        SendMessageRequest {
            tenant: g.maybe_id("tenant"),
            message: Message::generate(g),
            configuration: g.maybe(50, SendMessageConfiguration::generate),
            metadata: g.metadata(),
        }
    }
}

impl Generate for GetTaskRequest {
    fn generate(g: &mut Gen) -> GetTaskRequest {
        GetTaskRequest {
            tenant: g.maybe_id("tenant"),
            id: g.id("task"),
            history_length: g.optional_int32(),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for ListTasksRequest {
    fn generate(g: &mut Gen) -> ListTasksRequest {
        ListTasksRequest {
            tenant: g.maybe_id("tenant"),
            context_id: g.maybe_id("ctx"),
            status: if g.chance(50) {
                TaskState::Unspecified
            } else {
                valid_state(g)
            },
            page_size: g.optional_int32(),
            page_token: g.maybe_id("page"),
            history_length: g.optional_int32(),
            status_timestamp_after: g.maybe(50, Gen::timestamp),
            include_artifacts: g.optional_bool(),
            ..DraftFields::generate_draft(g)
        }
    }
}

impl Generate for ListTasksResponse {
    fn generate(g: &mut Gen) -> ListTasksResponse {
        ListTasksResponse {
            tasks: g.list(0, 2, Task::generate),
            next_page_token: g.maybe_id("page"),
            page_size: g.int32(),
            total_size: g.int32(),
        }
    }
}

impl Generate for CancelTaskRequest {
    fn generate(g: &mut Gen) -> CancelTaskRequest {
        CancelTaskRequest {
            tenant: g.maybe_id("tenant"),
            id: g.id("task"),
            metadata: g.metadata(),
        }
    }
}

impl Generate for GetTaskPushNotificationConfigRequest {
    fn generate(g: &mut Gen) -> GetTaskPushNotificationConfigRequest {
        GetTaskPushNotificationConfigRequest {
            tenant: g.maybe_id("tenant"),
            task_id: g.id("task"),
            id: g.id("cfg"),
        }
    }
}

impl Generate for DeleteTaskPushNotificationConfigRequest {
    fn generate(g: &mut Gen) -> DeleteTaskPushNotificationConfigRequest {
        DeleteTaskPushNotificationConfigRequest {
            tenant: g.maybe_id("tenant"),
            task_id: g.id("task"),
            id: g.id("cfg"),
        }
    }
}

impl Generate for SubscribeToTaskRequest {
    fn generate(g: &mut Gen) -> SubscribeToTaskRequest {
        SubscribeToTaskRequest {
            tenant: g.maybe_id("tenant"),
            id: g.id("task"),
        }
    }
}

impl Generate for ListTaskPushNotificationConfigsRequest {
    fn generate(g: &mut Gen) -> ListTaskPushNotificationConfigsRequest {
        ListTaskPushNotificationConfigsRequest {
            tenant: g.maybe_id("tenant"),
            task_id: g.id("task"),
            page_size: if g.chance(50) { 0 } else { g.int32() },
            page_token: g.maybe_id("page"),
        }
    }
}

impl Generate for GetExtendedAgentCardRequest {
    fn generate(g: &mut Gen) -> GetExtendedAgentCardRequest {
        GetExtendedAgentCardRequest {
            tenant: g.maybe_id("tenant"),
        }
    }
}

impl Generate for SendMessageResponse {
    fn generate(g: &mut Gen) -> SendMessageResponse {
        if g.chance(50) {
            SendMessageResponse::Task(Task::generate(g))
        } else {
            SendMessageResponse::Message(Message::generate(g))
        }
    }
}

impl Generate for StreamResponse {
    fn generate(g: &mut Gen) -> StreamResponse {
        match g.below(4) {
            0 => StreamResponse::Task(Generate::generate(g)),
            1 => StreamResponse::Message(Generate::generate(g)),
            2 => StreamResponse::StatusUpdate(Generate::generate(g)),
            _ => StreamResponse::ArtifactUpdate(Generate::generate(g)),
        }
    }
}

impl Generate for ListTaskPushNotificationConfigsResponse {
    fn generate(g: &mut Gen) -> ListTaskPushNotificationConfigsResponse {
        ListTaskPushNotificationConfigsResponse {
            configs: g.list(0, 3, TaskPushNotificationConfig::generate),
            next_page_token: g.maybe_id("page"),
        }
    }
}

/// Encodes a value as compact JSON with the crate's writer; the crate's
/// types always encode.
pub fn encode<T: Serialize>(value: &T) -> String {
    let bytes = match crate::json::to_vec(value) {
        Ok(bytes) => bytes,
        Err(e) => panic!("encoding cannot fail for this crate's types: {e}"),
    };
    match String::from_utf8(bytes) {
        Ok(json) => json,
        Err(e) => panic!("the writer wrote invalid UTF-8: {e}"),
    }
}

#[cfg(feature = "fast-json")]
/// Decodes `json` as the type named `type_name` and as a
/// `serde_json::Value`, and checks that the crate's writer encodes both to
/// exactly the bytes `serde_json` does.
pub fn check_writer(type_name: &str, json: &str) -> Result<(), String> {
    fn same<T: Serialize + ?Sized>(what: &str, value: &T) -> Result<(), String> {
        let ours = crate::json::to_vec(value).map_err(|e| format!("{what}: {e}"))?;
        let theirs = serde_json::to_vec(value).map_err(|e| format!("{what}: {e}"))?;
        if ours == theirs {
            return Ok(());
        }
        Err(format!(
            "{what}: the writer differs from serde_json\nours:   {}\ntheirs: {}",
            String::from_utf8_lossy(&ours),
            String::from_utf8_lossy(&theirs)
        ))
    }
    fn go<T: Serialize + DeserializeOwned>(json: &str) -> Result<(), String> {
        let typed = from_str::<T>(json).map_err(|e| e.to_string())?;
        same("typed", &typed)?;
        let value: Value = serde_json::from_str(json).map_err(|e| e.to_string())?;
        same("Value", &value)
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(json),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// The JSON of a generated value of the type named `type_name`.
pub fn generate_json(type_name: &str, seed: u64) -> Option<String> {
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => Some(encode(&<$t as Generate>::generate(&mut Gen::new(seed)))),)+
                _ => None,
            }
        };
    }
    with_message_types!(arms)
}

/// `n` documents, `(type name, JSON)`, cycling through every type; the
/// same `n` always gives the same documents.
///
/// The JSON is line-safe: U+0085, U+2028 and U+2029, which this crate's
/// encoder (like `serde_json`) writes raw inside strings, are written as
/// `\uXXXX` escapes, because line-oriented readers such as Python's
/// `str.splitlines` (used by `wire-oracle lines`) split on them.
pub fn corpus(n: usize) -> Vec<(&'static str, String)> {
    (0..n)
        .filter_map(|i| {
            let name = TYPE_NAMES[i % TYPE_NAMES.len()];
            generate_json(name, i as u64).map(|json| (name, line_safe(json)))
        })
        .collect()
}

/// Escapes the characters some line splitters treat as line breaks (they
/// can only occur inside JSON strings, where an escape means the same).
pub fn line_safe(json: String) -> String {
    if !json.contains(['\u{85}', '\u{2028}', '\u{2029}']) {
        return json;
    }
    json.replace('\u{85}', "\\u0085")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

/// Decodes `json` as the type named `type_name` and encodes it again.
pub fn reencode(type_name: &str, json: &str) -> Result<String, String> {
    fn go<T: Serialize + DeserializeOwned>(json: &str) -> Result<String, String> {
        from_str::<T>(json)
            .map(|v| encode(&v))
            .map_err(|e| e.to_string())
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(json),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// Validates `json` decoded as the type named `type_name`.
pub fn validate_json(type_name: &str, json: &str) -> Result<Vec<crate::FieldViolation>, String> {
    fn go<T: DeserializeOwned + Validate>(
        json: &str,
    ) -> Result<Vec<crate::FieldViolation>, String> {
        let value = from_str::<T>(json).map_err(|e| e.to_string())?;
        Ok(value.validate().err().unwrap_or_default())
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(json),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// Checks decode(encode(x)) == x for a generated value of the named type,
/// and that the generated value is valid.
pub fn check_roundtrip(type_name: &str, seed: u64) -> Result<(), String> {
    fn go<T>(seed: u64) -> Result<(), String>
    where
        T: Generate + Serialize + DeserializeOwned + PartialEq + Debug + Validate,
    {
        let value = T::generate(&mut Gen::new(seed));
        let json = encode(&value);
        let back: T = from_str(&json).map_err(|e| format!("{e}\n{json}"))?;
        if back != value {
            return Err(format!(
                "round trip changed the value\n{json}\n{value:?}\n{back:?}"
            ));
        }
        value
            .validate()
            .map_err(|v| format!("generated an invalid value: {v:?}\n{json}"))
    }
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => go::<$t>(seed),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

/// The fuzz harness: decodes `data` as a `Task`, `Message`, `AgentCard`
/// and `StreamResponse`; whatever decodes must validate without panicking,
/// re-encode, and re-decode to a value that encodes to the same bytes.
/// A decoded task and stream item are also fed to the reconstruction.
pub fn fuzz_decode(data: &[u8]) {
    fn one<T: Serialize + DeserializeOwned + PartialEq + Debug + Validate>(
        data: &[u8],
    ) -> Option<T> {
        let value = from_slice::<T>(data).ok()?;
        let _ = value.validate();
        let first = encode(&value);
        let again: T = match from_slice(first.as_bytes()) {
            Ok(v) => v,
            Err(e) => panic!("our own output does not decode: {e}\n{first}"),
        };
        let second = encode(&again);
        assert_eq!(first, second, "encoding is not stable");
        Some(value)
    }
    let task = one::<Task>(data);
    one::<Message>(data);
    one::<AgentCard>(data);
    let event = one::<StreamResponse>(data);
    if let (Some(mut task), Some(event)) = (task, event) {
        let _ = crate::apply(&mut task, event);
    }
}

#[cfg(feature = "fast-json")]
/// The fast reader's one-sided guarantee for one type: when
/// [`json::try_from_slice`](crate::json::try_from_slice) returns a value,
/// `serde_json` must return an equal one, compared with `==` and by
/// encoding (which tells `-0.0` from `0.0`, equal under `==`).
///
/// `Ok(true)`: the reader accepted and agreed; `Ok(false)`: it declined
/// (always allowed); `Err`: the guarantee is broken, and why.
pub fn reader_check<T>(json: &[u8]) -> Result<bool, String>
where
    T: DeserializeOwned + Serialize + PartialEq + Debug,
{
    let Ok(ours) = crate::json::try_from_slice::<T>(json) else {
        return Ok(false);
    };
    let input = String::from_utf8_lossy(json);
    match serde_json::from_slice::<T>(json) {
        Ok(theirs) if theirs == ours && encode(&theirs) == encode(&ours) => Ok(true),
        Ok(theirs) => Err(format!(
            "the reader read {ours:?} where serde_json read {theirs:?}, from {input:?}"
        )),
        Err(e) => Err(format!(
            "the reader read {ours:?} where serde_json says {e}, from {input:?}"
        )),
    }
}

#[cfg(feature = "fast-json")]
/// [`reader_check`] for the message type named `type_name`.
pub fn reader_agrees(type_name: &str, json: &[u8]) -> Result<bool, String> {
    macro_rules! arms {
        ($($t:ident),+) => {
            match type_name {
                $(stringify!($t) => reader_check::<$t>(json),)+
                _ => Err(format!("unknown type {type_name:?}")),
            }
        };
    }
    with_message_types!(arms)
}

#[cfg(feature = "fast-json")]
/// The message types [`fuzz_reader`] reads its input as (besides any JSON
/// value): the documents the bindings decode most.
pub const READER_FUZZ_TYPES: &[&str] = &[
    "Task",
    "Message",
    "AgentCard",
    "StreamResponse",
    "SendMessageRequest",
    "SendMessageResponse",
];

#[cfg(feature = "fast-json")]
/// The differential fuzz harness of the fast reader: reads `data` as a
/// `serde_json::Value`, as each of [`READER_FUZZ_TYPES`], as
/// `serde::de::IgnoredAny` (the skipping path) and as a borrowed
/// `RawValue` (whose text must be exactly `serde_json`'s), and panics if
/// the reader accepts anything `serde_json` reads otherwise. Returns how
/// many of those readings the reader accepted.
pub fn fuzz_reader(data: &[u8]) -> usize {
    fn checked(result: Result<bool, String>) -> usize {
        match result {
            Ok(accepted) => usize::from(accepted),
            Err(e) => panic!("{e}"),
        }
    }
    let input = String::from_utf8_lossy(data);
    let mut accepted = checked(reader_check::<Value>(data));
    for name in READER_FUZZ_TYPES {
        accepted += checked(reader_agrees(name, data));
    }
    if crate::json::try_from_slice::<serde::de::IgnoredAny>(data).is_ok() {
        if let Err(e) = serde_json::from_slice::<serde::de::IgnoredAny>(data) {
            panic!("the reader skipped what serde_json refuses ({e}): {input:?}");
        }
        accepted += 1;
    }
    if let Ok(ours) = crate::json::try_from_slice::<&serde_json::value::RawValue>(data) {
        match serde_json::from_slice::<&serde_json::value::RawValue>(data) {
            Ok(theirs) => assert_eq!(ours.get(), theirs.get(), "raw text of {input:?}"),
            Err(e) => panic!("the reader read a raw value where serde_json says {e}: {input:?}"),
        }
        accepted += 1;
    }
    accepted
}

/// The 0.3 fuzz harness: decodes `data` as every type with a 0.3 form
/// ([`crate::v0_3::Codec`]); whatever decodes must validate without
/// panicking and, when 0.3 can spell it, re-encode as 0.3 and re-decode
/// to a value that encodes to the same bytes. Returns how many readings
/// decoded.
pub fn fuzz_decode_v0_3(data: &[u8]) -> usize {
    use crate::v0_3::{self, Codec};

    fn one<T: Codec + Validate>(data: &[u8]) -> usize {
        let Ok(value) = v0_3::from_slice::<T>(data) else {
            return 0;
        };
        let _ = value.validate();
        if let Ok(first) = v0_3::to_vec(&value) {
            let again: T = match v0_3::from_slice(&first) {
                Ok(v) => v,
                Err(e) => panic!(
                    "our own 0.3 output does not decode: {e}\n{}",
                    String::from_utf8_lossy(&first)
                ),
            };
            // A panic is this harness's verdict, as above.
            let second = match v0_3::to_vec(&again) {
                Ok(bytes) => bytes,
                Err(e) => panic!("what encoded once does not encode again: {e}"),
            };
            assert_eq!(first, second, "0.3 encoding is not stable");
        }
        1
    }
    one::<Task>(data)
        + one::<Message>(data)
        + one::<AgentCard>(data)
        + one::<StreamResponse>(data)
        + one::<SendMessageResponse>(data)
        + one::<SendMessageRequest>(data)
        + one::<TaskPushNotificationConfig>(data)
        + one::<GetTaskRequest>(data)
        + one::<CancelTaskRequest>(data)
        + one::<GetTaskPushNotificationConfigRequest>(data)
        + one::<DeleteTaskPushNotificationConfigRequest>(data)
        + one::<ListTaskPushNotificationConfigsRequest>(data)
        + one::<ListTaskPushNotificationConfigsResponse>(data)
        + rest(data)
}

/// The 0.3 HTTP+JSON readers (`v0_3::rest`) on `data` for every
/// operation: they must not panic, and what they read must encode again.
fn rest(data: &[u8]) -> usize {
    use crate::v0_3;
    let limits = crate::DecodeLimits::new();
    let mut read = 0;
    for op in crate::Operation::ALL {
        if let Ok(request) = v0_3::request_from_rest(op, data, &limits) {
            let _ = v0_3::request_to_rest(&request);
            read += 1;
        }
        if let Ok(reply) = v0_3::reply_from_rest(op, data, &limits) {
            let _ = v0_3::reply_to_rest(&reply);
            read += 1;
        }
    }
    if let Ok(event) = v0_3::event_from_rest(data, &limits) {
        let _ = v0_3::event_to_rest(&event);
        read += 1;
    }
    read
}

/// Seeds for the 0.3 fuzz target: the 0.3 JSON of generated values of
/// the types [`fuzz_decode_v0_3`] reads, `(type name, json)`.
pub fn corpus_v0_3(per_type: u64) -> Vec<(&'static str, Vec<u8>)> {
    use crate::v0_3::{self, Codec};

    fn some<T: Codec + Generate>(
        name: &'static str,
        n: u64,
        out: &mut Vec<(&'static str, Vec<u8>)>,
    ) {
        for seed in 0..n {
            if let Ok(json) = v0_3::to_vec(&T::generate(&mut Gen::new(seed))) {
                out.push((name, json));
            }
        }
    }
    let mut out = Vec::new();
    some::<Task>("task", per_type, &mut out);
    some::<Message>("message", per_type, &mut out);
    some::<AgentCard>("card", per_type, &mut out);
    some::<StreamResponse>("event", per_type, &mut out);
    some::<SendMessageRequest>("send", per_type, &mut out);
    some::<TaskPushNotificationConfig>("push", per_type, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_list_is_complete() {
        assert_eq!(TYPE_NAMES.len(), 44);
    }

    #[test]
    fn generator_is_deterministic() {
        assert_eq!(corpus(50), corpus(50));
    }
}

/// The 1.1 draft's fields of a generated value, drawn after the 1.0 ones
/// (so the 1.0 sequence, and every corpus made from it, stays the same);
/// without the feature, defaults drawn from nothing.
trait DraftFields: Default {
    fn generate_draft(g: &mut Gen) -> Self;
}

macro_rules! no_draft_fields {
    ($($ty:ty),*) => {$(
        #[cfg(not(feature = "draft-1-1"))]
        impl DraftFields for $ty {
            fn generate_draft(_: &mut Gen) -> Self {
                Self::default()
            }
        }
    )*};
}

no_draft_fields!(
    Artifact,
    Task,
    TaskStatusUpdateEvent,
    TaskArtifactUpdateEvent,
    SendMessageConfiguration,
    GetTaskRequest,
    ListTasksRequest
);

#[cfg(feature = "draft-1-1")]
mod draft {
    use super::{DraftFields, Gen, Generate};
    use crate::draft_1_1::TimelineEntry;
    use crate::*;

    impl Generate for TimelineEntry {
        fn generate(g: &mut Gen) -> TimelineEntry {
            let generation = g.int64();
            match g.below(3) {
                0 => TimelineEntry::message(Message::generate(g), generation),
                1 => TimelineEntry::status(TaskStatus::generate(g), generation),
                // An entry of a kind a later version adds.
                _ => TimelineEntry {
                    entry: None,
                    generation,
                },
            }
        }
    }

    impl DraftFields for Artifact {
        fn generate_draft(g: &mut Gen) -> Artifact {
            Artifact {
                start_generation: g.int64(),
                end_generation: g.int64(),
                ..Artifact::default()
            }
        }
    }

    impl DraftFields for Task {
        fn generate_draft(g: &mut Gen) -> Task {
            Task {
                generation: g.int64(),
                timeline: g.list(0, 3, TimelineEntry::generate),
                ..Task::default()
            }
        }
    }

    impl DraftFields for TaskStatusUpdateEvent {
        fn generate_draft(g: &mut Gen) -> TaskStatusUpdateEvent {
            TaskStatusUpdateEvent {
                generation: g.int64(),
                ..TaskStatusUpdateEvent::default()
            }
        }
    }

    impl DraftFields for TaskArtifactUpdateEvent {
        fn generate_draft(g: &mut Gen) -> TaskArtifactUpdateEvent {
            TaskArtifactUpdateEvent {
                generation: g.int64(),
                ..TaskArtifactUpdateEvent::default()
            }
        }
    }

    impl DraftFields for SendMessageConfiguration {
        fn generate_draft(g: &mut Gen) -> SendMessageConfiguration {
            SendMessageConfiguration {
                if_generation_match: g.optional_int64(),
                timeline_length: g.optional_int32(),
                ..SendMessageConfiguration::default()
            }
        }
    }

    impl DraftFields for GetTaskRequest {
        fn generate_draft(g: &mut Gen) -> GetTaskRequest {
            GetTaskRequest {
                current_generation: g.optional_int64(),
                timeline_length: g.optional_int32(),
                ..GetTaskRequest::default()
            }
        }
    }

    impl DraftFields for ListTasksRequest {
        fn generate_draft(g: &mut Gen) -> ListTasksRequest {
            ListTasksRequest {
                timeline_length: g.optional_int32(),
                ..ListTasksRequest::default()
            }
        }
    }
}
