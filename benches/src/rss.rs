//! What a server used, read from `/proc` before it exits, over its process and every descendant
//! (a server run through a shell or an interpreter's launcher is a tree): its peak resident
//! memory (`VmHWM`) and the CPU time its threads ran (`schedstat`, nanoseconds: far less
//! sensitive to other load on the machine than throughput is).

use std::fs;

/// The sum of `VmHWM` over `pid` and its descendants, in bytes (0 where `/proc` is missing).
#[must_use]
pub fn peak_of_tree(pid: u32) -> u64 {
    tree(pid).into_iter().map(peak_of).sum()
}

/// `pid` and its descendants.
fn tree(pid: u32) -> Vec<u32> {
    let parents: Vec<(u32, u32)> = fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|child| Some((child, parent_of(child)?)))
        .collect();
    let mut found = vec![pid];
    let mut next = 0;
    while let Some(&parent) = found.get(next) {
        found.extend(
            parents
                .iter()
                .filter(|&&(_, of)| of == parent)
                .map(|&(child, _)| child),
        );
        next += 1;
    }
    found
}

/// The parent of `pid`: the field after the command name (which may hold spaces and
/// parentheses) in `/proc/PID/stat`.
fn parent_of(pid: u32) -> Option<u32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// `VmHWM` of one process, in bytes.
fn peak_of(pid: u32) -> u64 {
    let Ok(status) = fs::read_to_string(format!("/proc/{pid}/status")) else {
        return 0;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|kib| kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kib| kib * 1024)
}

/// `VmRSS` of `pid` and its descendants now, in bytes: the idle footprint.
#[must_use]
pub fn current_of_tree(pid: u32) -> u64 {
    tree(pid)
        .into_iter()
        .map(|pid| {
            fs::read_to_string(format!("/proc/{pid}/status"))
                .ok()
                .and_then(|status| {
                    status
                        .lines()
                        .find_map(|line| line.strip_prefix("VmRSS:"))
                        .and_then(|kib| {
                            kib.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
                        })
                })
                .map_or(0, |kib| kib * 1024)
        })
        .sum()
}

/// The CPU time every thread of `pid` and its descendants has run so far.
#[must_use]
pub fn cpu_of_tree(pid: u32) -> std::time::Duration {
    let nanos = tree(pid)
        .into_iter()
        .flat_map(|pid| {
            fs::read_dir(format!("/proc/{pid}/task"))
                .into_iter()
                .flatten()
                .flatten()
        })
        .filter_map(|task| {
            let schedstat = fs::read_to_string(task.path().join("schedstat")).ok()?;
            schedstat.split_whitespace().next()?.parse::<u64>().ok()
        })
        .sum();
    std::time::Duration::from_nanos(nanos)
}
