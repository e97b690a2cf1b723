//! A checker of A2A JSON as it comes off the wire (spec 4, 5.5-5.7):
//! REQUIRED fields present and set, JSON types, enum values as the proto's
//! names, timestamps in UTC with `Z`, camelCase field names. It reads
//! `serde_json::Value`s, not typed structs, because typed decoding forgives
//! what these scenarios must see (a missing field decodes as its default,
//! an enum number decodes as the enum).

use serde_json::{Map, Value};

/// Which rule a [`Violation`] breaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rule {
    /// A REQUIRED field is absent or unset (spec 5.7; empty strings and
    /// lists count as unset).
    Required,
    /// A field has the wrong JSON type.
    Type,
    /// An enum value is not one of the proto's names (spec 5.5).
    EnumName,
    /// A timestamp is not ISO 8601 in UTC with `Z` (spec 5.6.1).
    Timestamp,
    /// A field name is in snake_case instead of camelCase (spec 5.5).
    CamelCase,
    /// A oneof has none or several members set.
    Oneof,
}

/// One departure from the data model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// The rule broken.
    pub rule: Rule,
    /// Where, as a JSON path (`task.status.state`).
    pub path: String,
    /// What is wrong.
    pub what: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.what)
    }
}

/// A field's type.
#[derive(Debug, Clone, Copy)]
enum Ty {
    Str,
    Bool,
    Int,
    Bytes,
    Enum(&'static [&'static str]),
    Time,
    Msg(&'static Msg),
    /// A `google.protobuf.Struct`.
    Object,
    /// A `google.protobuf.Value`.
    Any,
    /// A `map<string, Msg>`.
    Map(&'static Msg),
}

#[derive(Debug, Clone, Copy)]
struct Field {
    name: &'static str,
    ty: Ty,
    required: bool,
    repeated: bool,
    /// For REQUIRED fields that may be empty (`ListTasksResponse.tasks`,
    /// `nextPageToken`): present is enough.
    may_be_empty: bool,
}

/// A message type of the proto.
#[derive(Debug)]
pub struct Msg {
    name: &'static str,
    fields: &'static [Field],
    /// Groups of field names of which exactly one must be set.
    oneofs: &'static [&'static [&'static str]],
}

const fn f(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        repeated: false,
        may_be_empty: false,
    }
}
const fn req(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
        repeated: false,
        may_be_empty: false,
    }
}
const fn rep(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: false,
        repeated: true,
        may_be_empty: false,
    }
}
const fn req_rep(name: &'static str, ty: Ty) -> Field {
    Field {
        name,
        ty,
        required: true,
        repeated: true,
        may_be_empty: false,
    }
}
const fn present(mut field: Field) -> Field {
    field.may_be_empty = true;
    field
}

const TASK_STATES: &[&str] = &[
    "TASK_STATE_SUBMITTED",
    "TASK_STATE_WORKING",
    "TASK_STATE_COMPLETED",
    "TASK_STATE_FAILED",
    "TASK_STATE_CANCELED",
    "TASK_STATE_INPUT_REQUIRED",
    "TASK_STATE_REJECTED",
    "TASK_STATE_AUTH_REQUIRED",
];
const ROLES: &[&str] = &["ROLE_USER", "ROLE_AGENT"];

/// `Part`.
pub static PART: Msg = Msg {
    name: "Part",
    fields: &[
        f("text", Ty::Str),
        f("raw", Ty::Bytes),
        f("url", Ty::Str),
        f("data", Ty::Any),
        f("metadata", Ty::Object),
        f("filename", Ty::Str),
        f("mediaType", Ty::Str),
    ],
    oneofs: &[&["text", "raw", "url", "data"]],
};

/// `Message`.
pub static MESSAGE: Msg = Msg {
    name: "Message",
    fields: &[
        req("messageId", Ty::Str),
        f("contextId", Ty::Str),
        f("taskId", Ty::Str),
        req("role", Ty::Enum(ROLES)),
        req_rep("parts", Ty::Msg(&PART)),
        f("metadata", Ty::Object),
        rep("extensions", Ty::Str),
        rep("referenceTaskIds", Ty::Str),
    ],
    oneofs: &[],
};

