//! Where points go: `SOLANA_METRICS_CONFIG` (InfluxDB), `BSTORE_METRICS_FILE` (a
//! line-protocol file) or, with neither, the log.

use std::fmt;
use std::path::PathBuf;

use crate::MetricsError;

/// Environment variable holding `host=http://H:8086,db=NAME,u=USER,p=PASS`.
pub const CONFIG_ENV: &str = "SOLANA_METRICS_CONFIG";
/// Environment variable naming a file that receives line protocol when `CONFIG_ENV` is unset.
pub const FILE_ENV: &str = "BSTORE_METRICS_FILE";

/// Connection settings for an InfluxDB 1.x server.
///
/// `Debug` never prints the password.
#[derive(Clone, PartialEq, Eq)]
pub struct InfluxConfig {
    /// Base URL, `http://host:port`, without a trailing slash.
    pub host: String,
    /// Database name.
    pub db: String,
    /// User name; empty means no `u=` parameter is sent.
    pub username: String,
    /// Password; empty means no `p=` parameter is sent.
    pub password: String,
}

impl fmt::Debug for InfluxConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("InfluxConfig")
            .field("host", &self.host)
            .field("db", &self.db)
            .field("username", &self.username)
            .field(
                "password",
                &if self.password.is_empty() { "" } else { "***" },
            )
            .finish()
    }
}

impl InfluxConfig {
    /// A config for `host` and `db` without credentials.
    pub fn new(host: impl Into<String>, db: impl Into<String>) -> Self {
        Self {
            host: host.into().trim_end_matches('/').to_string(),
            db: db.into(),
            username: String::new(),
            password: String::new(),
        }
    }

    /// Parses `host=…,db=…,u=…,p=…` (keys in any order, `u`/`p` optional). An unknown,
    /// repeated, empty or `=`-less entry is an error naming it, as is a host that is not an
    /// `http://` URL.
    pub fn parse(text: &str) -> Result<Self, MetricsError> {
        Self::parse_from(CONFIG_ENV, text)
    }

    fn parse_from(var: &'static str, text: &str) -> Result<Self, MetricsError> {
        let err = |reason: String| MetricsError::Config { var, reason };
        let (mut host, mut db, mut user, mut pass) = (None, None, None, None);
        for entry in text.trim().split(',') {
            let Some((key, value)) = entry.split_once('=') else {
                return Err(err(format!("entry `{entry}` is not `key=value`")));
            };
            let slot = match key.trim() {
                "host" => &mut host,
                "db" => &mut db,
                "u" => &mut user,
                "p" => &mut pass,
                other => {
                    return Err(err(format!(
                        "unknown key `{other}` (known: host, db, u, p)"
                    )));
                }
            };
            if slot.is_some() {
                return Err(err(format!("key `{}` given twice", key.trim())));
            }
            *slot = Some(value.to_string());
        }
        let host = host.ok_or_else(|| err("missing `host`".into()))?;
        let db = db.ok_or_else(|| err("missing `db`".into()))?;
        if db.is_empty() {
            return Err(err("`db` is empty".into()));
        }
        if host.starts_with("https://") {
            return Err(err(format!(
                "host `{host}`: https is not compiled into this build; use http:// (e.g. a local relay)"
            )));
        }
        if !host.starts_with("http://") || host.len() <= "http://".len() {
            return Err(err(format!("host `{host}` is not an http:// URL")));
        }
        Ok(Self {
            host: host.trim_end_matches('/').to_string(),
            db,
            username: user.unwrap_or_default(),
            password: pass.unwrap_or_default(),
        })
    }
}

/// The destination chosen from the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricsOutput {
    /// Write to InfluxDB over HTTP.
    Influx(InfluxConfig),
    /// Append line protocol to this file.
    File(PathBuf),
    /// Log each line (target `bstore_metrics::points`, level info).
    Log,
}

impl MetricsOutput {
    /// Reads `SOLANA_METRICS_CONFIG`, then `BSTORE_METRICS_FILE`. A malformed config is an
    /// error rather than a silent fall-back to the log.
    pub fn from_env() -> Result<Self, MetricsError> {
        Self::from_values(
            std::env::var(CONFIG_ENV).ok().as_deref(),
            std::env::var_os(FILE_ENV).map(PathBuf::from),
        )
    }

    /// [`Self::from_env`] on given values (testable without touching the environment).
    pub fn from_values(config: Option<&str>, file: Option<PathBuf>) -> Result<Self, MetricsError> {
        match (config.filter(|c| !c.trim().is_empty()), file) {
            (Some(text), _) => Ok(Self::Influx(InfluxConfig::parse_from(CONFIG_ENV, text)?)),
            (None, Some(path)) if !path.as_os_str().is_empty() => Ok(Self::File(path)),
            _ => Ok(Self::Log),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(text: &str) -> String {
        match InfluxConfig::parse(text) {
            Err(MetricsError::Config { reason, .. }) => reason,
            other => panic!("expected a config error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn parses_all_keys_in_any_order() {
        let c = InfluxConfig::parse("db=mainnet,u=user,p=p@ss=w,host=http://10.0.0.1:8086/")
            .expect("valid");
        assert_eq!(c.host, "http://10.0.0.1:8086");
        assert_eq!(c.db, "mainnet");
        assert_eq!(c.username, "user");
        assert_eq!(c.password, "p@ss=w", "only the first `=` splits");
        assert!(
            !format!("{c:?}").contains("p@ss"),
            "Debug hides the password"
        );
    }

    #[test]
    fn credentials_are_optional() {
        let c = InfluxConfig::parse("host=http://127.0.0.1:8086,db=x").expect("valid");
        assert_eq!((c.username.as_str(), c.password.as_str()), ("", ""));
    }

    #[test]
    fn errors_name_the_offending_entry() {
        assert!(reason("host=http://h,db=x,user=a").contains("unknown key `user`"));
        assert!(reason("host=http://h,db=x,garbage").contains("`garbage` is not `key=value`"));
        assert!(reason("host=http://h,db=x,db=y").contains("`db` given twice"));
        assert!(reason("db=x").contains("missing `host`"));
        assert!(reason("host=http://h").contains("missing `db`"));
        assert!(reason("host=http://h,db=").contains("`db` is empty"));
        assert!(reason("host=h:8086,db=x").contains("not an http:// URL"));
        assert!(reason("host=https://h:8086,db=x").contains("https is not compiled"));
    }

    #[test]
    fn output_prefers_influx_then_file_then_log() {
        let file = Some(PathBuf::from("/tmp/m.lp"));
        assert!(matches!(
            MetricsOutput::from_values(Some("host=http://h,db=x"), file.clone()),
            Ok(MetricsOutput::Influx(_))
        ));
        assert_eq!(
            MetricsOutput::from_values(None, file.clone()).expect("file"),
            MetricsOutput::File(PathBuf::from("/tmp/m.lp"))
        );
        assert_eq!(
            MetricsOutput::from_values(Some("  "), None).expect("log"),
            MetricsOutput::Log
        );
        assert!(MetricsOutput::from_values(Some("host=x"), file).is_err());
    }
}
