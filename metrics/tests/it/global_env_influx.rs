//! `SOLANA_METRICS_CONFIG` makes the global agent write to InfluxDB; a malformed value is a
//! clear error from `init()`. Each scenario runs in a child process with its own environment.

use crate::common;

use std::process::Command;

fn run_child(name: &str, config: &str) {
    let status = Command::new(std::env::current_exe().expect("test binary"))
        .args(["--exact", name, "--ignored", "--test-threads=1"])
        .env("SOLANA_METRICS_CONFIG", config)
        .env_remove("BSTORE_METRICS_FILE")
        .status()
        .expect("run child");
    assert!(status.success(), "child {name} failed: {status}");
}

#[test]
fn env_config_sends_points_to_influxdb() {
    let influx = common::Influx::start("envdb");
    run_child(
        "global_env_influx::child_submits_through_env_config",
        &format!("host={},db=envdb,u=,p=", influx.url()),
    );
    assert_eq!(influx.count("envdb", "from-env", "slot"), 3);
}

#[test]
#[ignore = "child process of env_config_sends_points_to_influxdb"]
fn child_submits_through_env_config() {
    bstore_metrics::init().expect("valid config");
    bstore_metrics::set_host_id("env-child");
    for slot in 0..3 {
        let mut p = bstore_metrics::DataPoint::new("from-env");
        p.add_field_i64("slot", slot);
        bstore_metrics::submit(p, log::Level::Info);
    }
    bstore_metrics::flush();
    let stats = bstore_metrics::stats().expect("an agent exists");
    assert_eq!(
        (stats.lines_written, stats.points_lost),
        (4, 0),
        "{stats:?}"
    );
}

#[test]
fn malformed_env_config_is_a_clear_error() {
    run_child(
        "global_env_influx::child_sees_the_config_error",
        "host=http://127.0.0.1:1,db=x,bogus=1",
    );
}

#[test]
#[ignore = "child process of malformed_env_config_is_a_clear_error"]
fn child_sees_the_config_error() {
    let err = bstore_metrics::init().expect_err("bogus key");
    let text = err.to_string();
    assert!(
        text.contains("SOLANA_METRICS_CONFIG") && text.contains("unknown key `bogus`"),
        "{text}"
    );
}
