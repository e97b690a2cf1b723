//! What the peer received: one [`Received`] per HTTP request, bounded.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use a2a_types::{A2aRequest, Operation};
use bytes::Bytes;
use http::{HeaderMap, Method, StatusCode};

/// One HTTP request the peer received, with what the server made of it.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct Received {
    /// Its position among the requests received, from 0.
    pub seq: u64,
    /// The HTTP method.
    pub method: Method,
    /// The path and query, as sent (`/rest/tasks/t-1?historyLength=2`).
    pub path: String,
    /// The headers, as sent.
    pub headers: HeaderMap,
    /// The body, as sent.
    pub body: Bytes,
    /// The typed requests the server decoded from it and handed to the
    /// scripts: one, several for a JSON-RPC batch, none for the card or a
    /// request the server refused before decoding (a bad version header,
    /// a malformed body; [`status`](Self::status) then says how).
    pub requests: Vec<A2aRequest>,
    /// The status the peer answered; `None` while the answer is being
    /// made.
    pub status: Option<StatusCode>,
}

impl Received {
    /// The value of header `name`, when it is present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// The body as JSON, when it is.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }

    /// The (first) typed request, when the server decoded one.
    pub fn request(&self) -> Option<&A2aRequest> {
        self.requests.first()
    }

    /// The operation of the (first) typed request.
    pub fn operation(&self) -> Option<Operation> {
        self.request().map(A2aRequest::operation)
    }

    /// The path without its query.
    pub fn path_only(&self) -> &str {
        self.path.split('?').next().unwrap_or_default()
    }

    /// The query string, without `?` (empty when there is none).
    pub fn query(&self) -> &str {
        self.path
            .split_once('?')
            .map(|(_, q)| q)
            .unwrap_or_default()
    }
}

/// The recording: the first `max` requests in full; later ones are only
/// counted.
#[derive(Debug)]
pub(crate) struct Recording {
    max: usize,
    next: AtomicU64,
    records: Mutex<Vec<Received>>,
}

impl Recording {
    pub(crate) fn new(max: usize) -> Recording {
        Recording {
            max,
            next: AtomicU64::new(0),
            records: Mutex::new(Vec::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Received>> {
        // Each change is one push or one field write: a poisoned lock is
        // still consistent.
        self.records.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Numbers a new request and keeps it when there is room.
    pub(crate) fn start(
        &self,
        method: Method,
        path: String,
        headers: HeaderMap,
        body: Bytes,
    ) -> u64 {
        let seq = self.next.fetch_add(1, Ordering::SeqCst);
        let mut records = self.lock();
        if records.len() < self.max {
            records.push(Received {
                seq,
                method,
                path,
                headers,
                body,
                requests: Vec::new(),
                status: None,
            });
        }
        seq
    }

    fn with(&self, seq: u64, f: impl FnOnce(&mut Received)) {
        let mut records = self.lock();
        // Records are kept in order from 0, so seq is the index.
        if let Some(r) = usize::try_from(seq).ok().and_then(|i| records.get_mut(i)) {
            f(r);
        }
    }

    pub(crate) fn typed(&self, seq: u64, request: A2aRequest) {
        self.with(seq, |r| r.requests.push(request));
    }

    pub(crate) fn status(&self, seq: u64, status: StatusCode) {
        self.with(seq, |r| r.status = Some(status));
    }

    pub(crate) fn all(&self) -> Vec<Received> {
        self.lock().clone()
    }

    pub(crate) fn total(&self) -> u64 {
        self.next.load(Ordering::SeqCst)
    }
}
