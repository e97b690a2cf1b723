//! A client's reading of a JSON-RPC response into the [`Reply`] of the
//! operation it answers (spec 9.4), at 1.0 and at 0.3: one decoder per
//! method, generated from the operation table over
//! [`decode_response`](crate::decode_response) and the method markers.

use a2a_types::v0_3::V03;
use a2a_types::{Operation, Reply};
use serde::Deserialize;

use crate::method::{methods, Method};

/// A JSON-RPC 2.0 response with the `expected` id and neither `result`
/// nor `error`.
fn is_bare_success(input: &[u8], expected: &crate::Id) -> bool {
    #[derive(Deserialize)]
    struct Bare {
        jsonrpc: String,
        id: crate::Id,
        result: Option<serde::de::IgnoredAny>,
        error: Option<serde::de::IgnoredAny>,
    }
    matches!(
        a2a_types::from_slice::<Bare>(input),
        Ok(b) if b.jsonrpc == "2.0" && b.id == *expected && b.result.is_none() && b.error.is_none()
    )
}

/// Decodes one unary operation's 0.3 response into its reply.
macro_rules! decode_reply_v0_3_of {
    (unary, $name:ident, $input:ident, $expected:ident) => {
        crate::decode_response_as::<V03<<methods::$name as Method>::Result>>($input, $expected)
            .map(|v| a2a_types::Reply::$name(v.0))
    };
    (stream, $name:ident, $input:ident, $expected:ident) => {
        decode_reply_of!(stream, $name, $input, $expected)
    };
}

/// Decodes one unary operation's response into its reply.
macro_rules! decode_reply_of {
    (unary, $name:ident, $input:ident, $expected:ident) => {
        crate::decode_response::<methods::$name>($input, $expected).map(a2a_types::Reply::$name)
    };
    (stream, $name:ident, $input:ident, $expected:ident) => {{
        let _ = ($input, $expected);
        Err(a2a_types::A2aError::new(
            a2a_types::ErrorKind::InvalidAgentResponse,
            concat!(stringify!($name), " answers a stream of responses, not one"),
        ))
    }};
}

macro_rules! reply_table {
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
        /// Decodes the response to a request of the unary operation `op`
        /// with id `expected` into its [`Reply`](a2a_types::Reply), as
        /// [`decode_response`](crate::decode_response) does for one method.
        ///
        /// # Errors
        ///
        /// The agent's error, or `InvalidAgentResponseError` for a body
        /// that is not a response to the request; the same for a
        /// streaming `op`, whose events are not one response.
        pub fn decode_reply(op: Operation, input: &[u8], expected: &crate::Id) -> Result<Reply, a2a_types::A2aError> {
            match op {
                $( Operation::$name => decode_reply_of!($answer, $name, input, expected), )*
            }
        }

        /// [`decode_reply`] for a 0.3 response (0.3 spec 7): the `result`
        /// read with the 0.3 codecs ([`a2a_types::v0_3`]). `ListTasks` has
        /// no 0.3 result: any result is `InvalidAgentResponseError`.
        ///
        /// # Errors
        ///
        /// As [`decode_reply`].
        ///
        /// The 0.3 `tasks/pushNotificationConfig/delete` result is `null`,
        /// which the Python 0.3 SDK leaves out (`{"jsonrpc":"2.0","id":7}`):
        /// for that method alone, a response with the expected id and
        /// neither member reads as that `null`.
        pub fn decode_reply_v0_3(op: Operation, input: &[u8], expected: &crate::Id) -> Result<Reply, a2a_types::A2aError> {
            let decoded = match op {
                $( Operation::$name => decode_reply_v0_3_of!($answer, $name, input, expected), )*
            };
            match decoded {
                Err(e) if op == Operation::DeleteTaskPushNotificationConfig
                    && e.kind() == a2a_types::ErrorKind::InvalidAgentResponse
                    && is_bare_success(input, expected) =>
                {
                    Ok(a2a_types::Reply::DeleteTaskPushNotificationConfig(a2a_types::Empty))
                }
                other => other,
            }
        }

        /// Test support: a generated result of `op`'s result type, encoded
        /// as JSON.
        #[cfg(feature = "testing")]
        #[doc(hidden)]
        pub fn generate_result_json(op: Operation, g: &mut a2a_types::testing::Gen, id: &crate::Id) -> Vec<u8> {
            match op {
                $( Operation::$name => crate::encode_result(id, &<$item as a2a_types::testing::Generate>::generate(g)), )*
            }
        }

    };
}

a2a_types::operation_table!(reply_table);
