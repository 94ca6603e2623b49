#!/usr/bin/env bash
# Many tools (BENCHMARKS.md, "Many tools"): 1,000 generated tools, each with an argument struct of
# its own, served over stdio by mcp-toolbelt (benches/many-tools) and by rmcp 3.11
# (benches/peers/rmcp's `many-tools`), both release builds with the workspace's profile. In
# alternating rounds, each server spawned SPAWNS times per measure, medians:
#   - startup:    spawn → `initialize` answered; its memory column is the resident size then (idle);
#   - first-page: spawn → the answer to the first `tools/list` after the handshake;
#   - all-pages:  spawn → the last page, following `nextCursor`;
# and each binary's size. NAME=BINARY arguments add servers to the same rounds (an earlier
# build, the 5-tool catalogs: `catalog=target/release/examples/catalog`).
#
#   bash benches/tools.sh
#   ROUNDS=7 SPAWNS=10 bash benches/tools.sh before=/tmp/many-tools-before
#   MANY_TOOLS=5000 bash benches/tools.sh     # another count (both servers are rebuilt)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
SPAWNS=${SPAWNS:-10}
export CARGO_TERM_COLOR=never

nice cargo build --quiet --release -p mcp-toolbelt-benches --bins
nice cargo build --quiet --release -p mcp-toolbelt-many-tools
nice cargo build --quiet --release --manifest-path benches/peers/rmcp/Cargo.toml --bin many-tools
bench=target/release/mcp-bench
servers=("mcp-toolbelt=target/release/many-tools" "rmcp=benches/peers/rmcp/target/release/many-tools" "$@")

mkdir -p results
out=results/tools-$(date -u +%Y%m%dT%H%M%SZ).jsonl
for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for server in "${servers[@]}"; do
    name=${server%%=*}
    binary=${server#*=}
    for mode in startup first-page all-pages; do
      "$bench" run --server "$name" --transport stdio --era legacy --mode "$mode" \
        --calls "$SPAWNS" --out "$out" -- "$binary" 2>&1 | grep -v ' tools listed$' >&2 \
        || echo "($name $mode failed; left out of the table)" >&2
    done
  done
done

echo
echo "$(nproc) cores, $(uname -srm), $(date -u +%Y-%m-%dT%H:%MZ), $(git rev-parse --short HEAD); $ROUNDS rounds of $SPAWNS spawns; medians of each run's p50 (ms from spawn; memory: resident after \`initialize\`)"
"$bench" table "$out"
echo
echo "binary sizes (bytes):"
for server in "${servers[@]}"; do
  printf '  %-14s %s\n' "${server%%=*}" "$(stat -c %s "${server#*=}")"
done
