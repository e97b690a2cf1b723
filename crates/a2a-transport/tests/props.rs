//! Property tests: round trips (route build → match, query build → parse,
//! version and extensions encode → parse, numeric hosts) and "no input
//! panics" for every parser of the crate.

use std::borrow::Cow;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use a2a_transport::{
    http_json::{PathParam, Router},
    http_json::{PathParams, QueryBuilder, QueryConfig, QueryParams, Route, RouteError},
    service_params::{encode_extensions, A2A_VERSION},
    service_params::{negotiate_version, ExtensionLimits, RequestedExtensions, A2A_EXTENSIONS},
    webhook::{canonical_ip, WebhookHost},
    webhook::{check_socket_addr, check_webhook_url, ip_refusal, Allowlist, SsrfError},
    ProtocolVersion,
};
use a2a_types::Operation;
use http::{HeaderMap, HeaderValue, Method};
use proptest::prelude::*;

fn operation() -> impl Strategy<Value = Operation> {
    proptest::sample::select(Operation::ALL.to_vec())
}

fn method() -> impl Strategy<Value = Method> {
    proptest::sample::select(vec![
        Method::GET,
        Method::POST,
        Method::DELETE,
        Method::PUT,
        Method::PATCH,
        Method::HEAD,
        Method::OPTIONS,
    ])
}

/// Non-empty strings that lean on the characters routing cares about.
fn param() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-zA-Z0-9:/. %+?#&=,~_-]{1,16}",
        "\\PC{1,8}",
        proptest::sample::select(vec![
            "tasks".to_owned(),
            "message:send".to_owned(),
            "extendedAgentCard".to_owned(),
            "pushNotificationConfigs".to_owned(),
            ".".to_owned(),
            "..".to_owned(),
            "x:cancel".to_owned(),
            "%2F".to_owned(),
        ]),
    ]
}

