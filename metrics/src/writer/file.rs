//! Appends line protocol to a file, for users without InfluxDB: the file can be plotted
//! (`bstore metrics plot --input FILE`) or loaded later with `influx -import` or curl.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::MetricsError;
use crate::writer::MetricsWriter;

/// Appends every batch to one file.
#[derive(Debug)]
pub struct FileWriter {
    path: PathBuf,
    file: Mutex<File>,
}

impl FileWriter {
    /// Opens (creating if needed) `path` for appending.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, MetricsError> {
        let path = path.as_ref().to_path_buf();
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|source| MetricsError::Io {
                action: "open for append",
                path: path.clone(),
                source,
            })?;
        Ok(Self {
            path,
            file: Mutex::new(file),
        })
    }

    /// The file written to.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl MetricsWriter for FileWriter {
    fn write(&self, body: &str, _lines: usize) -> Result<(), MetricsError> {
        // A poisoned lock only means another write panicked mid-way; appending is still sound.
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        // One write_all per batch: with O_APPEND, lines of one batch stay together.
        file.write_all(body.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|source| MetricsError::Io {
                action: "append to",
                path: self.path.clone(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_batches_and_reopens_without_truncating() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("m.lp");
        FileWriter::open(&path)
            .expect("open")
            .write("a v=1i 1\n", 1)
            .expect("write");
        let w = FileWriter::open(&path).expect("reopen");
        w.write("b v=2i 2\n", 1).expect("write");
        assert_eq!(
            std::fs::read_to_string(&path).expect("read"),
            "a v=1i 1\nb v=2i 2\n"
        );
    }

    #[test]
    fn open_error_names_the_file() {
        let err = FileWriter::open("/nonexistent-dir/m.lp").expect_err("no such dir");
        assert!(err.to_string().contains("/nonexistent-dir/m.lp"), "{err}");
    }
}
