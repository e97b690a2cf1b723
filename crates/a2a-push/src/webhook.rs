//! Webhook address safety: refusing push notification URLs that point
//! into the agent's own network (spec 13.2, 4.3).
//!
//! An agent that POSTs to client-supplied URLs can be steered at its own
//! loopback, its private network or its cloud metadata service. Checking
//! the URL text is not enough: `127.1`, `0x7f.0.0.1`, `0177.0.0.1` and
//! `2130706433` all reach loopback, and a DNS name can resolve (or be
//! rebound) to anything. So there are two checks:
//!
//! 1. [`check_webhook_url`], when a config is created: the scheme is
//!    `http` or `https`; a numeric host, in any form `inet_aton` and the
//!    WHATWG URL parser accept, is decoded and its address checked;
//!    `localhost` and `*.localhost` are refused (RFC 6761); other names
//!    pass, since only resolving them says where they lead.
//! 2. [`check_socket_addr`] (or [`WebhookTarget::check_connect_addr`]),
//!    on every delivery, for the address the host's HTTP client actually
//!    connects to, after DNS.
//!
//! An [`Allowlist`] of addresses, CIDR blocks and host names admits
//! targets that would otherwise be refused (a webhook receiver on the
//! same private network, a test server on loopback).
//!
//! # What is refused
//!
//! [`ip_refusal`] classifies an address. IPv4-mapped (`::ffff:a.b.c.d`),
//! IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`) IPv6
//! addresses are first reduced to their IPv4 address ([`canonical_ip`]).
//! Then, from the IANA special-purpose address registries:
//!
//! | reason | IPv4 | IPv6 |
//! | --- | --- | --- |
//! | [`Unspecified`](RefusalReason::Unspecified) | `0.0.0.0/8` | `::` |
//! | [`Loopback`](RefusalReason::Loopback) | `127.0.0.0/8` | `::1` |
//! | [`Private`](RefusalReason::Private) | `10/8`, `172.16/12`, `192.168/16` | |
//! | [`SharedAddressSpace`](RefusalReason::SharedAddressSpace) | `100.64.0.0/10` (CGNAT) | |
//! | [`LinkLocal`](RefusalReason::LinkLocal) | `169.254.0.0/16` (incl. `169.254.169.254`) | `fe80::/10` |
//! | [`UniqueLocal`](RefusalReason::UniqueLocal) | | `fc00::/7` |
//! | [`SiteLocal`](RefusalReason::SiteLocal) | | `fec0::/10` (deprecated) |
//! | [`Multicast`](RefusalReason::Multicast) | `224.0.0.0/4` | `ff00::/8` |
//! | [`Broadcast`](RefusalReason::Broadcast) | `255.255.255.255` | |
//! | [`Documentation`](RefusalReason::Documentation) | `192.0.2/24`, `198.51.100/24`, `203.0.113/24` | `2001:db8::/32`, `3fff::/20` |
//! | [`Benchmarking`](RefusalReason::Benchmarking) | `198.18.0.0/15` | `2001:2::/48` |
//! | [`Reserved`](RefusalReason::Reserved) | `192.0.0.0/24`, `192.88.99.0/24`, `240.0.0.0/4` | `64:ff9b:1::/48`, `2001::/23` (incl. Teredo), `2002::/16` (6to4), anything outside `2000::/3` |
//!
//! Conservative where the registries have exceptions: the few anycast
//! and overlay addresses inside `192.0.0.0/24` and `2001::/23` are
//! refused with their block, and 6to4 and Teredo, which tunnel to an
//! embedded IPv4 address, are refused whole.
//!
//! # URL parsing
//!
//! Parsers that disagree on a URL's host are how SSRF filters are
//! bypassed, so [`check_webhook_url`] refuses what another parser might
//! read differently instead of guessing: any byte that is whitespace, a
//! control character, a backslash or not ASCII (so Unicode hosts must be
//! sent as `xn--` A-labels); user information (`user@host`); a scheme not
//! followed by `//`; IPv6 zone identifiers; a host whose last label is
//! numeric but that is not a valid IPv4 address (as the WHATWG URL
//! standard does); and host names with characters outside
//! letters, digits, `-`, `_` and `.`. The URL is at most
//! [`MAX_WEBHOOK_URL_LEN`] bytes.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The longest webhook URL [`check_webhook_url`] accepts: 4096 bytes.
pub const MAX_WEBHOOK_URL_LEN: usize = 4096;

/// Why an address is not a public webhook target. See the module
/// documentation for the ranges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RefusalReason {
    /// `0.0.0.0/8` ("this network"; `0.0.0.0` reaches the local host on
    /// common systems) or `::`.
    Unspecified,
    /// `127.0.0.0/8` or `::1`.
    Loopback,
    /// A private network (RFC 1918).
    Private,
    /// `100.64.0.0/10`, the carrier-grade NAT range (RFC 6598), also used
    /// by some cloud metadata services.
    SharedAddressSpace,
    /// Link-local, including the cloud metadata address `169.254.169.254`.
    LinkLocal,
    /// An IPv6 unique local address (RFC 4193).
    UniqueLocal,
    /// A deprecated IPv6 site-local address (RFC 3879).
    SiteLocal,
    /// Multicast.
    Multicast,
    /// The IPv4 limited broadcast address.
    Broadcast,
    /// A documentation range (RFC 5737, 3849, 9637).
    Documentation,
    /// A benchmarking range (RFC 2544, 5180).
    Benchmarking,
    /// A reserved or special-purpose range not routable on the internet.
    Reserved,
}

impl RefusalReason {
    /// A short description, e.g. `loopback address`.
    pub fn as_str(self) -> &'static str {
        match self {
            RefusalReason::Unspecified => "unspecified address",
            RefusalReason::Loopback => "loopback address",
            RefusalReason::Private => "private address",
            RefusalReason::SharedAddressSpace => "shared (carrier-grade NAT) address",
            RefusalReason::LinkLocal => "link-local address",
            RefusalReason::UniqueLocal => "unique local address",
            RefusalReason::SiteLocal => "site-local address",
            RefusalReason::Multicast => "multicast address",
            RefusalReason::Broadcast => "broadcast address",
            RefusalReason::Documentation => "documentation address",
            RefusalReason::Benchmarking => "benchmarking address",
            RefusalReason::Reserved => "reserved address",
        }
    }
}

