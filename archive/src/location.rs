//! Where an archive lives: `s3://BUCKET/PREFIX` and the client options, from flags or the
//! standard environment (`AWS_ENDPOINT_URL`, `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`,
//! `AWS_REGION`; a flag wins over its variable).
//!
//! Credentials are required: without them the S3 client would ask a cloud instance-metadata
//! endpoint, which is never what a bstore operator means. Plain `http://` endpoints are
//! allowed (a local Garage or MinIO); `https://` uses rustls.

use std::sync::Arc;
use std::time::Duration;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};

use crate::error::{ArchiveError, Result};

/// `s3://BUCKET/PREFIX`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArchiveLocation {
    /// The bucket name (3 to 63 of `a-z 0-9 - .`).
    pub bucket: String,
    /// Path inside the bucket without leading or trailing `/` (may be empty).
    pub prefix: String,
}

impl ArchiveLocation {
    /// Parses `s3://BUCKET[/PREFIX]`.
    pub fn parse(url: &str) -> Result<Self> {
        let bad = |reason: &str| ArchiveError::BadLocation {
            url: url.to_string(),
            reason: reason.to_string(),
        };
        let rest = url
            .strip_prefix("s3://")
            .ok_or_else(|| bad("expected s3://BUCKET/PREFIX"))?;
        let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
        let valid_bucket = (3..=63).contains(&bucket.len())
            && bucket
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
        if !valid_bucket {
            return Err(bad("bucket names are 3-63 of a-z 0-9 - ."));
        }
        let prefix = prefix.trim_matches('/');
        if prefix.split('/').any(|seg| seg == "." || seg == "..")
            || prefix.contains("//")
            || object_store::path::Path::parse(prefix).is_err()
        {
            return Err(bad("the prefix is not a plain path"));
        }
        Ok(Self {
            bucket: bucket.to_string(),
            prefix: prefix.to_string(),
        })
    }
}

impl std::fmt::Display for ArchiveLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "s3://{}/{}", self.bucket, self.prefix)
    }
}

/// S3 client options; `None` fields come from the environment.
#[derive(Debug, Clone)]
pub struct S3Options {
    /// The S3 endpoint URL, e.g. `http://127.0.0.1:9000` for a local cluster (`None`:
    /// `AWS_ENDPOINT_URL` or AWS itself).
    pub endpoint: Option<String>,
    /// The region to sign requests for (`None`: `AWS_REGION` / `AWS_DEFAULT_REGION`).
    pub region: Option<String>,
    /// The access key id (`None`: `AWS_ACCESS_KEY_ID`).
    pub access_key_id: Option<String>,
    /// The secret access key (`None`: `AWS_SECRET_ACCESS_KEY`).
    pub secret_access_key: Option<String>,
    /// Retries of one request before its error is returned.
    pub max_retries: usize,
    /// No retry starts after this long since the first attempt.
    pub retry_timeout: Duration,
    /// Whole-request timeout.
    pub request_timeout: Duration,
    /// Timeout for opening a connection to the endpoint.
    pub connect_timeout: Duration,
}

impl Default for S3Options {
    fn default() -> Self {
        Self {
            endpoint: None,
            region: None,
            access_key_id: None,
            secret_access_key: None,
            max_retries: 3,
            retry_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(60),
            connect_timeout: Duration::from_secs(5),
        }
    }
}

impl S3Options {
    /// The S3 client of `location`.
    pub(crate) fn build(&self, location: &ArchiveLocation) -> Result<Arc<dyn ObjectStore>> {
        let bad = |reason: String| ArchiveError::BadLocation {
            url: location.to_string(),
            reason,
        };
        let mut b = AmazonS3Builder::from_env().with_bucket_name(&location.bucket);
        if let Some(e) = &self.endpoint {
            b = b.with_endpoint(e);
        }
        if let Some(r) = &self.region {
            b = b.with_region(r);
        }
        if let Some(k) = &self.access_key_id {
            b = b.with_access_key_id(k);
        }
        if let Some(k) = &self.secret_access_key {
            b = b.with_secret_access_key(k);
        }
        for (key, what) in [
            (
                AmazonS3ConfigKey::AccessKeyId,
                "an access key id (--access-key-id or AWS_ACCESS_KEY_ID)",
            ),
            (
                AmazonS3ConfigKey::SecretAccessKey,
                "a secret key (--secret-access-key or AWS_SECRET_ACCESS_KEY)",
            ),
        ] {
            if b.get_config_value(&key).is_none_or(|v| v.is_empty()) {
                return Err(bad(format!("no credentials: set {what}")));
            }
        }
        let endpoint = b.get_config_value(&AmazonS3ConfigKey::Endpoint);
        let allow_http = endpoint
            .as_deref()
            .is_some_and(|e| e.starts_with("http://"));
        let client = ClientOptions::new()
            .with_allow_http(allow_http)
            .with_timeout(self.request_timeout)
            .with_connect_timeout(self.connect_timeout);
        let retry = RetryConfig {
            backoff: BackoffConfig::default(),
            max_retries: self.max_retries,
            retry_timeout: self.retry_timeout,
        };
        let store = b
            .with_virtual_hosted_style_request(false)
            .with_client_options(client)
            .with_retry(retry)
            .build()
            .map_err(|e| bad(e.to_string()))?;
        Ok(Arc::new(store))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_parse() {
        let l = ArchiveLocation::parse("s3://bstore-archive/main/ledger/").expect("valid");
        assert_eq!(l.bucket, "bstore-archive");
        assert_eq!(l.prefix, "main/ledger");
        assert_eq!(l.to_string(), "s3://bstore-archive/main/ledger");
        assert_eq!(
            ArchiveLocation::parse("s3://abc").expect("valid").prefix,
            ""
        );
        for bad in [
            "http://x/y",
            "s3://",
            "s3://AB/x",
            "s3://ab/x",
            "s3://abc/a/../b",
            "s3://abc/a//b",
        ] {
            assert!(ArchiveLocation::parse(bad).is_err(), "{bad}");
        }
    }
}