/// `Artifact`.
pub static ARTIFACT: Msg = Msg {
    name: "Artifact",
    fields: &[
        req("artifactId", Ty::Str),
        f("name", Ty::Str),
        f("description", Ty::Str),
        req_rep("parts", Ty::Msg(&PART)),
        f("metadata", Ty::Object),
        rep("extensions", Ty::Str),
    ],
    oneofs: &[],
};

/// `TaskStatus`.
pub static TASK_STATUS: Msg = Msg {
    name: "TaskStatus",
    fields: &[
        req("state", Ty::Enum(TASK_STATES)),
        f("message", Ty::Msg(&MESSAGE)),
        f("timestamp", Ty::Time),
    ],
    oneofs: &[],
};

/// `Task`.
pub static TASK: Msg = Msg {
    name: "Task",
    fields: &[
        req("id", Ty::Str),
        f("contextId", Ty::Str),
        req("status", Ty::Msg(&TASK_STATUS)),
        rep("artifacts", Ty::Msg(&ARTIFACT)),
        rep("history", Ty::Msg(&MESSAGE)),
        f("metadata", Ty::Object),
    ],
    oneofs: &[],
};

/// `TaskStatusUpdateEvent`.
pub static STATUS_UPDATE: Msg = Msg {
    name: "TaskStatusUpdateEvent",
    fields: &[
        req("taskId", Ty::Str),
        req("contextId", Ty::Str),
        req("status", Ty::Msg(&TASK_STATUS)),
        f("metadata", Ty::Object),
    ],
    oneofs: &[],
};

/// `TaskArtifactUpdateEvent`.
pub static ARTIFACT_UPDATE: Msg = Msg {
    name: "TaskArtifactUpdateEvent",
    fields: &[
        req("taskId", Ty::Str),
        req("contextId", Ty::Str),
        req("artifact", Ty::Msg(&ARTIFACT)),
        f("append", Ty::Bool),
        f("lastChunk", Ty::Bool),
        f("metadata", Ty::Object),
    ],
    oneofs: &[],
};

/// `StreamResponse`.
pub static STREAM_RESPONSE: Msg = Msg {
    name: "StreamResponse",
    fields: &[
        f("task", Ty::Msg(&TASK)),
        f("message", Ty::Msg(&MESSAGE)),
        f("statusUpdate", Ty::Msg(&STATUS_UPDATE)),
        f("artifactUpdate", Ty::Msg(&ARTIFACT_UPDATE)),
    ],
    oneofs: &[&["task", "message", "statusUpdate", "artifactUpdate"]],
};

/// `SendMessageResponse`.
pub static SEND_MESSAGE_RESPONSE: Msg = Msg {
    name: "SendMessageResponse",
    fields: &[f("task", Ty::Msg(&TASK)), f("message", Ty::Msg(&MESSAGE))],
    oneofs: &[&["task", "message"]],
};

/// `ListTasksResponse`.
pub static LIST_TASKS_RESPONSE: Msg = Msg {
    name: "ListTasksResponse",
    fields: &[
        present(req_rep("tasks", Ty::Msg(&TASK))),
        present(req("nextPageToken", Ty::Str)),
        present(req("pageSize", Ty::Int)),
        present(req("totalSize", Ty::Int)),
    ],
    oneofs: &[],
};

/// `AuthenticationInfo`.
pub static AUTHENTICATION_INFO: Msg = Msg {
    name: "AuthenticationInfo",
    fields: &[req("scheme", Ty::Str), f("credentials", Ty::Str)],
    oneofs: &[],
};

/// `TaskPushNotificationConfig`.
pub static PUSH_CONFIG: Msg = Msg {
    name: "TaskPushNotificationConfig",
    fields: &[
        f("tenant", Ty::Str),
        f("id", Ty::Str),
        f("taskId", Ty::Str),
        req("url", Ty::Str),
        f("token", Ty::Str),
        f("authentication", Ty::Msg(&AUTHENTICATION_INFO)),
    ],
    oneofs: &[],
};

