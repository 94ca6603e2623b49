#!/usr/bin/env bash
# Runs every fuzz target, one after the other, for SECONDS each (default 600), and prints the
# executions of each and whether it crashed. On demand only (not in CI): needs cargo-fuzz
# (`cargo install cargo-fuzz --locked`) and works on stable through RUSTC_BOOTSTRAP=1.
#
#   bash fuzz/run.sh [seconds] [target…]
#
# New inputs go to fuzz/work/<target> (ignored); the checked-in seeds in fuzz/corpus/<target> are
# only read. A crash leaves its input in fuzz/artifacts/<target>/ and its log in fuzz/logs/.
set -uo pipefail
cd "$(dirname "$0")"
seconds=${1:-600}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(message stdio_codec arguments http_request parsers request_state)
fi
export RUSTC_BOOTSTRAP=1 CARGO_INCREMENTAL=0
cargo fuzz build -O || exit 1
mkdir -p logs
status=0
for target in "${targets[@]}"; do
    mkdir -p "work/$target"
    log="logs/$target.log"
    cargo fuzz run -O "$target" "work/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -print_final_stats=1 -timeout=20 -rss_limit_mb=4096 >"$log" 2>&1
    code=$?
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
    if [ $code -eq 0 ]; then
        echo "$target: ${runs:-?} executions in ${seconds}s, no crash"
    else
        echo "$target: CRASH after ${runs:-?} executions (exit $code); see fuzz/$log and fuzz/artifacts/$target/"
        status=1
    fi
done
exit $status
