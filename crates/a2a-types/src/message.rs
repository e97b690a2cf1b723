//! `Message`, `Role`, `Part` and `Artifact` (spec 4.1.4-4.1.7).

use std::fmt;

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::protojson::{self, message_impls, proto_enum, Base64Bytes, Struct};

proto_enum! {
    /// Who sent a message (spec 4.1.5).
    ///
    /// On the wire the value is its proto name (`ROLE_USER`); input also
    /// accepts the number. Unknown names and numbers are decode errors.
    pub enum Role ("Role") {
        /// Not set; a message needs a role, so validation reports it.
        #[default]
        Unspecified = 0 => "ROLE_UNSPECIFIED",
        /// From the client to the server.
        User = 1 => "ROLE_USER",
        /// From the server to the client.
        Agent = 2 => "ROLE_AGENT",
    }
}

/// One unit of communication between client and agent (spec 4.1.4, 3.7).
///
/// `messageId`, `role` and at least one part are REQUIRED.
///
/// ```
/// use a2a_types::{Message, Role};
///
/// let m = Message::user_text("msg-1", "What is the weather today?");
/// assert_eq!(m.role, Role::User);
/// assert_eq!(m.text_content().as_deref(), Some("What is the weather today?"));
/// ```
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct Message {
    /// Unique identifier, created by the message's sender. REQUIRED.
    #[serde(default, alias = "message_id", deserialize_with = "protojson::string")]
    pub message_id: String,
    /// The context the message belongs to (spec 3.4.1).
    #[serde(
        default,
        alias = "context_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub context_id: String,
    /// The task the message belongs to (spec 3.4.2).
    #[serde(
        default,
        alias = "task_id",
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub task_id: String,
    /// The sender. REQUIRED (`ROLE_UNSPECIFIED` counts as missing).
    #[serde(default)]
    pub role: Role,
    /// The content. REQUIRED, at least one part.
    #[serde(default, deserialize_with = "protojson::repeated")]
    pub parts: Vec<Part>,
    /// Custom metadata (spec 3.2.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// URIs of the extensions present in or contributing to this message
    /// (spec 4.6).
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
    /// Tasks this message refers to for context (spec 3.4.3).
    #[serde(
        default,
        alias = "reference_task_ids",
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub reference_task_ids: Vec<String>,
}

impl Message {
    /// A message from `role` with these parts.
    pub fn new(role: Role, message_id: impl Into<String>, parts: Vec<Part>) -> Message {
        Message {
            message_id: message_id.into(),
            role,
            parts,
            ..Message::default()
        }
    }

    /// A user message holding one text part: the common way to start a task.
    pub fn user_text(message_id: impl Into<String>, text: impl Into<String>) -> Message {
        Message::new(Role::User, message_id, vec![Part::text(text)])
    }

    /// A user message holding one text part, with a fresh id from
    /// [`new_message_id`]: [`Message::user_text`] for a client that has no
    /// ids of its own.
    ///
    /// ```
    /// let a = a2a_types::Message::user("hello");
    /// let b = a2a_types::Message::user("hello");
    /// assert_ne!(a.message_id, b.message_id);
    /// assert_eq!(a.text_content().as_deref(), Some("hello"));
    /// ```
    pub fn user(text: impl Into<String>) -> Message {
        Message::user_text(new_message_id(), text)
    }

    /// An agent message holding one text part.
    pub fn agent_text(message_id: impl Into<String>, text: impl Into<String>) -> Message {
        Message::new(Role::Agent, message_id, vec![Part::text(text)])
    }

    /// The same message bound to a task (and, when not empty, a context).
    pub fn for_task(
        mut self,
        task_id: impl Into<String>,
        context_id: impl Into<String>,
    ) -> Message {
        self.task_id = task_id.into();
        self.context_id = context_id.into();
        self
    }

    /// The text of all text parts, concatenated; `None` when there is none.
    /// The one name for reading text, shared with
    /// [`Artifact::text_content`] and [`Part::text_content`].
    pub fn text_content(&self) -> Option<String> {
        concat_text(&self.parts)
    }

    /// The older name of [`Message::text_content`], which reads the same
    /// on messages, artifacts and parts; prefer that one.
    #[deprecated(
        since = "0.1.0",
        note = "use `Message::text_content`, the name `Artifact` and `Part` share"
    )]
    pub fn text(&self) -> Option<String> {
        self.text_content()
    }
}

