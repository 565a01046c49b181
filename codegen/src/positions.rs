//! The position (Glushkov) automaton of a particle tree, as `check`'s content-model
//! constraints (`xsd/passes/model.rs`) and `diff`'s languages (`diff/content.rs`) both
//! build it: what each particle may start and end with, and what may follow each position.
//!
//! A follow set is kept as the ids of the first-sets it includes, not as positions: after
//! any member of a repeated choice of n elements comes "the choice's first-set", one entry,
//! so the automaton stays linear in the model where the model allows it.

/// A particle's first and last positions and whether it can be empty. A position belongs to
/// one particle, so the children of a group have disjoint sets and no set holds a position
/// twice.
#[derive(Clone, Default)]
pub(crate) struct Info {
    pub nullable: bool,
    pub first: Vec<u32>,
    pub last: Vec<u32>,
}

impl Info {
    /// The empty sequence: nullable, no positions.
    pub fn empty() -> Info {
        Info {
            nullable: true,
            ..Info::default()
        }
    }

    /// A choice's `acc` widened by one more branch `c`.
    pub fn or(&mut self, c: Info) {
        self.first.extend(c.first);
        self.last.extend(c.last);
        self.nullable |= c.nullable;
    }
}

/// The follow relation: per position, the ids of the first-sets that may follow it.
#[derive(Default)]
pub(crate) struct Follow {
    /// First-sets referred to by follow lists, by id.
    pub sets: Vec<Vec<u32>>,
    /// Per position: the ids of the first-sets that may follow it.
    pub follow: Vec<Vec<u32>>,
}

impl Follow {
    /// A new position: its own first and last, never empty.
    pub fn position(&mut self) -> Info {
        let i = self.follow.len() as u32;
        self.follow.push(Vec::new());
        Info {
            nullable: false,
            first: vec![i],
            last: vec![i],
        }
    }

    /// Records that whatever may start `first` may follow each position of `last`.
    pub fn link(&mut self, last: &[u32], first: &[u32]) {
        if last.is_empty() || first.is_empty() {
            return;
        }
        let id = self.sets.len() as u32;
        self.sets.push(first.to_vec());
        for &l in last {
            self.follow[l as usize].push(id);
        }
    }

    /// `acc` followed by `c`.
    pub fn concat(&mut self, acc: &mut Info, c: Info) {
        self.link(&acc.last, &c.first);
        if acc.nullable {
            acc.first.extend_from_slice(&c.first);
        }
        if c.nullable {
            acc.last.extend(c.last);
        } else {
            acc.last = c.last;
        }
        acc.nullable &= c.nullable;
    }

    /// The start's follow list (the root's first-set) and then each position's, sorted and
    /// without repeats: two positions with equal lists may be followed by the same.
    pub fn lists(&mut self, root_first: Vec<u32>) -> Vec<Vec<u32>> {
        let start = self.sets.len() as u32;
        self.sets.push(root_first);
        let mut lists = vec![vec![start]];
        for mut ids in std::mem::take(&mut self.follow) {
            ids.sort_unstable();
            ids.dedup();
            lists.push(ids);
        }
        lists
    }
}

/// What builds a position automaton of particle terms `T`: its follow relation, and the
/// positions of one copy of a term.
pub(crate) trait Unroll<T> {
    type Error;
    fn links(&mut self) -> &mut Follow;
    fn term(&mut self, t: &T) -> Result<Info, Self::Error>;
}

/// A particle of term `t` with its occurrence bounds unrolled: `min` copies of the term,
/// the last of them repeating when `max` is unbounded (`a{2,}` is `a a+`, or an optional
/// repeating copy when nothing is required), else `min` copies then `max - min` optional
/// ones. The caller bounds `min` and `max`.
pub(crate) fn unroll<T, B: Unroll<T>>(
    b: &mut B,
    t: &T,
    min: u64,
    max: Option<u64>,
) -> Result<Info, B::Error> {
    let mut acc = Info::empty();
    let plain = match max {
        None => min.saturating_sub(1),
        Some(_) => min,
    };
    for _ in 0..plain {
        let c = b.term(t)?;
        b.links().concat(&mut acc, c);
    }
    match max {
        None => {
            let mut c = b.term(t)?;
            b.links().link(&c.last, &c.first);
            c.nullable |= min == 0;
            b.links().concat(&mut acc, c);
        }
        Some(max) => {
            for _ in min..max {
                let mut c = b.term(t)?;
                c.nullable = true;
                b.links().concat(&mut acc, c);
            }
        }
    }
    Ok(acc)
}
