//! `bstore bench rpc-load`: a JSON-RPC load generator for loopback comparisons of two
//! servers (bstore's and a validator's own RPC) on the same request list. Each client is a
//! thread with its own keep-alive connection (`bstore_testkit::http::KeepAlive`) sending the
//! list round-robin from its own offset, as fast as answers come or at a fixed rate; the
//! output is one JSON object in the shape `interop/live/load.py` reports (per method count,
//! errors, p50 / p99 ms, mean bytes) plus the generator's own CPU use.
//!
//! Why it exists: the Python clients of `load.py` spend ~130 µs of CPU per request, more than
//! either server spends on a `getSignaturesForAddress`, and on a two-core machine that time
//! is taken from the servers being measured. This generator spends 30–50 µs, most of it the
//! kernel's loopback work, which the sender pays.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use clap::Args;
use serde_json::{Map, Value, json};

use bstore_testkit::http::KeepAlive;

/// Arguments of `bstore bench rpc-load`.
#[derive(Debug, Args)]
pub(crate) struct RpcLoadArgs {
    /// The server, `http://host:port[/path]`.
    #[arg(long)]
    url: String,
    /// The requests: a JSON array of `[method, params]` pairs.
    #[arg(long, value_name = "FILE")]
    requests: PathBuf,
    /// Clients (threads), each with its own connection (1 to 256).
    #[arg(long, default_value_t = 4)]
    clients: usize,
    /// Stop after this long.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Stop after about this many requests in all (each client sends its share; at most
    /// 10 million, so the samples kept stay under ~320 MB).
    #[arg(long, default_value_t = 20_000)]
    max_requests: u64,
    /// Requests per second in all, each client sending on its own schedule whatever the
    /// answers take; without it each client sends as soon as its last answer came.
    #[arg(long)]
    rate: Option<f64>,
}

/// Most clients one run starts.
const MAX_CLIENTS: usize = 256;
/// Most requests one run sends (each keeps a 32-byte sample); a larger `--max-requests`
/// is taken as this.
const MAX_REQUESTS: u64 = 10_000_000;
/// Lowest `--rate`: one request every 1,000 s in all.
const MIN_RATE: f64 = 0.001;
/// Longest run.
const MAX_SECONDS: f64 = 3600.0;
/// Pause after a request that got no answer, so a server that is down is not spun on.
const FAILURE_PAUSE: Duration = Duration::from_millis(10);

/// One request's outcome.
struct Sample {
    /// Index into the distinct methods.
    method: usize,
    ms: f64,
    failed: bool,
    bytes: usize,
}

/// The requests to send, each a JSON-RPC body with its method.
struct RequestList {
    /// The distinct method names, in first-seen order.
    methods: Vec<String>,
    /// Each request: its method's index in `methods` and its body.
    bodies: Vec<(usize, Vec<u8>)>,
}

/// What one client sends and until when.
struct Plan<'a> {
    bodies: &'a [(usize, Vec<u8>)],
    endpoint: Endpoint,
    offset: usize,
    deadline: Instant,
    budget: u64,
    period: Option<Duration>,
}

/// How long a connect, read or write may wait.
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// One `http://host:port[/path]` endpoint.
#[derive(Debug, Clone)]
struct Endpoint {
    addr: SocketAddr,
    path: String,
}

impl Endpoint {
    /// Parses `url` (plain `http://` only) and resolves its host.
    fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or_else(|| format!("{url}: only http:// URLs are served here"))?;
        let (host, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let addr = host
            .to_socket_addrs()
            .map_err(|e| format!("{url}: {e}"))?
            .next()
            .ok_or_else(|| format!("{url}: the host resolves to no address"))?;
        Ok(Self {
            addr,
            path: path.to_string(),
        })
    }

    fn connect(&self) -> Result<KeepAlive, bstore_testkit::TestkitError> {
        Ok(KeepAlive::connect_with_timeout(self.addr, IO_TIMEOUT)?.with_path(&self.path))
    }
}

