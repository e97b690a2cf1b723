//! Who owns a task (spec 13.1): every stored row carries its owner, and
//! every lookup compares the caller's owner with it, so another owner's
//! task is indistinguishable from a missing one.

use a2a_transport::CallContext;

/// The owner of a task: the tenant and the authenticated principal of the
/// call that created it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct Owner {
    /// The tenant (multi-tenancy.md): from the binding's path prefix, else
    /// the request's `tenant` field; empty for none.
    pub tenant: String,
    /// The principal's id; `None` for anonymous callers.
    pub principal: Option<String>,
}

impl Owner {
    /// An owner of `tenant` and `principal`.
    pub fn new(tenant: impl Into<String>, principal: Option<String>) -> Owner {
        Owner {
            tenant: tenant.into(),
            principal,
        }
    }
}

/// Decides the owner of a call. The default, [`PrincipalAndTenant`], is
/// what spec 13.1 asks for; a host replaces it to share tasks within a
/// team, say, or to scope them by a claim of its own.
pub trait OwnerResolver: Send + Sync + 'static {
    /// The owner of a call whose request names `tenant` (empty for none).
    fn owner(&self, cx: &CallContext, tenant: &str) -> Owner;
}

/// The owner is the call's tenant (the binding's, else the request's) and
/// its authenticated principal.
#[derive(Debug, Clone, Copy, Default)]
pub struct PrincipalAndTenant;

impl OwnerResolver for PrincipalAndTenant {
    fn owner(&self, cx: &CallContext, tenant: &str) -> Owner {
        Owner {
            tenant: cx.tenant.clone().unwrap_or_else(|| tenant.to_owned()),
            principal: cx.principal.as_ref().map(|p| p.id.clone()),
        }
    }
}