/// A fresh message id (spec 3.4: the client creates `messageId`): a
/// random-looking UUID in the version 4 layout,
/// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`.
///
/// The bits are the process's randomly keyed SipHash
/// ([`std::collections::hash_map::RandomState`]) of a counter, so ids are
/// distinct within a process and across processes without a clock or a
/// random-number crate. They are unique, not secret. On a platform without
/// a randomness source for `RandomState` (`wasm32-unknown-unknown`) they
/// are distinct within the process only.
///
/// ```
/// let id = a2a_types::new_message_id();
/// assert_eq!(id.len(), 36);
/// assert_eq!(&id[14..15], "4");
/// assert_ne!(id, a2a_types::new_message_id());
/// ```
pub fn new_message_id() -> String {
    use std::collections::hash_map::RandomState;
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;

    static KEYS: OnceLock<RandomState> = OnceLock::new();
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let keys = KEYS.get_or_init(RandomState::new);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut b = [0u8; 16];
    b[..8].copy_from_slice(&keys.hash_one((n, 0u8)).to_be_bytes());
    b[8..].copy_from_slice(&keys.hash_one((n, 1u8)).to_be_bytes());
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn concat_text(parts: &[Part]) -> Option<String> {
    let mut texts = parts.iter().filter_map(Part::text_content).peekable();
    texts.peek()?;
    Some(texts.collect())
}

/// A piece of content in a message or artifact (spec 4.1.6): text, file
/// bytes, a file URL or structured data, with optional metadata, file name
/// and media type.
///
/// The proto's `content` oneof is [`PartContent`], so a part always holds
/// exactly one kind of content; on input, zero or several of `text`,
/// `raw`, `url` and `data` is a decode error naming the part's path.
///
/// ```
/// use a2a_types::{Part, PartContent};
///
/// let p = Part::raw(vec![0x89, b'P', b'N', b'G']).with_media_type("image/png");
/// let json = serde_json::to_string(&p).unwrap();
/// assert_eq!(json, r#"{"raw":"iVBORw==","mediaType":"image/png"}"#);
/// let err = a2a_types::from_str::<Part>(r#"{"text":"a","url":"b"}"#).unwrap_err();
/// assert!(err.to_string().contains("exactly one of"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Part {
    /// What the part holds.
    pub content: PartContent,
    /// Metadata of the part.
    pub metadata: Option<Struct>,
    /// A file name, e.g. `"document.pdf"`.
    pub filename: String,
    /// The media (MIME) type of the content, e.g. `"image/png"`; meaningful
    /// for every kind of content.
    pub media_type: String,
}

/// The `content` oneof of [`Part`].
#[derive(Debug, Clone, PartialEq)]
pub enum PartContent {
    /// Text (`text`).
    Text(String),
    /// File bytes (`raw`), base64 on the wire.
    Raw(Vec<u8>),
    /// A URL pointing at file content (`url`).
    Url(String),
    /// Any JSON value (`data`): object, array, string, number, boolean or
    /// null. Numbers keep the precision `serde_json` gives them.
    Data(serde_json::Value),
}

impl PartContent {
    /// The JSON name of the oneof member.
    pub const fn field_name(&self) -> &'static str {
        match self {
            PartContent::Text(_) => "text",
            PartContent::Raw(_) => "raw",
            PartContent::Url(_) => "url",
            PartContent::Data(_) => "data",
        }
    }
}

impl Part {
    /// A part holding `content`, without metadata, file name or media type.
    pub fn new(content: PartContent) -> Part {
        Part {
            content,
            metadata: None,
            filename: String::new(),
            media_type: String::new(),
        }
    }

    /// A text part.
    pub fn text(text: impl Into<String>) -> Part {
        Part::new(PartContent::Text(text.into()))
    }

    /// A file part carrying its bytes.
    pub fn raw(bytes: impl Into<Vec<u8>>) -> Part {
        Part::new(PartContent::Raw(bytes.into()))
    }

    /// A file part pointing at a URL.
    pub fn url(url: impl Into<String>) -> Part {
        Part::new(PartContent::Url(url.into()))
    }

    /// A structured-data part.
    pub fn data(value: serde_json::Value) -> Part {
        Part::new(PartContent::Data(value))
    }

    /// The same part with a file name.
    pub fn with_filename(mut self, filename: impl Into<String>) -> Part {
        self.filename = filename.into();
        self
    }

    /// The same part with a media type.
    pub fn with_media_type(mut self, media_type: impl Into<String>) -> Part {
        self.media_type = media_type.into();
        self
    }

    /// The same part with metadata.
    pub fn with_metadata(mut self, metadata: Struct) -> Part {
        self.metadata = Some(metadata);
        self
    }

    /// The text, when this is a text part: the one name for reading text,
    /// shared with [`Message::text_content`] and [`Artifact::text_content`].
    pub fn text_content(&self) -> Option<&str> {
        match &self.content {
            PartContent::Text(t) => Some(t),
            _ => None,
        }
    }

