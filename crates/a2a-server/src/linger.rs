//! How long a refused request body is still read: a server that answers
//! 413 and closes the connection while an HTTP/1.1 client is still
//! writing the body makes that client's write fail (`EPIPE`, a reset), and
//! many clients then report "Broken pipe" and never read the 413. So,
//! like HTTP servers' "lingering close", the body is read on and thrown
//! away, within bounds, before the 413 is answered with
//! `Connection: close`: the client's write completes and it reads the
//! answer. `TowerService` does this under
//! [`ServerConfig::linger`](crate::ServerConfig::linger).

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use a2a_wire::Timer;

/// The bounds within which a request body refused with 413 is read and
/// discarded before the answer (see the module documentation): at most
/// [`max_bytes`](Linger::max_bytes) bytes are discarded, and, when
/// the host gives a clock, at most [`max_time`](Linger::max_time). Which
/// of them is reached first ends the reading; the 413 then goes out and
/// the connection closes with the rest unread. None of the bytes is held.
///
/// A declared `Content-Length` over the server's limit is read only when
/// it is within `max_bytes`, and never when the request waits for
/// `100 Continue` (reading would invite the body; the client then sends
/// nothing, and needs no lingering). HTTP/2 needs none either: its streams
/// end a request early without closing the connection.
///
/// ```
/// use std::time::Duration;
/// use a2a_server::{Linger, BoxFuture};
///
/// assert_eq!(Linger::new().max_bytes(), 64 << 20);
/// assert_eq!(Linger::new().max_time(), None, "the core reads no clock");
/// // With tokio: |d| Box::pin(tokio::time::sleep(d)) as BoxFuture<'static, ()>
/// let timer = |_: Duration| -> BoxFuture<'static, ()> { Box::pin(async {}) };
/// let linger = Linger::new().with_max_time(Linger::DEFAULT_MAX_TIME, timer);
/// assert_eq!(linger.max_time(), Some(Duration::from_secs(2)));
/// assert_eq!(Linger::off().max_bytes(), 0);
/// ```
#[derive(Clone)]
pub struct Linger {
    max_bytes: u64,
    time: Option<(Duration, Arc<dyn Timer>)>,
}

impl Linger {
    /// Default [`max_bytes`](Linger::max_bytes): 64 MiB, four times the
    /// default body limit; on a fast link well under a second of reading.
    pub const DEFAULT_MAX_BYTES: u64 = 64 << 20;

    /// The time bound `a2a_hyper::server_config()` sets: 2 s, long enough
    /// for a client to finish writing what its socket buffers hold.
    pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(2);

    /// At most [`DEFAULT_MAX_BYTES`](Linger::DEFAULT_MAX_BYTES), with no
    /// time bound (that needs the host's clock:
    /// [`with_max_time`](Linger::with_max_time)).
    pub fn new() -> Linger {
        Linger {
            max_bytes: Linger::DEFAULT_MAX_BYTES,
            time: None,
        }
    }

    /// No lingering: the 413 is answered at once and the connection
    /// closed with the body unread (a client still writing may see a
    /// reset instead of the answer).
    pub fn off() -> Linger {
        Linger {
            max_bytes: 0,
            time: None,
        }
    }

    /// Reads and discards at most `max` bytes: those past the limit of a
    /// body that grew over it, or the whole of a declared one.
    pub fn with_max_bytes(mut self, max: u64) -> Linger {
        self.max_bytes = max;
        self
    }

    /// Reads for at most `max_time` too, timed by the host's `timer`.
    pub fn with_max_time(mut self, max_time: Duration, timer: impl Timer + 'static) -> Linger {
        self.time = Some((max_time, Arc::new(timer)));
        self
    }

    /// The most bytes read and discarded.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// The longest time spent reading, when a timer was given.
    pub fn max_time(&self) -> Option<Duration> {
        self.time.as_ref().map(|(d, _)| *d)
    }

    /// The timer and its bound.
    #[cfg_attr(not(feature = "tower-service"), allow(dead_code))]
    pub(crate) fn timer(&self) -> Option<(Duration, &dyn Timer)> {
        self.time.as_ref().map(|(d, t)| (*d, &**t))
    }
}

impl Default for Linger {
    fn default() -> Linger {
        Linger::new()
    }
}

impl fmt::Debug for Linger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Linger")
            .field("max_bytes", &self.max_bytes)
            .field("max_time", &self.max_time())
            .finish()
    }
}
