//! The server side of `a2a-transport` driven through `A2aServer::handle`,
//! over both HTTP bindings, with no runtime and no socket.

// The helpers are `pub` for the modules of this test crate only.
#![allow(unreachable_pub)]

mod support;

mod auth;
mod batches;
mod card;
mod draft_1_1;
mod errors;
mod gating;
mod grpc;
mod hardening;
mod host;
mod media;
mod operations;
mod oracle;
mod streaming;
mod v0_3;
