//! With `SOLANA_METRICS_CONFIG` unset and `BSTORE_METRICS_FILE` set, the global agent appends
//! line protocol to that file, and the panic hook records a panic there before the process
//! goes on. The scenario runs in a child process so the environment is its own.

use std::path::Path;
use std::process::Command;

use bstore_metrics::FieldValue;
use bstore_metrics::parse::parse_lines;

#[test]
fn env_file_receives_points_and_the_panic_point() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("metrics.lp");
    let status = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "global_env_file::child_writes_to_the_env_file",
            "--ignored",
            "--test-threads=1",
        ])
        .env_remove("SOLANA_METRICS_CONFIG")
        .env("BSTORE_METRICS_FILE", &file)
        .status()
        .expect("run child");
    assert!(status.success(), "child failed: {status}");

    let points =
        parse_lines(&std::fs::read_to_string(&file).expect("metrics file")).expect("line protocol");
    let from_env = points
        .iter()
        .find(|p| p.name == "from-env")
        .expect("the submitted point");
    assert_eq!(from_env.field("slot"), Some(&FieldValue::I64(7)));
    assert!(
        from_env.tag("host_id").is_some_and(|h| !h.is_empty()),
        "host_id defaults to the host name"
    );
    let panic = points
        .iter()
        .find(|p| p.name == "panic")
        .expect("the panic point");
    assert_eq!(
        panic.field("program"),
        Some(&FieldValue::Str("global-env-test".into()))
    );
    assert_eq!(
        panic.field("message"),
        Some(&FieldValue::Str("boom at slot 7".into()))
    );
    assert_eq!(
        panic.field("thread"),
        Some(&FieldValue::Str("replay".into()))
    );
    assert!(
        matches!(panic.field("location"), Some(FieldValue::Str(l)) if l.contains("global_env_file.rs"))
    );
}

#[test]
#[ignore = "child process of env_file_receives_points_and_the_panic_point"]
fn child_writes_to_the_env_file() {
    assert!(std::env::var_os("BSTORE_METRICS_FILE").is_some_and(|f| !Path::new(&f).exists()));
    bstore_metrics::init().expect("file output");
    bstore_metrics::set_panic_hook("global-env-test", Some("1.2.3".into()));
    let mut p = bstore_metrics::DataPoint::new("from-env");
    p.add_field_i64("slot", 7);
    bstore_metrics::submit(p, log::Level::Info);
    let crashed = std::thread::Builder::new()
        .name("replay".into())
        .spawn(|| panic!("boom at slot {}", 7))
        .expect("spawn")
        .join();
    assert!(crashed.is_err());
    bstore_metrics::flush();
}
