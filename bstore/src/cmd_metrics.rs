//! `bstore metrics plot`: per-slot SVG charts of `replay-slot-stats` (or any measurement with
//! a `slot` field) from a line-protocol file or from InfluxDB, for users without Grafana.

use std::path::PathBuf;

use bstore_metrics::InfluxConfig;
use bstore_metrics::plot::{self, ChartSpec};
use bstore_metrics::query::InfluxClient;
use bstore_metrics::writer::HttpOptions;

/// `bstore metrics ...`
#[derive(Debug, clap::Args)]
pub(crate) struct MetricsArgs {
    #[command(subcommand)]
    pub command: MetricsCommand,
}

/// Subcommands of `bstore metrics`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum MetricsCommand {
    /// Render per-slot charts (SVG) from a line-protocol file or an InfluxDB database.
    Plot(PlotArgs),
}

/// Where the points come from and where the charts go.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("source").required(true).args(["input", "influx_url"])))]
pub(crate) struct PlotArgs {
    /// Line-protocol file, e.g. the one written with BSTORE_METRICS_FILE.
    #[arg(long, value_name = "FILE.lp")]
    pub input: Option<PathBuf>,
    /// InfluxDB 1.x base URL, e.g. http://127.0.0.1:8086.
    #[arg(long, value_name = "URL", requires = "db")]
    pub influx_url: Option<String>,
    /// InfluxDB database.
    #[arg(long, value_name = "NAME")]
    pub db: Option<String>,
    /// InfluxDB user (optional).
    #[arg(long, requires = "influx_url")]
    pub user: Option<String>,
    /// InfluxDB password (optional; INFLUX_PASSWORD is read when not given, keeping it out
    /// of the process list).
    #[arg(long, requires = "influx_url")]
    pub password: Option<String>,
    /// Measurement to plot.
    #[arg(long, default_value = plot::REPLAY_SLOT_STATS)]
    pub measurement: String,
    /// Fields to chart (repeatable); default: the replay fetch charts.
    #[arg(long = "field", value_name = "NAME")]
    pub fields: Vec<String>,
    /// Output directory for the SVG files.
    #[arg(long, value_name = "DIR", default_value = "metrics-charts")]
    pub out: PathBuf,
}

/// Runs `bstore metrics ...`.
pub(crate) fn run(args: MetricsArgs) -> Result<(), Box<dyn std::error::Error>> {
    match args.command {
        MetricsCommand::Plot(plot_args) => run_plot(plot_args),
    }
}

fn run_plot(args: PlotArgs) -> Result<(), Box<dyn std::error::Error>> {
    let points = match (&args.input, &args.influx_url) {
        (Some(path), _) => plot::load_line_protocol(path)?,
        (None, Some(url)) => {
            let mut config = InfluxConfig::new(url.as_str(), args.db.clone().unwrap_or_default());
            config.username = args.user.clone().unwrap_or_default();
            config.password = args
                .password
                .clone()
                .or_else(|| std::env::var("INFLUX_PASSWORD").ok())
                .unwrap_or_default();
            plot::load_influx(
                &InfluxClient::new(config, HttpOptions::default()),
                &args.measurement,
            )?
        }
        (None, None) => return Err("give --input FILE.lp or --influx-url URL --db NAME".into()),
    };
    let charts = if args.fields.is_empty() {
        plot::replay_charts()
    } else {
        args.fields.iter().map(|f| ChartSpec::field(f)).collect()
    };
    let files = plot::render_charts(&points, &args.measurement, &charts, &args.out)?;
    for file in files {
        println!("{}", file.display());
    }
    Ok(())
}
