#!/usr/bin/env bash
# Build cost of many tools: generates one crate of TOOLS tools (default 200) for mcp-toolbelt and
# the same tools for rmcp, then for each, with its dependencies already built: a clean debug build
# of the crate, a rebuild after one tool's edit, the largest rustc's peak memory, and the debug
# and release binary sizes. The crates go to target/build-time/ (ignored by git). Both take only
# what a stdio server needs, as a user writing one would: rmcp's `transport-io`, and our crate
# without its default `http` feature.
#
# ROUNDS rounds (default 5) alternate the two crates, so a machine whose speed drifts slows both
# alike; each round's figures are printed, then each column's median and the ratios of medians.
#
#   bash benches/build-time.sh            # dependencies first: allow 20 minutes and 2 GB of disk
#   TOOLS=50 ROUNDS=3 RELEASE=0 bash benches/build-time.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
TOOLS=${TOOLS:-200}
ROUNDS=${ROUNDS:-5}
RELEASE=${RELEASE:-1}
work=$root/target/build-time
mkdir -p "$work"
export CARGO_TERM_COLOR=never
# Cargo's own default for the dev profile (incremental on), whatever the calling shell exports.
unset CARGO_INCREMENTAL
# One target directory for both crates: what they share (serde, tokio, schemars, ...) is built once.
export CARGO_TARGET_DIR=$work/target

generate() { # ours|rmcp
  local kind=$1 dir=$work/$1
  mkdir -p "$dir/src"
  if [ "$kind" = ours ]; then
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "gen-ours"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
mcp-toolbelt = { path = "$root/runtime", default-features = false }
schemars = { version = "1.2", default-features = false, features = ["derive", "std"] }
serde = { version = "1", features = ["derive"] }
tokio = { version = "1", features = ["rt-multi-thread", "macros"] }
TOML
    {
      echo 'use mcp_toolbelt::{Server, tool};'
      echo 'use schemars::JsonSchema;'
      echo 'use serde::Deserialize;'
      # The argument structs first, then the tools, as the rmcp crate must lay them out (its
      # tools are one impl block): the edit below shifts what follows it, and rustc checks
      # again every item it shifted, so the two layouts must be the same for the edit to
      # compare the libraries rather than where the structs stand.
      for i in $(seq "$TOOLS"); do
        cat <<RUST

#[derive(Deserialize, JsonSchema)]
struct Args$i {
    /// What to look for
    query: String,
    /// How many results at most
    limit: Option<u32>,
}
RUST
      done
      for i in $(seq "$TOOLS"); do
        cat <<RUST

/// Tool number $i: answers with its query
#[tool]
async fn tool_$i(args: Args$i) -> String {
    format!("tool $i: {} ({:?})", args.query, args.limit)
}
RUST
      done
      echo
      echo '#[tokio::main]'
      echo 'async fn main() -> std::process::ExitCode {'
      echo '    Server::new("gen", "0.1.0").run().await'
      echo '}'
    } >"$dir/src/main.rs"
  else
    cat >"$dir/Cargo.toml" <<TOML
[package]
name = "gen-rmcp"
version = "0.1.0"
edition = "2024"
publish = false

[workspace]

[dependencies]
rmcp = { version = "=3.11.0", features = ["server", "macros", "transport-io"] }
schemars = "1"
serde = { version = "1", features = ["derive"] }
tokio = { version = "1", features = ["rt-multi-thread", "macros", "io-std"] }
TOML
    {
      echo 'use rmcp::handler::server::router::tool::ToolRouter;'
      echo 'use rmcp::handler::server::wrapper::Parameters;'
      echo 'use rmcp::{ServerHandler, ServiceExt as _, schemars, tool, tool_handler, tool_router};'
      echo 'use serde::Deserialize;'
      for i in $(seq "$TOOLS"); do
        cat <<RUST

#[derive(Deserialize, schemars::JsonSchema)]
struct Args$i {
    /// What to look for
    query: String,
    /// How many results at most
    limit: Option<u32>,
}
RUST
      done
      echo
      echo '#[derive(Clone)]'
      echo 'struct Gen {'
      echo '    tool_router: ToolRouter<Self>,'
      echo '}'
      echo
      echo '#[tool_router]'
      echo 'impl Gen {'
      for i in $(seq "$TOOLS"); do
        cat <<RUST
    /// Tool number $i: answers with its query
    #[tool]
    async fn tool_$i(&self, Parameters(args): Parameters<Args$i>) -> String {
        format!("tool $i: {} ({:?})", args.query, args.limit)
    }

RUST
      done
      echo '}'
      echo
      echo '#[tool_handler(router = self.tool_router)]'
      echo 'impl ServerHandler for Gen {}'
      echo
      echo '#[tokio::main]'
      echo 'async fn main() -> Result<(), Box<dyn std::error::Error>> {'
      echo '    let service = Gen { tool_router: Gen::tool_router() }.serve(rmcp::transport::stdio()).await?;'
      echo '    service.waiting().await?;'
      echo '    Ok(())'
      echo '}'
    } >"$dir/src/main.rs"
  fi
}

