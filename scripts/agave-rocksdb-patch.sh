#!/usr/bin/env bash
# Prepares the rocksdb crate that interop/agave43 builds against (its [patch.crates-io]).
#
# Agave 4.3's solana-ledger, as published, calls methods that only Agave's own fork of the
# rocksdb crate has (DB::new_pinnable_slice, DB::get_pinned_cf_into, DBPinnableSlice::reset,
# and DB::write taking `&mut WriteBatch`). This copies crates.io's rocksdb 0.24.0 from the
# local cargo registry into interop/agave43/vendor/ (gitignored), renames the crate's by-value
# `DB::write` to `write_owned` (one line), and appends our implementation of the four,
# interop/agave43/rocksdb-extra/pinned_into.rs, as a module of that crate. Nothing of the
# rocksdb crate itself is committed to this repository.
#
# Idempotent: the copy is redone only when the appended file or this script changed, so cargo
# does not rebuild the crate on every run.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
VERSION=0.24.0
DEST="$REPO/interop/agave43/vendor/rocksdb-$VERSION"
EXTRA="$REPO/interop/agave43/rocksdb-extra/pinned_into.rs"

STAMP="$(cat "$EXTRA" "$0" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$DEST/.bstore-stamp" 2>/dev/null)" = "$STAMP" ]; then
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
# The fork's `write` borrows the batch; ours (appended) accepts both, so the crate's own
# by-value one moves aside. Exactly one line must match, or the crate is not the expected one.
OWN_WRITE='    pub fn write(&self, batch: WriteBatch) -> Result<(), Error> {'
if [ "$(grep -cxF "$OWN_WRITE" "$DEST/src/db.rs")" != 1 ]; then
    echo "$DEST/src/db.rs: expected exactly one by-value DB::write" >&2
    exit 1
fi
sed -i "s/^    pub fn write(&self, batch: WriteBatch)/    pub fn write_owned(\&self, batch: WriteBatch)/" \
    "$DEST/src/db.rs"
printf '\n// Added by bstore scripts/agave-rocksdb-patch.sh (see that file).\nmod bstore_pinned_into;\n' \
    >>"$DEST/src/lib.rs"
echo "$STAMP" >"$DEST/.bstore-stamp"
echo "prepared $DEST" >&2
