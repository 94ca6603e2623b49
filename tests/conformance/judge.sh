#!/usr/bin/env bash
# Says what one run of the official conformance suite judged, scenario by scenario, and fails
# unless every failing scenario is expected for a reason written down:
#
#   judge.sh SUITE_OUTPUT BASELINE [PENDING_FAILING]
#
# SUITE_OUTPUT is what `conformance server --requirements R --expected-failures BASELINE`
# printed. A scenario it marks ✗ is expected when BASELINE lists it (or one of its checks,
# `scenario:check`), with the reason in the comment above it; or, for a scenario the suite runs
# as *pending* (run but not scored, so no baseline may hold it), when PENDING_FAILING lists it
# as `scenario: reason`. Any other failure, a PENDING_FAILING entry that passes or is not run,
# or a suite that did not pass its own baseline check, fails (exit 1). Pure text in, text out:
# tests/tests/served/conformance_judge.rs runs it on recorded output.
set -euo pipefail

output="$1" baseline="$2" pending="${3:-/dev/null}"
say() { printf 'conformance:   %s\n' "$*"; }

# The suite's last summary: `✓ name: P passed, F failed` / `✗ name: …`, colours removed.
summary="$(sed 's/\x1b\[[0-9;]*m//g' "$output" |
    awk '/^=== SUMMARY ===/ { lines = ""; inside = 1; next }
         inside && /^Total:/ { inside = 0 }
         inside && /^(✓|✗) / { lines = lines $0 "\n" }
         END { printf "%s", lines }')"
[[ -n "$summary" ]] || { say "no summary in $output: the suite did not run"; exit 1; }

# Each baseline entry with the comment above it: `entry<TAB>reason`.
reasons="$(awk '/^ *#/ { sub(/^ *# ?/, ""); text = (comment ? text " " : "") $0; comment = 1; next }
                { comment = 0 }
                /^ *- / { sub(/^ *- */, ""); print $0 "\t" text }' "$baseline")"
reason_of() { # the baseline's reason for scenario $1, if it lists it or one of its checks
    awk -F'\t' -v name="$1" '$1 == name || index($1, name ":") == 1 { print $2; exit }' <<<"$reasons"
}
pending_reason_of() {
    awk -v name="$1" 'index($0, name ": ") == 1 { print substr($0, length(name) + 3); exit }' \
        <(grep -v '^ *#' "$pending")
}

status=0 passed=0 warned=0 expected=0 pending_failed=0
while read -r mark rest; do
    name="${rest%%:*}"
    if [[ "$mark" == "✓" ]]; then
        passed=$((passed + 1))
        # The summary marks a scenario ✓ when its only misses are warnings (SHOULDs), which the
        # suite's baseline check still counts as failures: say which, and why they are expected.
        if reason="$(reason_of "$name")" && [[ -n "$reason" ]]; then
            warned=$((warned + 1))
            say "~ $name passes with a warning the suite counts as a failure; expected ($(basename "$baseline")): $reason"
        fi
        if [[ -n "$(pending_reason_of "$name")" ]]; then
            say "✓ $name passes, yet $(basename "$pending") expects it to fail: remove it there"
            status=1
        fi
    elif reason="$(reason_of "$name")" && [[ -n "$reason" ]]; then
        expected=$((expected + 1))
        say "✗ $name: expected ($(basename "$baseline")): $reason"
    elif reason="$(pending_reason_of "$name")" && [[ -n "$reason" ]]; then
        pending_failed=$((pending_failed + 1))
        say "✗ $name: pending in the suite (not scored); expected ($(basename "$pending")): $reason"
    else
        say "✗ $name: UNEXPECTED: in neither $(basename "$baseline") nor $(basename "$pending")"
        status=1
    fi
done <<<"$summary"

while IFS= read -r line; do
    [[ -z "$line" || "$line" == \#* ]] && continue
    name="${line%%: *}"
    grep -qE "^(✓|✗) $name:" <<<"$summary" || {
        say "$name ($(basename "$pending")) was not run by the suite: remove it there"
        status=1
    }
done <"$pending"

if ! grep -q "Baseline check passed" <(sed 's/\x1b\[[0-9;]*m//g' "$output"); then
    say "the suite's own baseline check did not pass (above)"
    status=1
fi
total=$((passed + expected + pending_failed))
verdict=$([[ $status == 0 ]] && echo "passed" || echo "FAILED")
pending_part=""
[[ "$pending" == /dev/null ]] ||
    pending_part=", $pending_failed pending ones failed as $(basename "$pending") expects"
warned_part=""
[[ $warned == 0 ]] || warned_part=" ($warned with a warning $(basename "$baseline") expects)"
say "judged $total scenarios: $passed passed$warned_part, $expected failed as $(basename "$baseline") expects$pending_part: $verdict"
exit "$status"
