//! [`MAPPING`]: what maps to what between the 1.0 model and 0.3 JSON,
//! and what is lost or made up in each direction.

use std::fmt;

/// What becomes of a value crossing between versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// Carried over with its meaning (perhaps renamed or reshaped).
    Kept,
    /// The other side has no such value, so one is made up.
    Defaulted,
    /// The other side has no place for it; it is dropped.
    Lost,
    /// Cannot be expressed; encoding or the operation fails.
    Refused,
}

impl fmt::Display for Fate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fate::Kept => "kept",
            Fate::Defaulted => "defaulted",
            Fate::Lost => "lost",
            Fate::Refused => "refused",
        })
    }
}

/// One row of [`MAPPING`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mapping {
    /// The 1.0 field or value (`Part.raw`), or `-` when 1.0 has none.
    pub v1_0: &'static str,
    /// The 0.3 field or value, or `-` when 0.3 has none.
    pub v0_3: &'static str,
    /// Encoding the model as 0.3.
    pub to_v0_3: Fate,
    /// How, when not obvious.
    pub to_v0_3_note: &'static str,
    /// Decoding 0.3 into the model.
    pub from_v0_3: Fate,
    /// How, when not obvious.
    pub from_v0_3_note: &'static str,
}

const fn row(
    v1_0: &'static str,
    v0_3: &'static str,
    to_v0_3: Fate,
    to_v0_3_note: &'static str,
    from_v0_3: Fate,
    from_v0_3_note: &'static str,
) -> Mapping {
    Mapping {
        v1_0,
        v0_3,
        to_v0_3,
        to_v0_3_note,
        from_v0_3,
        from_v0_3_note,
    }
}

use Fate::{Defaulted, Kept, Lost, Refused};

