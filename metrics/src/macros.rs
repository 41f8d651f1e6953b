//! `datapoint_*!` and `inc_new_counter_*!`, in the shape Solana code uses:
//!
//! ```
//! # let (slot, elapsed_us, kind) = (5u64, 12u64, "full");
//! bstore_metrics::datapoint_info!(
//!     "replay-slot-stats",
//!     "kind" => kind,
//!     ("slot", slot, i64),
//!     ("fetch_entries_time", elapsed_us, i64),
//!     ("ratio", 0.5, f64),
//!     ("complete", true, bool),
//!     ("note", "ok", String),
//! );
//! bstore_metrics::inc_new_counter_info!("replay-shreds", 64);
//! ```
//!
//! Tags (`"name" => value`, a `&str`) and fields (`(name, value, type)` with type `i64`,
//! `u64`, `f64`, `bool`, `String` or `str`) may come in any order. Numeric values are cast
//! with `as`, as in the original. Nothing is built or sent unless `log` is enabled at that
//! level for the calling module.

/// Builds a [`DataPoint`](crate::DataPoint) from the macro syntax (used by the others).
#[macro_export]
macro_rules! create_datapoint {
    (@field $point:ident $name:expr, $value:expr, String) => {
        $point.add_field_str($name, &$value);
    };
    (@field $point:ident $name:expr, $value:expr, str) => {
        $point.add_field_str($name, &$value);
    };
    (@field $point:ident $name:expr, $value:expr, bool) => {
        $point.add_field_bool($name, $value);
    };
    (@field $point:ident $name:expr, $value:expr, $ty:ident) => {
        #[allow(clippy::unnecessary_cast, clippy::cast_lossless, trivial_numeric_casts)]
        let value = $value as $ty;
        $crate::__add_numeric_field!($point $name, value, $ty);
    };

    (@fields $point:ident) => {};
    (@fields $point:ident ($name:expr, $value:expr, $ty:ident) $(, $($rest:tt)*)?) => {
        $crate::create_datapoint!(@field $point $name, $value, $ty);
        $crate::create_datapoint!(@fields $point $($($rest)*)?);
    };
    (@fields $point:ident $tag:expr => $value:expr $(, $($rest:tt)*)?) => {
        $point.add_tag($tag, &$value);
        $crate::create_datapoint!(@fields $point $($($rest)*)?);
    };

    (@point $name:expr $(,)?) => {
        $crate::DataPoint::new($name)
    };
    (@point $name:expr, $($fields:tt)+) => {{
        let mut point = $crate::DataPoint::new($name);
        $crate::create_datapoint!(@fields point $($fields)+);
        point
    }};
}

#[doc(hidden)]
#[macro_export]
macro_rules! __add_numeric_field {
    ($point:ident $name:expr, $value:ident, i64) => {
        $point.add_field_i64($name, $value);
    };
    ($point:ident $name:expr, $value:ident, u64) => {
        $point.add_field_u64($name, $value);
    };
    ($point:ident $name:expr, $value:ident, f64) => {
        $point.add_field_f64($name, $value);
    };
}

/// `datapoint!(level, "name", fields...)`: submits to the global agent when `log` is enabled
/// at `level` for the calling module.
#[macro_export]
macro_rules! datapoint {
    ($level:expr, $name:expr $(, $($fields:tt)*)?) => {
        if $crate::log::log_enabled!($level) {
            $crate::submit($crate::create_datapoint!(@point $name $(, $($fields)*)?), $level);
        }
    };
}

/// [`datapoint!`] at `Error`.
#[macro_export]
macro_rules! datapoint_error {
    ($($arg:tt)+) => { $crate::datapoint!($crate::log::Level::Error, $($arg)+) };
}

/// [`datapoint!`] at `Warn`.
#[macro_export]
macro_rules! datapoint_warn {
    ($($arg:tt)+) => { $crate::datapoint!($crate::log::Level::Warn, $($arg)+) };
}

/// [`datapoint!`] at `Info`.
#[macro_export]
macro_rules! datapoint_info {
    ($($arg:tt)+) => { $crate::datapoint!($crate::log::Level::Info, $($arg)+) };
}

/// [`datapoint!`] at `Debug`.
#[macro_export]
macro_rules! datapoint_debug {
    ($($arg:tt)+) => { $crate::datapoint!($crate::log::Level::Debug, $($arg)+) };
}

/// [`datapoint!`] at `Trace`.
#[macro_export]
macro_rules! datapoint_trace {
    ($($arg:tt)+) => { $crate::datapoint!($crate::log::Level::Trace, $($arg)+) };
}

/// `inc_new_counter!(level, "name", count [, log_rate, bucket_ms])`: adds `count` to a
/// static counter of this call site when `log` is enabled at `level` for the calling module.
#[macro_export]
macro_rules! inc_new_counter {
    ($level:expr, $name:expr, $count:expr) => {
        $crate::inc_new_counter!(
            $level,
            $name,
            $count,
            $crate::counter::DEFAULT_LOG_RATE,
            $crate::counter::DEFAULT_BUCKET_MS
        )
    };
    ($level:expr, $name:expr, $count:expr, $log_rate:expr, $bucket_ms:expr) => {
        if $crate::log::log_enabled!($level) {
            static COUNTER: $crate::Counter =
                $crate::Counter::with_rates($name, $log_rate, $bucket_ms);
            #[allow(clippy::unnecessary_cast, trivial_numeric_casts)]
            let count = $count as u64;
            COUNTER.inc($level, count);
        }
    };
}

/// [`inc_new_counter!`] at `Error`.
#[macro_export]
macro_rules! inc_new_counter_error {
    ($($arg:tt)+) => { $crate::inc_new_counter!($crate::log::Level::Error, $($arg)+) };
}

/// [`inc_new_counter!`] at `Warn`.
#[macro_export]
macro_rules! inc_new_counter_warn {
    ($($arg:tt)+) => { $crate::inc_new_counter!($crate::log::Level::Warn, $($arg)+) };
}

/// [`inc_new_counter!`] at `Info`.
#[macro_export]
macro_rules! inc_new_counter_info {
    ($($arg:tt)+) => { $crate::inc_new_counter!($crate::log::Level::Info, $($arg)+) };
}

/// [`inc_new_counter!`] at `Debug`.
#[macro_export]
macro_rules! inc_new_counter_debug {
    ($($arg:tt)+) => { $crate::inc_new_counter!($crate::log::Level::Debug, $($arg)+) };
}

#[cfg(test)]
mod tests {
    #[test]
    fn create_datapoint_accepts_tags_and_fields_in_any_order() {
        let slot: u64 = 5;
        let name = String::from("n\"1");
        let p = create_datapoint!(
            @point "replay-slot-stats",
            ("slot", slot, i64),
            "kind" => "full",
            ("shreds", 64usize, u64),
            ("ratio", 1, f64),
            ("done", slot > 3, bool),
            "owner" => name,
            ("note", name, String),
            ("label", "x", str),
        );
        assert_eq!(
            p.to_string(),
            format!(
                "replay-slot-stats,kind=full,owner=n\"1 slot=5i,shreds=64i,ratio=1,done=true,\
                 note=\"n\\\"1\",label=\"x\" {}",
                p.timestamp_ns
            )
        );
        let bare = create_datapoint!(@point "empty");
        assert!(bare.fields.is_empty() && bare.tags.is_empty());
    }
}