impl fmt::Display for RefusalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What is malformed in a webhook URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, thiserror::Error)]
#[non_exhaustive]
pub enum UrlError {
    /// No `scheme:`.
    #[error("it has no scheme")]
    MissingScheme,
    /// The scheme is not followed by `//`.
    #[error("the scheme is not followed by `//`")]
    MissingAuthority,
    /// A byte that is whitespace, a control character, a backslash or not
    /// ASCII.
    #[error("byte {offset} is whitespace, a control character, a backslash or not ASCII")]
    InvalidCharacter {
        /// Its offset in the URL.
        offset: usize,
    },
    /// User information before the host (`user:pass@`).
    #[error("it carries user information (`user@`)")]
    UserInfo,
    /// The host is empty.
    #[error("the host is empty")]
    EmptyHost,
    /// The port is not a number in `1..=65535`, or text follows it.
    #[error("the port is not a number in 1..=65535")]
    InvalidPort,
    /// The bracketed IPv6 address does not parse.
    #[error("the bracketed IPv6 address is invalid")]
    InvalidIpv6,
    /// The IPv6 address has a zone identifier (`%eth0`).
    #[error("the IPv6 address has a zone identifier")]
    ZoneId,
    /// The last label of the host is a number but the host is not a valid
    /// IPv4 address.
    #[error("the host ends in a number but is not a valid IPv4 address")]
    InvalidIpv4,
    /// The host name is not letters, digits, `-`, `_` and `.` in labels of
    /// 1 to 63 bytes, at most 253 bytes in all.
    #[error("the host name is not a valid DNS name")]
    InvalidHostName,
}

/// Why a webhook target was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SsrfError {
    /// The URL is longer than [`MAX_WEBHOOK_URL_LEN`].
    #[error("webhook URL is {len} bytes, over the limit of {max}")]
    UrlTooLong {
        /// Its length in bytes.
        len: usize,
        /// The limit.
        max: usize,
    },
    /// The URL is malformed, or written in a way parsers may disagree on.
    #[error("webhook URL is refused: {0}")]
    MalformedUrl(UrlError),
    /// The scheme is not `http` or `https`.
    #[error("webhook URL scheme {scheme:?} is not http or https")]
    UnsupportedScheme {
        /// The scheme as written.
        scheme: String,
    },
    /// The host is `localhost` or a `.localhost` name (RFC 6761).
    #[error("webhook host {host:?} names the local host")]
    LocalHostName {
        /// The host as written.
        host: String,
    },
    /// The address is not a public one.
    #[error("webhook address {ip} is refused: {reason}")]
    RefusedAddress {
        /// The address as given (before [`canonical_ip`]).
        ip: IpAddr,
        /// Why.
        reason: RefusalReason,
    },
}

/// Reduces an IPv6 address that embeds an IPv4 address to that IPv4
/// address: IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d`
/// (but not `::` or `::1`) and NAT64 `64:ff9b::a.b.c.d` (RFC 6052). Any
/// other address is returned as it is.
pub fn canonical_ip(ip: IpAddr) -> IpAddr {
    let IpAddr::V6(v6) = ip else {
        return ip;
    };
    let [_, _, _, _, _, _, hi, lo] = v6.segments();
    let embedded = IpAddr::V4(Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo)));
    match v6.segments() {
        [0, 0, 0, 0, 0, 0xffff, _, _] | [0x64, 0xff9b, 0, 0, 0, 0, _, _] => embedded,
        [0, 0, 0, 0, 0, 0, 0, 0 | 1] => ip,
        [0, 0, 0, 0, 0, 0, _, _] => embedded,
        _ => ip,
    }
}

/// Refused IPv4 ranges, first match wins.
const V4_REFUSED: &[([u8; 4], u8, RefusalReason)] = &[
    ([255, 255, 255, 255], 32, RefusalReason::Broadcast),
    ([0, 0, 0, 0], 8, RefusalReason::Unspecified),
    ([10, 0, 0, 0], 8, RefusalReason::Private),
    ([100, 64, 0, 0], 10, RefusalReason::SharedAddressSpace),
    ([127, 0, 0, 0], 8, RefusalReason::Loopback),
    ([169, 254, 0, 0], 16, RefusalReason::LinkLocal),
    ([172, 16, 0, 0], 12, RefusalReason::Private),
    ([192, 0, 0, 0], 24, RefusalReason::Reserved),
    ([192, 0, 2, 0], 24, RefusalReason::Documentation),
    ([192, 88, 99, 0], 24, RefusalReason::Reserved),
    ([192, 168, 0, 0], 16, RefusalReason::Private),
    ([198, 18, 0, 0], 15, RefusalReason::Benchmarking),
    ([198, 51, 100, 0], 24, RefusalReason::Documentation),
    ([203, 0, 113, 0], 24, RefusalReason::Documentation),
    ([224, 0, 0, 0], 4, RefusalReason::Multicast),
    ([240, 0, 0, 0], 4, RefusalReason::Reserved),
];

/// Refused IPv6 ranges, first match wins; then anything outside
/// `2000::/3` (global unicast) is [`RefusalReason::Reserved`].
const V6_REFUSED: &[([u16; 8], u8, RefusalReason)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 0], 128, RefusalReason::Unspecified),
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, RefusalReason::Loopback),
    (
        [0x2001, 2, 0, 0, 0, 0, 0, 0],
        48,
        RefusalReason::Benchmarking,
    ),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, RefusalReason::Reserved),
    (
        [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0],
        32,
        RefusalReason::Documentation,
    ),
    ([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, RefusalReason::Reserved),
    (
        [0x3fff, 0, 0, 0, 0, 0, 0, 0],
        20,
        RefusalReason::Documentation,
    ),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, RefusalReason::UniqueLocal),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, RefusalReason::LinkLocal),
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, RefusalReason::SiteLocal),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, RefusalReason::Multicast),
];

fn in_v4_net(ip: Ipv4Addr, net: Ipv4Addr, prefix: u8) -> bool {
    let shift = 32 - u32::from(prefix.min(32));
    u32::from(ip).checked_shr(shift).unwrap_or(0) == u32::from(net).checked_shr(shift).unwrap_or(0)
}

fn in_v6_net(ip: Ipv6Addr, net: Ipv6Addr, prefix: u8) -> bool {
    let shift = 128 - u32::from(prefix.min(128));
    u128::from(ip).checked_shr(shift).unwrap_or(0)
        == u128::from(net).checked_shr(shift).unwrap_or(0)
}