    /// The text, when this is a text part.
    #[deprecated(
        since = "0.1.0",
        note = "use `Part::text_content`, the name `Message` and `Artifact` share"
    )]
    pub fn as_text(&self) -> Option<&str> {
        self.text_content()
    }
}

impl From<PartContent> for Part {
    fn from(content: PartContent) -> Part {
        Part::new(content)
    }
}

impl From<String> for Part {
    fn from(text: String) -> Part {
        Part::text(text)
    }
}

impl From<&str> for Part {
    fn from(text: &str) -> Part {
        Part::text(text)
    }
}

impl From<serde_json::Value> for Part {
    fn from(value: serde_json::Value) -> Part {
        Part::data(value)
    }
}

impl Serialize for Part {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        struct Raw<'a>(&'a [u8]);
        impl Serialize for Raw<'_> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                protojson::serialize_bytes(self.0, s)
            }
        }

        let len = 1
            + usize::from(self.metadata.is_some())
            + usize::from(!self.filename.is_empty())
            + usize::from(!self.media_type.is_empty());
        let mut map = s.serialize_map(Some(len))?;
        match &self.content {
            PartContent::Text(t) => map.serialize_entry("text", t)?,
            PartContent::Raw(b) => map.serialize_entry("raw", &Raw(b))?,
            PartContent::Url(u) => map.serialize_entry("url", u)?,
            PartContent::Data(v) => map.serialize_entry("data", v)?,
        }
        if let Some(metadata) = &self.metadata {
            map.serialize_entry("metadata", metadata)?;
        }
        if !self.filename.is_empty() {
            map.serialize_entry("filename", &self.filename)?;
        }
        if !self.media_type.is_empty() {
            map.serialize_entry("mediaType", &self.media_type)?;
        }
        map.end()
    }
}

/// Keys of a `Part` object.
enum PartField {
    Text,
    Raw,
    Url,
    Data,
    Metadata,
    Filename,
    MediaType,
    Other,
}

impl<'de> Deserialize<'de> for PartField {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PartField, D::Error> {
        struct FieldVisitor;

        impl Visitor<'_> for FieldVisitor {
            type Value = PartField;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<PartField, E> {
                self.visit_bytes(v.as_bytes())
            }

            fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<PartField, E> {
                Ok(match v {
                    b"text" => PartField::Text,
                    b"raw" => PartField::Raw,
                    b"url" => PartField::Url,
                    b"data" => PartField::Data,
                    b"metadata" => PartField::Metadata,
                    b"filename" => PartField::Filename,
                    b"mediaType" | b"media_type" => PartField::MediaType,
                    _ => PartField::Other,
                })
            }
        }

        protojson::identifier(d, FieldVisitor)
    }
}

const PART_ONEOF: &str = "a Part must have exactly one of `text`, `raw`, `url` or `data`";

impl<'de> Deserialize<'de> for Part {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Part, D::Error> {
        struct PartVisitor;

