#!/usr/bin/env bash
# A call's cost in instructions (BENCHMARKS.md, "Per call in instructions"): each server is run
# under valgrind's callgrind while `mcp-bench` sends it 1,000 calls, then 4,000 (16 in flight, no
# warm-up); the difference of the two totals over 3,000 is what one more call costs in user
# space, start-up and the first calls left out. Unlike the wall clock (BENCHMARKS.md, "The
# machine, and the noise"), it repeats to within a few tenths of a percent on a busy machine,
# so two builds compare without alternating rounds; the kernel's share (the socket and pipe
# work every server pays alike) is not counted.
#
#   bash benches/instructions.sh                                   # the catalog and the floors
#   bash benches/instructions.sh before=/tmp/catalog-old           # and an earlier build
#   TRANSPORTS=stdio ERAS=modern bash benches/instructions.sh
#
# Needs valgrind (`apt-get install valgrind`). NAME=BINARY arguments add catalog builds. The
# floors speak both eras (`benches/src/floor.rs`): at 2026-07-28 they check the `_meta` envelope
# and stamp the result, written as the legacy floor is (no tight bound in that era: see there).
# Over stdio the typed floor too (`floor-stdio --typed`): the request read into borrowed structs
# that skip what they do not read, the answer written as bytes.
set -euo pipefail
cd "$(dirname "$0")/.."
TRANSPORTS=${TRANSPORTS:-"stdio http"}
ERAS=${ERAS:-"legacy modern"}
export CARGO_TERM_COLOR=never
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is needed" >&2; exit 1; }

cargo build --quiet --release -p mcp-toolbelt-benches --bins
cargo build --quiet --release -p mcp-toolbelt-examples --no-default-features --example catalog
bench=target/release/mcp-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Instructions of one run of `calls` calls: transport, era, calls, then the server's command.
total() {
  local transport=$1 era=$2 calls=$3 url=()
  shift 3
  [ "$transport" = http ] && url=(--url 'http://127.0.0.1:{port}/mcp')
  rm -f "$work"/out*
  "$bench" run --transport "$transport" --era "$era" "${url[@]}" --calls "$calls" --warmup 0 \
    --concurrency 16 -- valgrind --tool=callgrind --callgrind-out-file="$work/out" "$@" \
    >/dev/null 2>&1
  # The server writes its profile as it exits, after the driver has stopped it.
  for _ in $(seq 50); do
    grep -qs '^totals:' "$work"/out* && break
    sleep 0.2
  done
  awk '/^totals:/ { print $2; exit }' "$work"/out*
}

# One row: name, transport, era, then the server's command ({port}: a free port over HTTP).
row() {
  local name=$1 transport=$2 era=$3 few many
  shift 3
  few=$(total "$transport" "$era" 1000 "$@")
  many=$(total "$transport" "$era" 4000 "$@")
  printf '| %s | %s | %s | %s |\n' "$name" "$transport" "$era" "$(((many - few) / 3000))"
}

servers=("mcp-toolbelt=target/release/examples/catalog" "$@")
echo "$(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD)"
echo
echo '| server | transport | era | instructions a call |'
echo '| --- | --- | --- | ---: |'
for transport in $TRANSPORTS; do
  for era in $ERAS; do
    case $transport in
      stdio)
        row floor stdio "$era" target/release/floor-stdio
        row 'typed floor' stdio "$era" target/release/floor-stdio --typed
        ;;
      http) row floor http "$era" target/release/floor-http '127.0.0.1:{port}' ;;
    esac
    for server in "${servers[@]}"; do
      binary=${server#*=}
      if [ "$transport" = http ]; then
        row "${server%%=*}" http "$era" "$binary" --http '127.0.0.1:{port}'
      else
        row "${server%%=*}" stdio "$era" "$binary"
      fi
    done
  done
done
