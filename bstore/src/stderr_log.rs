//! The `log` records of the libraries (a status row that does not decode while serving, a
//! write-ahead log cut after a failed write, a metrics write that failed), one line each on
//! standard error: `[<UTC time> <LEVEL> <target>] <message>`.
//!
//! `RUST_LOG` (the variable Agave's validator reads too) sets the level: `off`, `error`,
//! `warn`, `info`, `debug` or `trace`, any case; unset, it is `warn`. Per-module filters
//! (`solana=info,...`) are not read: a value that is not one level name keeps `warn` and says
//! so once.
//!
//! Invariant: at most [`LINES_PER_SITE`] lines per call site (module and line) per second
//! reach standard error, so a request repeated thousands of times a second against a
//! damaged slot cannot flood the log or slow the server on its writes; the count of lines
//! held back is added to that site's next line. A site that falls silent after a flood
//! still has its count reported: by the next line any site writes once that site's second
//! is over, or when the program ends (`flush`). The sites are the program's own `log!`
//! calls, so the table of counters is bounded.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use log::{LevelFilter, Log, Metadata, Record};

/// Lines one call site may write per second (module invariants).
const LINES_PER_SITE: u32 = 20;

/// Writes every record at or above its level to standard error, at most
/// [`LINES_PER_SITE`] per call site and second.
#[derive(Debug)]
struct StderrLog {
    level: LevelFilter,
    limiter: Mutex<Limiter>,
}

/// A call site: module path and line.
type Site = (&'static str, u32);

/// One call site's current one-second window.
#[derive(Debug)]
struct Window {
    /// The second (since the Unix epoch) the window covers.
    second: u64,
    /// Lines written in it.
    written: u32,
    /// Lines held back since the site's last written line.
    held: u64,
}

/// The window of every call site that has logged.
#[derive(Debug, Default)]
struct Limiter {
    sites: HashMap<Site, Window>,
}

impl Limiter {
    /// `Some(lines held back before this one)` when a line of `site` may be written in
    /// second `now`; `None` when it is held back.
    fn admit(&mut self, site: Site, now: u64) -> Option<u64> {
        let window = self.sites.entry(site).or_insert(Window {
            second: now,
            written: 0,
            held: 0,
        });
        if window.second != now {
            window.second = now;
            window.written = 0;
        }
        if window.written >= LINES_PER_SITE {
            window.held += 1;
            return None;
        }
        window.written += 1;
        Some(std::mem::take(&mut window.held))
    }

    /// The sites whose lines were held back in a second before `now` (all of them with
    /// `now` = `u64::MAX`) and have written nothing since, with their counts, taken.
    fn silent_held(&mut self, now: u64) -> Vec<(Site, u64)> {
        let mut out: Vec<(Site, u64)> = self
            .sites
            .iter_mut()
            .filter(|(_, w)| w.held > 0 && w.second < now)
            .map(|(site, w)| (*site, std::mem::take(&mut w.held)))
            .collect();
        out.sort_unstable();
        out
    }
}

/// The line reporting lines held back at a site that has written nothing since.
fn held_line(now: std::time::Duration, (module, line): Site, held: u64) -> String {
    format!(
        "[{} WARN {}] {held} more lines from {module}:{line} were held back (that site has \
         written nothing since)\n",
        format_utc(now.as_secs(), now.subsec_millis()),
        module_path!(),
    )
}

impl Log for StderrLog {
    fn enabled(&self, metadata: &Metadata<'_>) -> bool {
        metadata.level() <= self.level
    }

    fn log(&self, record: &Record<'_>) {
        if !self.enabled(record.metadata()) {
            return;
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let site = (
            record.module_path_static().unwrap_or_default(),
            record.line().unwrap_or_default(),
        );
        // Every update leaves the table consistent, so a poisoned lock's table is sound.
        let (admitted, silent) = {
            let mut limiter = self.limiter.lock().unwrap_or_else(|p| p.into_inner());
            let admitted = limiter.admit(site, now.as_secs());
            let silent = match admitted {
                Some(_) => limiter.silent_held(now.as_secs()),
                None => Vec::new(),
            };
            (admitted, silent)
        };
        let Some(held) = admitted else {
            return;
        };
        let mut text: String = silent
            .into_iter()
            .map(|(other, n)| held_line(now, other, n))
            .collect();
        let held_note = match held {
            0 => String::new(),
            n => format!(" ({n} more lines from here were held back before this one)"),
        };
        text.push_str(&format!(
            "[{} {} {}] {}{held_note}\n",
            format_utc(now.as_secs(), now.subsec_millis()),
            record.level(),
            record.target(),
            record.args()
        ));
        // One write per record, so lines of concurrent threads do not interleave; a closed
        // standard error is not a reason to fail the caller.
        let _ = std::io::stderr().lock().write_all(text.as_bytes());
    }

    /// Reports every count still held back, then flushes (the program calls it as it ends).
    fn flush(&self) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let silent = self
            .limiter
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .silent_held(u64::MAX);
        let text: String = silent
            .into_iter()
            .map(|(site, n)| held_line(now, site, n))
            .collect();
        let mut stderr = std::io::stderr().lock();
        let _ = stderr.write_all(text.as_bytes());
        let _ = stderr.flush();
    }
}

/// The level `RUST_LOG` names, or `None` for a value that is not one level name.
fn parse_level(value: &str) -> Option<LevelFilter> {
    value.trim().parse().ok()
}

/// Installs the logger (once per process; a second call changes nothing).
pub(crate) fn init() {
    let value = std::env::var("RUST_LOG").ok();
    let parsed = value.as_deref().map(parse_level);
    let level = parsed.flatten().unwrap_or(LevelFilter::Warn);
    // Leaked once: the logger lives as long as the process.
    let logger: &'static StderrLog = Box::leak(Box::new(StderrLog {
        level,
        limiter: Mutex::default(),
    }));
    if log::set_logger(logger).is_ok() {
        log::set_max_level(level);
        if let (Some(value), Some(None)) = (value, parsed) {
            log::warn!(
                "RUST_LOG={value:?} is not one level name (off, error, warn, info, debug, trace): logging at warn"
            );
        }
    }
}

