#!/usr/bin/env bash
# The archive tier's tests against a real 3-node Garage cluster on 127.0.0.1 (kept out of
# scripts/test.sh: the first Garage build alone takes ~30 minutes on 2 cores). Builds Garage
# once into /root/.cache/bstore (scripts/archive-garage.sh install), starts the cluster in a
# temporary directory, runs the #[ignore]d `archive_cluster_*` tests, and stops exactly the
# nodes it started, whatever happens. Any missing piece is a failure, never a skip.
#
#   scripts/archive-cluster.sh            the cluster tests
#   scripts/archive-cluster.sh --bench    also `bstore archive bench` (BENCHMARKS.md, Archive)
set -euo pipefail
source "$(dirname "$0")/lib/setup.sh"
cd "$REPO"

bench=false
[ "${1:-}" = "--bench" ] && bench=true

ensure_apt libclang-dev
ensure_rust_tools
scripts/archive-garage.sh install

dir=$(mktemp -d -t bstore-garage-XXXXXX)
cleanup() { scripts/archive-garage.sh down "$dir" || true; rm -rf "$dir"; }
trap cleanup EXIT
scripts/archive-garage.sh up "$dir"
# shellcheck disable=SC1091
source "$dir/env"
export BSTORE_GARAGE_CTL="$REPO/scripts/archive-garage.sh" BSTORE_GARAGE_DIR="$dir"

log "archive cluster tests"
rc=0
cargo nextest run --release -p bstore --run-ignored ignored-only --test-threads 1 --no-fail-fast \
    -E 'test(/^archive_cluster_/)' || rc=$?
if [ "$rc" -ne 0 ]; then
    for f in "$dir"/node*.log; do log "last lines of $f"; tail -n 30 "$f" >&2 || true; done
    exit "$rc"
fi

if $bench; then
    log "bstore archive bench"
    cargo build --release -p bstore
    "${CARGO_TARGET_DIR:-target}/release/bstore" archive bench --to "s3://$BSTORE_ARCHIVE_BUCKET/bench" "${@:2}"
fi