/// `ListTaskPushNotificationConfigsResponse`.
pub static LIST_PUSH_CONFIGS_RESPONSE: Msg = Msg {
    name: "ListTaskPushNotificationConfigsResponse",
    fields: &[
        rep("configs", Ty::Msg(&PUSH_CONFIG)),
        f("nextPageToken", Ty::Str),
    ],
    oneofs: &[],
};

static AGENT_INTERFACE: Msg = Msg {
    name: "AgentInterface",
    fields: &[
        req("url", Ty::Str),
        req("protocolBinding", Ty::Str),
        f("tenant", Ty::Str),
        req("protocolVersion", Ty::Str),
    ],
    oneofs: &[],
};

static AGENT_PROVIDER: Msg = Msg {
    name: "AgentProvider",
    fields: &[req("url", Ty::Str), req("organization", Ty::Str)],
    oneofs: &[],
};

static AGENT_EXTENSION: Msg = Msg {
    name: "AgentExtension",
    fields: &[
        f("uri", Ty::Str),
        f("description", Ty::Str),
        f("required", Ty::Bool),
        f("params", Ty::Object),
    ],
    oneofs: &[],
};

static AGENT_CAPABILITIES: Msg = Msg {
    name: "AgentCapabilities",
    fields: &[
        f("streaming", Ty::Bool),
        f("pushNotifications", Ty::Bool),
        rep("extensions", Ty::Msg(&AGENT_EXTENSION)),
        f("extendedAgentCard", Ty::Bool),
    ],
    oneofs: &[],
};

static STRING_LIST: Msg = Msg {
    name: "StringList",
    fields: &[rep("list", Ty::Str)],
    oneofs: &[],
};

static SECURITY_REQUIREMENT: Msg = Msg {
    name: "SecurityRequirement",
    fields: &[f("schemes", Ty::Map(&STRING_LIST))],
    oneofs: &[],
};

static AGENT_SKILL: Msg = Msg {
    name: "AgentSkill",
    fields: &[
        req("id", Ty::Str),
        req("name", Ty::Str),
        req("description", Ty::Str),
        req_rep("tags", Ty::Str),
        rep("examples", Ty::Str),
        rep("inputModes", Ty::Str),
        rep("outputModes", Ty::Str),
        rep("securityRequirements", Ty::Msg(&SECURITY_REQUIREMENT)),
    ],
    oneofs: &[],
};

static API_KEY_SCHEME: Msg = Msg {
    name: "APIKeySecurityScheme",
    fields: &[
        f("description", Ty::Str),
        req("location", Ty::Str),
        req("name", Ty::Str),
    ],
    oneofs: &[],
};

static HTTP_AUTH_SCHEME: Msg = Msg {
    name: "HTTPAuthSecurityScheme",
    fields: &[
        f("description", Ty::Str),
        req("scheme", Ty::Str),
        f("bearerFormat", Ty::Str),
    ],
    oneofs: &[],
};

static OAUTH2_SCHEME: Msg = Msg {
    name: "OAuth2SecurityScheme",
    fields: &[
        f("description", Ty::Str),
        req("flows", Ty::Object),
        f("oauth2MetadataUrl", Ty::Str),
    ],
    oneofs: &[],
};

static OIDC_SCHEME: Msg = Msg {
    name: "OpenIdConnectSecurityScheme",
    fields: &[f("description", Ty::Str), req("openIdConnectUrl", Ty::Str)],
    oneofs: &[],
};

static MTLS_SCHEME: Msg = Msg {
    name: "MutualTlsSecurityScheme",
    fields: &[f("description", Ty::Str)],
    oneofs: &[],
};

