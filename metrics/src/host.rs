//! The `host_id` tag put on every point: the host name unless set with [`set_host_id`].

use std::sync::{PoisonError, RwLock};

static HOST_ID: RwLock<Option<String>> = RwLock::new(None);

/// The host name from the kernel, `$HOSTNAME` or `/etc/hostname`, else `"unknown"`.
pub fn default_host_id() -> String {
    let from_file = |path: &str| std::fs::read_to_string(path).ok();
    from_file("/proc/sys/kernel/hostname")
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| from_file("/etc/hostname"))
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_string())
}

/// The current host id.
pub fn host_id() -> String {
    // A poisoned lock still holds a whole String: writers only assign.
    if let Some(id) = HOST_ID
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
    {
        return id.clone();
    }
    let mut guard = HOST_ID.write().unwrap_or_else(PoisonError::into_inner);
    guard.get_or_insert_with(default_host_id).clone()
}

/// Sets the host id used by agents created with [`crate::HostId::Global`] from their next
/// write on.
pub fn set_host_id(id: impl Into<String>) {
    let id = id.into();
    log::info!("metrics host_id: {id}");
    *HOST_ID.write().unwrap_or_else(PoisonError::into_inner) = Some(id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_is_a_nonempty_single_line() {
        let id = default_host_id();
        assert!(!id.is_empty() && !id.contains('\n'));
    }
}
