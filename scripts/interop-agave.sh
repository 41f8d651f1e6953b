#!/usr/bin/env bash
# Interop with Agave: builds `agave-interop` (interop/agave, a separate cargo
# workspace over Agave's own solana-ledger 4.2.2 crates, which build their own RocksDB) and
# runs bstore's interop tests against it (bstore/tests/interop_agave.rs, all #[ignore]d in
# the normal suite). Agave 4.x declares a newer Rust than the project's stable toolchain, so
# the tool builds with the nightly and --ignore-rust-version. The tool's first build takes
# about an hour here on two cores (RocksDB's and protobuf's C++, Agave's whole dependency
# tree); later runs are incremental.
#
#   BSTORE_AGAVE_VERSION 4.2 (default: interop/agave), 4.3 (interop/agave43: the same
#                        source against Agave 4.3.2, with the rocksdb crate patched by
#                        scripts/agave-rocksdb-patch.sh) or 4.4 (interop/agave44: against
#                        Agave 4.4.0, the same patched rocksdb crate)
#   BSTORE_AGAVE_TARGET  target dir of the tool (default ~/.cache/bstore/target-agave4, or
#                        ~/.cache/bstore/target-agave43 / -agave44 for 4.3 / 4.4)
#   CARGO_TARGET_DIR     target dir of the bstore workspace, honoured as everywhere
# Extra arguments go to the test harness (e.g. a test name filter).
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

# libclang for both RocksDB bindings; OpenSSL and pkg-config for Agave's HTTP clients;
# make and g++ for the RocksDB and protoc sources Agave's crates compile.
ensure_apt libclang-dev pkg-config libssl-dev make g++
ensure_rust_tools
require_testdata

build_agave_tool
export BSTORE_AGAVE_TOOL="$AGAVE_TOOL"
"$BSTORE_AGAVE_TOOL" --version

log "interop tests: bstore/tests/interop_agave.rs (ignored tests only)"
cargo test --release -p bstore --test interop_agave -- --ignored "$@"