static SECURITY_SCHEME: Msg = Msg {
    name: "SecurityScheme",
    fields: &[
        f("apiKeySecurityScheme", Ty::Msg(&API_KEY_SCHEME)),
        f("httpAuthSecurityScheme", Ty::Msg(&HTTP_AUTH_SCHEME)),
        f("oauth2SecurityScheme", Ty::Msg(&OAUTH2_SCHEME)),
        f("openIdConnectSecurityScheme", Ty::Msg(&OIDC_SCHEME)),
        f("mtlsSecurityScheme", Ty::Msg(&MTLS_SCHEME)),
    ],
    oneofs: &[&[
        "apiKeySecurityScheme",
        "httpAuthSecurityScheme",
        "oauth2SecurityScheme",
        "openIdConnectSecurityScheme",
        "mtlsSecurityScheme",
    ]],
};

static AGENT_CARD_SIGNATURE: Msg = Msg {
    name: "AgentCardSignature",
    fields: &[
        req("protected", Ty::Str),
        req("signature", Ty::Str),
        f("header", Ty::Object),
    ],
    oneofs: &[],
};

/// `AgentCard`.
pub static AGENT_CARD: Msg = Msg {
    name: "AgentCard",
    fields: &[
        req("name", Ty::Str),
        req("description", Ty::Str),
        req_rep("supportedInterfaces", Ty::Msg(&AGENT_INTERFACE)),
        f("provider", Ty::Msg(&AGENT_PROVIDER)),
        req("version", Ty::Str),
        f("documentationUrl", Ty::Str),
        req("capabilities", Ty::Msg(&AGENT_CAPABILITIES)),
        f("securitySchemes", Ty::Map(&SECURITY_SCHEME)),
        rep("securityRequirements", Ty::Msg(&SECURITY_REQUIREMENT)),
        req_rep("defaultInputModes", Ty::Str),
        req_rep("defaultOutputModes", Ty::Str),
        req_rep("skills", Ty::Msg(&AGENT_SKILL)),
        rep("signatures", Ty::Msg(&AGENT_CARD_SIGNATURE)),
        f("iconUrl", Ty::Str),
    ],
    oneofs: &[],
};

impl Msg {
    /// The proto name of the message.
    pub fn name(&self) -> &'static str {
        self.name
    }
}

/// Every departure of `value` from the message `msg`, with paths under
/// `root`.
pub fn check(msg: &Msg, value: &Value, root: &str) -> Vec<Violation> {
    let mut out = Vec::new();
    check_msg(msg, value, root, &mut out);
    out
}

fn push(out: &mut Vec<Violation>, rule: Rule, path: &str, what: impl Into<String>) {
    out.push(Violation {
        rule,
        path: path.to_owned(),
        what: what.into(),
    });
}

fn join(root: &str, name: &str) -> String {
    if root.is_empty() {
        name.to_owned()
    } else {
        format!("{root}.{name}")
    }
}

fn check_msg(msg: &Msg, value: &Value, path: &str, out: &mut Vec<Violation>) {
    let Some(obj) = value.as_object() else {
        push(
            out,
            Rule::Type,
            path,
            format!("a {} object expected, got {}", msg.name, kind(value)),
        );
        return;
    };
    for key in obj.keys() {
        if msg.fields.iter().any(|f| f.name == key) {
            continue;
        }
        let camel = to_camel(key);
        if camel != *key && msg.fields.iter().any(|f| f.name == camel) {
            push(
                out,
                Rule::CamelCase,
                &join(path, key),
                format!("field `{key}` must be written `{camel}`"),
            );
        }
    }
    for field in msg.fields {
        let at = join(path, field.name);
        let v = obj.get(field.name).filter(|v| !v.is_null());
        let Some(v) = v else {
            // A snake_case spelling was reported above; do not report the
            // field as missing too.
            let snake = to_snake(field.name);
            if field.required && !(snake != field.name && obj.contains_key(&snake)) {
                push(
                    out,
                    Rule::Required,
                    &at,
                    format!("REQUIRED field of {} is missing", msg.name),
                );
            }
            continue;
        };
        if field.repeated {
            let Some(items) = v.as_array() else {
                push(
                    out,
                    Rule::Type,
                    &at,
                    format!("a list expected, got {}", kind(v)),
                );
                continue;
            };
            if field.required && !field.may_be_empty && items.is_empty() {
                push(out, Rule::Required, &at, "REQUIRED list is empty");
            }
            for (i, item) in items.iter().enumerate() {
                check_value(field.ty, item, &format!("{at}[{i}]"), false, out);
            }
        } else {
            check_value(field.ty, v, &at, field.required && !field.may_be_empty, out);
        }
    }
    for group in msg.oneofs {
        // A `google.protobuf.Value` member is set even when it is `null`.
        let set: Vec<&str> = group
            .iter()
            .copied()
            .filter(|k| {
                let any = msg
                    .fields
                    .iter()
                    .any(|f| f.name == *k && matches!(f.ty, Ty::Any));
                obj.get(*k).is_some_and(|v| any || !v.is_null())
            })
            .collect();
        if set.len() != 1 {
            push(
                out,
                Rule::Oneof,
                path,
                format!(
                    "exactly one of {} must be set, found {}",
                    group.join(", "),
                    if set.is_empty() {
                        "none".to_owned()
                    } else {
                        set.join(", ")
                    }
                ),
            );
        }
    }
}

