#!/usr/bin/env bash
# Memory of builds kept side by side (BENCHMARKS.md, "Where the memory goes"): for each
# NAME=BINARY, in alternating rounds, the idle size (resident right after the first answer,
# `--mode startup`) and the peak under load (`tools/call echo`, 16 in flight) over stdio and
# HTTP, in both eras (a server named `rmcp*` runs legacy only, as the rmcp peer does). Prints
# the table of medians; the JSON lines go to results/ (ignored by git).
#
#   cargo build --release -p mcp-toolbelt-benches --bins
#   cp target/release/examples/catalog /tmp/catalog-before     # then build the change
#   bash benches/memory.sh before=/tmp/catalog-before after=target/release/examples/catalog \
#     rmcp=benches/peers/rmcp/target/release/rmcp-catalog
#   ROUNDS=5 bash benches/memory.sh ...
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
CALLS=${CALLS:-20000}
[ $# -gt 0 ] || { sed -n '2,12p' "$0" >&2; exit 2; }
bench=target/release/mcp-bench
[ -x "$bench" ] || { echo "build the driver first: cargo build --release -p mcp-toolbelt-benches --bins" >&2; exit 2; }
url='http://127.0.0.1:{port}/mcp'
mkdir -p results
out=results/memory-$(date -u +%Y%m%dT%H%M%SZ).jsonl

run() { # name transport era mode calls binary [args...]
  local name=$1 transport=$2 era=$3 mode=$4 calls=$5
  shift 5
  "$bench" run --server "$name" --transport "$transport" --era "$era" --mode "$mode" \
    --calls "$calls" --warmup $((calls / 10)) --url "$url" --out "$out" -- "$@" >/dev/null 2>&1 \
    || echo "($name $transport $era $mode failed; left out of the table)" >&2
}

for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for server in "$@"; do
    name=${server%%=*}
    binary=${server#*=}
    eras="legacy modern"
    [[ $name == rmcp* ]] && eras=legacy
    run "$name" stdio legacy startup 10 "$binary"
    for era in $eras; do
      run "$name" stdio "$era" call "$CALLS" "$binary"
      run "$name" http "$era" call "$CALLS" "$binary" --http '127.0.0.1:{port}'
    done
  done
done

echo
echo "$(nproc) cores, $(uname -srm), $(date -u +%Y-%m-%dT%H:%MZ); $ROUNDS rounds, $CALLS calls; medians (idle: the startup rows)"
"$bench" table "$out"