/// Paths built from the pieces routes are made of, plus noise.
fn path_like() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("tasks".to_owned()),
        Just("message".to_owned()),
        Just("pushNotificationConfigs".to_owned()),
        Just("extendedAgentCard".to_owned()),
        Just(":send".to_owned()),
        Just(":cancel".to_owned()),
        Just(":subscribe".to_owned()),
        Just("%2F".to_owned()),
        Just("%".to_owned()),
        Just("%C3".to_owned()),
        Just("..".to_owned()),
        Just("/".to_owned()),
        "[a-z0-9:%]{0,4}",
        "\\PC{0,3}",
    ];
    proptest::collection::vec(piece, 0..10).prop_map(|parts| {
        let mut s = String::new();
        for p in parts {
            s.push('/');
            s.push_str(&p);
        }
        s
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn route_build_then_match_round_trips(
        op in operation(),
        tenant in proptest::option::of(param()),
        task in param(),
        config in param(),
        base in proptest::sample::select(vec!["", "/a2a", "/v1/agents/x"]),
    ) {
        let router = Router::with_base_path(base).unwrap();
        let route = Route::canonical(op);
        let mut params = PathParams::new();
        params.tenant = tenant.as_deref().map(Cow::Borrowed);
        if route.params().any(|p| p == PathParam::TaskId) {
            params.task_id = Some(Cow::Borrowed(&task));
        }
        if route.params().any(|p| p == PathParam::ConfigId) {
            params.config_id = Some(Cow::Borrowed(&config));
        }
        let path = router.build_path(op, &params).unwrap();
        prop_assert!(path.is_ascii());
        let m = router.match_route(&route.method(), &path);
        prop_assert!(m.is_ok(), "{} {}: {:?}", route.method(), path, m);
        let m = m.unwrap();
        prop_assert_eq!(m.operation(), op);
        prop_assert_eq!(m.params, params);
    }

    #[test]
    fn route_matching_never_panics(method in method(), path in prop_oneof![path_like(), "\\PC*", any::<String>()]) {
        for router in [Router::new(), Router::with_base_path("/a2a").unwrap().with_max_path_len(64)] {
            match router.match_route(&method, &path) {
                Ok(m) => {
                    // Whatever matched, the route's method is the request's.
                    prop_assert_eq!(m.route.method(), method.clone());
                    prop_assert!(m.params.task_id.is_some() == m.route.params().any(|p| p == PathParam::TaskId));
                }
                Err(RouteError::MethodNotAllowed { allowed }) => {
                    prop_assert!(!allowed.is_empty() && !allowed.contains(&method));
                    // Each listed method routes; its parameters are decoded
                    // only then, so they may still be malformed (400).
                    for m in allowed.iter() {
                        let r = router.match_route(&m, &path);
                        prop_assert!(
                            matches!(r, Ok(_) | Err(RouteError::InvalidParam { .. })),
                            "{} {}: {:?}", m, path, r
                        );
                    }
                }
                Err(_) => {}
            }
        }
    }

    #[test]
    fn query_parsing_never_panics(query in prop_oneof!["[a-zA-Z0-9=&%+,.~ -]{0,40}", "\\PC*", any::<String>()], name in "[a-zA-Z%+]{0,4}") {
        for config in [QueryConfig::new(), QueryConfig::new().with_plus_as_space(false).with_max_params(3).with_max_len(16)] {
            if let Ok(q) = QueryParams::parse_with(&query, &config) {
                let _ = q.get_str(&name);
                let _ = q.get_bool(&name);
                let _ = q.get_i32(&name);
                let _ = q.get_i64(&name);
                let _ = q.service_param(&name);
                let _ = q.service_param_all(&name).count();
                // Items of a repeated field never fail once the query parsed.
                prop_assert!(q.get_all(&name).is_ok());
                for (n, _) in q.iter() {
                    prop_assert!(q.get_all(n).is_ok());
                }
            }
        }
    }

    #[test]
    fn query_build_then_parse_round_trips(pairs in proptest::collection::vec(("\\PC{1,8}", "\\PC{0,8}"), 0..10), n in any::<i64>(), b in any::<bool>()) {
        let mut builder = QueryBuilder::new();
        for (k, v) in &pairs {
            builder.push(k, v);
        }
        builder.push_int("\u{0}n", n).push_bool("\u{0}b", b);
        for plus in [true, false] {
            let config = QueryConfig::new().with_plus_as_space(plus).with_max_len(usize::MAX);
            let q = QueryParams::parse_with(builder.as_str(), &config).unwrap();
            let got: Vec<(String, String)> = q.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect();
            prop_assert_eq!(&got[..pairs.len()], &pairs[..]);
            prop_assert_eq!(q.get_i64("\u{0}n").unwrap(), Some(n));
            prop_assert_eq!(q.get_bool("\u{0}b").unwrap(), Some(b));
        }
    }

    #[test]
    fn version_parsing_never_panics(text in prop_oneof!["[0-9. \t]{0,12}", "\\PC*", any::<String>()]) {
        let _ = ProtocolVersion::parse(&text);
        let served = [ProtocolVersion::V1_0];
        match ProtocolVersion::negotiate(&served, Some(&text)) {
            Ok(v) => prop_assert_eq!(v, ProtocolVersion::V1_0),
            Err(e) => prop_assert!(e.message().len() < 200),
        }
        let mut headers = HeaderMap::new();
        if let Ok(value) = HeaderValue::from_str(&text) {
            headers.insert(A2A_VERSION, value);
        }
        let _ = negotiate_version(&served, &headers, None);
    }

    #[test]
    fn version_display_then_parse_round_trips(major in any::<u32>(), minor in any::<u32>(), patch in proptest::option::of(any::<u32>())) {
        let v = ProtocolVersion::new(major, minor);
        prop_assert_eq!(ProtocolVersion::parse(&v.to_string()), Ok(v));
        if let Some(p) = patch {
            prop_assert_eq!(ProtocolVersion::parse(&format!("{v}.{p}")), Ok(v));
        }
    }

    #[test]
    fn extensions_parsing_never_panics(values in proptest::collection::vec(prop_oneof!["[a-z:/, \t.]{0,20}", "\\PC*"], 0..4)) {
        let limits = ExtensionLimits::new().with_max_count(4).with_max_uri_len(12);
        let _ = RequestedExtensions::parse(values.iter().map(String::as_str), &limits);
        let mut headers = HeaderMap::new();
        for v in &values {
            if let Ok(value) = HeaderValue::from_str(v) {
                headers.append(A2A_EXTENSIONS, value);
            }
        }
        if let Ok(ext) = RequestedExtensions::from_headers(&headers, &limits) {
            prop_assert!(ext.len() <= 4);
            prop_assert!(ext.iter().all(|u| u.len() <= 12 && !u.is_empty()));
        }
    }

    #[test]
    fn extensions_encode_then_parse_round_trips(uris in proptest::collection::vec("[!-+\\--~]{1,20}", 0..8)) {
        // The character class is visible ASCII without the comma.
        let header = encode_extensions(uris.iter().map(String::as_str)).unwrap();
        let mut unique: Vec<&str> = Vec::new();
        for u in &uris {
            if !unique.contains(&u.as_str()) {
                unique.push(u);
            }
        }
        match header {
            None => prop_assert!(uris.is_empty()),
            Some(h) => {
                let text = h.to_str().unwrap();
                let ext = RequestedExtensions::parse([text], &ExtensionLimits::new()).unwrap();
                prop_assert_eq!(ext.as_slice(), &unique[..]);
            }
        }
    }

    #[test]
    fn webhook_url_checking_never_panics(url in prop_oneof![
        "\\PC*",
        any::<String>(),
        "(https?|ftp)://[a-zA-Z0-9.:\\[\\]%@_-]{0,30}(/[ -~]{0,10})?",
        "http://[0-9a-fA-Fx.]{1,24}/",
    ]) {
        let mut allow = Allowlist::new();
        allow.allow("10.0.0.0/8").unwrap().allow("hooks.internal").unwrap();
        if let Ok(target) = check_webhook_url(&url, &allow) {
            if let WebhookHost::Ip(ip) = target.host() {
                prop_assert!(ip_refusal(ip).is_none() || allow.allows_ip(ip));
            }
        }
    }

    #[test]
    fn numeric_hosts_decode_like_inet_aton(a in any::<u32>()) {
        let ip = Ipv4Addr::from(a);
        let [b0, b1, b2, b3] = ip.octets();
        let forms = [
            format!("{a}"),
            format!("0x{a:x}"),
            format!("0{a:o}"),
            format!("{b0}.{}", a & 0x00ff_ffff),
            format!("{b0}.{b1}.{}", a & 0xffff),
            format!("0x{b0:x}.0{b1:o}.{b2}.0x{b3:X}"),
            format!("{ip}."),
        ];
        let mut allow = Allowlist::new();
        allow.allow("0.0.0.0/0").unwrap();
        for form in forms {
            let url = format!("http://{form}/");
            let target = check_webhook_url(&url, &allow).unwrap();
            prop_assert_eq!(target.host(), WebhookHost::Ip(IpAddr::V4(ip)), "{}", url);
            // Without the allowlist the verdict is the address's.
            match (check_webhook_url(&url, &Allowlist::new()), ip_refusal(IpAddr::V4(ip))) {
                (Ok(_), None) => {}
                (Err(SsrfError::RefusedAddress { reason, .. }), Some(want)) => prop_assert_eq!(reason, want),
                (got, want) => prop_assert!(false, "{}: {:?} vs {:?}", url, got, want),
            }
        }
    }

    #[test]
    fn embedded_ipv4_gets_the_ipv4_verdict(a in any::<u32>(), port in any::<u16>()) {
        let v4 = Ipv4Addr::from(a);
        let mapped = IpAddr::V6(v4.to_ipv6_mapped());
        let nat64 = IpAddr::V6(Ipv6Addr::from((0x64_ff9b_u128 << 96) | u128::from(a)));
        for v6 in [mapped, nat64] {
            prop_assert_eq!(canonical_ip(v6), IpAddr::V4(v4));
            prop_assert_eq!(ip_refusal(v6), ip_refusal(IpAddr::V4(v4)));
            let none = Allowlist::new();
            prop_assert_eq!(
                check_socket_addr(SocketAddr::new(v6, port), &none).is_ok(),
                check_socket_addr(SocketAddr::new(IpAddr::V4(v4), port), &none).is_ok()
            );
        }
    }

    #[test]
    fn allowlisting_an_address_admits_it(bits in any::<u128>(), v4 in any::<bool>()) {
        let ip = if v4 {
            IpAddr::V4(Ipv4Addr::from(bits as u32))
        } else {
            IpAddr::V6(Ipv6Addr::from(bits))
        };
        let mut allow = Allowlist::new();
        allow.allow_ip(ip);
        prop_assert!(a2a_transport::webhook::check_ip(ip, &allow).is_ok());
        prop_assert!(allow.allow(&ip.to_string()).is_ok());
    }
}
