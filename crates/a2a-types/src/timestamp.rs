//! `google.protobuf.Timestamp`: seconds and nanoseconds since the Unix
//! epoch, written as RFC 3339 text (spec 5.6.1).

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::calendar::{civil_from_days, days_from_civil};

/// Seconds of `0001-01-01T00:00:00Z`, the earliest instant protobuf allows.
const MIN_SECONDS: i64 = -62_135_596_800;
/// Seconds of `9999-12-31T23:59:59Z`, the latest whole second protobuf allows.
const MAX_SECONDS: i64 = 253_402_300_799;
const NANOS_PER_SECOND: i32 = 1_000_000_000;
const NANOS_PER_MILLI: i32 = 1_000_000;

/// A point in time, as `google.protobuf.Timestamp` has it: whole seconds
/// since the Unix epoch plus a non-negative count of nanoseconds.
///
/// The range is the protobuf one, `0001-01-01T00:00:00Z` to
/// `9999-12-31T23:59:59.999999999Z`; the fields are private so a value
/// outside it (or with `nanos` outside `0..1_000_000_000`) cannot exist.
///
/// On the wire (spec 5.6.1) a timestamp is an RFC 3339 string in UTC.
/// Output always has the form `YYYY-MM-DDTHH:MM:SS.sssZ`: millisecond
/// precision, as the spec asks, so sub-millisecond nanoseconds are
/// truncated (toward the past) when a timestamp is written. Input accepts
/// any RFC 3339 offset (normalized to UTC), 0 to 9 fractional digits and
/// a lowercase `t`/`z`.
///
/// ```
/// use a2a_types::Timestamp;
///
/// let t: Timestamp = "2024-03-15T12:05:00.250+02:00".parse().unwrap();
/// assert_eq!(t.to_string(), "2024-03-15T10:05:00.250Z");
/// assert_eq!(t.unix_millis(), 1_710_497_100_250);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Timestamp {
    seconds: i64,
    nanos: i32,
}

/// Why a timestamp could not be built or parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TimestampError {
    /// The text does not follow RFC 3339 `date-time` syntax.
    #[error("invalid RFC 3339 timestamp: expected {expected} at byte {position}")]
    Syntax {
        /// Byte offset in the text where the problem was found.
        position: usize,
        /// What the parser expected there.
        expected: &'static str,
    },
    /// A date or time component is outside its range (month 13, day 31 of
    /// April, hour 24, second 60, ...).
    #[error("invalid RFC 3339 timestamp: {component} {value} is out of range")]
    Component {
        /// The component: `month`, `day`, `hour`, `minute`, `second`,
        /// `offset hour` or `offset minute`.
        component: &'static str,
        /// The value found.
        value: u32,
    },
    /// More than nine fractional digits (protobuf keeps nanoseconds).
    #[error("invalid RFC 3339 timestamp: more than 9 fractional digits")]
    TooPrecise,
    /// The instant (after normalizing to UTC) is outside
    /// `0001-01-01T00:00:00Z..=9999-12-31T23:59:59.999999999Z`.
    #[error("timestamp is outside 0001-01-01T00:00:00Z..=9999-12-31T23:59:59.999999999Z")]
    OutOfRange,
    /// `nanos` is not in `0..1_000_000_000`.
    #[error("nanos {0} is outside 0..1000000000")]
    InvalidNanos(i32),
}

impl Timestamp {
    /// The Unix epoch, `1970-01-01T00:00:00Z` (also the `Default`).
    pub const UNIX_EPOCH: Timestamp = Timestamp {
        seconds: 0,
        nanos: 0,
    };
    /// The earliest representable instant, `0001-01-01T00:00:00Z`.
    pub const MIN: Timestamp = Timestamp {
        seconds: MIN_SECONDS,
        nanos: 0,
    };
    /// The latest representable instant, `9999-12-31T23:59:59.999999999Z`.
    pub const MAX: Timestamp = Timestamp {
        seconds: MAX_SECONDS,
        nanos: NANOS_PER_SECOND - 1,
    };