        impl<'de> Visitor<'de> for PartVisitor {
            type Value = Part;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a Part object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Part, A::Error> {
                let mut content: Option<PartContent> = None;
                let mut metadata: Option<Option<Struct>> = None;
                let mut filename: Option<String> = None;
                let mut media_type: Option<String> = None;

                fn set<E: de::Error>(
                    slot: &mut Option<PartContent>,
                    value: PartContent,
                ) -> Result<(), E> {
                    if let Some(first) = slot {
                        return Err(E::custom(protojson::several_members(
                            PART_ONEOF,
                            first.field_name(),
                            value.field_name(),
                        )));
                    }
                    *slot = Some(value);
                    Ok(())
                }

                fn once<T, E: de::Error>(slot: &Option<T>, name: &'static str) -> Result<(), E> {
                    if slot.is_some() {
                        Err(E::duplicate_field(name))
                    } else {
                        Ok(())
                    }
                }

                while let Some(key) = map.next_key::<PartField>()? {
                    match key {
                        PartField::Text => {
                            if let Some(t) = map.next_value::<Option<String>>()? {
                                set(&mut content, PartContent::Text(t))?;
                            }
                        }
                        PartField::Raw => {
                            if let Some(b) = map.next_value::<Option<Base64Bytes>>()? {
                                set(&mut content, PartContent::Raw(b.0))?;
                            }
                        }
                        PartField::Url => {
                            if let Some(u) = map.next_value::<Option<String>>()? {
                                set(&mut content, PartContent::Url(u))?;
                            }
                        }
                        PartField::Data => {
                            // `google.protobuf.Value`: JSON null is a value
                            // (NullValue), not an absent field, exactly as
                            // protobuf's own parsers read it.
                            let v = map.next_value::<serde_json::Value>()?;
                            set(&mut content, PartContent::Data(v))?;
                        }
                        PartField::Metadata => {
                            once(&metadata, "metadata")?;
                            metadata = Some(map.next_value::<Option<Struct>>()?);
                        }
                        PartField::Filename => {
                            once(&filename, "filename")?;
                            filename =
                                Some(map.next_value::<Option<String>>()?.unwrap_or_default());
                        }
                        PartField::MediaType => {
                            once(&media_type, "mediaType")?;
                            media_type =
                                Some(map.next_value::<Option<String>>()?.unwrap_or_default());
                        }
                        PartField::Other => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let content =
                    content.ok_or_else(|| de::Error::custom(protojson::no_member(PART_ONEOF)))?;
                Ok(Part {
                    content,
                    metadata: metadata.flatten(),
                    filename: filename.unwrap_or_default(),
                    media_type: media_type.unwrap_or_default(),
                })
            }
        }

        d.deserialize_map(PartVisitor)
    }
}

/// An output of a task (spec 4.1.7, 3.7).
///
/// `artifactId` and at least one part are REQUIRED.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", remote = "Self")]
pub struct Artifact {
    /// Identifier, unique within the task. REQUIRED.
    #[serde(default, alias = "artifact_id", deserialize_with = "protojson::string")]
    pub artifact_id: String,
    /// A human-readable name.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub name: String,
    /// A human-readable description.
    #[serde(
        default,
        deserialize_with = "protojson::string",
        skip_serializing_if = "String::is_empty"
    )]
    pub description: String,
    /// The content. REQUIRED, at least one part.
    #[serde(default, deserialize_with = "protojson::repeated")]
    pub parts: Vec<Part>,
    /// Custom metadata.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<Struct>,
    /// URIs of the extensions present in or contributing to this artifact.
    #[serde(
        default,
        deserialize_with = "protojson::repeated",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub extensions: Vec<String>,
    /// 1.1 draft: the task generation at which the artifact first appeared
    /// (draft spec 3.2.8).
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "start_generation",
        deserialize_with = "protojson::int64",
        serialize_with = "protojson::serialize_int64",
        skip_serializing_if = "protojson::is_zero_i64"
    )]
    pub start_generation: i64,
    /// 1.1 draft: the task generation at which the artifact completed; 0
    /// while it is still streaming (draft spec 3.2.8).
    #[cfg(feature = "draft-1-1")]
    #[serde(
        default,
        alias = "end_generation",
        deserialize_with = "protojson::int64",
        serialize_with = "protojson::serialize_int64",
        skip_serializing_if = "protojson::is_zero_i64"
    )]
    pub end_generation: i64,
}

impl Artifact {
    /// An artifact with an id and its parts.
    pub fn new(artifact_id: impl Into<String>, parts: Vec<Part>) -> Artifact {
        Artifact {
            artifact_id: artifact_id.into(),
            parts,
            ..Artifact::default()
        }
    }

    /// An artifact holding one text part.
    pub fn text(artifact_id: impl Into<String>, text: impl Into<String>) -> Artifact {
        Artifact::new(artifact_id, vec![Part::text(text)])
    }

    /// The same artifact with a name.
    pub fn with_name(mut self, name: impl Into<String>) -> Artifact {
        self.name = name.into();
        self
    }

    /// The text of all text parts, concatenated; `None` when there is none.
    pub fn text_content(&self) -> Option<String> {
        concat_text(&self.parts)
    }
}

message_impls!(Message, Artifact);

#[cfg(test)]
mod tests {
    use super::*;

    /// The deprecated names read what `text_content` reads, on every kind
    /// of content (several text parts, none, other parts between).
    #[test]
    #[allow(deprecated)]
    fn the_older_names_read_the_same_as_text_content() {
        let messages = [
            Message::user_text("m1", "hello"),
            Message::new(
                Role::User,
                "m2",
                vec![Part::text("a"), Part::raw(vec![1]), Part::text("b")],
            ),
            Message::new(Role::Agent, "m3", vec![Part::url("https://x/f")]),
            Message::new(Role::Agent, "m4", Vec::new()),
        ];
        for m in &messages {
            assert_eq!(m.text(), m.text_content(), "{m:?}");
            for part in &m.parts {
                assert_eq!(part.as_text(), part.text_content(), "{part:?}");
            }
        }
        assert_eq!(messages[1].text().as_deref(), Some("ab"));
        assert_eq!(messages[2].text(), None);
    }
}
