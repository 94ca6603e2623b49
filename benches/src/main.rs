//! `mcp-bench`: measure one server, or print the table of many runs.
//!
//! ```text
//! mcp-bench run --server NAME --transport stdio [--era legacy|modern]
//!     [--mode call|list|startup|first-page|all-pages]
//!     [--calls N] [--concurrency C] [--warmup W] [--out FILE] -- COMMAND ARGS...
//! mcp-bench run --server NAME --transport http --url http://127.0.0.1:{port}/mcp ... -- COMMAND ARGS...
//! mcp-bench sessions --server NAME --count N --streams none|get|listen [--concurrency C]
//!     [--url http://127.0.0.1:{port}/mcp] [--out FILE] -- COMMAND ARGS...
//! mcp-bench table FILE
//! ```
//!
//! Over HTTP, `{port}` in the URL and the command is replaced by a free port. `sessions` opens
//! many clients at once (see `mcp_toolbelt_benches::sessions`).

use std::io::Write as _;
use std::process::ExitCode;

use mcp_toolbelt_benches::{Era, Error, Load, Mode, http, report, sessions, stdio};

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("mcp-bench: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(arguments: Vec<String>) -> Result<(), Error> {
    match arguments.first().map(String::as_str) {
        Some("run") => measure(&arguments[1..]),
        Some("sessions") => crowd(&arguments[1..]),
        Some("table") => {
            let path = arguments.get(1).ok_or("table: which file?")?;
            let lines =
                std::fs::read_to_string(path).map_err(|error| format!("{path}: {error}"))?;
            let (crowds, calls): (Vec<&str>, Vec<&str>) = lines
                .lines()
                .partition(|line| line.contains(r#""kind":"sessions""#));
            if !calls.is_empty() {
                print!("{}", report::table(&calls.join("\n")));
            }
            if !crowds.is_empty() {
                print!("{}", sessions::table(&crowds.join("\n")));
            }
            Ok(())
        }
        _ => Err(
            "usage: mcp-bench run [options] -- COMMAND ... | mcp-bench sessions [options] -- COMMAND ... | mcp-bench table FILE"
                .into(),
        ),
    }
}

/// The options before `--` and the server command after it.
fn split(arguments: &[String]) -> Result<(Options<'_>, &[String]), Error> {
    let split = arguments
        .iter()
        .position(|argument| argument == "--")
        .ok_or("the server command follows `--`")?;
    Ok((Options(&arguments[..split]), &arguments[split + 1..]))
}

/// The options of a command.
struct Options<'a>(&'a [String]);

impl Options<'_> {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .position(|option| option == name)
            .and_then(|at| self.0.get(at + 1))
            .map(String::as_str)
    }

    fn number(&self, name: &str, default: usize) -> Result<usize, Error> {
        self.get(name).map_or(Ok(default), |text| {
            text.parse()
                .map_err(|_| format!("{name}: not a number: {text}").into())
        })
    }
}

/// Writes `line` to `--out`, else to stdout.
fn write_line(options: &Options<'_>, line: &str) -> Result<(), Error> {
    match options.get("--out") {
        Some(path) => {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            writeln!(file, "{line}")?;
        }
        None => println!("{line}"),
    }
    Ok(())
}

fn crowd(arguments: &[String]) -> Result<(), Error> {
    let (options, command) = split(arguments)?;
    let crowd = sessions::Crowd {
        count: options.number("--count", 1_000)?,
        streams: sessions::Streams::parse(options.get("--streams").unwrap_or("none"))?,
        concurrency: options.number("--concurrency", 16)?,
    };
    let server = options.get("--server").unwrap_or("server");
    let url = options
        .get("--url")
        .unwrap_or("http://127.0.0.1:{port}/mcp");
    let opened = sessions::run(command, url, crowd)?;
    let line = sessions::line(server, crowd, &opened);
    eprintln!("{server} sessions: {line}");
    write_line(&options, &line)
}

fn measure(arguments: &[String]) -> Result<(), Error> {
    let (options, command) = split(arguments)?;
    let option = |name: &str| options.get(name);
    let number = |name: &str, default: usize| options.number(name, default);
    let mode = match option("--mode").unwrap_or("call") {
        "call" => Mode::Call,
        "list" => Mode::List,
        "startup" => Mode::Startup,
        "first-page" => Mode::FirstPage,
        "all-pages" => Mode::AllPages,
        other => {
            return Err(format!(
                "--mode: call, list, startup, first-page or all-pages, not {other}"
            )
            .into());
        }
    };
    let era = match option("--era").unwrap_or("legacy") {
        "legacy" => Era::Legacy,
        "modern" => Era::Modern,
        other => return Err(format!("--era: legacy or modern, not {other}").into()),
    };
    let once_per_spawn = matches!(mode, Mode::Startup | Mode::FirstPage | Mode::AllPages);
    let load = Load {
        calls: number("--calls", if once_per_spawn { 20 } else { 20_000 })?,
        concurrency: number("--concurrency", 16)?,
        warmup: number("--warmup", if once_per_spawn { 0 } else { 2_000 })?,
        era,
        mode,
    };
    let server = option("--server").unwrap_or("server");
    let transport = option("--transport").unwrap_or("stdio");
    let measured = match transport {
        "stdio" => stdio::run(command, &load)?,
        "http" => {
            let url = option("--url").ok_or("--transport http needs --url")?;
            http::run(command, url, &load)?
        }
        other => return Err(format!("--transport: stdio or http, not {other}").into()),
    };
    eprintln!(
        "{server} {transport} {} {}: {:.0} calls/s, p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms, peak RSS {:.1} MiB, server CPU {:.1} µs/call",
        era.name(),
        mode.name(),
        measured.rate(),
        measured.percentile(0.5).as_secs_f64() * 1000.0,
        measured.percentile(0.99).as_secs_f64() * 1000.0,
        measured.percentile(1.0).as_secs_f64() * 1000.0,
        measured.peak_rss_mib(),
        measured.cpu_micros_per_call(),
    );
    let line = report::line(server, transport, &load, &measured);
    write_line(&options, &line)
}