/// Runs `bstore bench rpc-load`.
pub(crate) fn run(args: &RpcLoadArgs) -> Result<(), Box<dyn std::error::Error>> {
    if !(1..=MAX_CLIENTS).contains(&args.clients) {
        return Err(format!("--clients must be 1 to {MAX_CLIENTS}").into());
    }
    if !(args.seconds > 0.0 && args.seconds <= MAX_SECONDS) {
        return Err(format!("--seconds must be above 0 and at most {MAX_SECONDS}").into());
    }
    let period = match args.rate {
        Some(r) if r >= MIN_RATE && r.is_finite() => {
            Some(Duration::from_secs_f64(args.clients as f64 / r))
        }
        Some(r) => return Err(format!("--rate {r}: must be at least {MIN_RATE}").into()),
        None => None,
    };
    let endpoint = Endpoint::parse(&args.url)?;
    let text = std::fs::read_to_string(&args.requests)
        .map_err(|e| format!("{}: {e}", args.requests.display()))?;
    let RequestList { methods, bodies } =
        request_list(&text).map_err(|e| format!("{}: {e}", args.requests.display()))?;

    let cpu_before = cpu_seconds();
    let started = Instant::now();
    let deadline = started + Duration::from_secs_f64(args.seconds);
    let budget = (args.max_requests.min(MAX_REQUESTS) / args.clients as u64).max(1);
    let per_client: Vec<thread::Result<Vec<Sample>>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..args.clients)
            .map(|k| {
                let plan = Plan {
                    bodies: &bodies,
                    endpoint: endpoint.clone(),
                    offset: k * bodies.len() / args.clients,
                    deadline,
                    budget,
                    period,
                };
                scope.spawn(move || client(&plan))
            })
            .collect();
        workers.into_iter().map(|w| w.join()).collect()
    });
    let mut samples = Vec::new();
    for part in per_client {
        samples.extend(part.map_err(|_| "a client thread panicked")?);
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu_before).map(|(a, b)| a - b);
    let out = report(&methods, &samples, wall, cpu);
    println!("{}", serde_json::to_string(&out)?);
    Ok(())
}

/// Reads a JSON array of `[method, params]` pairs.
fn request_list(text: &str) -> Result<RequestList, String> {
    let list: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let Value::Array(items) = list else {
        return Err("expected a JSON array of [method, params] pairs".into());
    };
    if items.is_empty() {
        return Err("no request in the list".into());
    }
    let mut methods: Vec<String> = Vec::new();
    let mut bodies = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let (method, params) = match item {
            Value::Array(pair) if pair.len() == 2 => {
                let mut pair = pair.into_iter();
                match (pair.next(), pair.next()) {
                    (Some(Value::String(m)), Some(p)) => (m, p),
                    _ => return Err(format!("request {i}: expected [method, params]")),
                }
            }
            _ => return Err(format!("request {i}: expected [method, params]")),
        };
        let body = json!({"jsonrpc": "2.0", "id": i, "method": method, "params": params});
        let index = match methods.iter().position(|m| *m == method) {
            Some(index) => index,
            None => {
                methods.push(method);
                methods.len() - 1
            }
        };
        bodies.push((index, body.to_string().into_bytes()));
    }
    Ok(RequestList { methods, bodies })
}

/// One client's loop: its own connection, from its own offset in the list.
fn client(plan: &Plan<'_>) -> Vec<Sample> {
    // Connected at the first request (a refused connect is a failed request, as any other).
    let mut connection: Option<KeepAlive> = None;
    let mut samples = Vec::new();
    let start = Instant::now();
    let mut i = plan.offset;
    while Instant::now() < plan.deadline && (samples.len() as u64) < plan.budget {
        if let Some(period) = plan.period {
            let due = start + period.mul_f64(samples.len() as f64);
            if due >= plan.deadline {
                break;
            }
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                thread::sleep(wait);
            }
        }
        let Some((method, body)) = plan.bodies.get(i % plan.bodies.len()) else {
            break;
        };
        i += 1;
        let sent = Instant::now();
        let outcome = match &mut connection {
            Some(c) => c.post_answer(body),
            None => plan
                .endpoint
                .connect()
                .and_then(|c| connection.insert(c).post_answer(body)),
        };
        let ms = sent.elapsed().as_secs_f64() * 1e3;
        let (failed, bytes) = match &outcome {
            // Error objects are short and come first; a result may say "error" deep inside.
            Ok(r) => {
                let head = r.body.get(..64).unwrap_or(&r.body);
                let error = head.windows(7).any(|w| w == b"\"error\"");
                (r.status != 200 || error, r.body.len())
            }
            Err(_) => (true, 0),
        };
        samples.push(Sample {
            method: *method,
            ms,
            failed,
            bytes,
        });
        if outcome.is_err() {
            thread::sleep(FAILURE_PAUSE);
        }
    }
    samples
}