/// Every field that changes name, shape or meaning between the 1.0
/// model and 0.3 JSON (fields not listed have the same name and
/// meaning). The codecs of [`crate::v0_3`] implement these rows; the
/// module docs and the README's "Versions" section show them.
pub const MAPPING: &[Mapping] = &[
    row("`Part.text`", "`TextPart` (`kind: \"text\"`)", Kept, "", Kept, "`kind` REQUIRED"),
    row("`Part.raw`", "`FilePart.file.bytes`", Kept, "", Kept, ""),
    row("`Part.url`", "`FilePart.file.uri`", Kept, "", Kept, ""),
    row(
        "`Part.data`",
        "`DataPart.data`",
        Defaulted,
        "an object as is; any other JSON value wrapped as `{\"value\": v}`",
        Kept,
        "must be an object",
    ),
    row(
        "`Part.filename`, `Part.mediaType`",
        "`file.name`, `file.mimeType`",
        Lost,
        "kept on file parts; 0.3 text and data parts have no place for them",
        Kept,
        "",
    ),
    row("`Message`", "`Message` (`kind: \"message\"`)", Kept, "", Kept, "`kind` REQUIRED"),
    row(
        "`Role` (`ROLE_USER`, `ROLE_AGENT`)",
        "`user`, `agent`",
        Refused,
        "`ROLE_UNSPECIFIED` has no spelling: encoding fails",
        Kept,
        "1.0 spellings refused",
    ),
    row(
        "`TaskState` (`TASK_STATE_INPUT_REQUIRED`...)",
        "`TaskState` (`input-required`...)",
        Kept,
        "`TASK_STATE_UNSPECIFIED` is `unknown`",
        Kept,
        "`unknown` is `TASK_STATE_UNSPECIFIED`; 1.0 spellings refused",
    ),
    row("`Task`", "`Task` (`kind: \"task\"`)", Kept, "", Kept, "`kind` REQUIRED"),
    row(
        "`StreamResponse` (member name)",
        "`kind` of the result",
        Kept,
        "",
        Kept,
        "",
    ),
    row(
        "`TaskStatusUpdateEvent`",
        "`kind: \"status-update\"`, `final`",
        Defaulted,
        "`final` is true for a terminal or interrupted state, where a 1.0 stream ends",
        Lost,
        "`final` dropped: 1.0 ends the stream instead",
    ),
    row(
        "`TaskArtifactUpdateEvent`",
        "`kind: \"artifact-update\"`",
        Kept,
        "`append`, `lastChunk` as is",
        Kept,
        "",
    ),
    row(
        "`tenant` (every request and push configuration)",
        "-",
        Lost,
        "0.3 has no tenants",
        Defaulted,
        "empty; the interface or path supplies it",
    ),
    row(
        "`TaskPushNotificationConfig` (flat)",
        "`TaskPushNotificationConfig` (`taskId`, `pushNotificationConfig`)",
        Kept,
        "`id`, `url`, `token`, `authentication` under `pushNotificationConfig`",
        Kept,
        "",
    ),
    row(
        "`AuthenticationInfo.scheme`",
        "`PushNotificationAuthenticationInfo.schemes`",
        Kept,
        "a one-element list",
        Lost,
        "the first scheme kept, the others dropped",
    ),
    row(
        "`SendMessageConfiguration.returnImmediately`",
        "`MessageSendConfiguration.blocking`",
        Kept,
        "`blocking` is its negation, always written",
        Defaulted,
        "absent `blocking` blocks (0.3 spec 7.1)",
    ),
    row(
        "-",
        "`TaskQueryParams.metadata`, `TaskIdParams.metadata` (`tasks/resubscribe`), push config params' `metadata`",
        Kept,
        "",
        Lost,
        "the 1.0 requests have no metadata",
    ),
    row(
        "`GetTaskPushNotificationConfigRequest.id`",
        "`pushNotificationConfigId`",
        Kept,
        "",
        Defaulted,
        "absent means the task's default configuration, whose id is the task id",
    ),
    row(
        "`ListTaskPushNotificationConfigsRequest.pageSize`, `pageToken`; response `nextPageToken`",
        "- (the result is a bare array)",
        Lost,
        "0.3 does not page",
        Defaulted,
        "no page size or token; empty next token",
    ),
    row(
        "`ListTasks`",
        "-",
        Refused,
        "0.3 has no such method: `MethodNotFoundError` (`-32601`)",
        Refused,
        "",
    ),
    row(
        "`AgentCard.supportedInterfaces`",
        "`url`, `preferredTransport`, `additionalInterfaces`",
        Kept,
        "the interfaces at 0.3 (all, when none is): the first is `url` and `preferredTransport`, all are in `additionalInterfaces`; `tenant` lost",
        Kept,
        "the main interface then the additional ones not repeating it; `JSONRPC` when no `preferredTransport`",
    ),
    row(
        "`AgentInterface.protocolVersion`",
        "`AgentCard.protocolVersion`",
        Defaulted,
        "`0.3.0`",
        Kept,
        "its major.minor, on every interface",
    ),
    row(
        "`AgentCapabilities.extendedAgentCard`",
        "`supportsAuthenticatedExtendedCard`",
        Kept,
        "",
        Kept,
        "",
    ),
    row(
        "-",
        "`AgentCapabilities.stateTransitionHistory`",
        Kept,
        "not written",
        Lost,
        "1.0 removed it",
    ),
    row(
        "`SecurityScheme` (oneof member name)",
        "`SecurityScheme` (OpenAPI `type`: `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`)",
        Kept,
        "`location` is `in`",
        Kept,
        "",
    ),
    row(
        "`OAuthFlows` (one flow), `AuthorizationCodeOAuthFlow.pkceRequired`",
        "`OAuthFlows` (several)",
        Lost,
        "`deviceCode` (0.3 has none) and `pkceRequired` dropped",
        Lost,
        "the first of authorizationCode, clientCredentials, implicit, password kept",
    ),
    row(
        "`securityRequirements` (card, skill)",
        "`security` (card, skill)",
        Kept,
        "lists of scopes per scheme",
        Kept,
        "",
    ),
    row(
        "errors `-32001`...`-32007`",
        "the same codes",
        Kept,
        "`ExtendedAgentCardNotConfiguredError` is 0.3's `AuthenticatedExtendedCardNotConfiguredError`",
        Kept,
        "",
    ),
    row(
        "errors `-32008`, `-32009`, `-32090`, `-32091`",
        "- (server-defined codes, 0.3 spec 8.2)",
        Kept,
        "sent with their codes, in the range 0.3 leaves to servers",
        Kept,
        "",
    ),
    row(
        "error details (`data`: an array of `google.rpc` details)",
        "`data` (any JSON)",
        Kept,
        "",
        Kept,
        "any `data` kept as is",
    ),
    row(
        "`Message.parts`",
        "HTTP+JSON: `Message.content` (the 0.3 proto's ProtoJSON)",
        Kept,
        "",
        Kept,
        "",
    ),
    row(
        "`Part.raw`, `Part.url`, `Part.data`, `filename`, `mediaType`",
        "HTTP+JSON: `file.fileWithBytes`, `file.fileWithUri`, `data.data`, `file.name`, `file.mimeType`",
        Defaulted,
        "as in the JSON-RPC form: non-object data wrapped as `{\"value\": v}`; name and media type only on file parts",
        Kept,
        "",
    ),
    row(
        "`Message.referenceTaskIds`",
        "HTTP+JSON: -",
        Lost,
        "the 0.3 proto has no such field",
        Defaulted,
        "empty",
    ),
    row(
        "`TASK_STATE_CANCELED`",
        "HTTP+JSON: `TASK_STATE_CANCELLED`",
        Kept,
        "",
        Kept,
        "",
    ),
    row(
        "`SendMessageConfiguration.returnImmediately`",
        "HTTP+JSON: `configuration.blocking` (proto3 `bool`)",
        Kept,
        "its negation",
        Defaulted,
        "a configuration without `blocking` returns immediately (proto3 false, as the 0.3 SDK servers read it); no configuration blocks",
    ),
    row(
        "`TaskPushNotificationConfig` (flat)",
        "HTTP+JSON: `{name: \"tasks/{id}/pushNotificationConfigs/{configId}\", pushNotificationConfig}`; Python's create body `{parent, configId, config}`",
        Kept,
        "",
        Kept,
        "both create bodies read; task and config ids from `parent`, `configId` or `name` when the configuration has none",
    ),
    row(
        "`AgentCard` (`GET /v1/card`)",
        "HTTP+JSON: the 0.3 proto's `AgentCard`",
        Kept,
        "the members the 0.3 proto shares (`securityRequirements` as `security`), the interfaces as in the JSON-RPC form",
        Kept,
        "",
    ),
    row(
        "errors (`google.rpc.Status` body)",
        "HTTP+JSON: the JSON-RPC error object `{code, message, data}`",
        Kept,
        "with the error's HTTP status; stream errors as an SSE `error` event of it",
        Kept,
        "",
    ),
];

