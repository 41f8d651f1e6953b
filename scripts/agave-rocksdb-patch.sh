#!/usr/bin/env bash
# Prepares the rocksdb crate that interop/agave43 builds against (its [patch.crates-io]).
#
# Agave 4.3's solana-ledger, as published, calls three methods that only Agave's own fork of
# the rocksdb crate has (DB::new_pinnable_slice, DB::get_pinned_cf_into,
# DBPinnableSlice::reset). This copies crates.io's rocksdb 0.24.0 from the local cargo
# registry into interop/agave43/vendor/ (gitignored) and appends our implementation of the
# three, interop/agave43/rocksdb-extra/pinned_into.rs, as a module of that crate. Nothing of
# the rocksdb crate itself is committed to this repository.
#
# Idempotent: the copy is redone only when the appended file changed, so cargo does not
# rebuild the crate on every run.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
VERSION=0.24.0
DEST="$REPO/interop/agave43/vendor/rocksdb-$VERSION"
EXTRA="$REPO/interop/agave43/rocksdb-extra/pinned_into.rs"

if [ -f "$DEST/src/bstore_pinned_into.rs" ] && cmp -s "$EXTRA" "$DEST/src/bstore_pinned_into.rs"; then
    exit 0
fi

CARGO_HOME="${CARGO_HOME:-$HOME/.cargo}"
SRC=""
for dir in "$CARGO_HOME"/registry/src/*/rocksdb-"$VERSION"; do
    [ -f "$dir/Cargo.toml" ] && SRC="$dir" && break
done
if [ -z "$SRC" ]; then
    # Not unpacked yet: let cargo download it (it is in interop/agave's lock file too).
    (cd "$REPO/interop/agave" && cargo +nightly fetch --locked >/dev/null)
    for dir in "$CARGO_HOME"/registry/src/*/rocksdb-"$VERSION"; do
        [ -f "$dir/Cargo.toml" ] && SRC="$dir" && break
    done
fi
[ -n "$SRC" ] || { echo "rocksdb $VERSION not found in $CARGO_HOME/registry/src" >&2; exit 1; }

rm -rf "$DEST"
mkdir -p "$(dirname "$DEST")"
cp -a "$SRC" "$DEST"
rm -f "$DEST/.cargo-ok" "$DEST/.cargo_vcs_info.json"
cp "$EXTRA" "$DEST/src/bstore_pinned_into.rs"
printf '\n// Added by bstore scripts/agave-rocksdb-patch.sh (see that file).\nmod bstore_pinned_into;\n' \
    >>"$DEST/src/lib.rs"
echo "prepared $DEST" >&2
