//! 0.3 `Message`, `Part` (`TextPart`, `FilePart`, `DataPart`) and
//! `Artifact` (0.3 spec 6.4-6.7).

use serde::{Deserialize, Serialize};

use crate::message::{Artifact, Message, Part, PartContent, Role};
use crate::protojson::{self, message_impls, Struct};
use crate::v0_3::{codec, via, Refusal};

/// The 0.3 spelling of a role; `ROLE_UNSPECIFIED` has none.
pub(crate) fn role_name(role: Role) -> Result<&'static str, Refusal> {
    match role {
        Role::User => Ok("user"),
        Role::Agent => Ok("agent"),
        Role::Unspecified => Err("a message without a role has no 0.3 form".to_owned()),
    }
}

/// `role` in its 0.3 spelling.
pub(crate) mod role {
    use serde::{de, ser, Deserialize, Deserializer, Serializer};

    use crate::message::Role;

    pub(crate) fn serialize<S: Serializer>(r: &Role, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(super::role_name(*r).map_err(<S::Error as ser::Error>::custom)?)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Role, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(name) => super::role_from(&name).map_err(<D::Error as de::Error>::custom),
            None => Ok(Role::Unspecified),
        }
    }
}

fn role_from(name: &str) -> Result<Role, Refusal> {
    match name {
        "user" => Ok(Role::User),
        "agent" => Ok(Role::Agent),
        other => Err(format!(
            "unknown 0.3 role {other:?}, expected \"user\" or \"agent\""
        )),
    }
}

/// `kind` must be present and be `expected` (0.3 schema: REQUIRED const).
pub(crate) fn check_kind(kind: &Option<String>, expected: &str) -> Result<(), Refusal> {
    match kind.as_deref() {
        Some(k) if k == expected => Ok(()),
        Some(other) => Err(format!("`kind` is {other:?}, expected {expected:?}")),
        None => Err(format!("`kind` is missing, expected {expected:?}")),
    }
}

// ---------------------------------------------------------------------------
// Message

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireMessage {
    #[serde(default)]
    pub(crate) kind: Option<String>,
    #[serde(default, deserialize_with = "protojson::string")]
    pub(crate) message_id: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub(crate) context_id: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub(crate) task_id: String,
    #[serde(default, with = "role")]
    pub(crate) role: Role,
    #[serde(default, with = "via::list")]
    pub(crate) parts: Vec<Part>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) metadata: Option<Struct>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub(crate) extensions: Vec<String>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub(crate) reference_task_ids: Vec<String>,
}

impl TryFrom<&Message> for WireMessage {
    type Error = Refusal;

    fn try_from(m: &Message) -> Result<WireMessage, Refusal> {
        Ok(WireMessage {
            kind: Some("message".to_owned()),
            message_id: m.message_id.clone(),
            context_id: m.context_id.clone(),
            task_id: m.task_id.clone(),
            role: m.role,
            parts: m.parts.clone(),
            metadata: m.metadata.clone(),
            extensions: m.extensions.clone(),
            reference_task_ids: m.reference_task_ids.clone(),
        })
    }
}

impl TryFrom<WireMessage> for Message {
    type Error = Refusal;

    fn try_from(w: WireMessage) -> Result<Message, Refusal> {
        check_kind(&w.kind, "message")?;
        Ok(Message {
            message_id: w.message_id,
            context_id: w.context_id,
            task_id: w.task_id,
            // A missing role stays unspecified, which validation reports.
            role: w.role,
            parts: w.parts,
            metadata: w.metadata,
            extensions: w.extensions,
            reference_task_ids: w.reference_task_ids,
        })
    }
}

// ---------------------------------------------------------------------------
// Part

/// The union of `TextPart`, `FilePart` and `DataPart`, read member by
/// member (no internally tagged enum: serde would buffer the whole part,
/// `data` included, through its `Content` type) and judged by `kind`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WirePart {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<WireFile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
}

/// `FileWithBytes` or `FileWithUri`: exactly one of `bytes` and `uri`.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireFile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bytes: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    uri: Option<String>,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    mime_type: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    name: String,
}

