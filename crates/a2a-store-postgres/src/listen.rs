//! The listening connection: `LISTEN` on the store's channel, each
//! notification of another store handed to the [`Hub`], and a new
//! connection whenever this one fails, after which every watch reports
//! `Changed` (what was sent meanwhile is lost; the logs are not).
//!
//! A payload is `ORIGIN KIND POSITION TASK_ID`: the writing store, `e`
//! for an event at `POSITION`, `m` for a message, `x` for a removed task.

use std::sync::Arc;
use std::time::Duration;

use a2a_agent::store::StoreError;
use tokio::sync::{mpsc, oneshot};
use tokio_postgres::{AsyncMessage, NoTls};

use crate::hub::Hub;

/// The listening connection's `application_name` (in `pg_stat_activity`)
/// starts with this, followed by the schema.
pub const LISTENER_NAME: &str = "a2a listen";

/// Starts the listener on the current runtime; answers once it listens
/// (or why the first connection failed).
pub(crate) async fn start(
    config: tokio_postgres::Config,
    schema: String,
    channel: String,
    origin: String,
    hub: Arc<Hub>,
    heartbeat: Duration,
) -> Result<(), StoreError> {
    let (ready, listening) = oneshot::channel();
    tokio::spawn(run(config, schema, channel, origin, hub, heartbeat, ready));
    listening
        .await
        .map_err(|_| StoreError::Backend("the listener stopped".to_owned()))?
}

async fn run(
    config: tokio_postgres::Config,
    schema: String,
    channel: String,
    origin: String,
    hub: Arc<Hub>,
    heartbeat: Duration,
    ready: oneshot::Sender<Result<(), StoreError>>,
) {
    let mut ready = Some(ready);
    let mut backoff = Duration::from_millis(50);
    loop {
        match session(
            &config, &schema, &channel, &origin, &hub, heartbeat, &mut ready,
        )
        .await
        {
            // Listened, then lost the connection: connect again at once.
            Ok(()) => backoff = Duration::from_millis(50),
            Err(e) => {
                if let Some(ready) = ready.take() {
                    let _ = ready.send(Err(e));
                    return;
                }
                tokio::time::sleep(backoff).await;
                backoff = (backoff * 2).min(Duration::from_secs(5));
            }
        }
    }
}

/// One connection's life: `Ok` once it listened and then failed.
async fn session(
    config: &tokio_postgres::Config,
    schema: &str,
    channel: &str,
    origin: &str,
    hub: &Arc<Hub>,
    heartbeat: Duration,
    ready: &mut Option<oneshot::Sender<Result<(), StoreError>>>,
) -> Result<(), StoreError> {
    let fail = |e: tokio_postgres::Error| StoreError::Backend(format!("listener: {e}"));
    let mut config = config.clone();
    config.application_name(format!("{LISTENER_NAME} {schema}"));
    let (client, mut connection) = config.connect(NoTls).await.map_err(fail)?;
    let (tx, mut notes) = mpsc::unbounded_channel();
    let driver = tokio::spawn(async move {
        loop {
            match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
                Some(Ok(AsyncMessage::Notification(n))) => {
                    if tx.send(n).is_err() {
                        return;
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return,
            }
        }
    });
    let listened = client
        .batch_execute(&format!("LISTEN \"{channel}\""))
        .await
        .map_err(fail);
    if let Err(e) = listened {
        driver.abort();
        return Err(e);
    }
    match ready.take() {
        Some(ready) => {
            let _ = ready.send(Ok(()));
        }
        // Listening again: whatever was sent while not is lost.
        None => hub.reconnected(),
    }
    let mut beat = tokio::time::interval(heartbeat);
    beat.tick().await;
    loop {
        tokio::select! {
            note = notes.recv() => match note {
                Some(note) => deliver(hub, origin, note.payload()),
                // The connection ended.
                None => break,
            },
            _ = beat.tick() => {
                let alive = tokio::time::timeout(heartbeat, client.simple_query("SELECT 1")).await;
                if !matches!(alive, Ok(Ok(_))) {
                    break;
                }
            }
        }
    }
    driver.abort();
    Ok(())
}

fn deliver(hub: &Hub, origin: &str, payload: &str) {
    let mut fields = payload.splitn(4, ' ');
    let (Some(from), Some(kind), Some(_position), Some(id)) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return;
    };
    if from == origin {
        // This store's own write already woke its watches.
        return;
    }
    match kind {
        "x" => hub.removed(id),
        _ => hub.changed(id),
    }
}
