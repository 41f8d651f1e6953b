#!/usr/bin/env bash
# Renders the per-slot replay charts (the same as metrics/dashboards/replay-slot-stats.json)
# to SVG, and to PNG when rsvg-convert is installed (Debian: librsvg2-bin).
#
#   scripts/plot-metrics.sh --input metrics.lp --out charts/
#   scripts/plot-metrics.sh --influx-url http://127.0.0.1:8086 --db mainnet --out charts/
#
# Every argument goes to `bstore metrics plot` (see its --help). The binary is $BSTORE_BIN,
# else `bstore` on PATH, else target/release/bstore, else built with cargo.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [[ -n "${BSTORE_BIN:-}" ]]; then
  bstore=("$BSTORE_BIN")
elif command -v bstore >/dev/null 2>&1; then
  bstore=(bstore)
elif [[ -x "$root/target/release/bstore" ]]; then
  bstore=("$root/target/release/bstore")
else
  bstore=(cargo run --quiet --release --manifest-path "$root/Cargo.toml" -p bstore --)
fi

svgs="$("${bstore[@]}" metrics plot "$@")"
echo "$svgs"
if command -v rsvg-convert >/dev/null 2>&1; then
  while IFS= read -r svg; do
    [[ -n "$svg" ]] || continue
    rsvg-convert --format png --output "${svg%.svg}.png" "$svg"
    echo "${svg%.svg}.png"
  done <<<"$svgs"
else
  echo "rsvg-convert not found (apt-get install librsvg2-bin): SVG only" >&2
fi
