//! Runs over stdio: the server is spawned with piped stdin and stdout; one thread writes
//! requests (flushing only when it must wait for a free slot), another reads and checks replies.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::messages::{self, Reply};
use crate::{Era, Error, Load, Measured, Mode, rss};

/// Spawns `command` and measures `load` against it over its stdin and stdout.
pub fn run(command: &[String], load: &Load) -> Result<Measured, Error> {
    if matches!(load.mode, Mode::Startup | Mode::FirstPage | Mode::AllPages) {
        return startup(command, load);
    }
    let mut server = Server::spawn(command)?;
    if load.era == Era::Legacy {
        server.handshake()?;
    }
    let Server {
        child,
        input,
        output,
    } = server;
    let mut input = BufWriter::with_capacity(64 * 1024, input);
    let mut output = BufReader::with_capacity(64 * 1024, output);
    if load.warmup > 0 {
        measure(&mut input, &mut output, load, 1_000_000, load.warmup)?;
    }
    let cpu_before = rss::cpu_of_tree(child.id());
    let (elapsed, latencies) = measure(&mut input, &mut output, load, 0, load.calls)?;
    let server_cpu = rss::cpu_of_tree(child.id()).saturating_sub(cpu_before);
    let peak_rss = rss::peak_of_tree(child.id());
    drop(input);
    finish(child);
    Ok(Measured {
        calls: load.calls,
        elapsed,
        latencies,
        peak_rss,
        server_cpu,
    })
}

/// A spawned server and its pipes.
struct Server {
    child: Child,
    input: ChildStdin,
    output: ChildStdout,
}

impl Server {
    fn spawn(command: &[String]) -> Result<Self, Error> {
        let (program, arguments) = command.split_first().ok_or("no server command given")?;
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|error| format!("cannot start {program}: {error}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = child.stdout.take().ok_or("no stdout")?;
        Ok(Self {
            child,
            input,
            output,
        })
    }

    /// `initialize`, its answer, `notifications/initialized`.
    fn handshake(&mut self) -> Result<(), Error> {
        writeln!(self.input, "{}", messages::initialize(0))?;
        self.input.flush()?;
        let mut output = BufReader::new(&mut self.output);
        first_answer(&mut output, Mode::Startup)?;
        writeln!(self.input, "{}", messages::initialized())?;
        self.input.flush()?;
        Ok(())
    }
}

/// Reads until an answer comes, checking it against `mode`.
fn first_answer(output: &mut impl BufRead, mode: Mode) -> Result<u64, Error> {
    let mut line = Vec::new();
    loop {
        line.clear();
        if output.read_until(b'\n', &mut line)? == 0 {
            return Err("the server closed its output before answering".into());
        }
        if let Reply::Answer(id) = messages::check(&line, mode)? {
            return Ok(id);
        }
    }
}

/// Free slots for requests in flight.
struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    /// Takes a slot; `before_waiting` runs when none is free (the writer flushes there).
    fn take(&self, before_waiting: impl FnOnce() -> std::io::Result<()>) -> std::io::Result<()> {
        let mut free = self
            .free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if *free == 0 {
            drop(free);
            before_waiting()?;
            free = self
                .free
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            while *free == 0 {
                free = self
                    .freed
                    .wait(free)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
        }
        *free -= 1;
        Ok(())
    }

    fn give(&self) {
        *self
            .free
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) += 1;
        self.freed.notify_one();
    }
}

