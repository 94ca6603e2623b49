#!/usr/bin/env bash
# The scale-out rows of BENCHMARKS.md: one replica in memory, one replica on Redis, and three
# replicas on Redis behind nginx (`benches/replicas/serve.sh`), each in both eras (legacy
# sessions, 2026-07-28), in alternating rounds, with its own redis-server on a free port.
#
#   bash benches/replicas.sh                  # about three minutes
#   ROUNDS=3 CALLS=5000 bash benches/replicas.sh
#
# Needs redis-server and nginx (Debian: apt-get install redis-server nginx).
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-3}
CALLS=${CALLS:-20000}
CONCURRENCY=${CONCURRENCY:-16}
export CARGO_TERM_COLOR=never

cargo build --quiet --release -p mcp-toolbelt-benches --bins
cargo build --quiet --release -p mcp-toolbelt-examples --example catalog
bench=target/release/mcp-bench
catalog=target/release/examples/catalog
url='http://127.0.0.1:{port}/mcp'

redis_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
redis_dir=$(mktemp -d)
redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$redis_dir" \
  --daemonize no --loglevel warning &
redis_pid=$!
trap 'kill $redis_pid 2>/dev/null; rm -rf "$redis_dir"' EXIT
until redis-cli -p "$redis_port" ping >/dev/null 2>&1; do sleep 0.05; done
redis="redis://127.0.0.1:$redis_port"

# name | era | command ({port}: a free port)
servers=(
  "one replica, memory|legacy|$catalog --http 127.0.0.1:{port}"
  "one replica, memory|modern|$catalog --http 127.0.0.1:{port}"
  "one replica, Redis|legacy|$catalog --http 127.0.0.1:{port} --redis $redis"
  "one replica, Redis|modern|$catalog --http 127.0.0.1:{port} --redis $redis"
  "3 replicas + nginx, Redis|legacy|bash benches/replicas/serve.sh {port} $redis $catalog"
  "3 replicas + nginx, Redis|modern|bash benches/replicas/serve.sh {port} $redis $catalog"
)

mkdir -p results
out=results/replicas-$(date -u +%Y%m%dT%H%M%SZ).jsonl
for round in $(seq "$ROUNDS"); do
  echo "round $round of $ROUNDS" >&2
  for server in "${servers[@]}"; do
    IFS='|' read -r name era command <<<"$server"
    # shellcheck disable=SC2086 # the command is words
    "$bench" run --server "$name" --transport http --era "$era" --mode call \
      --calls "$CALLS" --warmup $((CALLS / 10)) --concurrency "$CONCURRENCY" --url "$url" \
      --out "$out" -- $command \
      || echo "($name $era failed; left out of the table)" >&2
  done
done

echo
echo "$(nproc) cores, $(uname -srm), $(date -u +%Y-%m-%dT%H:%MZ); $ROUNDS rounds, $CALLS calls, $CONCURRENCY in flight; medians"
echo "(the nginx rows' RSS and CPU are the wrapper script's, not the replicas': read their calls/s and p99)"
"$bench" table "$out"