fn check_value(ty: Ty, v: &Value, path: &str, required: bool, out: &mut Vec<Violation>) {
    match ty {
        Ty::Str => match v.as_str() {
            Some(s) if required && s.is_empty() => {
                push(out, Rule::Required, path, "REQUIRED string is empty")
            }
            Some(_) => {}
            None => push(
                out,
                Rule::Type,
                path,
                format!("a string expected, got {}", kind(v)),
            ),
        },
        Ty::Bytes => {
            if !v.as_str().is_some_and(is_base64) {
                push(
                    out,
                    Rule::Type,
                    path,
                    format!("base64 bytes expected, got {}", kind(v)),
                );
            }
        }
        Ty::Bool => {
            if !v.is_boolean() {
                push(
                    out,
                    Rule::Type,
                    path,
                    format!("a boolean expected, got {}", kind(v)),
                );
            }
        }
        Ty::Int => {
            if !(v.is_i64() || v.as_str().is_some_and(|s| s.parse::<i64>().is_ok())) {
                push(
                    out,
                    Rule::Type,
                    path,
                    format!("an integer expected, got {}", kind(v)),
                );
            }
        }
        Ty::Enum(names) => match v.as_str() {
            Some(s) if names.contains(&s) => {}
            Some(s) if s.ends_with("_UNSPECIFIED") => {
                if required {
                    push(out, Rule::Required, path, format!("REQUIRED enum is {s}"));
                }
            }
            Some(s) => push(
                out,
                Rule::EnumName,
                path,
                format!("{s:?} is not a proto enum name ({})", names.join(", ")),
            ),
            None => push(
                out,
                Rule::EnumName,
                path,
                format!("an enum name expected (spec 5.5), got {}", kind(v)),
            ),
        },
        Ty::Time => match v.as_str() {
            Some(s) if is_utc_timestamp(s) => {}
            Some(s) => push(
                out,
                Rule::Timestamp,
                path,
                format!("{s:?} is not an ISO 8601 UTC timestamp ending in Z"),
            ),
            None => push(
                out,
                Rule::Type,
                path,
                format!("a timestamp string expected, got {}", kind(v)),
            ),
        },
        Ty::Msg(msg) => check_msg(msg, v, path, out),
        Ty::Object => {
            if !v.is_object() {
                push(
                    out,
                    Rule::Type,
                    path,
                    format!("an object expected, got {}", kind(v)),
                );
            }
        }
        Ty::Any => {}
        Ty::Map(msg) => match v.as_object() {
            Some(map) => check_map(msg, map, path, out),
            None => push(
                out,
                Rule::Type,
                path,
                format!("a map object expected, got {}", kind(v)),
            ),
        },
    }
}

