#!/usr/bin/env bash
# Rebuilds interop/agave4-block (a separate cargo workspace over Agave's solana-entry 4.2.2)
# and checks that it writes exactly the committed testdata/agave4/block_components.json
# (the block component vectors the formats and ledger tests read). Pass --write to replace
# the committed file instead of checking it.
#
#   BSTORE_AGAVE4_BLOCK_TARGET  target dir of the tool (default
#                               ~/.cache/bstore/target-alpenglow-tool)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="${BSTORE_AGAVE4_BLOCK_TARGET:-$HOME/.cache/bstore/target-alpenglow-tool}"
VECTORS="$REPO/testdata/agave4/block_components.json"

(cd "$REPO/interop/agave4-block" &&
    CARGO_TARGET_DIR="$TARGET" nice -n 10 cargo +nightly build --release --locked --ignore-rust-version)

if [ "${1:-}" = "--write" ]; then
    mkdir -p "$(dirname "$VECTORS")"
    "$TARGET/release/agave4-block" "$VECTORS"
    echo "wrote $VECTORS"
    exit 0
fi

fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
"$TARGET/release/agave4-block" "$fresh"
if cmp -s "$fresh" "$VECTORS"; then
    echo "ok: $VECTORS matches what Agave's code writes"
else
    echo "MISMATCH: $VECTORS differs from a fresh run of interop/agave4-block" >&2
    diff <(tr ',' '\n' <"$VECTORS") <(tr ',' '\n' <"$fresh") | head -20 >&2
    exit 1
fi
