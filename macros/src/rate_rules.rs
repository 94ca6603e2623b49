//! The `N/UNIT` rule of a rate limit, in one file that two crates compile: the
//! `rate_limit = "…"` key of `#[tool]` (`macros/src/tool/valid/mod.rs`, over the literal, at
//! compile time) and the runtime's `RateLimit` (`FromStr`: `run()`'s `--rate-limit`, the
//! registrations), each with `#[path]`. So the two cannot drift apart. It must use nothing but
//! `core` and `std`, the one dependency both crates have.

/// The units a limit is counted over, with their length in seconds.
pub(crate) const UNITS: [(&str, u64); 3] = [("s", 1), ("min", 60), ("h", 3600)];

/// The largest count: a million requests per unit (one every 3.6 ms at `/h`, one every
/// microsecond at `/s`), far past any limit worth setting.
pub(crate) const MAX_COUNT: u32 = 1_000_000;

/// What to write, for the error messages of both crates.
pub(crate) const EXPECTED: &str = "write N/UNIT: N requests, a whole number from 1 to 1000000, per UNIT, one of `s`, `min` or `h` (e.g. \"10/s\", \"600/min\", \"5000/h\")";

/// `text` read as `N/UNIT`: the count and the unit's length in seconds. `Err` says what is
/// wrong with it, in a sentence [`EXPECTED`] can follow.
pub(crate) fn parse(text: &str) -> Result<(u32, u64), String> {
    let Some((count, unit)) = text.split_once('/') else {
        return Err(format!("`{text}` has no `/` between a count and a unit"));
    };
    let digits = !count.is_empty() && count.bytes().all(|byte| byte.is_ascii_digit());
    let count = match count.parse::<u32>() {
        Ok(number) if digits && (1..=MAX_COUNT).contains(&number) => number,
        _ => {
            return Err(format!(
                "`{count}` is not a whole number from 1 to {MAX_COUNT}"
            ));
        }
    };
    match UNITS.iter().find(|(name, _)| *name == unit) {
        Some((_, seconds)) => Ok((count, *seconds)),
        None => Err(format!("`{unit}` is not a unit (`s`, `min` or `h`)")),
    }
}
