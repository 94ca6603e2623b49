#!/usr/bin/env bash
# Many clients at once (BENCHMARKS.md, "Many clients"): for each NAME=BINARY, in alternating
# rounds, COUNT idle legacy sessions (`none`), COUNT sessions each holding a GET stream (`get`),
# COUNT `subscriptions/listen` streams (`listen`; not for a server named rmcp*, which serves no
# 2026-07-28) and COUNT idle keep-alive connections (`open`; a server named floor* is the hyper
# floor, target/release/floor-http, and runs only this): the time to open them, the server's
# KiB per client (VmRSS before and after), and a fresh client's initialize+tools/list with them
# open. Prints the table of medians; the JSON lines go to results/ (ignored by git).
#
#   cargo build --release -p mcp-toolbelt-benches --bins
#   cargo build --release -p mcp-toolbelt-examples --no-default-features --example catalog
#   cargo build --release --manifest-path benches/peers/rmcp/Cargo.toml
#   bash benches/sessions.sh ours=target/release/examples/catalog \
#     rmcp=benches/peers/rmcp/target/release/rmcp-catalog
#   COUNT=1000 ROUNDS=5 STREAMS="none get" bash benches/sessions.sh ... floor=target/release/floor-http
#
# The catalog's caps (512 connections, 256 streams, 1,024 sessions) are raised for the run with
# CATALOG_MAX_CLIENTS (examples/catalog); rmcp has none. Every stream holds a file on both sides:
# the soft limit of open files is raised to the hard one here, and COUNT must stay below it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
COUNT=${COUNT:-10000}
CONCURRENCY=${CONCURRENCY:-16}
STREAMS=${STREAMS:-none get listen open}
[ $# -gt 0 ] || { sed -n '2,19p' "$0" >&2; exit 2; }
bench=target/release/mcp-bench
[ -x "$bench" ] || { echo "build the driver first: cargo build --release -p mcp-toolbelt-benches --bins" >&2; exit 2; }
ulimit -n "$(ulimit -Hn)"
mkdir -p results
out=results/sessions-$(date -u +%Y%m%dT%H%M%SZ).jsonl

for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for streams in $STREAMS; do
    for server in "$@"; do
      name=${server%%=*}
      binary=${server#*=}
      command=(env CATALOG_MAX_CLIENTS="$COUNT" "$binary" --http '127.0.0.1:{port}')
      case $name in
        # The hyper floor serves no session: only idle keep-alive connections are measured.
        floor*) [[ $streams == open ]] || continue; command=("$binary" '127.0.0.1:{port}') ;;
        rmcp*) [[ $streams == listen ]] && continue ;;
      esac
      "$bench" sessions --server "$name" --count "$COUNT" --streams "$streams" \
        --concurrency "$CONCURRENCY" --out "$out" -- "${command[@]}" \
        || echo "($name $streams failed; left out of the table)" >&2
    done
  done
done

echo
echo "$(nproc) cores, $(uname -srm), $(date -u +%Y-%m-%dT%H:%MZ); $ROUNDS rounds, $COUNT clients, $CONCURRENCY opening at once; medians"
"$bench" table "$out"
