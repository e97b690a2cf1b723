//! Client credentials over real loopback HTTP (issue 31): an OAuth 2.0
//! token endpoint written here that counts its token requests, and an
//! agent (`A2aServer` on `serve`) that accepts only the tokens it issued;
//! API keys in a header, the query and a cookie; a bearer token.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use a2a_hyper::{serve, server_config, HyperClient, ServeOptions};
use a2a_transport::client::{ClientCredentials, ClientCredentialsConfig, Credentials};
use a2a_transport::server::{ApiKeyAuth, AuthOutcome, AuthRequest, Authenticator, BearerAuth};
use a2a_transport::{
    A2aServer, A2aService, Binding, BoxFuture, CallContext, HttpTransport, Principal,
};
use a2a_types::{AgentCard, ErrorKind, Message, SendMessageRequest};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

mod support;

/// The token endpoint: counts requests, issues `tok-N` for 100 s to the
/// client `agent-client` with secret `s3cret` (HTTP Basic).
#[derive(Default)]
struct Idp {
    requests: AtomicUsize,
    issued: Mutex<BTreeSet<String>>,
    last_body: Mutex<String>,
}

async fn start_idp() -> (String, Arc<Idp>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/token", listener.local_addr().unwrap());
    let idp = Arc::new(Idp::default());
    let state = Arc::clone(&idp);
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let state = Arc::clone(&state);
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: http::Request<hyper::body::Incoming>| {
                        let state = Arc::clone(&state);
                        async move {
                            let basic = req
                                .headers()
                                .get("authorization")
                                .and_then(|v| v.to_str().ok())
                                .map(str::to_owned);
                            let body = req.into_body().collect().await.unwrap().to_bytes();
                            let n = state.requests.fetch_add(1, Ordering::SeqCst) + 1;
                            *state.last_body.lock().unwrap() =
                                String::from_utf8_lossy(&body).into_owned();
                            // base64("agent-client:s3cret")
                            let (status, answer) = if basic.as_deref()
                                == Some("Basic YWdlbnQtY2xpZW50OnMzY3JldA==")
                            {
                                let token = format!("tok-{n}");
                                state.issued.lock().unwrap().insert(token.clone());
                                (
                                    200,
                                    format!(
                                        r#"{{"access_token":"{token}","token_type":"Bearer","expires_in":100}}"#
                                    ),
                                )
                            } else {
                                (401, r#"{"error":"invalid_client"}"#.to_owned())
                            };
                            Ok::<_, Infallible>(
                                http::Response::builder()
                                    .status(status)
                                    .header("content-type", "application/json")
                                    .body(Full::new(Bytes::from(answer)))
                                    .unwrap(),
                            )
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    (url, idp)
}

/// The agent's authenticator: a token the endpoint issued, unless told
/// to refuse the next few calls.
struct IssuedTokens {
    idp: Arc<Idp>,
    refuse_next: Arc<AtomicUsize>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Authenticator for IssuedTokens {
    fn authenticate<'a>(&'a self, req: AuthRequest<'a>) -> BoxFuture<'a, AuthOutcome> {
        let token = req
            .headers
            .get("authorization")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::to_owned);
        let outcome = match token {
            None => AuthOutcome::Anonymous,
            Some(t) => {
                self.seen.lock().unwrap().push(t.clone());
                let refuse = self
                    .refuse_next
                    .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1))
                    .is_ok();
                if !refuse && self.idp.issued.lock().unwrap().contains(&t) {
                    AuthOutcome::Authenticated(Principal::new("client", "oauth"))
                } else {
                    AuthOutcome::Unauthenticated("token refused".into())
                }
            }
        };
        Box::pin(std::future::ready(outcome))
    }
}

/// The test card with `schemes` and one requirement of `required`.
fn card_with(schemes: &str, required: &str) -> AgentCard {
    let mut card = support::card();
    card.security_schemes = a2a_types::from_slice(schemes.as_bytes()).unwrap();
    card.security_requirements = a2a_types::from_slice(
        format!(r#"[{{"schemes": {{"{required}": {{"list": []}}}}}}]"#).as_bytes(),
    )
    .unwrap();
    card
}

/// Serves the test agent with `card` and `auth`; its base URL.
async fn start_agent(card: AgentCard, auth: impl Authenticator + 'static) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = A2aServer::new(
        support::Agent,
        card,
        server_config().with_authenticator(auth),
    )
    .unwrap();
    tokio::spawn(serve(
        listener,
        Arc::new(server),
        ServeOptions::default(),
        std::future::pending(),
    ));
    format!("http://{addr}")
}

fn message() -> SendMessageRequest {
    SendMessageRequest::new(Message::user_text("m-1", "hi"))
}

#[tokio::test]
async fn oauth2_client_credentials_one_token_per_expiry_and_one_retry_on_401() {
    let (token_url, idp) = start_idp().await;
    let card = card_with(
        &format!(
            r#"{{"oauth": {{"oauth2SecurityScheme": {{"flows": {{"clientCredentials": {{"tokenUrl": "{token_url}", "scopes": {{"a2a": "calls"}}}}}}}}}}}}"#
        ),
        "oauth",
    );
    let refuse_next = Arc::new(AtomicUsize::new(0));
    let seen = Arc::new(Mutex::new(Vec::new()));
    let base = start_agent(
        card.clone(),
        IssuedTokens {
            idp: Arc::clone(&idp),
            refuse_next: Arc::clone(&refuse_next),
            seen: Arc::clone(&seen),
        },
    )
    .await;
    let now = Arc::new(AtomicU64::new(1_700_000_000));
    let clock = {
        let now = Arc::clone(&now);
        move || SystemTime::UNIX_EPOCH + Duration::from_secs(now.load(Ordering::SeqCst))
    };
    // The card's token URL is plain http (loopback): allowed explicitly.
    let config = ClientCredentialsConfig::new("agent-client", "s3cret")
        .with_scopes(["a2a"])
        .with_refresh_skew(Duration::from_secs(10))
        .with_http_token_url_allowed(true);
    let flow = ClientCredentials::new(HyperClient::new(), clock, config);
    let chosen = Credentials::new().with_oauth2(flow).select(&card).unwrap();
    let cx = CallContext::new();
    for (binding, url) in [
        (Binding::JsonRpc, format!("{base}/")),
        (Binding::HttpJson, base.clone()),
        (Binding::Grpc, base.clone()),
    ] {
        let t = HttpTransport::new(HyperClient::new(), binding, &url)
            .unwrap()
            .with_credentials(chosen.clone());
        for _ in 0..5 {
            t.send_message(&cx, message()).await.unwrap();
        }
    }
    // Fifteen calls over the three bindings, one token.
    assert_eq!(idp.requests.load(Ordering::SeqCst), 1);
    assert_eq!(
        *idp.last_body.lock().unwrap(),
        "grant_type=client_credentials&scope=a2a"
    );
    let t = HttpTransport::new(HyperClient::new(), Binding::JsonRpc, &format!("{base}/"))
        .unwrap()
        .with_credentials(chosen);
    // Just before expiry minus skew: cached. Past it: exactly one more.
    now.fetch_add(89, Ordering::SeqCst);
    t.send_message(&cx, message()).await.unwrap();
    assert_eq!(idp.requests.load(Ordering::SeqCst), 1);
    now.fetch_add(2, Ordering::SeqCst);
    for _ in 0..3 {
        t.send_message(&cx, message()).await.unwrap();
    }
    assert_eq!(idp.requests.load(Ordering::SeqCst), 2);
    assert_eq!(seen.lock().unwrap().last().unwrap(), "tok-2");
    // A 401: one fresh token, one retry, which succeeds.
    refuse_next.store(1, Ordering::SeqCst);
    let calls_before = seen.lock().unwrap().len();
    t.send_message(&cx, message()).await.unwrap();
    assert_eq!(idp.requests.load(Ordering::SeqCst), 3);
    let seen_now = seen.lock().unwrap().clone();
    assert_eq!(&seen_now[calls_before..], ["tok-2", "tok-3"]);
    // Two 401s: the second is the caller's, after one retry only.
    refuse_next.store(2, Ordering::SeqCst);
    let e = t.send_message(&cx, message()).await.unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unauthenticated);
    assert_eq!(idp.requests.load(Ordering::SeqCst), 4);
    assert_eq!(seen.lock().unwrap().len(), calls_before + 4);
    // The refused token is forgotten: the next call fetches, and works.
    t.send_message(&cx, message()).await.unwrap();
    assert_eq!(idp.requests.load(Ordering::SeqCst), 5);
    // gRPC's UNAUTHENTICATED (a trailers-only answer): the same retry, as
    // metadata; and a stream opened after one refusal.
    let g = HttpTransport::new(HyperClient::new(), Binding::Grpc, &base)
        .unwrap()
        .with_credentials(t.credentials().clone());
    refuse_next.store(1, Ordering::SeqCst);
    g.send_message(&cx, message()).await.unwrap();
    assert_eq!(idp.requests.load(Ordering::SeqCst), 6);
    refuse_next.store(1, Ordering::SeqCst);
    let _stream = g.stream_message(&cx, message()).await.unwrap();
    assert_eq!(idp.requests.load(Ordering::SeqCst), 7);
}

