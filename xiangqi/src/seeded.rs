//! A tiny seeded xorshift64* generator, for tests: random games, positions and move trees
//! that are the same on every run, without a dependency. Not part of the crate's API.

/// The generator; the seed is its state (any value but zero).
#[derive(Debug, Clone)]
pub struct XorShift(pub u64);

impl XorShift {
    /// The next 64 random bits.
    pub fn bits(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.bits() % n as u64) as usize
    }
}
