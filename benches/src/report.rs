//! Results as JSON lines (one a run), and the table of their medians.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::{Load, Measured};

/// What names a row of the table.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Row {
    mode: String,
    transport: String,
    era: String,
    server: String,
}

/// One run as a JSON line.
#[must_use]
pub fn line(server: &str, transport: &str, load: &Load, measured: &Measured) -> String {
    let millis = |fraction: f64| measured.percentile(fraction).as_secs_f64() * 1000.0;
    json!({
        "server": server,
        "transport": transport,
        "era": load.era.name(),
        "mode": load.mode.name(),
        "calls": measured.calls,
        "concurrency": load.concurrency,
        "calls_per_s": measured.rate(),
        "p50_ms": millis(0.5),
        "p99_ms": millis(0.99),
        "max_ms": millis(1.0),
        "rss_mib": measured.peak_rss_mib(),
        "cpu_us_per_call": measured.cpu_micros_per_call(),
    })
    .to_string()
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => f64::midpoint(values[n / 2 - 1], values[n / 2]),
    }
}

/// The table of `lines` (JSON lines of [`line()`]): per server, transport, era and mode, the
/// median of each column over the rounds, and the throughput's ratio to the floor's and to
/// rmcp's (same transport, era when both have it, and mode). Servers named `floor` and `rmcp`
/// are those references.
#[must_use]
pub fn table(lines: &str) -> String {
    let mut runs: BTreeMap<Row, Vec<Value>> = BTreeMap::new();
    for line in lines.lines().filter(|line| !line.trim().is_empty()) {
        let Ok(run) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let text = |key: &str| run[key].as_str().unwrap_or("?").to_owned();
        let row = Row {
            mode: text("mode"),
            transport: text("transport"),
            era: text("era"),
            server: text("server"),
        };
        runs.entry(row).or_default().push(run);
    }
    let medians: BTreeMap<Row, [f64; 5]> = runs
        .iter()
        .map(|(row, runs)| {
            let column = |key: &str| {
                median(
                    &mut runs
                        .iter()
                        .filter_map(|run| run[key].as_f64())
                        .collect::<Vec<_>>(),
                )
            };
            (
                row.clone(),
                [
                    column("calls_per_s"),
                    column("p50_ms"),
                    column("p99_ms"),
                    column("rss_mib"),
                    column("cpu_us_per_call"),
                ],
            )
        })
        .collect();
    let reference = |row: &Row, server: &str| {
        let same = |era: bool| {
            medians.iter().find(|(other, _)| {
                other.server == server
                    && other.mode == row.mode
                    && other.transport == row.transport
                    && (!era || other.era == row.era)
            })
        };
        same(true)
            .or_else(|| same(false))
            .map(|(_, values)| values[0])
    };
    let mut out = String::from(
        "| mode | server | transport | era | rounds | calls/s | p50 ms | p99 ms | peak RSS MiB | server CPU µs/call | x floor | x rmcp |\n\
         | --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (row, [rate, p50, p99, rss, cpu]) in &medians {
        let ratio = |server: &str| {
            reference(row, server).map_or_else(|| "-".to_owned(), |of| format!("{:.2}", rate / of))
        };
        let (rate, cpu, ratios) =
            if matches!(row.mode.as_str(), "startup" | "first-page" | "all-pages") {
                // Start-up is a latency (and its memory the idle size): throughput says nothing.
                (
                    "-".to_owned(),
                    "-".to_owned(),
                    ("-".to_owned(), "-".to_owned()),
                )
            } else {
                (
                    format!("{rate:.0}"),
                    format!("{cpu:.1}"),
                    (ratio("floor"), ratio("rmcp")),
                )
            };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {rate} | {p50:.3} | {p99:.3} | {rss:.1} | {cpu} | {} | {} |",
            row.mode,
            row.server,
            row.transport,
            row.era,
            runs[row].len(),
            ratios.0,
            ratios.1,
        );
    }
    out
}
