//! One test per requirement of the a2a-cli specification v0.2
//! (`COMPLIANCE.md`), named after its id, in one file per area of the
//! registry, run against the reference agent (itself checked by the
//! workspace's conformance suite); and the compliance report's own test.

mod common;

mod auth;
mod card_get;
mod chat;
mod cli;
mod compliance_report;
mod config;
mod conform;
mod default;
mod demo_server;
mod download;
mod exit;
mod interact;
mod out;
mod push;
mod send;
mod skill;
mod task_cancel;
mod task_get;
mod task_list;
mod task_poll;
mod task_subscribe;
mod tx;
mod ver;
