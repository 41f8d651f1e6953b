//! `bstore ledger analyze`: agave-ledger-tool's `analyze-storage` — per column family the
//! number of keys, key and value bytes, and the spread of value sizes, from a full scan.
//!
//! Columns: every one bstore declares (`columns::FAMILIES`: Agave 4.x's set, in Agave's
//! order), then any other column family the database holds (RocksDB's `default`, a retired
//! family of an older ledger), named by the newest RocksDB `OPTIONS-*` file of the ledger
//! and reached through the engine, which opens every column family on disk.

use std::collections::BTreeMap;
use std::path::Path;

use std::ops::ControlFlow;

use bstore_ledger::store::columns;
use bstore_ledger::store::{Blockstore, KvEngine};
use serde_json::{Value, json};

use super::Format;

/// The sizes seen in one column.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ColumnStats {
    pub name: String,
    /// Declared by bstore (`columns::FAMILIES`), or found on disk only.
    pub known: bool,
    pub keys: u64,
    pub key_bytes: u64,
    pub value_bytes: u64,
    /// Value size → how many values have it. Sizes repeat (shreds, metas), so this stays
    /// small where a list of every size would not.
    sizes: BTreeMap<usize, u64>,
}

impl ColumnStats {
    fn add(&mut self, key: &[u8], value: &[u8]) {
        self.keys += 1;
        self.key_bytes += key.len() as u64;
        self.value_bytes += value.len() as u64;
        *self.sizes.entry(value.len()).or_default() += 1;
    }

    pub(crate) fn value_min(&self) -> Option<usize> {
        self.sizes.keys().next().copied()
    }

    pub(crate) fn value_max(&self) -> Option<usize> {
        self.sizes.keys().next_back().copied()
    }

    pub(crate) fn value_mean(&self) -> Option<f64> {
        (self.keys > 0).then(|| self.value_bytes as f64 / self.keys as f64)
    }

    /// Nearest-rank percentile of the value sizes (`p` in 0..=100): the smallest size
    /// that at least `p`% of the values do not exceed.
    pub(crate) fn value_percentile(&self, p: f64) -> Option<usize> {
        let rank = ((p / 100.0) * self.keys as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (&size, &count) in &self.sizes {
            seen += count;
            if seen >= rank {
                return Some(size);
            }
        }
        None
    }

    pub(crate) fn to_json(&self) -> Value {
        json!({
            "column": self.name,
            "known": self.known,
            "keys": self.keys,
            "key_bytes": self.key_bytes,
            "value_bytes": self.value_bytes,
            "value_min": self.value_min(),
            "value_max": self.value_max(),
            "value_mean": self.value_mean(),
            "value_p50": self.value_percentile(50.0),
            "value_p90": self.value_percentile(90.0),
            "value_p99": self.value_percentile(99.0),
        })
    }
}

/// Column family names in the newest `OPTIONS-NNNNNN` file of `db` (RocksDB writes one
/// per open, each section `[CFOptions "name"]`). Empty when there is none to read.
fn column_families_on_disk(db: &Path) -> std::io::Result<Vec<String>> {
    let mut newest: Option<(u64, std::path::PathBuf)> = None;
    for entry in std::fs::read_dir(db)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(number) = name
            .to_str()
            .and_then(|n| n.strip_prefix("OPTIONS-"))
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        if newest.as_ref().is_none_or(|(n, _)| number > *n) {
            newest = Some((number, entry.path()));
        }
    }
    let Some((_, path)) = newest else {
        return Ok(Vec::new());
    };
    let text = std::fs::read_to_string(path)?;
    Ok(text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("[CFOptions \"")?.strip_suffix("\"]"))
        .map(str::to_string)
        .collect())
}