/// Why `ip` is not a public webhook target, or `None` if it is one. The
/// address is [canonicalised](canonical_ip) first; the ranges are in the
/// module documentation.
pub fn ip_refusal(ip: IpAddr) -> Option<RefusalReason> {
    match canonical_ip(ip) {
        IpAddr::V4(v4) => V4_REFUSED
            .iter()
            .find(|(net, prefix, _)| in_v4_net(v4, Ipv4Addr::from(*net), *prefix))
            .map(|(_, _, reason)| *reason),
        IpAddr::V6(v6) => V6_REFUSED
            .iter()
            .find(|(net, prefix, _)| in_v6_net(v6, Ipv6Addr::from(*net), *prefix))
            .map(|(_, _, reason)| *reason)
            .or_else(|| {
                let global_unicast = Ipv6Addr::new(0x2000, 0, 0, 0, 0, 0, 0, 0);
                (!in_v6_net(v6, global_unicast, 3)).then_some(RefusalReason::Reserved)
            }),
    }
}

/// Checks an address: public, or admitted by `allow`.
pub fn check_ip(ip: IpAddr, allow: &Allowlist) -> Result<(), SsrfError> {
    match ip_refusal(ip) {
        Some(reason) if !allow.allows_ip(ip) => Err(SsrfError::RefusedAddress { ip, reason }),
        _ => Ok(()),
    }
}

/// Checks the socket address a webhook delivery is about to connect to,
/// after DNS resolution: the check that DNS names and rebinding cannot
/// get around. Call it for every address the HTTP client tries. The port
/// is not checked.
pub fn check_socket_addr(addr: SocketAddr, allow: &Allowlist) -> Result<(), SsrfError> {
    check_ip(addr.ip(), allow)
}

/// The host of a webhook URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum WebhookHost<'u> {
    /// A numeric host, decoded from whichever form it was written in.
    Ip(IpAddr),
    /// A DNS name, as written (compare ignoring ASCII case).
    Name(&'u str),
}

/// A webhook URL that passed [`check_webhook_url`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookTarget<'u> {
    https: bool,
    host: WebhookHost<'u>,
    port: u16,
    host_allowlisted: bool,
}

impl<'u> WebhookTarget<'u> {
    /// True for `https`, false for `http`.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The host.
    pub fn host(&self) -> WebhookHost<'u> {
        self.host
    }

    /// The port, explicit or the scheme's default (80 or 443).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// True if the host is a name the allowlist admits.
    pub fn is_host_allowlisted(&self) -> bool {
        self.host_allowlisted
    }

    /// Checks an address this target resolved to, before connecting: any
    /// address is admitted when the host name itself is allowlisted (the
    /// operator trusts that name, wherever it points); otherwise
    /// [`check_socket_addr`].
    pub fn check_connect_addr(&self, addr: SocketAddr, allow: &Allowlist) -> Result<(), SsrfError> {
        if self.host_allowlisted {
            Ok(())
        } else {
            check_socket_addr(addr, allow)
        }
    }
}

/// Checks a webhook URL before it is stored (spec 13.2). See the module
/// documentation for what is refused; a DNS name that passes must still
/// be checked after resolution with [`WebhookTarget::check_connect_addr`].
///
/// ```
/// use a2a_push::{webhook::{check_webhook_url, SsrfError}, webhook::{Allowlist, RefusalReason}};
///
/// let allow = Allowlist::new();
/// assert!(check_webhook_url("https://hooks.example.com/a2a?t=1", &allow).is_ok());
/// for url in ["http://127.1/", "http://0x7f.0.0.1/", "http://2130706433/", "http://[::ffff:127.0.0.1]/"] {
///     assert!(matches!(
///         check_webhook_url(url, &allow),
///         Err(SsrfError::RefusedAddress { reason: RefusalReason::Loopback, .. })
///     ));
/// }
///
/// let mut allow = Allowlist::new();
/// allow.allow("127.0.0.0/8")?;
/// assert!(check_webhook_url("http://127.0.0.1:8080/hook", &allow).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_webhook_url<'u>(
    url: &'u str,
    allow: &Allowlist,
) -> Result<WebhookTarget<'u>, SsrfError> {
    let malformed = SsrfError::MalformedUrl;
    if url.len() > MAX_WEBHOOK_URL_LEN {
        return Err(SsrfError::UrlTooLong {
            len: url.len(),
            max: MAX_WEBHOOK_URL_LEN,
        });
    }
    if let Some(offset) = url
        .bytes()
        .position(|b| !b.is_ascii_graphic() || b == b'\\')
    {
        return Err(malformed(UrlError::InvalidCharacter { offset }));
    }
    let (scheme, rest) = url
        .split_once(':')
        .ok_or(malformed(UrlError::MissingScheme))?;
    let https = if scheme.eq_ignore_ascii_case("https") {
        true
    } else if scheme.eq_ignore_ascii_case("http") {
        false
    } else if scheme.is_empty() {
        return Err(malformed(UrlError::MissingScheme));
    } else {
        return Err(SsrfError::UnsupportedScheme {
            scheme: scheme.to_owned(),
        });
    };
    let rest = rest
        .strip_prefix("//")
        .ok_or(malformed(UrlError::MissingAuthority))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return Err(malformed(UrlError::UserInfo));
    }
    let (host, port) = split_host_port(authority).map_err(malformed)?;
    let port = match port {
        None | Some("") => {
            if https {
                443
            } else {
                80
            }
        }
        Some(text) => parse_port(text).ok_or(malformed(UrlError::InvalidPort))?,
    };
    let host = parse_host(host).map_err(malformed)?;
    let mut target = WebhookTarget {
        https,
        host,
        port,
        host_allowlisted: false,
    };
    match host {
        WebhookHost::Ip(ip) => check_ip(ip, allow)?,
        WebhookHost::Name(name) => {
            if allow.allows_host(name) {
                target.host_allowlisted = true;
            } else if is_localhost(name) {
                return Err(SsrfError::LocalHostName {
                    host: name.to_owned(),
                });
            }
        }
    }
    Ok(target)
}

/// Splits `host[:port]` or `[v6][:port]`; the host keeps its brackets.
fn split_host_port(authority: &str) -> Result<(&str, Option<&str>), UrlError> {
    if authority.starts_with('[') {
        let close = authority.find(']').ok_or(UrlError::InvalidIpv6)?;
        let (host, after) = authority.split_at(close + 1);
        match after {
            "" => Ok((host, None)),
            _ => match after.strip_prefix(':') {
                Some(port) => Ok((host, Some(port))),
                None => Err(UrlError::InvalidPort),
            },
        }
    } else {
        match authority.split_once(':') {
            Some((host, port)) => Ok((host, Some(port))),
            None => Ok((authority, None)),
        }
    }
}

fn parse_port(text: &str) -> Option<u16> {
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let mut n: u32 = 0;
    for b in text.bytes() {
        n = n.checked_mul(10)?.checked_add(u32::from(b - b'0'))?;
        if n > u32::from(u16::MAX) {
            return None;
        }
    }
    u16::try_from(n).ok().filter(|&p| p != 0)
}