    /// Builds a timestamp from seconds since the epoch and nanoseconds
    /// (`0..1_000_000_000`), checking both against the protobuf range.
    pub const fn new(seconds: i64, nanos: i32) -> Result<Timestamp, TimestampError> {
        if nanos < 0 || nanos >= NANOS_PER_SECOND {
            return Err(TimestampError::InvalidNanos(nanos));
        }
        if seconds < MIN_SECONDS || seconds > MAX_SECONDS {
            return Err(TimestampError::OutOfRange);
        }
        Ok(Timestamp { seconds, nanos })
    }

    /// Builds a timestamp from milliseconds since the epoch.
    pub const fn from_unix_millis(millis: i64) -> Result<Timestamp, TimestampError> {
        let seconds = millis.div_euclid(1000);
        // rem_euclid(1000) is in 0..1000, so the product fits an i32.
        let nanos = millis.rem_euclid(1000) as i32 * NANOS_PER_MILLI;
        Timestamp::new(seconds, nanos)
    }

    /// Whole seconds since the Unix epoch (negative before 1970).
    pub const fn seconds(self) -> i64 {
        self.seconds
    }

    /// Nanoseconds past [`seconds`](Self::seconds), in `0..1_000_000_000`.
    pub const fn nanos(self) -> i32 {
        self.nanos
    }

    /// Milliseconds since the Unix epoch, sub-millisecond part truncated
    /// toward the past.
    pub const fn unix_millis(self) -> i64 {
        self.seconds * 1000 + (self.nanos / NANOS_PER_MILLI) as i64
    }

    /// The same instant with the sub-millisecond part dropped: the value a
    /// round trip through the wire gives back.
    pub const fn truncated_to_millis(self) -> Timestamp {
        Timestamp {
            seconds: self.seconds,
            nanos: self.nanos - self.nanos % NANOS_PER_MILLI,
        }
    }

    /// Parses RFC 3339 `date-time` text (see the type docs for what is
    /// accepted).
    pub fn parse(text: &str) -> Result<Timestamp, TimestampError> {
        parse_rfc3339(text.as_bytes())
    }

    /// Writes the wire form, `YYYY-MM-DDTHH:MM:SS.sssZ`, into `buf` and
    /// returns it as text.
    fn format_millis(self, buf: &mut [u8; 24]) -> &str {
        let days = self.seconds.div_euclid(86_400);
        let secs_of_day = self.seconds.rem_euclid(86_400);
        let (year, month, day) = civil_from_days(days);
        let hour = secs_of_day / 3600;
        let minute = secs_of_day / 60 % 60;
        let second = secs_of_day % 60;
        let millis = i64::from(self.nanos / NANOS_PER_MILLI);
        put_digits(&mut buf[0..4], year);
        buf[4] = b'-';
        put_digits(&mut buf[5..7], i64::from(month));
        buf[7] = b'-';
        put_digits(&mut buf[8..10], i64::from(day));
        buf[10] = b'T';
        put_digits(&mut buf[11..13], hour);
        buf[13] = b':';
        put_digits(&mut buf[14..16], minute);
        buf[16] = b':';
        put_digits(&mut buf[17..19], second);
        buf[19] = b'.';
        put_digits(&mut buf[20..23], millis);
        buf[23] = b'Z';
        // Every byte written above is an ASCII digit or punctuation.
        std::str::from_utf8(buf).unwrap_or("0001-01-01T00:00:00.000Z")
    }
}

/// Writes `value` as zero-padded decimal filling `out` (value fits by
/// construction: the year is 1..=9999 and the other parts are small).
#[inline]
fn put_digits(out: &mut [u8], mut value: i64) {
    for slot in out.iter_mut().rev() {
        *slot = b'0' + (value % 10) as u8;
        value /= 10;
    }
}

impl fmt::Display for Timestamp {
    /// The wire form, `YYYY-MM-DDTHH:MM:SS.sssZ` (millisecond precision).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 24];
        f.write_str(self.format_millis(&mut buf))
    }
}

impl FromStr for Timestamp {
    type Err = TimestampError;

    fn from_str(s: &str) -> Result<Timestamp, TimestampError> {
        Timestamp::parse(s)
    }
}

impl TryFrom<SystemTime> for Timestamp {
    type Error = TimestampError;