# Seconds and the largest process's peak memory (MiB) of one cargo command, as "S MiB".
timed() {
  local log
  log=$(mktemp)
  /usr/bin/time -f '%e %M' -o "$log" "$@" >/dev/null 2>&1 || { cat "$log" >&2; return 1; }
  awk '{printf "%.1f %.0f\n", $1, $2 / 1024}' "$log"
  rm -f "$log"
}

# One round for one crate: "clean peak-MiB edit debug-MB".
measure() { # ours|rmcp
  local kind=$1 dir=$work/$1 clean memory edit
  local manifest=(--manifest-path "$dir/Cargo.toml")
  cargo clean --quiet "${manifest[@]}" -p "gen-$kind"
  read -r clean memory < <(timed cargo build "${manifest[@]}")
  # One tool's doc comment (its description) changes.
  sed -i 's/Tool number 1: answers/Tool number 1 (edited): answers/' "$dir/src/main.rs"
  read -r edit _ < <(timed cargo build "${manifest[@]}")
  sed -i 's/Tool number 1 (edited): answers/Tool number 1: answers/' "$dir/src/main.rs"
  echo "$clean $memory $edit $(du -m --apparent-size "$CARGO_TARGET_DIR/debug/gen-$kind" | cut -f1)"
}

for kind in ours rmcp; do
  generate "$kind"
  # Dependencies first, not counted.
  cargo build --quiet --manifest-path "$work/$kind/Cargo.toml"
done

results=$(mktemp)
printf '| round | crate (%s tools) | clean debug build s | rustc peak MiB | one-tool edit s | debug binary MB |\n' "$TOOLS"
printf '| ---: | --- | ---: | ---: | ---: | ---: |\n'
for round in $(seq "$ROUNDS"); do
  for kind in ours rmcp; do
    read -r clean memory edit debug < <(measure "$kind")
    echo "$kind $clean $memory $edit $debug" >>"$results"
    printf '| %s | %s | %s | %s | %s | %s |\n' "$round" "$kind" "$clean" "$memory" "$edit" "$debug"
  done
done

# Each column's median for each crate, then ours over rmcp's.
python3 - "$results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
median = {kind: [statistics.median(float(row[i]) for row in rows if row[0] == kind) for i in (1, 2, 3, 4)]
          for kind in ("ours", "rmcp")}
print()
print("| medians | clean debug build s | rustc peak MiB | one-tool edit s | debug binary MB |")
print("| --- | ---: | ---: | ---: | ---: |")
for kind in ("ours", "rmcp"):
    print("| %s | %.1f | %.0f | %.1f | %.0f |" % (kind, *median[kind]))
ratio = [o / r for o, r in zip(median["ours"], median["rmcp"])]
print("| ours / rmcp | %.2fx | %.2fx | %.2fx | %.2fx |" % tuple(ratio))
PY
rm -f "$results"

if [ "$RELEASE" = 1 ]; then
  echo
  for kind in ours rmcp; do
    cargo build --quiet --release --manifest-path "$work/$kind/Cargo.toml"
    echo "release binary, $kind: $(du -m --apparent-size "$CARGO_TARGET_DIR/release/gen-$kind" | cut -f1) MB"
  done
fi
