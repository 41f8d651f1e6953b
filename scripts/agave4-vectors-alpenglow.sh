#!/usr/bin/env bash
# Rebuilds the block component vector tool (a separate cargo workspace over Agave's
# solana-entry) and checks that it writes exactly the committed vectors the formats and
# ledger tests read. Pass --write to replace the committed file instead of checking it.
#
#   BSTORE_AGAVE_BLOCK_VERSION  4.2 (default): interop/agave4-block (solana-entry 4.2.2),
#                               testdata/agave4/block_components.json;
#                               4.4: interop/agave44-block (solana-entry 4.4.0, the same
#                               source with feature agave44),
#                               testdata/agave44/block_components.json
#   BSTORE_AGAVE4_BLOCK_TARGET  target dir of the tool (default
#                               ~/.cache/bstore/target-alpenglow-tool, or
#                               ~/.cache/bstore/target-alpenglow-tool-44 for 4.4)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
case "${BSTORE_AGAVE_BLOCK_VERSION:-4.2}" in
    4.2)
        TOOL=agave4-block
        DEFAULT_TARGET="$HOME/.cache/bstore/target-alpenglow-tool"
        VECTORS="$REPO/testdata/agave4/block_components.json"
        ;;
    4.4)
        TOOL=agave44-block
        DEFAULT_TARGET="$HOME/.cache/bstore/target-alpenglow-tool-44"
        VECTORS="$REPO/testdata/agave44/block_components.json"
        ;;
    *)
        echo "BSTORE_AGAVE_BLOCK_VERSION must be 4.2 or 4.4, not ${BSTORE_AGAVE_BLOCK_VERSION}" >&2
        exit 2
        ;;
esac
TARGET="${BSTORE_AGAVE4_BLOCK_TARGET:-$DEFAULT_TARGET}"

source "$REPO/scripts/lib/setup.sh"
agave_workspace_build "$REPO/interop/$TOOL" "$TARGET" 10

if [ "${1:-}" = "--write" ]; then
    mkdir -p "$(dirname "$VECTORS")"
    "$TARGET/release/$TOOL" "$VECTORS"
    echo "wrote $VECTORS"
    exit 0
fi

fresh="$(mktemp)"
trap 'rm -f "$fresh"' EXIT
"$TARGET/release/$TOOL" "$fresh"
if cmp -s "$fresh" "$VECTORS"; then
    echo "ok: $VECTORS matches what Agave's code writes"
else
    echo "MISMATCH: $VECTORS differs from a fresh run of interop/$TOOL" >&2
    diff <(tr ',' '\n' <"$VECTORS") <(tr ',' '\n' <"$fresh") | head -20 >&2
    exit 1
fi