    /// Converts a system time (for example one the host read from its
    /// clock: this crate never reads the clock itself).
    fn try_from(time: SystemTime) -> Result<Timestamp, TimestampError> {
        match time.duration_since(UNIX_EPOCH) {
            Ok(after) => {
                let seconds =
                    i64::try_from(after.as_secs()).map_err(|_| TimestampError::OutOfRange)?;
                Timestamp::new(seconds, after.subsec_nanos() as i32)
            }
            Err(before) => {
                let before = before.duration();
                let whole =
                    i64::try_from(before.as_secs()).map_err(|_| TimestampError::OutOfRange)?;
                let sub = before.subsec_nanos() as i32;
                if sub == 0 {
                    Timestamp::new(-whole, 0)
                } else {
                    Timestamp::new(-whole - 1, NANOS_PER_SECOND - sub)
                }
            }
        }
    }
}

impl From<Timestamp> for SystemTime {
    fn from(t: Timestamp) -> SystemTime {
        // The protobuf range is far inside what SystemTime holds on every
        // platform Rust supports with std.
        let nanos = Duration::from_nanos(t.nanos as u64);
        if t.seconds >= 0 {
            UNIX_EPOCH + Duration::from_secs(t.seconds as u64) + nanos
        } else {
            UNIX_EPOCH - Duration::from_secs(t.seconds.unsigned_abs()) + nanos
        }
    }
}

impl Serialize for Timestamp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut buf = [0u8; 24];
        serializer.serialize_str(self.format_millis(&mut buf))
    }
}

impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        struct TimestampVisitor;

        impl Visitor<'_> for TimestampVisitor {
            type Value = Timestamp;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an RFC 3339 timestamp string")
            }

            fn visit_str<E: de::Error>(self, v: &str) -> Result<Timestamp, E> {
                Timestamp::parse(v).map_err(E::custom)
            }
        }

        deserializer.deserialize_str(TimestampVisitor)
    }
}

const fn is_leap(year: i64) -> bool {
    year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
}

const fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Reads exactly `n` ASCII digits at `pos`.
fn digits(b: &[u8], pos: usize, n: usize, expected: &'static str) -> Result<u32, TimestampError> {
    let mut value = 0u32;
    for i in pos..pos + n {
        match b.get(i) {
            Some(c) if c.is_ascii_digit() => value = value * 10 + u32::from(c - b'0'),
            _ => {
                return Err(TimestampError::Syntax {
                    position: i,
                    expected,
                })
            }
        }
    }
    Ok(value)
}

fn literal(
    b: &[u8],
    pos: usize,
    allowed: &[u8],
    expected: &'static str,
) -> Result<(), TimestampError> {
    match b.get(pos) {
        Some(c) if allowed.contains(c) => Ok(()),
        _ => Err(TimestampError::Syntax {
            position: pos,
            expected,
        }),
    }
}

fn check(component: &'static str, value: u32, max: u32, min: u32) -> Result<(), TimestampError> {
    if value < min || value > max {
        Err(TimestampError::Component { component, value })
    } else {
        Ok(())
    }
}