fn parse_host(host: &str) -> Result<WebhookHost<'_>, UrlError> {
    if host.is_empty() {
        return Err(UrlError::EmptyHost);
    }
    if let Some(inner) = host.strip_prefix('[') {
        let inner = inner.strip_suffix(']').ok_or(UrlError::InvalidIpv6)?;
        if inner.contains('%') {
            return Err(UrlError::ZoneId);
        }
        return inner
            .parse::<Ipv6Addr>()
            .map(|v6| WebhookHost::Ip(IpAddr::V6(v6)))
            .map_err(|_| UrlError::InvalidIpv6);
    }
    if ends_in_number(host) {
        return parse_ipv4(host)
            .map(|v4| WebhookHost::Ip(IpAddr::V4(v4)))
            .ok_or(UrlError::InvalidIpv4);
    }
    check_host_name(host)?;
    Ok(WebhookHost::Name(host))
}

/// The WHATWG URL standard's "ends in a number" test: the last label
/// (ignoring one trailing dot) is all digits, or `0x` and hex digits.
fn ends_in_number(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or(host);
    let decimal = !last.is_empty() && last.bytes().all(|b| b.is_ascii_digit());
    let hex = last
        .strip_prefix("0x")
        .or_else(|| last.strip_prefix("0X"))
        .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()));
    decimal || hex
}

/// One part of a numeric IPv4 host: decimal, `0x` hex or `0`-prefixed
/// octal, as `inet_aton` and the WHATWG URL standard read it. `0x` alone
/// is 0.
fn ipv4_number(part: &str) -> Option<u64> {
    if part.is_empty() {
        return None;
    }
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            (hex, 16)
        } else if part.len() >= 2 {
            match part.strip_prefix('0') {
                Some(octal) => (octal, 8),
                None => (part, 10),
            }
        } else {
            (part, 10)
        };
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix)?;
        n = n.checked_mul(u64::from(radix))?.checked_add(u64::from(d))?;
    }
    Some(n)
}

/// A numeric IPv4 host of one to four parts, as `inet_aton` and the WHATWG
/// URL standard read it: `a` (32 bits), `a.b` (8.24), `a.b.c` (8.8.16),
/// `a.b.c.d`; each part decimal, hex or octal; one trailing dot allowed.
fn parse_ipv4(host: &str) -> Option<Ipv4Addr> {
    let host = match host.strip_suffix('.') {
        Some(h) if !h.is_empty() => h,
        _ => host,
    };
    let mut numbers = [0u64; 4];
    let mut count = 0;
    for part in host.split('.') {
        *numbers.get_mut(count)? = ipv4_number(part)?;
        count += 1;
    }
    let (last, init) = numbers.get(..count)?.split_last()?;
    if init.iter().any(|&n| n > 255) {
        return None;
    }
    // The last part fills the remaining 5 - count bytes.
    let bits = 8 * (5 - u32::try_from(count).ok()?);
    if last.checked_shr(bits).unwrap_or(0) != 0 {
        return None;
    }
    let mut value = *last;
    for (i, &n) in init.iter().enumerate() {
        value |= n << (24 - 8 * u32::try_from(i).ok()?);
    }
    u32::try_from(value).ok().map(Ipv4Addr::from)
}

fn check_host_name(name: &str) -> Result<(), UrlError> {
    let body = name.strip_suffix('.').unwrap_or(name);
    let label_ok = |label: &str| {
        (1..=63).contains(&label.len())
            && label
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    };
    if body.is_empty() || body.len() > 253 || !body.split('.').all(label_ok) {
        return Err(UrlError::InvalidHostName);
    }
    Ok(())
}

/// `localhost` or a name under it (RFC 6761 section 6.3), any case, with
/// or without a trailing dot.
fn is_localhost(name: &str) -> bool {
    let body = name.strip_suffix('.').unwrap_or(name);
    let last = body.rsplit('.').next().unwrap_or(body);
    last.eq_ignore_ascii_case("localhost")
}

/// Targets admitted even though [`ip_refusal`] or the `localhost` rule
/// would refuse them: addresses, CIDR blocks, and host names (spec 13.2:
/// "implement URL allowlists where appropriate").
///
/// An address entry admits an address equal to it, before or after
/// [canonicalisation](canonical_ip) (so `127.0.0.1` admits
/// `::ffff:127.0.0.1`). A host name entry admits that name, compared
/// ignoring ASCII case and a trailing dot, and, through
/// [`WebhookTarget::check_connect_addr`], every address it resolves to:
/// allowlist only names whose DNS you control.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowlist {
    nets: Vec<(IpAddr, u8)>,
    hosts: Vec<String>,
}

/// Why an allowlist entry was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum AllowlistError {
    /// Not an address, a CIDR block or a host name.
    #[error("allowlist entry {entry:?} is not an IP address, CIDR block or host name")]
    Invalid {
        /// The entry.
        entry: String,
    },
    /// The prefix length exceeds the address length.
    #[error("prefix length {prefix} is longer than {max}")]
    PrefixTooLong {
        /// The prefix length given.
        prefix: u8,
        /// 32 or 128.
        max: u8,
    },
    /// The CIDR block has bits set after its prefix, as in `10.0.0.1/8`.
    #[error("CIDR block {block} has address bits set after the prefix")]
    HostBitsSet {
        /// The block as given.
        block: String,
    },
}

impl Allowlist {
    /// An empty allowlist: nothing refused is admitted.
    pub fn new() -> Allowlist {
        Allowlist::default()
    }

    /// True if nothing is allowlisted.
    pub fn is_empty(&self) -> bool {
        self.nets.is_empty() && self.hosts.is_empty()
    }

    /// Admits one address.
    pub fn allow_ip(&mut self, ip: IpAddr) -> &mut Allowlist {
        let bits = if ip.is_ipv4() { 32 } else { 128 };
        self.nets.push((ip, bits));
        self
    }

    /// Admits the block `addr/prefix`; bits of `addr` after the prefix
    /// must be zero.
    pub fn allow_net(
        &mut self,
        addr: IpAddr,
        prefix: u8,
    ) -> Result<&mut Allowlist, AllowlistError> {
        let (max, host_bits_clear) = match addr {
            IpAddr::V4(v4) => (32, u32::from(v4) & !v4_mask(prefix) == 0),
            IpAddr::V6(v6) => (128, u128::from(v6) & !v6_mask(prefix) == 0),
        };
        if prefix > max {
            return Err(AllowlistError::PrefixTooLong { prefix, max });
        }
        if !host_bits_clear {
            return Err(AllowlistError::HostBitsSet {
                block: format!("{addr}/{prefix}"),
            });
        }
        self.nets.push((addr, prefix));
        Ok(self)
    }