/// `load.py`'s `run_load` result for these samples.
fn report(methods: &[String], samples: &[Sample], wall: f64, cpu: Option<f64>) -> Value {
    let mut out = Map::new();
    out.insert("requests".into(), json!(samples.len()));
    out.insert("seconds".into(), json!(round(wall, 1)));
    out.insert(
        "per_s".into(),
        json!(round(samples.len() as f64 / wall.max(1e-9), 1)),
    );
    if let Some(cpu) = cpu {
        out.insert(
            "client_cpu_percent".into(),
            json!(round(100.0 * cpu / wall.max(1e-9), 1)),
        );
    }
    let mut names: Vec<(usize, &String)> = methods.iter().enumerate().collect();
    names.sort_by_key(|(_, name)| name.as_str());
    for (index, name) in names {
        let mine: Vec<&Sample> = samples.iter().filter(|s| s.method == index).collect();
        if mine.is_empty() {
            continue;
        }
        let mut times: Vec<f64> = mine.iter().map(|s| s.ms).collect();
        times.sort_by(f64::total_cmp);
        let bytes: usize = mine.iter().map(|s| s.bytes).sum();
        out.insert(
            name.clone(),
            json!({
                "count": mine.len(),
                "errors": mine.iter().filter(|s| s.failed).count(),
                "p50_ms": round(percentile(&times, 500), 2),
                "p99_ms": round(percentile(&times, 990), 2),
                "mean_bytes": bytes / mine.len(),
            }),
        );
    }
    Value::Object(out)
}

/// Nearest-rank percentile (`per_mille` of 1,000) of sorted values, as `load.py` takes it.
fn percentile(sorted: &[f64], per_mille: usize) -> f64 {
    let rank = (per_mille * sorted.len()).div_ceil(1000).max(1);
    sorted
        .get(rank.min(sorted.len()).saturating_sub(1))
        .copied()
        .unwrap_or(0.0)
}

fn round(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// This process's user plus system CPU seconds (`/proc/self/stat`, in Linux's fixed 100
/// ticks a second), or `None` where that file is not.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name (field 2) may hold spaces: count fields after its ')'.
    let mut fields = stat.rsplit_once(')')?.1.split_whitespace().skip(11);
    let user: f64 = fields.next()?.parse().ok()?;
    let system: f64 = fields.next()?.parse().ok()?;
    Some((user + system) / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentile_is_nearest_rank() {
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(percentile(&v, 500), 5.0);
        assert_eq!(percentile(&v, 990), 10.0);
        assert_eq!(percentile(&v[..1], 500), 1.0);
        assert_eq!(percentile(&[], 500), 0.0);
    }

    #[test]
    fn request_list_is_checked_and_methods_indexed() {
        let RequestList { methods, bodies } =
            request_list(r#"[["getSlot", []], ["getBlock", [5]], ["getSlot", [{}]]]"#)
                .expect("a valid list");
        assert_eq!(methods, ["getSlot", "getBlock"]);
        assert_eq!(bodies.iter().map(|b| b.0).collect::<Vec<_>>(), [0, 1, 0]);
        let body: Value = serde_json::from_slice(&bodies[1].1).expect("JSON");
        assert_eq!(body["method"], "getBlock");
        assert_eq!(body["params"], json!([5]));
        for bad in ["{}", "[]", "[[1, 2]]", r#"[["getSlot"]]"#, "not json"] {
            assert!(request_list(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_plain_http_urls() {
        assert!(Endpoint::parse("https://127.0.0.1:1").is_err());
        let e = Endpoint::parse("http://127.0.0.1:8899").expect("a URL");
        assert_eq!((e.addr.port(), e.path.as_str()), (8899, "/"));
        let e = Endpoint::parse("http://127.0.0.1:8899/rpc").expect("a URL");
        assert_eq!(e.path, "/rpc");
    }

    #[test]
    fn cpu_time_of_this_process_is_read() {
        assert!(cpu_seconds().is_some_and(|s| s >= 0.0));
    }
}