fn check_map(msg: &Msg, map: &Map<String, Value>, path: &str, out: &mut Vec<Violation>) {
    for (k, v) in map {
        check_msg(msg, v, &format!("{path}[{k:?}]"), out);
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// `context_id` → `contextId`.
fn to_camel(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut upper = false;
    for c in s.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.push(c.to_ascii_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `contextId` → `context_id`.
fn to_snake(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 4);
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn is_base64(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_'))
}

/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (spec 5.6.1: UTC, `Z`, no offset).
pub fn is_utc_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    if b.len() < 20
        || !digits(0..4)
        || b[4] != b'-'
        || !digits(5..7)
        || b[7] != b'-'
        || !digits(8..10)
        || b[10] != b'T'
        || !digits(11..13)
        || b[13] != b':'
        || !digits(14..16)
        || b[16] != b':'
        || !digits(17..19)
    {
        return false;
    }
    let rest = &s[19..];
    let rest = match rest.strip_prefix('.') {
        Some(frac) => {
            let n = frac.bytes().take_while(u8::is_ascii_digit).count();
            if n == 0 || n > 9 {
                return false;
            }
            &frac[n..]
        }
        None => rest,
    };
    rest == "Z" && a2a_types::Timestamp::parse(s).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(msg: &Msg, v: Value) -> Vec<(Rule, String)> {
        check(msg, &v, "x")
            .into_iter()
            .map(|v| (v.rule, v.path))
            .collect()
    }

    #[test]
    fn a_good_task_passes() {
        let task = json!({"id": "t", "contextId": "c",
            "status": {"state": "TASK_STATE_COMPLETED", "timestamp": "2025-01-02T03:04:05.678Z"},
            "artifacts": [{"artifactId": "a", "parts": [{"text": "hi"}]}],
            "history": [{"messageId": "m", "role": "ROLE_USER", "parts": [{"data": null}]}],
            "somethingNew": 1});
        assert_eq!(rules(&TASK, task), vec![]);
    }

    #[test]
    fn each_rule_is_seen() {
        let task = json!({"id": "", "context_id": "c",
            "status": {"state": "completed", "timestamp": "2025-01-02T03:04:05+02:00"},
            "artifacts": [{"artifactId": "a", "parts": []}],
            "history": [{"messageId": "m", "role": 1, "parts": [{"text": "a", "url": "b"}]}]});
        let got = rules(&TASK, task);
        assert!(got.contains(&(Rule::Required, "x.id".into())), "{got:?}");
        assert!(
            got.contains(&(Rule::CamelCase, "x.context_id".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(Rule::EnumName, "x.status.state".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(Rule::Timestamp, "x.status.timestamp".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(Rule::Required, "x.artifacts[0].parts".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(Rule::EnumName, "x.history[0].role".into())),
            "{got:?}"
        );
        assert!(
            got.contains(&(Rule::Oneof, "x.history[0].parts[0]".into())),
            "{got:?}"
        );
        assert_eq!(
            rules(&TASK, json!({"id": "t"})),
            vec![(Rule::Required, "x.status".into())]
        );
    }

    #[test]
    fn list_tasks_response_may_be_empty_but_present() {
        let ok = json!({"tasks": [], "nextPageToken": "", "pageSize": 50, "totalSize": 0});
        assert_eq!(rules(&LIST_TASKS_RESPONSE, ok), vec![]);
        let missing = json!({"tasks": [], "pageSize": 50, "totalSize": 0});
        assert_eq!(
            rules(&LIST_TASKS_RESPONSE, missing),
            vec![(Rule::Required, "x.nextPageToken".into())]
        );
    }

    #[test]
    fn timestamps() {
        assert!(is_utc_timestamp("2025-10-28T10:30:00.000Z"));
        assert!(is_utc_timestamp("2025-10-28T10:30:00Z"));
        assert!(!is_utc_timestamp("2025-10-28T10:30:00+00:00"));
        assert!(!is_utc_timestamp("2025-10-28 10:30:00Z"));
        assert!(!is_utc_timestamp("2025-13-28T10:30:00Z"));
    }
}