/// Scans every column; `extra` names column families found on disk beyond
/// `columns::FAMILIES`.
pub(crate) fn analyze<E: KvEngine>(
    store: &Blockstore<E>,
    extra: &[&'static str],
) -> bstore_ledger::Result<Vec<ColumnStats>> {
    let known = columns::FAMILIES.iter().map(|family| (family.name, true));
    let unknown = extra.iter().map(|name| (*name, false));
    let mut out = Vec::new();
    for (name, is_known) in known.chain(unknown) {
        let mut stats = ColumnStats {
            name: name.to_string(),
            known: is_known,
            ..ColumnStats::default()
        };
        // A full scan reads every value (Agave's analyze-storage does the same): sizes are
        // exact, and nothing is kept but the histogram.
        store.for_each_family_row(name, |key, value| {
            stats.add(key, value);
            ControlFlow::Continue(())
        })?;
        out.push(stats);
    }
    Ok(out)
}

/// Runs `bstore ledger analyze` over the ledger at `ledger`.
pub(crate) fn run<E: KvEngine>(
    store: &Blockstore<E>,
    ledger: &Path,
    format: Format,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut extra: Vec<String> = column_families_on_disk(&ledger.join("rocksdb"))?
        .into_iter()
        .filter(|n| columns::family(n).is_none())
        .collect();
    extra.sort();
    extra.dedup();
    // The engine names columns by `&'static str`. Leaked once per unknown column family
    // for this short-lived process: bounded by the handful a database declares.
    let extra: Vec<&'static str> = extra
        .into_iter()
        .map(|n| &*Box::leak(n.into_boxed_str()))
        .collect();
    let stats = analyze(store, &extra)?;
    match format {
        Format::Json => {
            let list: Vec<Value> = stats.iter().map(ColumnStats::to_json).collect();
            println!("{}", json!({"columns": list}));
        }
        Format::Text => print_table(&stats),
    }
    Ok(())
}

fn print_table(stats: &[ColumnStats]) {
    println!(
        "{:<18} {:>12} {:>14} {:>16} {:>8} {:>8} {:>10}",
        "column", "keys", "key_bytes", "value_bytes", "min", "max", "mean"
    );
    for s in stats {
        let opt = |v: Option<usize>| v.map_or_else(|| "-".to_string(), |v| v.to_string());
        let mean = s
            .value_mean()
            .map_or_else(|| "-".to_string(), |m| format!("{m:.1}"));
        let name = if s.known {
            s.name.clone()
        } else {
            format!("{} (?)", s.name)
        };
        println!(
            "{name:<18} {:>12} {:>14} {:>16} {:>8} {:>8} {mean:>10}",
            s.keys,
            s.key_bytes,
            s.value_bytes,
            opt(s.value_min()),
            opt(s.value_max())
        );
    }
    if stats.iter().any(|s| !s.known) {
        println!("(?) a column family bstore does not declare, found on disk");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_give_min_max_mean_and_percentiles() {
        let mut s = ColumnStats::default();
        assert_eq!(s.value_min(), None);
        assert_eq!(s.value_mean(), None);
        assert_eq!(s.value_percentile(50.0), None);
        for len in [1usize, 1, 1, 1, 1, 1, 1, 1, 1, 40] {
            s.add(&[0; 8], &vec![0; len]);
        }
        assert_eq!((s.keys, s.key_bytes, s.value_bytes), (10, 80, 49));
        assert_eq!((s.value_min(), s.value_max()), (Some(1), Some(40)));
        assert_eq!(s.value_mean(), Some(4.9));
        assert_eq!(s.value_percentile(50.0), Some(1));
        assert_eq!(s.value_percentile(90.0), Some(1));
        assert_eq!(s.value_percentile(99.0), Some(40));
    }

    #[test]
    fn the_in_memory_store_scans_every_known_column() {
        let store = Blockstore::in_memory();
        store
            .set_roots([bstore_ledger::Slot(3), bstore_ledger::Slot(4)])
            .expect("roots");
        let stats = analyze(&store, &[]).expect("scan");
        assert_eq!(stats.len(), columns::FAMILIES.len());
        let root = stats.iter().find(|s| s.name == "root").expect("root");
        assert_eq!((root.keys, root.key_bytes, root.value_bytes), (2, 16, 2));
        assert!(
            stats
                .iter()
                .filter(|s| s.name != "root")
                .all(|s| s.keys == 0)
        );
    }
}
