//! Parsing a block marker data set, in Agave's field order, so the first defect found is
//! the one Agave's wincode reader stops at.

use super::cursor::{Cursor, Fault, Step};
use super::defect::MarkerDefect;
use super::model::{
    BlockFooter, BlockHeader, BlockMarker, BlsSignature, BlsSignatureCompressed, FinalizationCert,
    GenesisCertificate, MARKER_VERSION, MarkerKind, NotarRewardCert, SkipRewardCert, UpdateParent,
    VotesAggregate,
};
use crate::types::{Hash, Slot};

/// The version byte inside a footer, header and UpdateParent.
const INNER_VERSION: u8 = 1;

/// Parses the marker at the start of `data` (a whole data set, entry count included) and
/// returns it with the number of bytes it used. Bytes after it are not looked at: Agave's
/// data set fetch ignores them.
pub(crate) fn parse_prefix(data: &[u8]) -> Step<(BlockMarker, usize)> {
    let mut c = Cursor::new(data);
    if c.u64("entry count")? != 0 {
        return Err(c.fault(0, MarkerDefect::NotAMarker));
    }
    let at = c.pos();
    let version = c.u16("marker version")?;
    if version != MARKER_VERSION {
        return Err(c.fault(at, MarkerDefect::UnknownVersion(version)));
    }
    let at = c.pos();
    let tag = c.u8("marker variant")?;
    let kind =
        MarkerKind::from_tag(tag).ok_or_else(|| c.fault(at, MarkerDefect::UnknownVariant(tag)))?;
    let len_at = c.pos();
    let declared = c.u16("marker length")?;
    let inner_start = c.pos();
    let marker = match kind {
        MarkerKind::Footer => {
            inner_version(&mut c, kind)?;
            BlockMarker::footer(footer(&mut c)?)
        }
        MarkerKind::Header => {
            inner_version(&mut c, kind)?;
            BlockMarker::Header(BlockHeader {
                parent_slot: Slot(c.u64("header parent slot")?),
                parent_block_id: Hash(c.array("header parent block id")?),
            })
        }
        MarkerKind::UpdateParent => {
            inner_version(&mut c, kind)?;
            BlockMarker::UpdateParent(UpdateParent {
                new_parent_slot: Slot(c.u64("update parent slot")?),
                new_parent_block_id: Hash(c.array("update parent block id")?),
            })
        }
        MarkerKind::GenesisCertificate => BlockMarker::genesis_certificate(GenesisCertificate {
            slot: Slot(c.u64("genesis certificate slot")?),
            block_id: Hash(c.array("genesis certificate block id")?),
            signature: BlsSignature(c.array("genesis certificate signature")?),
            bitmap: c.vec_u64_len("genesis certificate bitmap")?,
        }),
    };
    // Agave 4.4 reads the inner value by its own structure, then requires the prefix to be
    // its size.
    let actual = c.pos() - inner_start;
    if actual != usize::from(declared) {
        return Err(Fault {
            offset: len_at,
            defect: MarkerDefect::LengthMismatch {
                kind,
                declared,
                actual,
            },
        });
    }
    Ok((marker, c.pos()))
}

fn inner_version(c: &mut Cursor<'_>, kind: MarkerKind) -> Step<()> {
    let at = c.pos();
    let version = c.u8("inner version")?;
    if version == INNER_VERSION {
        Ok(())
    } else {
        Err(c.fault(at, MarkerDefect::UnknownInnerVersion { kind, version }))
    }
}

fn footer(c: &mut Cursor<'_>) -> Step<BlockFooter> {
    let bank_hash = Hash(c.array("footer bank hash")?);
    let producer_time_nanos = c.u64("footer producer time")?;
    let user_agent = c.vec_u8_len("footer user agent")?;
    let final_cert = if c.option_tag("footer finalization certificate")? {
        Some(finalization_cert(c)?)
    } else {
        None
    };
    let skip_reward_cert = if c.option_tag("footer skip reward certificate")? {
        Some(SkipRewardCert {
            slot: Slot(c.u64("skip reward certificate slot")?),
            signature: BlsSignatureCompressed(c.array("skip reward certificate signature")?),
            bitmap: c.vec_short_len("skip reward certificate bitmap")?,
        })
    } else {
        None
    };
    let notar_reward_cert = if c.option_tag("footer notar reward certificate")? {
        Some(NotarRewardCert {
            slot: Slot(c.u64("notar reward certificate slot")?),
            block_id: Hash(c.array("notar reward certificate block id")?),
            signature: BlsSignatureCompressed(c.array("notar reward certificate signature")?),
            bitmap: c.vec_short_len("notar reward certificate bitmap")?,
        })
    } else {
        None
    };
    Ok(BlockFooter {
        bank_hash,
        producer_time_nanos,
        user_agent,
        final_cert,
        skip_reward_cert,
        notar_reward_cert,
    })
}

fn finalization_cert(c: &mut Cursor<'_>) -> Step<FinalizationCert> {
    let slot = Slot(c.u64("finalization certificate slot")?);
    let block_id = Hash(c.array("finalization certificate block id")?);
    let final_aggregate = votes_aggregate(c, "final aggregate")?;
    let notar_aggregate = if c.option_tag("notar aggregate")? {
        Some(votes_aggregate(c, "notar aggregate")?)
    } else {
        None
    };
    Ok(FinalizationCert {
        slot,
        block_id,
        final_aggregate,
        notar_aggregate,
    })
}

fn votes_aggregate(c: &mut Cursor<'_>, field: &'static str) -> Step<VotesAggregate> {
    Ok(VotesAggregate {
        signature: BlsSignatureCompressed(c.array(field)?),
        bitmap: c.vec_u16_len(field)?,
    })
}
