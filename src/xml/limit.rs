//! What the input may carry to the reader as an error: a limit passed before it.

/// A limit passed by the input before the reader (a document's size budget), carried to
/// it as an `io::Error`: reported as a limit error (E0106) at `offset`.
#[derive(Debug, Clone)]
pub struct TooLarge {
    /// Decoded offset where the limit applies.
    pub offset: usize,
    /// What passed its limit.
    pub message: String,
}

impl std::fmt::Display for TooLarge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TooLarge {}
