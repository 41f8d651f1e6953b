# Sourced by the scripts: installs what a fresh machine lacks, and sets the build up.
# Every build uses the release profile (RocksDB's C++ build costs ~13 minutes per profile).
# A CARGO_TARGET_DIR set by the caller is honoured, so reruns are incremental.

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export BSTORE_TESTDATA="${BSTORE_TESTDATA:-$REPO/../shared/testdata}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

log() { printf '\n== %s\n' "$*" >&2; }

# wait_validator_ready OUT PID LOG: waits up to 300 s for the differential tool's
# `validator` command (process PID) to print its `ready <url>` line into OUT; exits, with
# the tail of its stderr LOG, when it dies first or is not ready in time.
wait_validator_ready() {
    local out="$1" pid="$2" err="$3"
    for _ in $(seq 1 600); do
        grep -q '^ready ' "$out" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || {
            tail -20 "$err" >&2
            echo "the validator (pid $pid) exited before it was ready" >&2
            exit 1
        }
        sleep 0.5
    done
    echo "the validator was not ready within 300 s" >&2
    exit 1
}

# stop_pid PID: stops process PID (none: nothing) by its PID, never by name: SIGTERM, up to
# 20 s for it to exit, then SIGKILL.
stop_pid() {
    local pid="$1"
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do
        kill -0 "$pid" 2>/dev/null || return 0
        sleep 0.2
    done
    kill -KILL "$pid" 2>/dev/null || true
}

# live_setup: what a script beside a live validator needs, from the repository root: the
# Python and Node RPC clients, the Agave tool (BSTORE_AGAVE_TOOL, built unless given) and
# bstore's release build (sets BSTORE; CARGO_TARGET_DIR defaults to the repo's target/).
live_setup() {
    bash scripts/rpc-client-deps.sh
    if [ -z "${BSTORE_AGAVE_TOOL:-}" ]; then
        ensure_apt libclang-dev pkg-config libssl-dev make g++
        build_agave_tool
        BSTORE_AGAVE_TOOL="$AGAVE_TOOL"
    fi
    export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$REPO/target}"
    log "building bstore (release)"
    nice -n 10 cargo build --release -p bstore
    BSTORE="$CARGO_TARGET_DIR/release/bstore"
}

# ensure_apt PKG... : installs the Debian packages that are missing.
ensure_apt() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
    done
    if [ "${#missing[@]}" -gt 0 ]; then
        log "installing ${missing[*]}"
        local sudo=""
        [ "$(id -u)" -eq 0 ] || sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
}

# ensure_rust_tools: rustfmt, clippy and nextest must be present (the machine's one toolchain).
ensure_rust_tools() {
    command -v cargo >/dev/null || { echo "cargo not found: install Rust 1.95" >&2; exit 1; }
    cargo fmt --version >/dev/null 2>&1 || rustup component add rustfmt
    cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
    cargo nextest --version >/dev/null 2>&1 || cargo install --locked cargo-nextest
}

require_testdata() {
    if [ ! -d "$BSTORE_TESTDATA" ]; then
        echo "test data not found at $BSTORE_TESTDATA (expected ../shared/testdata beside the repo)" >&2
        exit 1
    fi
}

# agave_workspace_build DIR TARGET [NICE]: builds the separate cargo workspace DIR (one of
# the tools on Agave's crates under interop/: release, locked, the nightly) into TARGET.
# From outside the repository, because cargo reads .cargo/config.toml from the directory it
# starts in and its parents: the repository's (RocksDB built with SSE4.2 and PCLMULQDQ for
# bstore) must not reach Agave's build, which stays as Agave builds its releases.
agave_workspace_build() {
    (cd / && CARGO_TARGET_DIR="$2" nice -n "${3:-0}" cargo +nightly build \
        --manifest-path "$1/Cargo.toml" --release --locked --ignore-rust-version)
}

# Builds agave-interop (release, locked, the nightly) for BSTORE_AGAVE_VERSION: 4.2 (the
# default, interop/agave), 4.3 (interop/agave43) or 4.4 (interop/agave44); both later ones
# build crates.io's rocksdb patched by scripts/agave-rocksdb-patch.sh. Into
# BSTORE_AGAVE_TARGET (default ~/.cache/bstore/target-agave4, -agave43 or -agave44), and sets
# AGAVE_TOOL to the binary.
build_agave_tool() {
    local tool_dir default_target
    case "${BSTORE_AGAVE_VERSION:-4.2}" in
    4.2) tool_dir=interop/agave; default_target="$HOME/.cache/bstore/target-agave4" ;;
    4.3)
        tool_dir=interop/agave43; default_target="$HOME/.cache/bstore/target-agave43"
        "$REPO/scripts/agave-rocksdb-patch.sh"
        ;;
    4.4)
        tool_dir=interop/agave44; default_target="$HOME/.cache/bstore/target-agave44"
        "$REPO/scripts/agave-rocksdb-patch.sh"
        ;;
    *) echo "BSTORE_AGAVE_VERSION must be 4.2, 4.3 or 4.4" >&2; return 1 ;;
    esac
    local target="${BSTORE_AGAVE_TARGET:-$default_target}"
    log "building agave-interop from $tool_dir (release, locked) into $target"
    local started took
    started=$(date +%s)
    agave_workspace_build "$REPO/$tool_dir" "$target"
    took=$(($(date +%s) - started))
    log "agave-interop build took $((took / 60)) min $((took % 60)) s"
    AGAVE_TOOL="$target/release/agave-interop"
}

# bench_serve_sides: what the serve benches (bench-serve-cpu.sh, bench-serve-instr.sh)
# share. Builds this tree's bstore (BSTORE); SIDES is (baseline current) when
# BSTORE_BASELINE names another binary, else (current); `side_binary SIDE` prints a side's
# binary; WORK is a fresh directory and SERVER the pid of the server a side runs, both
# cleaned up when the script exits.
bench_serve_sides() {
    cargo build --release -p bstore
    BSTORE="${CARGO_TARGET_DIR:-$REPO/target}/release/bstore"
    SIDES=(current)
    [ -n "${BSTORE_BASELINE:-}" ] && SIDES=(baseline current)
    WORK="$(mktemp -d)"
    SERVER=""
    trap bench_serve_cleanup EXIT
}
side_binary() { if [ "$1" = baseline ]; then echo "$BSTORE_BASELINE"; else echo "$BSTORE"; fi; }
bench_serve_cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
    rm -rf "$WORK"
}
