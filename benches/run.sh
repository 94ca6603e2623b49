#!/usr/bin/env bash
# The one command behind BENCHMARKS.md: builds every server in release, measures them in
# alternating rounds (the machine may be shared: alternating spreads the noise over everyone)
# and prints one table of medians.
#
#   bash benches/run.sh                 # about five minutes
#   ROUNDS=3 CALLS=5000 bash benches/run.sh
#   PEERS="rmcp node python" bash benches/run.sh   # also the official TypeScript and Python SDKs
#   PEERS= bash benches/run.sh                      # no peer: the floors and the catalog alone
#   BEFORE=/tmp/catalog-old bash benches/run.sh      # and an earlier build of the catalog, alternating
#
# Results, one JSON line a run, go to results/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-5}
CALLS=${CALLS:-20000}
CONCURRENCY=${CONCURRENCY:-16}
PEERS=${PEERS-rmcp}
export CARGO_TERM_COLOR=never

cargo build --quiet --release -p mcp-toolbelt-benches --bins
# The catalog as a server on mcp-toolbelt's default features is built: without `redis`.
cargo build --quiet --release -p mcp-toolbelt-examples --no-default-features --example catalog
bench=target/release/mcp-bench
floor_stdio=target/release/floor-stdio
floor_http=target/release/floor-http
catalog=target/release/examples/catalog
url='http://127.0.0.1:{port}/mcp'

# name | transport | era | share of CALLS (1/N: the interpreted peers are 20 to 200 times slower)
# | command (over HTTP, {port} is a free port)
servers=(
  "floor|stdio|legacy|1|$floor_stdio"
  "floor|stdio|modern|1|$floor_stdio"
  "mcp-toolbelt|stdio|legacy|1|$catalog"
  "mcp-toolbelt|stdio|modern|1|$catalog"
  "floor|http|legacy|1|$floor_http 127.0.0.1:{port}"
  "floor|http|modern|1|$floor_http 127.0.0.1:{port}"
  "mcp-toolbelt|http|legacy|1|$catalog --http 127.0.0.1:{port}"
  "mcp-toolbelt|http|modern|1|$catalog --http 127.0.0.1:{port}"
)
# BEFORE=path/to/an/earlier/catalog: that build too, in the same rounds (rows `before`), so a
# change is measured against what it changed under the same load.
if [[ -n "${BEFORE:-}" ]]; then
  servers+=(
    "before|stdio|legacy|1|$BEFORE"
    "before|stdio|modern|1|$BEFORE"
    "before|http|legacy|1|$BEFORE --http 127.0.0.1:{port}"
    "before|http|modern|1|$BEFORE --http 127.0.0.1:{port}"
  )
fi
for peer in $PEERS; do
  case $peer in
    rmcp)
      # The catalog alone: the 1,000-tool `many-tools` (fat LTO) is `tools.sh`'s.
      cargo build --quiet --release --manifest-path benches/peers/rmcp/Cargo.toml --bin rmcp-catalog
      rmcp=benches/peers/rmcp/target/release/rmcp-catalog
      servers+=("rmcp|stdio|legacy|1|$rmcp" "rmcp|http|legacy|1|$rmcp --http 127.0.0.1:{port}")
      ;;
    node)
      bash benches/peers/node/install.sh
      node=benches/peers/node/run.sh
      servers+=("typescript|stdio|legacy|4|$node" "typescript|http|legacy|20|$node --http {port}")
      ;;
    python)
      bash benches/peers/python/install.sh
      python=benches/peers/python/run.sh
      servers+=("python|stdio|legacy|20|$python" "python|http|legacy|50|$python --http {port}")
      ;;
    *) echo "unknown peer $peer (rmcp, node, python)" >&2; exit 2 ;;
  esac
done

mkdir -p results
out=results/bench-$(date -u +%Y%m%dT%H%M%SZ).jsonl

measure() { # mode calls name transport era command...
  local mode=$1 calls=$2 name=$3 transport=$4 era=$5
  shift 5
  "$bench" run --server "$name" --transport "$transport" --era "$era" --mode "$mode" \
    --calls "$calls" --warmup $((calls / 10)) --concurrency "$CONCURRENCY" --url "$url" \
    --out "$out" -- "$@" \
    || echo "($name $transport $era $mode failed; left out of the table)" >&2
}

for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for server in "${servers[@]}"; do
    IFS='|' read -r name transport era share command <<<"$server"
    # shellcheck disable=SC2086 # the command is words
    measure call $((CALLS / share)) "$name" "$transport" "$era" $command
  done
  for server in "${servers[@]}"; do
    IFS='|' read -r name transport era share command <<<"$server"
    [ "$transport" = stdio ] && [ "$era" = legacy ] || continue
    # shellcheck disable=SC2086
    measure list $((CALLS / 4 / share)) "$name" "$transport" "$era" $command
    # shellcheck disable=SC2086
    measure startup 10 "$name" "$transport" "$era" $command
  done
done

echo
echo "$(nproc) cores, $(uname -srm), $(date -u +%Y-%m-%dT%H:%MZ); $ROUNDS rounds, $CALLS calls, $CONCURRENCY in flight; medians"
"$bench" table "$out"