fn cell(fate: Fate, note: &str) -> String {
    if note.is_empty() {
        fate.to_string()
    } else {
        format!("{fate}: {note}")
    }
}

/// [`MAPPING`] as the rows of a Markdown table (without its header),
/// as the module docs and the README show it.
pub fn mapping_rows() -> Vec<String> {
    MAPPING
        .iter()
        .map(|m| {
            format!(
                "| {} | {} | {} | {} |",
                m.v1_0,
                m.v0_3,
                cell(m.to_v0_3, m.to_v0_3_note),
                cell(m.from_v0_3, m.from_v0_3_note)
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows between the markers of a document.
    fn table_in(doc: &str, prefix: &str) -> Vec<String> {
        doc.lines()
            .map(|l| l.strip_prefix(prefix).unwrap_or(l).trim_end())
            .skip_while(|l| !l.contains("mapping table: rendered from MAPPING"))
            .skip(3)
            .take_while(|l| !l.contains("end of mapping table"))
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_module_docs_show_the_mapping_table() {
        let docs = table_in(include_str!("mod.rs"), "//! ");
        assert_eq!(docs, mapping_rows(), "re-render the table in v0_3/mod.rs");
    }

    #[test]
    fn every_row_names_both_sides() {
        for m in MAPPING {
            assert!(!m.v1_0.is_empty() && !m.v0_3.is_empty(), "{m:?}");
            assert!(m.v1_0 != "-" || m.v0_3 != "-", "{m:?}");
        }
    }
}
