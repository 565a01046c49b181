//! Shared helpers of the benchmark binaries: a deterministic RNG and timing.

use std::time::{Duration, Instant};

/// SplitMix64: deterministic, no dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u64) as usize]
    }
}

/// Runs each variant `rounds` times, interleaved (round robin, so that machine noise hits all
/// of them alike), after one warm-up run each; returns the median of each.
pub fn interleaved(rounds: usize, variants: &mut [(&str, &mut dyn FnMut())]) -> Vec<Duration> {
    for (_, f) in variants.iter_mut() {
        f();
    }
    let mut times: Vec<Vec<Duration>> = vec![Vec::new(); variants.len()];
    for _ in 0..rounds {
        for (i, (_, f)) in variants.iter_mut().enumerate() {
            let t = Instant::now();
            f();
            times[i].push(t.elapsed());
        }
    }
    times
        .into_iter()
        .map(|mut t| {
            t.sort();
            t[t.len() / 2]
        })
        .collect()
}
