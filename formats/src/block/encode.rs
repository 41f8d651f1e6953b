//! Encoding block markers byte-exact with Agave's wincode serialization (for tests, the
//! synthetic ledgers and anyone producing Alpenglow slots).

use super::defect::MarkerDefect;
use super::model::{
    BlockFooter, BlockMarker, FinalizationCert, MARKER_VERSION, MAX_USER_AGENT_BYTES,
    VotesAggregate,
};
use crate::entry::short_vec_encode;

/// The version byte inside a footer, header and UpdateParent.
const INNER_VERSION: u8 = 1;

/// Appends the data set of `marker` (zero entry count, version, variant, length, inner
/// value) to `out`. Fails, writing nothing, when a field is longer than its length prefix
/// can say or the inner value is over 65,535 bytes.
pub(crate) fn encode_into(marker: &BlockMarker, out: &mut Vec<u8>) -> Result<(), MarkerDefect> {
    let mut inner = Vec::new();
    match marker {
        BlockMarker::Footer(f) => {
            inner.push(INNER_VERSION);
            footer(f, &mut inner)?;
        }
        BlockMarker::Header(h) => {
            inner.push(INNER_VERSION);
            inner.extend_from_slice(&h.parent_slot.0.to_le_bytes());
            inner.extend_from_slice(&h.parent_block_id.0);
        }
        BlockMarker::UpdateParent(u) => {
            inner.push(INNER_VERSION);
            inner.extend_from_slice(&u.new_parent_slot.0.to_le_bytes());
            inner.extend_from_slice(&u.new_parent_block_id.0);
        }
        BlockMarker::GenesisCertificate(g) => {
            inner.extend_from_slice(&g.slot.0.to_le_bytes());
            inner.extend_from_slice(&g.block_id.0);
            inner.extend_from_slice(&g.signature.0);
            inner.extend_from_slice(&(g.bitmap.len() as u64).to_le_bytes());
            inner.extend_from_slice(&g.bitmap);
        }
    }
    let len = u16::try_from(inner.len()).map_err(|_| MarkerDefect::TooLong {
        field: "marker inner value",
        len: inner.len(),
        max: usize::from(u16::MAX),
    })?;
    out.reserve(8 + 2 + 1 + 2 + inner.len());
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&MARKER_VERSION.to_le_bytes());
    out.push(marker.kind().tag());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&inner);
    Ok(())
}

fn footer(f: &BlockFooter, out: &mut Vec<u8>) -> Result<(), MarkerDefect> {
    out.extend_from_slice(&f.bank_hash.0);
    out.extend_from_slice(&f.producer_time_nanos.to_le_bytes());
    let ua_len = u8::try_from(f.user_agent.len()).map_err(|_| MarkerDefect::TooLong {
        field: "footer user agent",
        len: f.user_agent.len(),
        max: MAX_USER_AGENT_BYTES,
    })?;
    out.push(ua_len);
    out.extend_from_slice(&f.user_agent);
    match &f.final_cert {
        None => out.push(0),
        Some(cert) => {
            out.push(1);
            finalization_cert(cert, out)?;
        }
    }
    match &f.skip_reward_cert {
        None => out.push(0),
        Some(cert) => {
            out.push(1);
            out.extend_from_slice(&cert.slot.0.to_le_bytes());
            out.extend_from_slice(&cert.signature.0);
            short_bitmap(&cert.bitmap, "skip reward certificate bitmap", out)?;
        }
    }
    match &f.notar_reward_cert {
        None => out.push(0),
        Some(cert) => {
            out.push(1);
            out.extend_from_slice(&cert.slot.0.to_le_bytes());
            out.extend_from_slice(&cert.block_id.0);
            out.extend_from_slice(&cert.signature.0);
            short_bitmap(&cert.bitmap, "notar reward certificate bitmap", out)?;
        }
    }
    Ok(())
}

fn finalization_cert(cert: &FinalizationCert, out: &mut Vec<u8>) -> Result<(), MarkerDefect> {
    out.extend_from_slice(&cert.slot.0.to_le_bytes());
    out.extend_from_slice(&cert.block_id.0);
    votes_aggregate(&cert.final_aggregate, "final aggregate bitmap", out)?;
    match &cert.notar_aggregate {
        None => out.push(0),
        Some(agg) => {
            out.push(1);
            votes_aggregate(agg, "notar aggregate bitmap", out)?;
        }
    }
    Ok(())
}

fn votes_aggregate(
    agg: &VotesAggregate,
    field: &'static str,
    out: &mut Vec<u8>,
) -> Result<(), MarkerDefect> {
    out.extend_from_slice(&agg.signature.0);
    let len = u16::try_from(agg.bitmap.len()).map_err(|_| MarkerDefect::TooLong {
        field,
        len: agg.bitmap.len(),
        max: usize::from(u16::MAX),
    })?;
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&agg.bitmap);
    Ok(())
}

fn short_bitmap(bitmap: &[u8], field: &'static str, out: &mut Vec<u8>) -> Result<(), MarkerDefect> {
    let len = u16::try_from(bitmap.len()).map_err(|_| MarkerDefect::TooLong {
        field,
        len: bitmap.len(),
        max: usize::from(u16::MAX),
    })?;
    short_vec_encode(len, out);
    out.extend_from_slice(bitmap);
    Ok(())
}