#[tokio::test]
async fn a_wrong_client_secret_is_an_authentication_error_without_a_call() {
    let (token_url, idp) = start_idp().await;
    let card = card_with(
        r#"{"oauth": {"oauth2SecurityScheme": {"flows": {"clientCredentials": {"tokenUrl": "https://unused.example/t", "scopes": {}}}}}}"#,
        "oauth",
    );
    let seen = Arc::new(Mutex::new(Vec::new()));
    let base = start_agent(
        card.clone(),
        IssuedTokens {
            idp: Arc::clone(&idp),
            refuse_next: Arc::default(),
            seen: Arc::clone(&seen),
        },
    )
    .await;
    // The explicit token URL wins over the card's.
    let config = ClientCredentialsConfig::new("agent-client", "wrong").with_token_url(token_url);
    let flow = ClientCredentials::new(HyperClient::new(), SystemTime::now, config);
    let chosen = Credentials::new().with_oauth2(flow).select(&card).unwrap();
    let t = HttpTransport::new(HyperClient::new(), Binding::HttpJson, &base)
        .unwrap()
        .with_credentials(chosen);
    let e = t
        .send_message(&CallContext::new(), message())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unauthenticated);
    assert!(e.message().contains("invalid_client"), "{e}");
    assert_eq!(idp.requests.load(Ordering::SeqCst), 1);
    assert!(seen.lock().unwrap().is_empty());
}

