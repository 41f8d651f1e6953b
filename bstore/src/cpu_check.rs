//! The CPU features this build's RocksDB needs. The repository's `.cargo/config.toml`
//! compiles RocksDB's C++ with `-msse4.2 -mpclmul`, and RocksDB then computes every CRC32C
//! (write-ahead-log records) with those instructions, with no run-time fallback on x86: on a
//! CPU without them the first checksum would stop the process with an illegal instruction.
//! `bstore` checks once at start, so such a machine gets a message instead.

/// The C++ flags this crate was compiled with (the same `[env]` value reaches RocksDB's
/// build script); `None` when the variable was not set, as in a build outside this tree.
const CXXFLAGS: Option<&str> = option_env!("CXXFLAGS_x86_64_unknown_linux_gnu");

/// The features the flags above make RocksDB require: `(compiler flag, CPU feature)`.
#[cfg(target_arch = "x86_64")]
const REQUIRED: [(&str, &str); 2] = [("-msse4.2", "sse4.2"), ("-mpclmul", "pclmulqdq")];

/// `Err` names every feature the build requires and this CPU lacks.
pub(crate) fn check() -> Result<(), String> {
    #[cfg(target_arch = "x86_64")]
    {
        let flags = CXXFLAGS.unwrap_or_default();
        let missing: Vec<&str> = REQUIRED
            .iter()
            .filter(|(flag, _)| flags.split_whitespace().any(|f| f == *flag))
            .filter(|(_, feature)| !has_feature(feature))
            .map(|(_, feature)| *feature)
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

#[cfg(target_arch = "x86_64")]
fn has_feature(feature: &str) -> bool {
    match feature {
        "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
        "pclmulqdq" => std::arch::is_x86_feature_detected!("pclmulqdq"),
        _ => false,
    }
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
        for (flag, _) in REQUIRED {
            assert!(
                flags.split_whitespace().any(|f| f == flag),
                "{flag} not in {flags:?}"
            );
        }
    }
}