/// `secs` after the Unix epoch, with `millis`, as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
fn format_utc(secs: u64, millis: u32) -> String {
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// The proleptic Gregorian date `days` after 1970-01-01: eras of 400 years (146,097 days)
/// counted from 0000-03-01, so that the leap day is the last day of a year.
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153; // 0 = March
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_times_match_known_dates() {
        assert_eq!(format_utc(0, 0), "1970-01-01T00:00:00.000Z");
        // 2000-02-29 (a leap day of a year divisible by 400) and the day after.
        assert_eq!(format_utc(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(format_utc(951_868_799, 999), "2000-02-29T23:59:59.999Z");
        assert_eq!(format_utc(951_868_800, 0), "2000-03-01T00:00:00.000Z");
        // 2100 is not a leap year.
        assert_eq!(format_utc(4_107_542_400, 0), "2100-03-01T00:00:00.000Z");
        assert_eq!(format_utc(1_796_514_756, 123), "2026-12-05T23:52:36.123Z");
    }

    #[test]
    fn every_day_follows_the_one_before() {
        let mut previous = civil_from_days(0);
        assert_eq!(previous, (1970, 1, 1));
        for days in 1..200_000 {
            let (y, m, d) = civil_from_days(days);
            let (py, pm, pd) = previous;
            let next_day = (y, m, d) == (py, pm, pd + 1);
            let next_month = (y, m, d) == (py, pm + 1, 1);
            let next_year = (y, m, d) == (py + 1, 1, 1) && (pm, pd) == (12, 31);
            assert!(
                next_day || next_month || next_year,
                "{previous:?} -> {:?}",
                (y, m, d)
            );
            let month_days = [
                31,
                28 + u64::from(is_leap(py)),
                31,
                30,
                31,
                30,
                31,
                31,
                30,
                31,
                30,
                31,
            ];
            if next_month || next_year {
                assert_eq!(pd, month_days[(pm - 1) as usize], "{previous:?}");
            }
            previous = (y, m, d);
        }
    }

    fn is_leap(year: u64) -> bool {
        year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400))
    }

    #[test]
    fn a_site_writes_at_most_its_lines_per_second_and_counts_the_rest() {
        let mut limiter = Limiter::default();
        let (site, other) = (("bstore_rpc::methods::block", 75), ("bstore_rpc::x", 9));
        for _ in 0..LINES_PER_SITE {
            assert_eq!(limiter.admit(site, 100), Some(0));
        }
        for _ in 0..500 {
            assert_eq!(limiter.admit(site, 100), None);
        }
        // Another site is not held back by the first one's flood.
        assert_eq!(limiter.admit(other, 100), Some(0));
        // The next second: the first line says how many were held back, once.
        assert_eq!(limiter.admit(site, 101), Some(500));
        assert_eq!(limiter.admit(site, 101), Some(0));
        // A quiet site starts a fresh window whenever it logs again.
        assert_eq!(limiter.admit(other, 5_000), Some(0));
        assert_eq!(limiter.sites.len(), 2);
    }

    #[test]
    fn a_flood_that_falls_silent_is_still_reported_once() {
        let mut limiter = Limiter::default();
        let (site, other) = (("bstore_rpc::methods::block", 75), ("bstore_rpc::x", 9));
        for _ in 0..LINES_PER_SITE + 7 {
            limiter.admit(site, 100);
        }
        // Within the flood's own second nothing is reported yet; the site may still log.
        assert_eq!(limiter.silent_held(100), []);
        // Any line after that second carries the count, once.
        assert_eq!(limiter.silent_held(101), [(site, 7)]);
        assert_eq!(limiter.silent_held(102), []);
        // The count is not reported twice: the site's own next line says 0.
        assert_eq!(limiter.admit(site, 103), Some(0));
        // At the end, whatever is still held back, whatever its second.
        for _ in 0..LINES_PER_SITE + 2 {
            limiter.admit(other, 200);
        }
        assert_eq!(limiter.silent_held(u64::MAX), [(other, 2)]);
        let line = held_line(std::time::Duration::from_secs(0), site, 7);
        assert!(
            line.ends_with("7 more lines from bstore_rpc::methods::block:75 were held back (that site has written nothing since)\n"),
            "{line}"
        );
    }

    #[test]
    fn levels_are_read_by_name_only() {
        assert_eq!(parse_level("warn"), Some(LevelFilter::Warn));
        assert_eq!(parse_level(" INFO "), Some(LevelFilter::Info));
        assert_eq!(parse_level("off"), Some(LevelFilter::Off));
        assert_eq!(parse_level("bstore=debug"), None);
        assert_eq!(parse_level(""), None);
    }
}