/// RFC 3339 `date-time`: `YYYY-MM-DDTHH:MM:SS[.F{1,9}](Z|(+|-)HH:MM)`.
fn parse_rfc3339(b: &[u8]) -> Result<Timestamp, TimestampError> {
    let year = digits(b, 0, 4, "a 4-digit year")?;
    literal(b, 4, b"-", "'-'")?;
    let month = digits(b, 5, 2, "a 2-digit month")?;
    literal(b, 7, b"-", "'-'")?;
    let day = digits(b, 8, 2, "a 2-digit day")?;
    literal(b, 10, b"Tt", "'T'")?;
    let hour = digits(b, 11, 2, "a 2-digit hour")?;
    literal(b, 13, b":", "':'")?;
    let minute = digits(b, 14, 2, "2-digit minutes")?;
    literal(b, 16, b":", "':'")?;
    let second = digits(b, 17, 2, "2-digit seconds")?;
    let mut pos = 19;
    let mut nanos = 0u32;
    if b.get(pos) == Some(&b'.') {
        pos += 1;
        let start = pos;
        while let Some(c) = b.get(pos).filter(|c| c.is_ascii_digit()) {
            if pos - start == 9 {
                return Err(TimestampError::TooPrecise);
            }
            nanos = nanos * 10 + u32::from(c - b'0');
            pos += 1;
        }
        let count = pos - start;
        if count == 0 {
            return Err(TimestampError::Syntax {
                position: pos,
                expected: "a fractional digit",
            });
        }
        nanos *= 10u32.pow(9 - count as u32);
    }
    let offset_seconds: i64 = match b.get(pos) {
        Some(b'Z' | b'z') => {
            pos += 1;
            0
        }
        Some(sign @ (b'+' | b'-')) => {
            let negative = *sign == b'-';
            let oh = digits(b, pos + 1, 2, "a 2-digit offset hour")?;
            literal(b, pos + 3, b":", "':' in the offset")?;
            let om = digits(b, pos + 4, 2, "2-digit offset minutes")?;
            check("offset hour", oh, 23, 0)?;
            check("offset minute", om, 59, 0)?;
            pos += 6;
            let magnitude = i64::from(oh) * 3600 + i64::from(om) * 60;
            if negative {
                -magnitude
            } else {
                magnitude
            }
        }
        _ => {
            return Err(TimestampError::Syntax {
                position: pos,
                expected: "'Z' or a '+HH:MM'/'-HH:MM' offset",
            })
        }
    };
    if pos != b.len() {
        return Err(TimestampError::Syntax {
            position: pos,
            expected: "the end of the timestamp",
        });
    }
    check("month", month, 12, 1)?;
    check("day", day, days_in_month(i64::from(year), month), 1)?;
    check("hour", hour, 23, 0)?;
    check("minute", minute, 59, 0)?;
    check("second", second, 59, 0)?;
    let days = days_from_civil(i64::from(year), month, day);
    let local = days * 86_400 + i64::from(hour) * 3600 + i64::from(minute) * 60 + i64::from(second);
    // nanos < 10^9 by construction (at most nine digits).
    Timestamp::new(local - offset_seconds, nanos as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ts(s: &str) -> Timestamp {
        Timestamp::parse(s).unwrap()
    }

    #[test]
    fn formats_with_milliseconds_and_z() {
        assert_eq!(
            Timestamp::UNIX_EPOCH.to_string(),
            "1970-01-01T00:00:00.000Z"
        );
        assert_eq!(Timestamp::MIN.to_string(), "0001-01-01T00:00:00.000Z");
        assert_eq!(Timestamp::MAX.to_string(), "9999-12-31T23:59:59.999Z");
        let t = Timestamp::new(1_710_497_100, 123_456_789).unwrap();
        assert_eq!(t.to_string(), "2024-03-15T10:05:00.123Z");
        let before = Timestamp::new(-1, 999_000_000).unwrap();
        assert_eq!(before.to_string(), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn parses_offsets_fractions_and_lowercase() {
        assert_eq!(
            ts("2024-03-15T10:05:00Z"),
            Timestamp::new(1_710_497_100, 0).unwrap()
        );
        assert_eq!(ts("2024-03-15t10:05:00z"), ts("2024-03-15T10:05:00Z"));
        assert_eq!(ts("2024-03-15T12:05:00+02:00"), ts("2024-03-15T10:05:00Z"));
        assert_eq!(ts("2024-03-15T04:35:00-05:30"), ts("2024-03-15T10:05:00Z"));
        assert_eq!(ts("2024-03-15T10:05:00.1Z").nanos(), 100_000_000);
        assert_eq!(ts("2024-03-15T10:05:00.680794Z").nanos(), 680_794_000);
        assert_eq!(ts("2024-03-15T10:05:00.000000001Z").nanos(), 1);
        assert_eq!(
            ts("2024-02-29T00:00:00Z").to_string(),
            "2024-02-29T00:00:00.000Z"
        );
        assert_eq!(ts("0001-01-01T00:00:00Z"), Timestamp::MIN);
        assert_eq!(ts("9999-12-31T23:59:59.999999999Z"), Timestamp::MAX);
        // An offset can carry a boundary instant inside the range.
        assert_eq!(ts("0001-01-01T01:00:00+01:00"), Timestamp::MIN);
    }

    #[test]
    fn rejects_with_precise_errors() {
        let err = |s: &str| Timestamp::parse(s).unwrap_err();
        assert_eq!(
            err("2024-03-15 10:05:00Z"),
            TimestampError::Syntax {
                position: 10,
                expected: "'T'"
            }
        );
        assert_eq!(
            err("2024-13-01T00:00:00Z"),
            TimestampError::Component {
                component: "month",
                value: 13
            }
        );
        assert_eq!(
            err("2023-02-29T00:00:00Z"),
            TimestampError::Component {
                component: "day",
                value: 29
            }
        );
        assert_eq!(
            err("2024-01-01T23:59:60Z"),
            TimestampError::Component {
                component: "second",
                value: 60
            }
        );
        assert_eq!(
            err("2024-01-01T00:00:00.1234567891Z"),
            TimestampError::TooPrecise
        );
        assert_eq!(
            err("2024-01-01T00:00:00."),
            TimestampError::Syntax {
                position: 20,
                expected: "a fractional digit"
            }
        );
        assert!(matches!(
            err("2024-01-01T00:00:00"),
            TimestampError::Syntax { position: 19, .. }
        ));
        assert!(matches!(
            err("2024-01-01T00:00:00+0100"),
            TimestampError::Syntax { .. }
        ));
        assert!(matches!(
            err("2024-01-01T00:00:00Zjunk"),
            TimestampError::Syntax { position: 20, .. }
        ));
        assert_eq!(err("0001-01-01T00:00:00+00:01"), TimestampError::OutOfRange);
        assert_eq!(err("9999-12-31T23:59:59-00:01"), TimestampError::OutOfRange);
        assert_eq!(err("0000-12-31T23:59:59Z"), TimestampError::OutOfRange);
        assert!(matches!(
            err(""),
            TimestampError::Syntax { position: 0, .. }
        ));
        assert!(matches!(
            err("２０２４-01-01T00:00:00Z"),
            TimestampError::Syntax { position: 0, .. }
        ));
    }

    #[test]
    fn constructors_check_ranges() {
        assert_eq!(Timestamp::new(0, -1), Err(TimestampError::InvalidNanos(-1)));
        assert_eq!(
            Timestamp::new(0, 1_000_000_000),
            Err(TimestampError::InvalidNanos(1_000_000_000))
        );
        assert_eq!(
            Timestamp::new(MAX_SECONDS + 1, 0),
            Err(TimestampError::OutOfRange)
        );
        assert_eq!(
            Timestamp::new(MIN_SECONDS - 1, 0),
            Err(TimestampError::OutOfRange)
        );
        let t = Timestamp::from_unix_millis(-1).unwrap();
        assert_eq!((t.seconds(), t.nanos()), (-1, 999_000_000));
        assert_eq!(t.unix_millis(), -1);
        assert_eq!(
            Timestamp::new(5, 123_456_789)
                .unwrap()
                .truncated_to_millis()
                .nanos(),
            123_000_000
        );
    }

    #[test]
    fn civil_conversion_round_trips_across_the_whole_range() {
        let mut days = MIN_SECONDS / 86_400;
        while days <= MAX_SECONDS / 86_400 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
            days += 7;
        }
    }

    #[test]
    fn system_time_conversions() {
        let t = Timestamp::new(-2, 250_000_000).unwrap();
        let st = SystemTime::from(t);
        assert_eq!(Timestamp::try_from(st).unwrap(), t);
        let t = Timestamp::new(1_700_000_000, 5).unwrap();
        assert_eq!(Timestamp::try_from(SystemTime::from(t)).unwrap(), t);
    }

    #[test]
    fn serde_uses_the_wire_form() {
        let t = ts("2025-04-17T17:47:09.680794Z");
        assert_eq!(
            serde_json::to_string(&t).unwrap(),
            "\"2025-04-17T17:47:09.680Z\""
        );
        let back: Timestamp = serde_json::from_str("\"2025-04-17T19:47:09.680+02:00\"").unwrap();
        assert_eq!(back, t.truncated_to_millis());
        assert!(serde_json::from_str::<Timestamp>("12").is_err());
    }
}