    /// Admits a host name (compared ignoring ASCII case and a trailing
    /// dot). A name that reads as a number is refused: allowlist
    /// addresses with [`Allowlist::allow_ip`].
    pub fn allow_host(&mut self, name: &str) -> Result<&mut Allowlist, AllowlistError> {
        if ends_in_number(name) || check_host_name(name).is_err() {
            return Err(AllowlistError::Invalid {
                entry: name.to_owned(),
            });
        }
        let body = name.strip_suffix('.').unwrap_or(name);
        self.hosts.push(body.to_ascii_lowercase());
        Ok(self)
    }

    /// Admits an entry written as text, as from a command-line flag: an
    /// IPv4 or IPv6 address (optionally in brackets), a CIDR block
    /// (`10.0.0.0/8`, `fd00::/8`) or a host name.
    pub fn allow(&mut self, entry: &str) -> Result<&mut Allowlist, AllowlistError> {
        let invalid = || AllowlistError::Invalid {
            entry: entry.to_owned(),
        };
        let parse_ip = |s: &str| {
            let s = s
                .strip_prefix('[')
                .and_then(|s| s.strip_suffix(']'))
                .unwrap_or(s);
            s.parse::<IpAddr>().ok()
        };
        if let Some((addr, prefix)) = entry.split_once('/') {
            let addr = parse_ip(addr).ok_or_else(invalid)?;
            if prefix.is_empty() || prefix.len() > 3 || !prefix.bytes().all(|b| b.is_ascii_digit())
            {
                return Err(invalid());
            }
            let prefix: u8 = prefix.parse().map_err(|_| invalid())?;
            return self.allow_net(addr, prefix);
        }
        if let Some(ip) = parse_ip(entry) {
            return Ok(self.allow_ip(ip));
        }
        self.allow_host(entry).map_err(|_| invalid())
    }

    /// True if `ip`, or its [canonical form](canonical_ip), is admitted.
    pub fn allows_ip(&self, ip: IpAddr) -> bool {
        let canonical = canonical_ip(ip);
        self.nets.iter().any(|&(net, prefix)| {
            [ip, canonical]
                .into_iter()
                .any(|candidate| match (candidate, net) {
                    (IpAddr::V4(c), IpAddr::V4(n)) => in_v4_net(c, n, prefix),
                    (IpAddr::V6(c), IpAddr::V6(n)) => in_v6_net(c, n, prefix),
                    _ => false,
                })
        })
    }

    /// True if the host name `name` is admitted.
    pub fn allows_host(&self, name: &str) -> bool {
        let body = name.strip_suffix('.').unwrap_or(name);
        self.hosts.iter().any(|h| h.eq_ignore_ascii_case(body))
    }
}

fn v4_mask(prefix: u8) -> u32 {
    u32::MAX
        .checked_shl(32 - u32::from(prefix.min(32)))
        .unwrap_or(0)
}

