//! `set-root` and `set-dead`: Agave's own `set_roots` and `set_dead_slot`.

use std::path::Path;

use bstore_interop_protocol::{MarkedDead, Rooted};

use crate::error::{Context, Result};
use crate::open::{self, Access};
use crate::summary::require_db;

pub fn set_roots(ledger: &Path, slots: &[u64]) -> Result<Rooted> {
    require_db(ledger)?;
    let blockstore = open::blockstore(ledger, Access::Primary)?;
    blockstore
        .set_roots(slots.iter())
        .context(format!("Agave set_roots({slots:?})"))?;
    Ok(Rooted {
        rooted: slots.to_vec(),
    })
}

pub fn set_dead(ledger: &Path, slots: &[u64]) -> Result<MarkedDead> {
    require_db(ledger)?;
    let blockstore = open::blockstore(ledger, Access::Primary)?;
    for &slot in slots {
        blockstore
            .set_dead_slot(slot)
            .context(format!("Agave set_dead_slot({slot})"))?;
    }
    Ok(MarkedDead {
        dead: slots.to_vec(),
    })
}
