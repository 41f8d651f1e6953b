#!/usr/bin/env bash
# Rebuilds interop/agave4-tx (Agave 4's solana-message / solana-transaction /
# solana-transaction-status, a separate workspace with its own Cargo.lock) and checks that
# the transaction vectors it writes equal the committed testdata/agave4/v1_transactions.json.
# With --write, replaces the committed file instead. CI never runs this: tests read the
# committed file.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL="$REPO/interop/agave4-tx"
OUT="$REPO/testdata/agave4/v1_transactions.json"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR_TOOL:-$HOME/.cache/bstore/target-v1-tool}"

source "$REPO/scripts/lib/setup.sh"
agave_workspace_build "$TOOL" "$CARGO_TARGET_DIR" 10
BIN="$CARGO_TARGET_DIR/release/agave4-tx"
if [ "${1:-}" = "--write" ]; then
    mkdir -p "$(dirname "$OUT")"
    "$BIN" "$OUT"
    echo "wrote $OUT"
    exit 0
fi
TMP="$(mktemp)"
trap 'rm -f "$TMP"' EXIT
"$BIN" "$TMP"
if cmp -s "$TMP" "$OUT"; then
    echo "ok: $OUT matches what Agave's crates produce"
else
    diff -u "$OUT" "$TMP" | head -40
    echo "MISMATCH: $OUT differs from the regenerated vectors" >&2
    exit 1
fi