fn v6_mask(prefix: u8) -> u128 {
    u128::MAX
        .checked_shl(128 - u32::from(prefix.min(128)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use RefusalReason::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn ipv4_ranges() {
        let cases: &[(&str, Option<RefusalReason>)] = &[
            ("0.0.0.0", Some(Unspecified)),
            ("0.255.255.255", Some(Unspecified)),
            ("1.0.0.0", None),
            ("8.8.8.8", None),
            ("9.255.255.255", None),
            ("10.0.0.0", Some(Private)),
            ("10.255.255.255", Some(Private)),
            ("11.0.0.0", None),
            ("100.63.255.255", None),
            ("100.64.0.0", Some(SharedAddressSpace)),
            ("100.100.100.200", Some(SharedAddressSpace)),
            ("100.127.255.255", Some(SharedAddressSpace)),
            ("100.128.0.0", None),
            ("126.255.255.255", None),
            ("127.0.0.1", Some(Loopback)),
            ("127.255.255.254", Some(Loopback)),
            ("128.0.0.0", None),
            ("169.253.255.255", None),
            ("169.254.169.254", Some(LinkLocal)),
            ("169.254.0.0", Some(LinkLocal)),
            ("169.255.0.0", None),
            ("172.15.255.255", None),
            ("172.16.0.0", Some(Private)),
            ("172.31.255.255", Some(Private)),
            ("172.32.0.0", None),
            ("191.255.255.255", None),
            ("192.0.0.0", Some(Reserved)),
            ("192.0.0.255", Some(Reserved)),
            ("192.0.1.0", None),
            ("192.0.2.1", Some(Documentation)),
            ("192.0.3.0", None),
            ("192.88.99.1", Some(Reserved)),
            ("192.167.255.255", None),
            ("192.168.0.1", Some(Private)),
            ("192.168.255.255", Some(Private)),
            ("192.169.0.0", None),
            ("198.17.255.255", None),
            ("198.18.0.0", Some(Benchmarking)),
            ("198.19.255.255", Some(Benchmarking)),
            ("198.20.0.0", None),
            ("198.51.100.7", Some(Documentation)),
            ("203.0.113.9", Some(Documentation)),
            ("203.0.114.0", None),
            ("223.255.255.255", None),
            ("224.0.0.1", Some(Multicast)),
            ("239.255.255.255", Some(Multicast)),
            ("240.0.0.1", Some(Reserved)),
            ("255.255.255.254", Some(Reserved)),
            ("255.255.255.255", Some(Broadcast)),
        ];
        for &(addr, want) in cases {
            assert_eq!(ip_refusal(ip(addr)), want, "{addr}");
        }
    }

    #[test]
    fn ipv6_ranges() {
        let cases: &[(&str, Option<RefusalReason>)] = &[
            ("::", Some(Unspecified)),
            ("::1", Some(Loopback)),
            ("::2", Some(Unspecified)), // ::0.0.0.2
            ("2606:4700:4700::1111", None),
            ("2001:4860:4860::8888", None),
            ("2000::", None),
            ("3ffe:ffff::1", None),
            ("3fff::1", Some(Documentation)),
            ("3fff:0fff::1", Some(Documentation)),
            ("3fff:1000::1", None),
            ("2001:db8::1", Some(Documentation)),
            ("2001:2::1", Some(Benchmarking)),
            ("2001::1", Some(Reserved)),     // Teredo
            ("2001:1ff::1", Some(Reserved)), // top of 2001::/23
            ("2001:200::1", None),
            ("2002:7f00:1::", Some(Reserved)), // 6to4
            ("64:ff9b:1::1", Some(Reserved)),
            ("100::1", Some(Reserved)),
            ("5f00::1", Some(Reserved)),
            ("4000::1", Some(Reserved)),
            ("fc00::1", Some(UniqueLocal)),
            ("fd00:ec2::254", Some(UniqueLocal)),
            ("fe80::1", Some(LinkLocal)),
            ("febf::1", Some(LinkLocal)),
            ("fec0::1", Some(SiteLocal)),
            ("ff02::1", Some(Multicast)),
            ("::ffff:0:7f00:1", Some(Reserved)), // IPv4-translated, not mapped
        ];
        for &(addr, want) in cases {
            assert_eq!(ip_refusal(ip(addr)), want, "{addr}");
        }
    }

    #[test]
    fn embedded_ipv4_is_canonicalised_first() {
        for (addr, v4, want) in [
            ("::ffff:127.0.0.1", "127.0.0.1", Some(Loopback)),
            ("::ffff:7f00:1", "127.0.0.1", Some(Loopback)),
            ("::ffff:10.1.2.3", "10.1.2.3", Some(Private)),
            ("::ffff:169.254.169.254", "169.254.169.254", Some(LinkLocal)),
            ("::ffff:8.8.8.8", "8.8.8.8", None),
            ("::127.0.0.1", "127.0.0.1", Some(Loopback)),
            ("::192.168.1.1", "192.168.1.1", Some(Private)),
            ("::8.8.8.8", "8.8.8.8", None),
            ("64:ff9b::127.0.0.1", "127.0.0.1", Some(Loopback)),
            ("64:ff9b::a00:1", "10.0.0.1", Some(Private)),
            ("64:ff9b::8.8.8.8", "8.8.8.8", None),
            ("::ffff:0.0.0.0", "0.0.0.0", Some(Unspecified)),
        ] {
            assert_eq!(canonical_ip(ip(addr)), ip(v4), "{addr}");
            assert_eq!(ip_refusal(ip(addr)), want, "{addr}");
        }
        for same in ["::", "::1", "2001:db8::1", "127.0.0.1", "64:ff9b:1::a00:1"] {
            assert_eq!(canonical_ip(ip(same)), ip(same));
        }
    }

    #[test]
    fn numeric_hosts_in_every_form() {
        let loopback = [
            "127.0.0.1",
            "127.1",
            "127.0.1",
            "2130706433",
            "0x7f000001",
            "0X7F000001",
            "0x7f.0.0.1",
            "0x7f.1",
            "0177.0.0.1",
            "0177.1",
            "017700000001",
            "127.0.0.1.",
            "127.000.000.001",
            "0x7f.0x0.0x0.0x1",
            "0x00007f.1",
        ];
        for host in loopback {
            assert_eq!(parse_ipv4(host), Some(Ipv4Addr::LOCALHOST), "{host}");
            let url = format!("http://{host}/hook");
            assert_eq!(
                check_webhook_url(&url, &Allowlist::new()),
                Err(SsrfError::RefusedAddress {
                    ip: ip("127.0.0.1"),
                    reason: Loopback
                }),
                "{url}"
            );
        }
        for (host, addr) in [
            ("10.1", "10.0.0.1"),
            ("10.0.258", "10.0.1.2"),
            ("0", "0.0.0.0"),
            ("0x", "0.0.0.0"),
            ("00", "0.0.0.0"),
            ("3232235777", "192.168.1.1"),
            ("0xa9fea9fe", "169.254.169.254"),
            ("169.254.43518", "169.254.169.254"),
            ("0xC0.0xA8.1.1", "192.168.1.1"),
            ("4294967295", "255.255.255.255"),
            ("8.8.8.8", "8.8.8.8"),
            ("134744072", "8.8.8.8"),
        ] {
            assert_eq!(parse_ipv4(host).map(IpAddr::V4), Some(ip(addr)), "{host}");
        }
        assert_eq!(parse_ipv4("1.65536").map(IpAddr::V4), Some(ip("1.1.0.0")));
        for bad in [
            "4294967296",
            "256.0.0.1",
            "1.2.3.4.5",
            "1.2.3.256",
            "1.256.0",
            "1.16777216",
            "1.2.65536",
            "08",
            "0.09",
            "1..2",
            ".1",
            "99999999999999999999999",
            "0xffffffffffffffffff",
            "0x1.0x100.1",
        ] {
            assert!(ends_in_number(bad), "{bad}");
            assert_eq!(parse_ipv4(bad), None, "{bad}");
            let url = format!("http://{bad}/");
            assert_eq!(
                check_webhook_url(&url, &Allowlist::new()),
                Err(SsrfError::MalformedUrl(UrlError::InvalidIpv4)),
                "{url}"
            );
        }
        // Not numeric by the last label: names, or invalid names.
        assert_eq!(parse_ipv4("0x1g"), None);
        assert!(check_webhook_url("http://0x1g/", &Allowlist::new()).is_ok());
        assert_eq!(
            check_webhook_url("http://1.2.3.4../", &Allowlist::new()),
            Err(SsrfError::MalformedUrl(UrlError::InvalidHostName))
        );
        // The last label decides whether a host is numeric.
        assert!(ends_in_number("foo.123") && ends_in_number("a.0x") && ends_in_number("x.0X1f."));
        assert!(
            !ends_in_number("123.foo")
                && !ends_in_number("0x1g")
                && !ends_in_number(".")
                && !ends_in_number("1.2.3.4..")
        );
        assert_eq!(
            check_webhook_url("http://foo.123/", &Allowlist::new()),
            Err(SsrfError::MalformedUrl(UrlError::InvalidIpv4))
        );
    }

    #[test]
    fn public_targets_pass() {
        let allow = Allowlist::new();
        let t = check_webhook_url("https://hooks.example.com/a2a/cb?token=x#frag", &allow).unwrap();
        assert!(t.is_https());
        assert_eq!(t.host(), WebhookHost::Name("hooks.example.com"));
        assert_eq!(t.port(), 443);
        assert!(!t.is_host_allowlisted());
        let t = check_webhook_url("HTTP://8.8.8.8:8080", &allow).unwrap();
        assert_eq!(
            (t.is_https(), t.host(), t.port()),
            (false, WebhookHost::Ip(ip("8.8.8.8")), 8080)
        );
        let t = check_webhook_url("http://[2606:4700::1]:0443/x", &allow).unwrap();
        assert_eq!(
            (t.host(), t.port()),
            (WebhookHost::Ip(ip("2606:4700::1")), 443)
        );
        let t = check_webhook_url("http://example.com:/", &allow).unwrap();
        assert_eq!(t.port(), 80);
        for ok in [
            "https://xn--nxasmq6b.example/",
            "https://under_score.example.com",
            "https://a-b.c.d.",
            "https://example.com?q=@",
            "https://example.com#@127.0.0.1",
            "https://example.com/@127.0.0.1",
            "https://1a.example",
            "https://0x.example",
            "https://localhost.example.com",
            "https://notlocalhost",
        ] {
            assert!(check_webhook_url(ok, &allow).is_ok(), "{ok}");
        }
    }

    #[test]
    fn localhost_names() {
        for host in [
            "localhost",
            "LOCALHOST",
            "localhost.",
            "api.localhost",
            "a.b.LocalHost.",
        ] {
            let url = format!("http://{host}:8080/");
            assert_eq!(
                check_webhook_url(&url, &Allowlist::new()),
                Err(SsrfError::LocalHostName {
                    host: host.to_owned()
                }),
                "{url}"
            );
        }
    }

    #[test]
    fn malformed_urls() {
        use UrlError::*;
        let allow = Allowlist::new();
        let cases: &[(&str, SsrfError)] = &[
            ("", SsrfError::MalformedUrl(MissingScheme)),
            ("example.com", SsrfError::MalformedUrl(MissingScheme)),
            ("://example.com", SsrfError::MalformedUrl(MissingScheme)),
            (
                "http:example.com",
                SsrfError::MalformedUrl(MissingAuthority),
            ),
            (
                "http:/example.com",
                SsrfError::MalformedUrl(MissingAuthority),
            ),
            (
                " http://example.com",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 0 }),
            ),
            (
                "http://exa mple.com",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 10 }),
            ),
            (
                "http://example.com\t",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 18 }),
            ),
            (
                "http://evil.com\\@127.0.0.1/",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 15 }),
            ),
            (
                "http://\u{ff11}\u{ff12}\u{ff17}.0.0.1/",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 7 }),
            ),
            (
                "http://ex\u{e4}mple.com/",
                SsrfError::MalformedUrl(InvalidCharacter { offset: 9 }),
            ),
            (
                "http://user:pass@example.com/",
                SsrfError::MalformedUrl(UserInfo),
            ),
            (
                "http://example.com@127.0.0.1/",
                SsrfError::MalformedUrl(UserInfo),
            ),
            ("http:///path", SsrfError::MalformedUrl(EmptyHost)),
            ("http://:80/", SsrfError::MalformedUrl(EmptyHost)),
            (
                "http://example.com:0/",
                SsrfError::MalformedUrl(InvalidPort),
            ),
            (
                "http://example.com:65536/",
                SsrfError::MalformedUrl(InvalidPort),
            ),
            (
                "http://example.com:99999999999999999999/",
                SsrfError::MalformedUrl(InvalidPort),
            ),
            (
                "http://example.com:8o/",
                SsrfError::MalformedUrl(InvalidPort),
            ),
            (
                "http://example.com:80:80/",
                SsrfError::MalformedUrl(InvalidPort),
            ),
            ("http://[::1]x/", SsrfError::MalformedUrl(InvalidPort)),
            ("http://[::1/", SsrfError::MalformedUrl(InvalidIpv6)),
            ("http://[::g]/", SsrfError::MalformedUrl(InvalidIpv6)),
            ("http://[127.0.0.1]/", SsrfError::MalformedUrl(InvalidIpv6)),
            ("http://[v1.x]/", SsrfError::MalformedUrl(InvalidIpv6)),
            ("http://[fe80::1%25eth0]/", SsrfError::MalformedUrl(ZoneId)),
            (
                "http://127.0.0.%31/",
                SsrfError::MalformedUrl(InvalidHostName),
            ),
            (
                "http://exa%6dple.com/",
                SsrfError::MalformedUrl(InvalidHostName),
            ),
            ("http://a..b/", SsrfError::MalformedUrl(InvalidHostName)),
            ("http://a*b/", SsrfError::MalformedUrl(InvalidHostName)),
            ("http://./", SsrfError::MalformedUrl(InvalidHostName)),
            (
                "ftp://example.com/",
                SsrfError::UnsupportedScheme {
                    scheme: "ftp".into(),
                },
            ),
            (
                "file:///etc/passwd",
                SsrfError::UnsupportedScheme {
                    scheme: "file".into(),
                },
            ),
            (
                "gopher://127.0.0.1/",
                SsrfError::UnsupportedScheme {
                    scheme: "gopher".into(),
                },
            ),
            (
                "javascript:alert(1)",
                SsrfError::UnsupportedScheme {
                    scheme: "javascript".into(),
                },
            ),
        ];
        for (url, want) in cases {
            assert_eq!(
                check_webhook_url(url, &allow).as_ref(),
                Err(want),
                "{url:?}"
            );
        }
        // Labels and names at and past their limits.
        let label63 = "a".repeat(63);
        assert!(check_webhook_url(&format!("http://{label63}.com/"), &allow).is_ok());
        assert!(check_webhook_url(&format!("http://{label63}a.com/"), &allow).is_err());
        let name253 = vec!["a".repeat(49); 5].join(".") + ".com"; // 5*49 + 4 + 4 = 253
        assert_eq!(name253.len(), 253);
        assert!(check_webhook_url(&format!("http://{name253}/"), &allow).is_ok());
        assert!(check_webhook_url(&format!("http://a{name253}/"), &allow).is_err());
        let long = format!("https://example.com/{}", "x".repeat(MAX_WEBHOOK_URL_LEN));
        assert!(matches!(
            check_webhook_url(&long, &allow),
            Err(SsrfError::UrlTooLong { .. })
        ));
    }

    #[test]
    fn refused_addresses_in_urls() {
        let allow = Allowlist::new();
        for (url, addr, reason) in [
            (
                "http://169.254.169.254/latest/meta-data/",
                "169.254.169.254",
                LinkLocal,
            ),
            ("http://[::1]:8080/", "::1", Loopback),
            ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", Loopback),
            (
                "http://[::ffff:169.254.169.254]/",
                "::ffff:169.254.169.254",
                LinkLocal,
            ),
            ("http://[64:ff9b::10.0.0.1]/", "64:ff9b::a00:1", Private),
            ("http://[fd00:ec2::254]/", "fd00:ec2::254", UniqueLocal),
            ("http://[FE80::1]/", "fe80::1", LinkLocal),
            ("http://0.0.0.0:8080/", "0.0.0.0", Unspecified),
            ("http://0/", "0.0.0.0", Unspecified),
            ("http://[::]/", "::", Unspecified),
            ("http://100.64.0.1/", "100.64.0.1", SharedAddressSpace),
            ("http://172.16.0.1/", "172.16.0.1", Private),
            ("http://192.168.0.1./", "192.168.0.1", Private),
            ("http://255.255.255.255/", "255.255.255.255", Broadcast),
            ("http://224.0.0.1/", "224.0.0.1", Multicast),
        ] {
            let e = check_webhook_url(url, &allow).unwrap_err();
            assert_eq!(
                e,
                SsrfError::RefusedAddress {
                    ip: ip(addr),
                    reason
                },
                "{url}"
            );
        }
        assert_eq!(
            check_webhook_url("http://[::1]/", &allow)
                .unwrap_err()
                .to_string(),
            "webhook address ::1 is refused: loopback address"
        );
    }

    #[test]
    fn socket_addresses_after_resolution() {
        let allow = Allowlist::new();
        let sa = |s: &str| s.parse::<SocketAddr>().unwrap();
        assert!(check_socket_addr(sa("93.184.216.34:443"), &allow).is_ok());
        assert!(check_socket_addr(sa("[2606:2800:220:1::]:443"), &allow).is_ok());
        for bad in [
            "127.0.0.1:80",
            "[::ffff:127.0.0.1]:80",
            "10.0.0.1:443",
            "[::1]:443",
            "169.254.169.254:80",
            "[fe80::1]:80",
        ] {
            assert!(
                matches!(
                    check_socket_addr(sa(bad), &allow),
                    Err(SsrfError::RefusedAddress { .. })
                ),
                "{bad}"
            );
        }
        // A public-looking name that resolves inside is caught at connect time.
        let t = check_webhook_url("https://rebind.example.com/", &allow).unwrap();
        assert!(t.check_connect_addr(sa("127.0.0.1:443"), &allow).is_err());
        assert!(t
            .check_connect_addr(sa("93.184.216.34:443"), &allow)
            .is_ok());
    }

    #[test]
    fn allowlist_admits_refused_targets() {
        let mut allow = Allowlist::new();
        assert!(allow.is_empty());
        allow
            .allow("127.0.0.1")
            .unwrap()
            .allow("10.0.0.0/8")
            .unwrap()
            .allow("[fd00::]/8")
            .unwrap();
        allow
            .allow("Hooks.Internal.")
            .unwrap()
            .allow("localhost")
            .unwrap();
        allow.allow("::1").unwrap().allow("[fe80::1]").unwrap();
        assert!(!allow.is_empty());

        assert!(check_webhook_url("http://127.0.0.1:9000/", &allow).is_ok());
        assert!(check_webhook_url("http://127.1:9000/", &allow).is_ok());
        assert!(
            check_webhook_url("http://[::ffff:127.0.0.1]/", &allow).is_ok(),
            "canonical match"
        );
        assert!(check_webhook_url("http://127.0.0.2/", &allow).is_err());
        assert!(check_webhook_url("http://10.20.30.40/", &allow).is_ok());
        assert!(
            check_webhook_url("http://11.0.0.1/", &allow).is_ok(),
            "public anyway"
        );
        assert!(check_webhook_url("http://[fd12::1]/", &allow).is_ok());
        assert!(check_webhook_url("http://[fe80::1]/", &allow).is_ok());
        assert!(check_webhook_url("http://[fe80::2]/", &allow).is_err());
        assert!(check_webhook_url("http://192.168.1.1/", &allow).is_err());

        let t = check_webhook_url("http://LOCALHOST:8080/", &allow).unwrap();
        assert!(t.is_host_allowlisted());
        let t = check_webhook_url("https://hooks.internal/x", &allow).unwrap();
        assert!(t.is_host_allowlisted());
        let sa = "192.168.7.7:443".parse().unwrap();
        assert!(
            t.check_connect_addr(sa, &allow).is_ok(),
            "allowlisted name admits its addresses"
        );
        assert!(check_socket_addr(sa, &allow).is_err());
        assert!(
            check_webhook_url("http://api.localhost/", &allow).is_err(),
            "names are exact"
        );
        assert!(allow.allows_host("hooks.internal.") && allow.allows_host("HOOKS.internal"));
        assert!(!allow.allows_host("x.hooks.internal"));
    }

    #[test]
    fn allowlist_entries_are_validated() {
        let mut a = Allowlist::new();
        for bad in [
            "",
            "10.0.0.0/",
            "10.0.0.0/x",
            "10.0.0.0/+8",
            "10.0.0.0/0008",
            "not an ip",
            "a/b",
            "[::1",
            "127.1",
            "1.2.3.4.5",
            "-/8",
        ] {
            assert!(
                matches!(a.allow(bad), Err(AllowlistError::Invalid { .. })),
                "{bad:?}"
            );
        }
        assert_eq!(
            a.allow("10.0.0.0/33").unwrap_err(),
            AllowlistError::PrefixTooLong {
                prefix: 33,
                max: 32
            }
        );
        assert_eq!(
            a.allow("::/129").unwrap_err(),
            AllowlistError::PrefixTooLong {
                prefix: 129,
                max: 128
            }
        );
        assert_eq!(
            a.allow("10.0.0.1/8").unwrap_err(),
            AllowlistError::HostBitsSet {
                block: "10.0.0.1/8".into()
            }
        );
        assert!(matches!(
            a.allow("fd00::1/8"),
            Err(AllowlistError::HostBitsSet { .. })
        ));
        assert!(a.is_empty());
        assert!(matches!(
            a.allow_host("8.8.8.8"),
            Err(AllowlistError::Invalid { .. })
        ));
        a.allow("0.0.0.0/0").unwrap();
        assert!(a.allows_ip(ip("127.0.0.1")) && a.allows_ip(ip("::ffff:10.0.0.1")));
        assert!(
            !a.allows_ip(ip("::1")),
            "an IPv4 block admits no IPv6 address"
        );
        a.allow("::/0").unwrap();
        assert!(a.allows_ip(ip("::1")));
        assert!(check_ip(ip("169.254.169.254"), &a).is_ok());
    }

    #[test]
    fn masks() {
        assert_eq!(v4_mask(0), 0);
        assert_eq!(v4_mask(8), 0xff00_0000);
        assert_eq!(v4_mask(32), u32::MAX);
        assert_eq!(v6_mask(0), 0);
        assert_eq!(v6_mask(128), u128::MAX);
        assert!(in_v4_net(
            Ipv4Addr::new(1, 2, 3, 4),
            Ipv4Addr::new(9, 9, 9, 9),
            0
        ));
        assert!(in_v6_net(Ipv6Addr::LOCALHOST, Ipv6Addr::UNSPECIFIED, 0));
    }
}