/// The member a 1.0 data part that is not a JSON object is wrapped in
/// (0.3's `DataPart.data` is an object).
pub(crate) const DATA_WRAPPER: &str = "value";

impl From<&Part> for WirePart {
    fn from(p: &Part) -> WirePart {
        let mut out = WirePart {
            kind: None,
            text: None,
            file: None,
            data: None,
            metadata: p.metadata.clone(),
        };
        let file = |bytes: Option<String>, uri: Option<String>| WireFile {
            bytes,
            uri,
            mime_type: p.media_type.clone(),
            name: p.filename.clone(),
        };
        match &p.content {
            PartContent::Text(t) => {
                out.kind = Some("text".to_owned());
                out.text = Some(t.clone());
            }
            PartContent::Raw(b) => {
                out.kind = Some("file".to_owned());
                let encoded = base64::Engine::encode(&base64::engine::general_purpose::STANDARD, b);
                out.file = Some(file(Some(encoded), None));
            }
            PartContent::Url(u) => {
                out.kind = Some("file".to_owned());
                out.file = Some(file(None, Some(u.clone())));
            }
            PartContent::Data(v) => {
                out.kind = Some("data".to_owned());
                out.data = Some(match v {
                    serde_json::Value::Object(_) => v.clone(),
                    other => {
                        let mut wrapped = Struct::new();
                        wrapped.insert(DATA_WRAPPER.to_owned(), other.clone());
                        serde_json::Value::Object(wrapped)
                    }
                });
            }
        }
        out
    }
}

impl TryFrom<WirePart> for Part {
    type Error = Refusal;

    fn try_from(w: WirePart) -> Result<Part, Refusal> {
        let mut part = match w.kind.as_deref() {
            Some("text") => Part::text(w.text.ok_or("a text part needs `text`")?),
            Some("file") => {
                let file = w.file.ok_or("a file part needs `file`")?;
                let part = match (file.bytes, file.uri) {
                    (Some(b), None) => Part::raw(protojson::decode_base64(&b)?),
                    (None, Some(u)) => Part::url(u),
                    _ => return Err("a 0.3 file needs exactly one of `bytes` and `uri`".to_owned()),
                };
                part.with_media_type(file.mime_type)
                    .with_filename(file.name)
            }
            Some("data") => match w.data {
                Some(v @ serde_json::Value::Object(_)) => Part::data(v),
                Some(_) => return Err("a 0.3 data part's `data` must be an object".to_owned()),
                None => return Err("a data part needs `data`".to_owned()),
            },
            Some(other) => {
                return Err(format!(
                    "unknown part `kind` {other:?}, expected \"text\", \"file\" or \"data\""
                ))
            }
            None => {
                return Err("a 0.3 part needs `kind` (\"text\", \"file\" or \"data\")".to_owned())
            }
        };
        part.metadata = w.metadata;
        Ok(part)
    }
}

// ---------------------------------------------------------------------------
// Artifact

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub(crate) struct WireArtifact {
    #[serde(default, deserialize_with = "protojson::string")]
    artifact_id: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    name: String,
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    description: String,
    #[serde(default, with = "via::list")]
    parts: Vec<Part>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    metadata: Option<Struct>,
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    extensions: Vec<String>,
}

impl TryFrom<&Artifact> for WireArtifact {
    type Error = Refusal;

    fn try_from(a: &Artifact) -> Result<WireArtifact, Refusal> {
        Ok(WireArtifact {
            artifact_id: a.artifact_id.clone(),
            name: a.name.clone(),
            description: a.description.clone(),
            parts: a.parts.clone(),
            metadata: a.metadata.clone(),
            extensions: a.extensions.clone(),
        })
    }
}

impl TryFrom<WireArtifact> for Artifact {
    type Error = Refusal;

    fn try_from(w: WireArtifact) -> Result<Artifact, Refusal> {
        Ok(Artifact {
            artifact_id: w.artifact_id,
            name: w.name,
            description: w.description,
            parts: w.parts,
            metadata: w.metadata,
            extensions: w.extensions,
            ..Default::default()
        })
    }
}

message_impls!(WireMessage, WirePart, WireFile, WireArtifact);

codec!(
    Message => WireMessage,
    Part => WirePart,
    Artifact => WireArtifact,
);
