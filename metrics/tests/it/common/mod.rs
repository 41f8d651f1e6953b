//! A throwaway InfluxDB 1.x server for the real-server tests.
//!
//! `Influx::start` runs `influxd` on 127.0.0.1 with free ports, a temporary data/meta/wal
//! directory and a config that turns off reporting, monitoring and every other listener, then
//! waits for `/ping`. The server is killed when the guard drops, also when a test fails.
//! Without `influxd` the test fails with install instructions: no environment variable turns
//! it into a skip (`scripts/test.sh` installs InfluxDB).
#![allow(dead_code, clippy::unwrap_used)]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use bstore_metrics::query::InfluxClient;
use bstore_metrics::writer::HttpOptions;
use bstore_metrics::{AgentOptions, HostId, InfluxConfig};

/// Agent options for a test: a fixed host id and the given write frequency.
pub(crate) fn options(host: &str, write_frequency: Duration) -> AgentOptions {
    AgentOptions {
        write_frequency,
        host_id: HostId::Fixed(host.into()),
        ..AgentOptions::default()
    }
}

pub(crate) fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("bind an ephemeral port")
        .local_addr()
        .expect("addr")
        .port()
}

fn find_influxd() -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain([PathBuf::from("/usr/bin"), PathBuf::from("/usr/sbin")])
        .map(|dir| dir.join("influxd"))
        .find(|p| p.is_file())
}

/// Starts of influxd tried by [`Influx::launch`] when its ports are taken under it.
const LAUNCH_ATTEMPTS: u32 = 5;

/// A running (or stopped) influxd owned by one test.
#[derive(Debug)]
pub(crate) struct Influx {
    binary: PathBuf,
    dir: tempfile::TempDir,
    child: Option<Child>,
    pub port: u16,
}

impl Influx {
    /// Starts a server and creates database `db`.
    pub(crate) fn start(db: &str) -> Self {
        let mut server = Self::prepare(free_port());
        server.launch();
        server.create_db(db);
        server
    }

    /// Everything but launching: for tests that start the server later on a known port.
    pub(crate) fn prepare(port: u16) -> Self {
        let binary = find_influxd().unwrap_or_else(|| {
            panic!(
                "influxd not found: these tests need a real InfluxDB 1.x \
                 (`apt-get install -y influxdb influxdb-client`; scripts/test.sh does)"
            )
        });
        let dir = tempfile::tempdir().expect("temp dir for influxd");
        Self {
            binary,
            dir,
            child: None,
            port,
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub(crate) fn config(&self, db: &str) -> InfluxConfig {
        InfluxConfig::new(self.url(), db)
    }

    pub(crate) fn client(&self, db: &str) -> InfluxClient {
        InfluxClient::new(self.config(db), HttpOptions::default())
    }

    fn write_config(&self) -> PathBuf {
        let d = self.dir.path().display();
        let rpc_port = free_port();
        let text = format!(
            r#"reporting-disabled = true
bind-address = "127.0.0.1:{rpc_port}"
[meta]
  dir = "{d}/meta"
  logging-enabled = false
[data]
  dir = "{d}/data"
  wal-dir = "{d}/wal"
  query-log-enabled = false
  wal-fsync-delay = "0s"
[coordinator]
  log-queries-after = "0s"
[retention]
  enabled = false
[monitor]
  store-enabled = false
[http]
  enabled = true
  bind-address = "127.0.0.1:{port}"
  auth-enabled = false
  log-enabled = false
  write-tracing = false
  pprof-enabled = false
[logging]
  level = "warn"
[subscriber]
  enabled = false
[[graphite]]
  enabled = false
[[collectd]]
  enabled = false
[[opentsdb]]
  enabled = false
[[udp]]
  enabled = false
[continuous_queries]
  enabled = false
"#,
            port = self.port
        );
        let path = self.dir.path().join("influxdb.conf");
        std::fs::write(&path, text).expect("write influxdb.conf");
        path
    }

    fn log_path(&self) -> PathBuf {
        self.dir.path().join("influxd.log")
    }

    /// Starts influxd (again, on the same port and data) and waits for `/ping`. A port
    /// taken meanwhile by another test's socket (the ports were free when picked, and tests
    /// run in parallel) makes influxd exit at once with "address already in use": it is
    /// started again after a pause, with a new port for its internal RPC listener, at most
    /// [`LAUNCH_ATTEMPTS`] times. Any other early exit fails the test.
    pub(crate) fn launch(&mut self) {
        for attempt in 1..=LAUNCH_ATTEMPTS {
            let logged = self.log().len();
            match self.launch_once() {
                Ok(()) => return,
                Err(status) => {
                    let this_try = self.log().get(logged..).unwrap_or_default().to_string();
                    assert!(
                        attempt < LAUNCH_ATTEMPTS && this_try.contains("address already in use"),
                        "influxd exited with {status} before answering /ping (attempt \
                         {attempt}):\n{}",
                        self.log()
                    );
                    std::thread::sleep(Duration::from_millis(300));
                }
            }
        }
    }

    /// One start: `Err` with the exit status when influxd exits before answering `/ping`.
    fn launch_once(&mut self) -> Result<(), std::process::ExitStatus> {
        assert!(self.child.is_none(), "influxd already running");
        let config = self.write_config();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.log_path())
            .expect("log file");
        let child = Command::new(&self.binary)
            .arg("run")
            .arg("-config")
            .arg(&config)
            .env("INFLUXDB_DATA_QUERY_LOG_ENABLED", "false")
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log fd"))
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.binary.display()));
        self.child = Some(child);
        let client = self.client("_internal");
        let start = Instant::now();
        while client.ping().is_err() {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                self.child = None;
                return Err(status);
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "influxd did not answer /ping in 30 s:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }

    /// SIGKILLs the server (a crash, not a clean shutdown) and waits for it to exit.
    pub(crate) fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub(crate) fn log(&self) -> String {
        std::fs::read_to_string(self.log_path()).unwrap_or_default()
    }

    pub(crate) fn data_dir(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn create_db(&self, db: &str) {
        self.client(db)
            .execute(&format!("CREATE DATABASE \"{db}\""))
            .expect("CREATE DATABASE");
    }

    /// `SELECT count(<field>) FROM <measurement>`, 0 when there is no such series yet.
    pub(crate) fn count(&self, db: &str, measurement: &str, field: &str) -> i64 {
        let series = self
            .client(db)
            .query(&format!("SELECT count(\"{field}\") FROM \"{measurement}\""))
            .expect("count query");
        series
            .first()
            .and_then(|s| s.get(0, "count"))
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0)
    }
}

impl Drop for Influx {
    fn drop(&mut self) {
        self.kill();
    }
}
