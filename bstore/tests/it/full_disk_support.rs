//! A small disk for the full-disk scenarios: a tmpfs of a fixed size mounted in a mount
//! namespace of its own (`unshare -Urm`, no root needed), kept alive by a holder process and
//! reached from outside through `/proc/<holder>/root`. Every `bstore` command then runs as
//! usual on paths inside it, and the test measures the disk with `stat -f` and `du`.
//!
//! Without `unshare` (or with user namespaces turned off) the scenario cannot run, and the
//! test fails saying so: it never passes without having filled a disk.

use std::io::{BufRead, BufReader, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

use crate::common::{bstore_output_within, json_lines};

/// How long one `bstore` command of these scenarios may take.
pub(crate) const BUDGET: std::time::Duration = std::time::Duration::from_secs(120);

/// A tmpfs of `size` bytes, unmounted when dropped (its holder is killed).
pub(crate) struct SmallDisk {
    holder: Child,
    root: PathBuf,
    /// Keeps the mount point's directory until the disk is gone.
    _mount_point: tempfile::TempDir,
}

impl SmallDisk {
    /// Mounts a tmpfs of `megabytes` MiB. Panics with the reason when the machine cannot.
    pub(crate) fn mount(megabytes: u64) -> Self {
        let mount_point = tempfile::tempdir().expect("tempdir");
        let script = format!(
            "mount -t tmpfs -o size={megabytes}m tmpfs \"$1\" && echo mounted && exec sleep 3600"
        );
        let spawned = Command::new("unshare")
            .args(["-Urm", "sh", "-c", &script, "sh"])
            .arg(mount_point.path())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let mut holder = match spawned {
            Ok(child) => child,
            Err(e) => panic!(
                "the full-disk scenario needs `unshare` (util-linux) to mount a small tmpfs \
                 without root, and it cannot be run: {e}"
            ),
        };
        let mut line = String::new();
        let stdout = holder.stdout.take().expect("piped stdout");
        let read = BufReader::new(stdout).read_line(&mut line);
        if read.is_err() || line.trim() != "mounted" {
            let _ = holder.kill();
            let out = holder.wait_with_output().expect("holder output");
            panic!(
                "the full-disk scenario could not mount a tmpfs in a user and mount namespace \
                 (`unshare -Urm`; user namespaces may be disabled here): {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        let root = PathBuf::from(format!("/proc/{}/root", holder.id())).join(
            mount_point
                .path()
                .strip_prefix("/")
                .expect("absolute temp dir"),
        );
        let disk = Self {
            holder,
            root,
            _mount_point: mount_point,
        };
        let total = disk.stat("%b") * disk.stat("%S");
        assert_eq!(
            total,
            megabytes << 20,
            "{} is not the {megabytes} MiB tmpfs",
            disk.root.display()
        );
        disk
    }

    /// The mounted disk's root, as seen from this process.
    pub(crate) fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    fn stat(&self, field: &str) -> u64 {
        let out = Command::new("stat")
            .args(["-f", "-c", field])
            .arg(&self.root)
            .output()
            .expect("runs stat");
        assert!(out.status.success(), "stat -f {}", self.root.display());
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("a number")
    }

    /// Bytes free for an unprivileged writer, as `df` shows them.
    pub(crate) fn free_bytes(&self) -> u64 {
        self.stat("%a") * self.stat("%S")
    }

    /// Writes `name` until the disk refuses more, or until `leave` bytes are free.
    pub(crate) fn fill(&self, name: &str, leave: u64) {
        let path = self.path(name);
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .expect("create the filler");
        let chunk = vec![0x5Au8; 1 << 20];
        loop {
            let free = self.free_bytes();
            if free <= leave {
                return;
            }
            let mut todo = free - leave;
            while todo > 0 {
                let n = usize::try_from(todo).map_or(chunk.len(), |n| n.min(chunk.len()));
                match file.write(&chunk[..n]) {
                    Ok(0) => return,
                    Ok(written) => todo = todo.saturating_sub(written as u64),
                    Err(e) if e.kind() == ErrorKind::StorageFull => return,
                    Err(e) => panic!("filling {}: {e}", path.display()),
                }
            }
        }
    }

    /// Fills the disk until a write fails.
    pub(crate) fn fill_up(&self, name: &str) {
        self.fill(name, 0);
        assert_eq!(self.free_bytes(), 0, "the disk is full");
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = self.holder.kill();
        let _ = self.holder.wait();
    }
}

/// What `du -s -B1` says `path` takes on disk.
pub(crate) fn du(path: &Path) -> u64 {
    let out = Command::new("du")
        .args(["-s", "-B1"])
        .arg(path)
        .output()
        .expect("runs du");
    assert!(out.status.success(), "du {}", path.display());
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .expect("du prints a number")
}

/// `ledger check --format json` of `ledger` (whatever its verdict).
pub(crate) fn check(ledger: &Path) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_bstore"))
        .args(["ledger", "check", "--format", "json", "--ledger"])
        .arg(ledger)
        .output()
        .expect("runs bstore");
    json_lines(&String::from_utf8_lossy(&out.stdout)).remove(0)
}

/// The SST files in `ledger/rocksdb` that RocksDB's MANIFEST does not list (as `ledger check`
/// reads it): files nothing will ever read.
pub(crate) fn unlisted_ssts(ledger: &Path) -> Vec<String> {
    let report = check(ledger);
    let listed: Vec<&str> = report["sst_files"]
        .as_array()
        .expect("sst_files")
        .iter()
        .filter_map(|f| f["name"].as_str())
        .collect();
    let mut on_disk: Vec<String> = std::fs::read_dir(ledger.join("rocksdb"))
        .expect("list the database")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sst") && !listed.contains(&n.as_str()))
        .collect();
    on_disk.sort();
    on_disk
}

/// Total bytes of the write-ahead logs `ledger check` lists.
pub(crate) fn wal_bytes(ledger: &Path) -> u64 {
    check(ledger)["wal_files"]
        .as_array()
        .expect("wal_files")
        .iter()
        .filter_map(|f| f["bytes"].as_u64())
        .sum()
}

/// `ledger generate` of slots `first..first + slots` (256 data shreds each, with coding
/// shreds) into `ledger`, whatever its outcome.
pub(crate) fn generate(ledger: &str, first: u64, slots: u64) -> std::process::Output {
    generate_shaped(ledger, first, slots, 256, &[])
}

/// `ledger generate` of `slots` slots of `shreds_per_slot` data shreds each, with coding
/// shreds, and `extra` arguments, whatever its outcome.
pub(crate) fn generate_shaped(
    ledger: &str,
    first: u64,
    slots: u64,
    shreds_per_slot: u32,
    extra: &[&str],
) -> std::process::Output {
    let (first, slots, shreds) = (
        first.to_string(),
        slots.to_string(),
        shreds_per_slot.to_string(),
    );
    let mut args = vec![
        "ledger",
        "generate",
        "--ledger",
        ledger,
        "--first-slot",
        &first,
        "--slots",
        &slots,
        "--shreds-per-slot",
        &shreds,
        "--with-code",
    ];
    args.extend_from_slice(extra);
    bstore_output_within(&args, BUDGET).0
}

/// `ledger slot` of `slot`, read without write access, whatever its outcome.
pub(crate) fn read_slot(ledger: &str, slot: u64) -> std::process::Output {
    let slot = slot.to_string();
    let args = [
        "ledger",
        "slot",
        "--access",
        "read-only",
        "--ledger",
        ledger,
        &slot,
    ];
    bstore_output_within(&args, BUDGET).0
}

/// The `ledger slot` summaries of `range`, read without write access; each must read.
pub(crate) fn slot_summaries(ledger: &str, range: std::ops::RangeInclusive<u64>) -> Vec<Value> {
    range
        .map(|slot| {
            let out = read_slot(ledger, slot);
            assert!(
                out.status.success(),
                "ledger slot {slot}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            json_lines(&String::from_utf8_lossy(&out.stdout)).remove(0)
        })
        .collect()
}

/// Asserts that a command succeeded, showing its stderr otherwise.
pub(crate) fn assert_ran(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Asserts that a write failed for want of room, cleanly: non-zero exit, RocksDB's "No
/// space left on device" in stderr, no panic. `succeeded` is the message if it did not fail.
pub(crate) fn assert_out_of_space(out: &std::process::Output, succeeded: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{succeeded}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}
