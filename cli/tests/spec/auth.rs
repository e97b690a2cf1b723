//! `AUTH`: authentication (a2a-cli spec §12).

use serde_json::{json, Value};

use crate::common::*;

/// Adds a security scheme to a card file's JSON.
fn with_scheme(card: &mut Value, name: &str, scheme: Value) {
    card["securitySchemes"] = json!({ name: scheme });
    card["securityRequirements"] = json!([{ "schemes": { name: { "list": [] } } }]);
}

/// Bearer tokens and API keys from flags or the environment, attached as
/// the card's scheme says; `--svc-param` is a separate, general option.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_001() {
    let url = agent(&["--bearer", "tok-1"]).await;
    let sent = cli()
        .json(&["send", "-a", &url, "echo in", "--bearer", "tok-1"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    let sent = cli()
        .env("A2ACLI_BEARER", "tok-1")
        .json(&["send", "-a", &url, "echo env"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    let plain = agent(&[]).await;
    for (location, expect) in [
        ("header", "> x-test-key: [REDACTED]"),
        ("cookie", "> cookie: [REDACTED]"),
        ("query", "?X-Test-Key=[REDACTED] HTTP/1.1"),
    ] {
        let card = card_file(&plain, |c| {
            with_scheme(
                c,
                "key",
                json!({"apiKeySecurityScheme": {"location": location, "name": "X-Test-Key"}}),
            )
        })
        .await;
        let o = a2a(&[
            "send",
            "-a",
            card.to_str().unwrap(),
            "echo k",
            "--api-key",
            "k-123",
            "--debug",
        ])
        .await;
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(err(&o).contains(expect), "{location}: {}", err(&o));
        let o = cli()
            .env("A2ACLI_API_KEY", "k-123")
            .run(&["send", "-a", card.to_str().unwrap(), "echo k", "--debug"])
            .await;
        assert!(
            err(&o).contains(expect),
            "{location} from the environment: {}",
            err(&o)
        );
    }
    let o = a2a(&[
        "send",
        "-a",
        &plain,
        "echo p",
        "--svc-param",
        "x-trace-id:abc123",
        "--debug",
    ])
    .await;
    assert!(err(&o).contains("> x-trace-id: abc123"), "{}", err(&o));
    let help = cli().ok(&["--help"]).await;
    let line = help
        .lines()
        .find(|l| l.contains("--svc-param <k:v>"))
        .unwrap();
    assert!(!line.to_ascii_lowercase().contains("credential"), "{line}");
    assert!(help.contains("not an authentication option"), "{help}");
}

/// Each credential flag has an environment variable; the help says a flag
/// is exposed in the process table and shell history; the flag still
/// wins over the environment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_002() {
    let help = cli().ok(&["--help"]).await;
    assert!(
        help.contains("A2ACLI_BEARER") && help.contains("A2ACLI_API_KEY"),
        "{help}"
    );
    assert!(
        help.contains("process table") && help.contains("shell history"),
        "{help}"
    );
    let url = agent(&["--bearer", "right"]).await;
    let ok = cli()
        .env("A2ACLI_BEARER", "wrong")
        .json(&["send", "-a", &url, "echo flag wins", "--bearer", "right"])
        .await;
    assert_eq!(at(&ok, "/task/status/state"), "TASK_STATE_COMPLETED");
    let o = cli()
        .env("A2ACLI_BEARER", "right")
        .run(&["send", "-a", &url, "echo x", "--bearer", "wrong"])
        .await;
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    let shown = cli()
        .env("A2ACLI_BEARER", "right")
        .ok(&["config", "show"])
        .await;
    let line = shown
        .lines()
        .find(|l| l.starts_with("Setting bearer:"))
        .unwrap();
    assert!(
        line.contains("environment A2ACLI_BEARER") && !line.contains("right"),
        "{line}"
    );
}

/// `--insecure` warns on stderr, louder when a credential travels with it;
/// without it there is no warning (verification is on).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_003() {
    let url = agent(&["--bearer", "t0k"]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo i",
        "--insecure",
        "--bearer",
        "t0k",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    assert!(err(&o).contains("WARNING: --insecure"), "{}", err(&o));
    assert!(
        err(&o).contains("WARNING: sending credentials"),
        "{}",
        err(&o)
    );
    let o = a2a(&["card", "get", "-a", &url, "--insecure"]).await;
    assert!(err(&o).contains("NOT verified"), "{}", err(&o));
    let o = cli()
        .env("A2ACLI_INSECURE", "true")
        .run(&["card", "get", "-a", &url])
        .await;
    assert!(
        err(&o).contains("NOT verified"),
        "from the environment too: {}",
        err(&o)
    );
    let o = a2a(&["send", "-a", &url, "echo s", "--bearer", "t0k"]).await;
    assert!(!err(&o).contains("WARNING"), "{}", err(&o));
}

/// Credentials never reach the diagnostics, whatever the verbosity.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_004() {
    let url = agent(&["--bearer", "very-secret-token"]).await;
    let o = a2a(&[
        "send",
        "-a",
        &url,
        "echo r",
        "--bearer",
        "very-secret-token",
        "--svc-param",
        "x-api-token:svc-secret-9",
        "--api-key",
        "key-secret-7",
        "--debug",
        "--verbose",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let log = err(&o);
    assert!(log.contains("authorization: [REDACTED]"), "{log}");
    for secret in ["very-secret-token", "svc-secret-9", "key-secret-7"] {
        assert!(!log.contains(secret), "{secret} leaked:\n{log}");
        assert!(!out(&o).contains(secret), "{secret} in stdout");
    }
    let o = a2a(&["config", "show", "--bearer", "very-secret-token", "--debug"]).await;
    assert!(!out(&o).contains("very-secret-token") && !err(&o).contains("very-secret-token"));
}

/// The card of `url` with an OAuth 2 scheme whose flow is `flow`.
async fn oauth_card(url: &str, flow: Value) -> std::path::PathBuf {
    card_file(url, |c| {
        with_scheme(c, "oauth", json!({"oauth2SecurityScheme": {"flows": flow}}))
    })
    .await
}

/// `auth login` with the device-code flow (RFC 8628).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_005() {
    let idp = oauth_provider("dev-token-5").await;
    let url = agent(&["--bearer", "dev-token-5"]).await;
    let card = oauth_card(&url, json!({"deviceCode": {"deviceAuthorizationUrl": format!("{idp}/device"), "tokenUrl": format!("{idp}/token"), "scopes": {"a2a": "use"}}})).await;
    let home = temp_dir("device-home");
    let c = cli().home(&home);
    let o = c
        .run(&[
            "auth",
            "login",
            "-a",
            card.to_str().unwrap(),
            "--client-id",
            "cli",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("enter the code WDJB-MJHT"), "{}", err(&o));
    assert_eq!(field(&out(&o), "Flow"), Some("device-code"));
    let sent = c
        .json(&["send", "-a", card.to_str().unwrap(), "echo logged in"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
}

/// `auth login` with the client-credentials flow; a wrong secret fails.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_006() {
    let idp = oauth_provider("cc-token-6").await;
    let url = agent(&["--bearer", "cc-token-6"]).await;
    let card = oauth_card(
        &url,
        json!({"clientCredentials": {"tokenUrl": format!("{idp}/token"), "scopes": {}}}),
    )
    .await;
    let home = temp_dir("cc-home");
    let c = cli().home(&home).env("A2ACLI_CLIENT_SECRET", "s3cret");
    let shown = c
        .ok(&[
            "auth",
            "login",
            "-a",
            card.to_str().unwrap(),
            "--client-id",
            "cli",
        ])
        .await;
    assert_eq!(field(&shown, "Flow"), Some("client-credentials"), "{shown}");
    assert!(!shown.contains("cc-token-6"), "the token is never printed");
    let sent = c
        .json(&["send", "-a", card.to_str().unwrap(), "echo cc"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    let o = cli()
        .run(&[
            "auth",
            "login",
            "-a",
            card.to_str().unwrap(),
            "--client-id",
            "cli",
            "--client-secret",
            "nope",
        ])
        .await;
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(
        err(&o).contains("A2ACLI_ERR_AUTH_FAILED") && err(&o).contains("invalid_client"),
        "{}",
        err(&o)
    );
}

/// The token is stored in a 0600 file (its directory 0700), attached to
/// later calls to that agent, and removed by `auth logout`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_007() {
    use std::os::unix::fs::PermissionsExt;
    let idp = oauth_provider("stored-token-7").await;
    let url = agent(&["--bearer", "stored-token-7"]).await;
    let card = oauth_card(
        &url,
        json!({"clientCredentials": {"tokenUrl": format!("{idp}/token"), "scopes": {}}}),
    )
    .await;
    let home = temp_dir("store-home");
    let c = cli().home(&home);
    let card = card.to_str().unwrap();
    let o = c.run(&["send", "-a", card, "echo before"]).await;
    assert_eq!(o.status.code(), Some(4), "no token yet: {}", err(&o));
    assert!(
        err(&o).contains("a2a auth login"),
        "the hint names the login: {}",
        err(&o)
    );
    c.ok(&[
        "auth",
        "login",
        "-a",
        card,
        "--client-id",
        "cli",
        "--client-secret",
        "s3cret",
    ])
    .await;
    let dir = home.join(".config/a2a-cli/credentials");
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    assert_eq!(files.len(), 1);
    assert_eq!(
        files[0].metadata().unwrap().permissions().mode() & 0o777,
        0o600
    );
    assert_eq!(
        std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777,
        0o700
    );
    let o = c.run(&["send", "-a", card, "echo after", "--debug"]).await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("attaching the stored token"),
        "{}",
        err(&o)
    );
    assert!(!err(&o).contains("stored-token-7"), "redacted: {}", err(&o));
    assert_eq!(
        field(&c.ok(&["auth", "status", "-a", card]).await, "Token"),
        Some("stored")
    );
    c.ok(&["auth", "logout", "-a", card]).await;
    let o = c.run(&["send", "-a", card, "echo gone"]).await;
    assert_eq!(o.status.code(), Some(4));
}

/// No credential is presented to a card endpoint: the public card is
/// fetched without one, and the extended card is not asked for when the
/// card declares no scheme.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_008() {
    let url = agent(&["--bearer", "card-secret"]).await;
    let o = a2a(&[
        "card",
        "get",
        "-a",
        &url,
        "--bearer",
        "card-secret",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0));
    let log = err(&o);
    assert!(
        log.contains("> GET ") && !log.contains("authorization:"),
        "{log}"
    );
    let o = a2a(&[
        "card",
        "get",
        "-a",
        &url,
        "--extended",
        "--bearer",
        "card-secret",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let log = err(&o);
    let card_get = log
        .split("> GET ")
        .nth(1)
        .unwrap()
        .split("> POST")
        .next()
        .unwrap();
    assert!(
        !card_get.contains("authorization:"),
        "the public card's GET: {card_get}"
    );
    assert!(
        log.contains("authorization: [REDACTED]"),
        "the extended card's call carries it: {log}"
    );
    let plain = agent(&[]).await;
    let card = card_file(&plain, |c| {
        c["capabilities"]["extendedAgentCard"] = json!(true)
    })
    .await;
    let o = a2a(&[
        "card",
        "get",
        "-a",
        card.to_str().unwrap(),
        "--extended",
        "--bearer",
        "card-secret",
        "--debug",
    ])
    .await;
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    assert!(!err(&o).contains("authorization:"), "{}", err(&o));
    assert!(!err(&o).contains("> POST"), "no call was made: {}", err(&o));
}

/// Mutual TLS: a client certificate is presented when asked for, and an
/// agent that requires one refuses a client without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_009() {
    let url = agent(&[]).await;
    let tls = crate::common::mtls_proxy(&url).await;
    let card = card_file(&url, |c| {
        for i in c["supportedInterfaces"].as_array_mut().unwrap() {
            let u = i["url"]
                .as_str()
                .unwrap()
                .replace(
                    url.trim_start_matches("http://"),
                    tls.addr.trim_start_matches("https://"),
                )
                .replace("http://", "https://");
            i["url"] = json!(u);
        }
        c["supportedInterfaces"] = json!([c["supportedInterfaces"][0].clone()]);
        c["securitySchemes"] = json!({"mtls": {"mtlsSecurityScheme": {}}});
    })
    .await;
    let (cert, key) = (
        tls.client_cert.to_str().unwrap(),
        tls.client_key.to_str().unwrap(),
    );
    let text = cli()
        .ok(&[
            "card",
            "get",
            "-a",
            &tls.addr,
            "--insecure",
            "--cert",
            cert,
            "--key",
            key,
        ])
        .await;
    assert_eq!(field(&text, "Name"), Some("A2A reference agent"));
    let sent = cli()
        .json(&[
            "send",
            "-a",
            card.to_str().unwrap(),
            "echo over mtls",
            "--insecure",
            "--cert",
            cert,
            "--key",
            key,
        ])
        .await;
    assert_eq!(at(&sent, "/task/artifacts/0/parts/0/text"), "over mtls");
    let o = a2a(&["card", "get", "-a", &tls.addr, "--insecure"]).await;
    assert_eq!(
        o.status.code(),
        Some(3),
        "no client certificate: {}",
        err(&o)
    );
    let o = a2a(&["card", "get", "-a", &tls.addr, "--cert", cert]).await;
    assert_eq!(o.status.code(), Some(2), "--cert needs --key: {}", err(&o));
}

/// OpenID Connect: the provider's discovery document gives the token
/// endpoint; the login's token then reaches the agent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_010() {
    let idp = oauth_provider("oidc-token-10").await;
    let url = agent(&["--bearer", "oidc-token-10"]).await;
    let card = card_file(&url, |c| {
        with_scheme(c, "oidc", json!({"openIdConnectSecurityScheme": {"openIdConnectUrl": format!("{idp}/.well-known/openid-configuration")}}))
    })
    .await;
    let home = temp_dir("oidc-home");
    let c = cli().home(&home);
    let shown = c
        .ok(&[
            "auth",
            "login",
            "-a",
            card.to_str().unwrap(),
            "--client-id",
            "cli",
            "--client-secret",
            "s3cret",
        ])
        .await;
    assert_eq!(field(&shown, "Scheme"), Some("oidc"), "{shown}");
    let sent = c
        .json(&["send", "-a", card.to_str().unwrap(), "echo oidc"])
        .await;
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    // The device flow through the same discovery document.
    let home = temp_dir("oidc-device-home");
    let o = cli()
        .home(&home)
        .run(&[
            "auth",
            "login",
            "-a",
            card.to_str().unwrap(),
            "--client-id",
            "cli",
            "--flow",
            "device-code",
        ])
        .await;
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

/// An in-task AUTH_REQUIRED stops the wait, names what to do, and is
/// resolved by answering the task with credentials.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a2acli_auth_011() {
    let url = agent(&[]).await;
    let o = a2a(&["send", "-a", &url, "auth"]).await;
    assert_eq!(o.status.code(), Some(0));
    let text = out(&o);
    assert_eq!(field(&text, "State"), Some("AUTH_REQUIRED"));
    let id = field(&text, "Task-ID").unwrap().to_owned();
    let resume = field(&text, "Resume").unwrap();
    assert!(
        resume.contains(&format!("--task-id {id}")) && resume.contains("--bearer"),
        "{resume}"
    );
    assert!(err(&o).contains("AUTH_REQUIRED"), "{}", err(&o));
    let done = cli()
        .json(&[
            "send",
            "-a",
            &url,
            "here is my token",
            "--task-id",
            &id,
            "--bearer",
            "t",
        ])
        .await;
    assert_eq!(at(&done, "/task/id"), id);
    assert_eq!(at(&done, "/task/status/state"), "TASK_STATE_COMPLETED");
}

/// OAuth 2 client credentials from configuration (issue 31): with
/// `A2ACLI_CLIENT_ID` and `A2ACLI_CLIENT_SECRET` in a `.env`, a call gets
/// its token from the card's token endpoint through the credential
/// provider, without `auth login`; neither the secret nor the token is in
/// the `--debug` output, nor in `config show`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_credentials_from_configuration() {
    let idp = oauth_provider("cfg-token-31").await;
    let url = agent(&["--bearer", "cfg-token-31"]).await;
    let card = oauth_card(
        &url,
        json!({"clientCredentials": {"tokenUrl": format!("{idp}/token"), "scopes": {}}}),
    )
    .await;
    let dir = temp_dir("cc-config");
    let env = dir.join("agent.env");
    std::fs::write(&env, "A2ACLI_CLIENT_ID=cli\nA2ACLI_CLIENT_SECRET=s3cret\n").unwrap();
    let home = temp_dir("cc-config-home");
    let c = cli().home(&home);
    let args = [
        "send",
        "-a",
        card.to_str().unwrap(),
        "--config",
        env.to_str().unwrap(),
        "--debug",
        "-o",
        "json",
        "echo from config",
    ];
    let o = c.run(&args).await;
    assert_eq!(
        o.status.code(),
        Some(0),
        "{:?} {}{}",
        o.status,
        err(&o),
        out(&o)
    );
    let sent: Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(at(&sent, "/task/status/state"), "TASK_STATE_COMPLETED");
    let log = err(&o);
    assert!(
        log.contains("credentials for the card's requirement: oauth"),
        "{log}"
    );
    for secret in ["s3cret", "cfg-token-31"] {
        assert!(
            !log.contains(secret) && !out(&o).contains(secret),
            "{secret}: {log}"
        );
    }
    let shown = c
        .ok(&["config", "show", "--config", env.to_str().unwrap()])
        .await;
    assert!(!shown.contains("s3cret"), "{shown}");
    // A wrong secret: the token endpoint's refusal, exit 4.
    std::fs::write(&env, "A2ACLI_CLIENT_ID=cli\nA2ACLI_CLIENT_SECRET=nope\n").unwrap();
    let o = c.run(&args).await;
    assert_eq!(
        o.status.code(),
        Some(4),
        "{:?} {}{}",
        o.status,
        err(&o),
        out(&o)
    );
    assert!(out(&o).contains("invalid_client"), "{}", out(&o));
}
