//! The CPU features this build's RocksDB needs. The repository's `.cargo/config.toml`
//! compiles RocksDB's C++ with `-msse4.2 -mpclmul`, and RocksDB then computes every CRC32C
//! (write-ahead-log records) with those instructions, with no run-time fallback on x86: on a
//! CPU without them the first checksum would stop the process with an illegal instruction.
//! `bstore` checks once at start, so such a machine gets a message instead.

/// The C++ flags this crate was compiled with (the same `[env]` value reaches RocksDB's
/// build script); `None` when the variable was not set, as in a build outside this tree.
const CXXFLAGS: Option<&str> = option_env!("CXXFLAGS_x86_64_unknown_linux_gnu");

/// A CPU feature RocksDB requires when compiled with `flag`.
#[cfg(target_arch = "x86_64")]
struct Required {
    flag: &'static str,
    feature: &'static str,
    present: fn() -> bool,
}

/// The features the flags above can make RocksDB require.
#[cfg(target_arch = "x86_64")]
const REQUIRED: [Required; 2] = [
    Required {
        flag: "-msse4.2",
        feature: "sse4.2",
        present: || std::arch::is_x86_feature_detected!("sse4.2"),
    },
    Required {
        flag: "-mpclmul",
        feature: "pclmulqdq",
        present: || std::arch::is_x86_feature_detected!("pclmulqdq"),
    },
];

/// `Err` names every feature the build requires and this CPU lacks.
pub(crate) fn check() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    {
        let flags = CXXFLAGS.unwrap_or_default();
        let missing: Vec<&str> = REQUIRED
            .iter()
            .filter(|r| flags.split_whitespace().any(|f| f == r.flag))
            .filter(|r| !(r.present)())
            .map(|r| r.feature)
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "this CPU lacks {}, which this build's RocksDB uses for its CRC32C \
                 (built with CXXFLAGS_x86_64_unknown_linux_gnu=\"{flags}\"; rebuild with that \
                 variable set to an empty value)",
                missing.join(" and ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_build_runs_here() {
        // The test binary was built with the same flags as `bstore` and runs on this CPU.
        assert_eq!(check(), Ok(()));
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_tree_builds_rocksdb_with_the_crc_instructions() {
        // The repository's .cargo/config.toml reaches this crate's compile (and RocksDB's).
        let flags = CXXFLAGS.unwrap_or_default();
        for r in REQUIRED {
            assert!(
                flags.split_whitespace().any(|f| f == r.flag),
                "{} not in {flags:?}",
                r.flag
            );
        }
    }
}