/// Sends `count` requests with ids from `first`, `load.concurrency` in flight, and reads their
/// answers: the time from the first send to the last answer, and each latency, sorted.
fn measure(
    input: &mut BufWriter<ChildStdin>,
    output: &mut BufReader<ChildStdout>,
    load: &Load,
    first: u64,
    count: usize,
) -> Result<(Duration, Vec<Duration>), Error> {
    let slots = Slots {
        free: Mutex::new(load.concurrency.max(1)),
        freed: Condvar::new(),
    };
    let sent: Vec<AtomicU64> = (0..count).map(|_| AtomicU64::new(0)).collect();
    let requests: Vec<String> = (first..)
        .take(count)
        .map(|id| messages::request(id, load.mode, load.era))
        .collect();
    let mode = load.mode;
    let start = Instant::now();
    let since_start = || u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
    thread::scope(|scope| {
        let writer = scope.spawn(|| -> Result<(), Error> {
            for (index, request) in requests.iter().enumerate() {
                slots.take(|| input.flush())?;
                sent[index].store(since_start(), Ordering::Release);
                input.write_all(request.as_bytes())?;
                input.write_all(b"\n")?;
            }
            input.flush()?;
            Ok(())
        });
        let mut latencies = Vec::with_capacity(count);
        let mut line = Vec::new();
        let mut answered = 0;
        let read = (|| -> Result<(), Error> {
            while answered < count {
                line.clear();
                if output.read_until(b'\n', &mut line)? == 0 {
                    return Err(format!(
                        "the server closed its output after {answered} of {count} answers"
                    )
                    .into());
                }
                let Reply::Answer(id) = messages::check(&line, mode)? else {
                    continue;
                };
                let index = id
                    .checked_sub(first)
                    .and_then(|index| usize::try_from(index).ok())
                    .filter(|&index| index < count)
                    .ok_or_else(|| format!("an answer to a request never sent: id {id}"))?;
                let at = since_start();
                let latency = at.saturating_sub(sent[index].load(Ordering::Acquire));
                latencies.push(Duration::from_nanos(latency));
                answered += 1;
                slots.give();
            }
            Ok(())
        })();
        if read.is_err() {
            // Lets the writer finish (and its scope end) whatever the server did.
            for _ in 0..count {
                slots.give();
            }
        }
        let written = writer.join().map_err(|_| "the writer panicked")?;
        read?;
        written?;
        latencies.sort_unstable();
        Ok((start.elapsed(), latencies))
    })
}

/// Spawns the server `load.calls` times, measuring from the spawn to its first answer (for
/// [`Mode::FirstPage`] and [`Mode::AllPages`], legacy: to the first page of `tools/list`, or its
/// last following `nextCursor`). The memory is the resident size right after the first answer.
fn startup(command: &[String], load: &Load) -> Result<Measured, Error> {
    let mut latencies = Vec::with_capacity(load.calls);
    let mut peak_rss = 0;
    let mut listed = None;
    let start = Instant::now();
    for _ in 0..load.calls {
        let began = Instant::now();
        let mut server = Server::spawn(command)?;
        let first = match load.era {
            Era::Legacy => messages::initialize(0),
            Era::Modern => messages::request(0, Mode::Call, Era::Modern),
        };
        writeln!(server.input, "{first}")?;
        server.input.flush()?;
        let mut output = BufReader::new(&mut server.output);
        first_answer(&mut output, Mode::Startup)?;
        let idle = rss::current_of_tree(server.child.id());
        if load.mode != Mode::Startup {
            writeln!(server.input, "{}", messages::initialized())?;
            let tools = list_pages(&mut server.input, &mut output, load.mode == Mode::AllPages)?;
            if listed.is_some_and(|before| before != tools) {
                return Err(format!("{tools} tools listed, {listed:?} the run before").into());
            }
            listed = Some(tools);
        }
        latencies.push(began.elapsed());
        peak_rss = peak_rss.max(idle);
        drop(server.input);
        finish(server.child);
    }
    if let Some(tools) = listed {
        eprintln!("{tools} tools listed");
    }
    latencies.sort_unstable();
    Ok(Measured {
        calls: load.calls,
        elapsed: start.elapsed(),
        latencies,
        peak_rss,
        server_cpu: Duration::ZERO,
    })
}

/// Asks `tools/list`, then (`all`) each next page until there is none: how many tools it read.
fn list_pages(
    input: &mut ChildStdin,
    output: &mut impl BufRead,
    all: bool,
) -> Result<usize, Error> {
    let mut cursor: Option<String> = None;
    let mut tools = 0;
    for id in 1.. {
        writeln!(input, "{}", messages::list(id, cursor.as_deref()))?;
        input.flush()?;
        let mut line = Vec::new();
        loop {
            line.clear();
            if output.read_until(b'\n', &mut line)? == 0 {
                return Err("the server closed its output before listing its tools".into());
            }
            if let Reply::Answer(_) = messages::check(&line, Mode::List)? {
                break;
            }
        }
        let page: serde_json::Value = serde_json::from_slice(&line)?;
        tools += page["result"]["tools"].as_array().map_or(0, Vec::len);
        cursor = page["result"]["nextCursor"].as_str().map(str::to_owned);
        if !all || cursor.is_none() {
            break;
        }
    }
    Ok(tools)
}

/// Waits for the server to exit after its input closed; kills it after a few seconds.
fn finish(mut child: Child) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}
