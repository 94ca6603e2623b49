#!/usr/bin/env bash
# Soak, on demand (not in CI): one million calls through one server process (the release catalog
# example), over stdio and then over Streamable HTTP, driven by mcp-bench. The server's resident
# memory (VmRSS) is sampled every second from start to end: flat means nothing grows per call.
#
#   bash benches/soak.sh                          # 1,000,000 calls each way, 64 in flight
#   CALLS=100000 CONCURRENCY=16 bash benches/soak.sh
#   TRANSPORTS=stdio bash benches/soak.sh
#
# Prints, per transport, RSS at start (the first sample, during warm-up), at 10 s, at its peak
# and at the end (the last sample before the server exits); the samples go to results/soak-*-TRANSPORT.rss (ignored by
# git) and mcp-bench's line (rate, latencies, peak RSS) to results/soak-*.jsonl.
set -euo pipefail
cd "$(dirname "$0")/.."
CALLS=${CALLS:-1000000}
CONCURRENCY=${CONCURRENCY:-64}
TRANSPORTS=${TRANSPORTS:-stdio http}
export CARGO_TERM_COLOR=never

cargo build --quiet --release -p mcp-toolbelt-benches --bins
cargo build --quiet --release -p mcp-toolbelt-examples --no-default-features --example catalog
bench=target/release/mcp-bench
catalog=target/release/examples/catalog

mkdir -p results
stamp=results/soak-$(date -u +%Y%m%dT%H%M%SZ)

# VmRSS of process $1 in KiB, or nothing once it is gone.
rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || true; }

soak() { # transport, then the server command
  local transport=$1
  shift
  local samples=$stamp-$transport.rss
  "$bench" run --server mcp-toolbelt --transport "$transport" --era legacy --mode call \
    --calls "$CALLS" --warmup 10000 --concurrency "$CONCURRENCY" \
    --url 'http://127.0.0.1:{port}/mcp' --out "$stamp.jsonl" -- "$@" &
  local driver=$!
  local server=""
  while [ -z "$server" ] && kill -0 "$driver" 2>/dev/null; do
    server=$(pgrep -P "$driver" | head -n 1 || true)
    sleep 0.1
  done
  local started=$SECONDS
  : >"$samples"
  while kill -0 "$driver" 2>/dev/null; do
    local now
    now=$(rss_kib "$server")
    [ -n "$now" ] && echo "$((SECONDS - started)) $now" >>"$samples"
    sleep 1
  done
  wait "$driver"
  awk -v transport="$transport" -v calls="$CALLS" '
    NR == 1 { first = $2 }
    !settled && $1 >= 10 { settled = $2 }
    { last = $2; if ($2 > peak) peak = $2 }
    END {
      printf "%s: %d calls in %d s; server RSS start %.1f MiB, at 10 s %.1f MiB, peak %.1f MiB, end %.1f MiB (%d samples)\n",
        transport, calls, $1, first / 1024, settled / 1024, peak / 1024, last / 1024, NR
    }' "$samples"
}

for transport in $TRANSPORTS; do
  case $transport in
    stdio) soak stdio "$catalog" ;;
    http) soak http "$catalog" --http '127.0.0.1:{port}' ;;
    *) echo "unknown transport $transport (stdio, http)" >&2; exit 2 ;;
  esac
done