#[tokio::test]
async fn api_keys_reach_the_agent_where_the_card_says_and_bearer_tokens_too() {
    for location in ["header", "query", "cookie"] {
        let card = card_with(
            &format!(
                r#"{{"key": {{"apiKeySecurityScheme": {{"location": "{location}", "name": "agent_key"}}}}}}"#
            ),
            "key",
        );
        let auth = ApiKeyAuth::from_card(&card, "key")
            .unwrap()
            .with_key("k-123", "bot");
        let base = start_agent(card.clone(), auth).await;
        let cx = CallContext::new();
        for (binding, url) in [
            (Binding::JsonRpc, format!("{base}/")),
            (Binding::HttpJson, base.clone()),
            (Binding::Grpc, base.clone()),
        ] {
            let chosen = Credentials::new()
                .with_api_key("k-123")
                .select(&card)
                .unwrap();
            let t = HttpTransport::new(HyperClient::new(), binding, &url).unwrap();
            let e = t.send_message(&cx, message()).await.unwrap_err();
            assert_eq!(
                e.kind(),
                ErrorKind::Unauthenticated,
                "{location} {binding:?}"
            );
            let t = t.with_credentials(chosen);
            if binding == Binding::Grpc && location == "query" {
                // gRPC has metadata, no query: refused before sending.
                let e = t.send_message(&cx, message()).await.unwrap_err();
                assert!(e.message().contains("gRPC does not carry"), "{e}");
                continue;
            }
            t.send_message(&cx, message())
                .await
                .unwrap_or_else(|e| panic!("{location} {binding:?}: {e}"));
        }
    }
    let card = card_with(
        r#"{"jwt": {"httpAuthSecurityScheme": {"scheme": "Bearer"}}}"#,
        "jwt",
    );
    let base = start_agent(
        card.clone(),
        BearerAuth::new("jwt").with_token("b-456", "alice"),
    )
    .await;
    let chosen = Credentials::new()
        .with_bearer("b-456")
        .select(&card)
        .unwrap();
    let t = HttpTransport::new(HyperClient::new(), Binding::HttpJson, &base)
        .unwrap()
        .with_credentials(chosen);
    t.send_message(&CallContext::new(), message())
        .await
        .unwrap();
    // A static token is not retried: one call, one refusal.
    let wrong = Credentials::new()
        .with_bearer("nope")
        .select(&card)
        .unwrap();
    let t = HttpTransport::new(HyperClient::new(), Binding::HttpJson, &base)
        .unwrap()
        .with_credentials(wrong);
    let e = t
        .send_message(&CallContext::new(), message())
        .await
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unauthenticated);
}
