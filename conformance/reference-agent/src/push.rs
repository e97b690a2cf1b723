//! Push notification delivery: the agent kit's (`a2a_agent`), re-exported
//! where users of this crate have always found it. The HTTP exchange is
//! [`HttpPushSender`](crate::HttpPushSender).

pub use a2a_agent::{
    is_retryable, push_request, DeliveryOutcome, PushError, PushObserver, PushSender,
    RecordingPushSender, A2A_JSON, NOTIFICATION_TOKEN_HEADER,
};
