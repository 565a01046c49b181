//! Writes a deterministic, valid CIF document of about `--mb` megabytes (10^6 bytes) with
//! markers of every kind: arrows, square markers (all 7 types), text markers, symbol markers,
//! lines, regions, values, and move text between them.
//!
//! usage: gen-cif [--mb N] [--seed S] OUT   (prints the element counts to stderr)

use std::io::Write;

use boardxml_bench::Rng;

const COLORS: [&str; 9] = [
    "red", "orange", "yellow", "green", "blue", "darkblue", "purple", "white", "black",
];
const SQUARE_TYPES: [&str; 7] = [
    "full", "square", "disk", "circle", "rectangle", "cross", "littlecross",
];
const SYMBOLS: [&str; 4] = ["skull", "mushroom", "strawberry", "parcel"];
const TEXT_CHARS: [&str; 10] = ["x", "A", "7", "!", "帅", "將", "é", "&lt;", "&amp;", "?"];
const MOVE_TEXT: [&str; 8] = [
    "1. e4 e5 ", "2. Nf3 Nc6 ", "3. Bb5 a6 ", "Black threatens ", "the key square: ",
    "17. Rxd7! ", "and now ", "(a better plan) ",
];

fn file_name(i: u32) -> String {
    let (letter, reps) = match i {
        0..=25 => (i, 1),
        26..=51 => (i - 26, 2),
        _ => (i - 52, 3),
    };
    std::iter::repeat((b'a' + letter as u8) as char).take(reps).collect()
}

struct Board {
    files: u32,
    ranks: u32,
}

impl Board {
    fn square(&self, rng: &mut Rng, suffix: &str) -> String {
        format!(
            "{}{}{}",
            file_name(rng.below(self.files as u64) as u32),
            1 + rng.below(self.ranks as u64),
            suffix
        )
    }
}

fn suffix(rng: &mut Rng) -> &'static str {
    match rng.below(20) {
        0 => "B",
        1 => "C3",
        _ => "",
    }
}

fn opacity(rng: &mut Rng) -> String {
    if rng.below(6) == 0 {
        format!(" opacity=\"{}\"", 1 + rng.below(255))
    } else {
        String::new()
    }
}

fn main() {
    let mut mb: f64 = 10.0;
    let mut seed: u64 = 8;
    let mut out = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--mb" => mb = args.next().unwrap().parse().unwrap(),
            "--seed" => seed = args.next().unwrap().parse().unwrap(),
            _ => out = Some(a),
        }
    }
    let out = out.expect("usage: gen-cif [--mb N] [--seed S] OUT");
    let target = (mb * 1e6) as usize;
    let mut rng = Rng::new(seed);
    let mut s = String::with_capacity(target + 4096);
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<cif>\n");
    let mut counts = [0usize; 8];
    let boards = [(8, 8), (10, 10), (19, 19), (9, 10), (64, 64), (27, 64), (12, 12), (8, 8), (8, 8), (9, 9)];
    while s.len() < target {
        let &(files, ranks) = rng.pick(&boards);
        let board = Board { files, ranks };
        match rng.below(3) {
            0 if files == 8 && ranks == 8 => s.push_str("  <game>\n"),
            1 => s.push_str(&format!("  <game files=\"{files}\" ranks=\"{ranks}\">\n")),
            _ => s.push_str(&format!("  <game boardsize=\"{files}x{ranks}\">\n")),
        }
        s.push_str("    <moves>");
        let n = 50 + rng.below(150);
        for _ in 0..n {
            if rng.below(8) == 0 {
                s.push_str(*rng.pick(&MOVE_TEXT));
                counts[7] += 1;
            }
            let c = *rng.pick(&COLORS);
            let kind = rng.below(16);
            match kind {
                0..=1 => {
                    let o = opacity(&mut rng);
                    let (a, b) = (board.square(&mut rng, ""), board.square(&mut rng, ""));
                    s.push_str(&format!("<arrow color=\"{c}\"{o} from=\"{a}\" to=\"{b}\"/>"));
                    counts[0] += 1;
                }
                2..=5 => {
                    let t = *rng.pick(&SQUARE_TYPES);
                    let o = opacity(&mut rng);
                    let sf = suffix(&mut rng);
                    let at = board.square(&mut rng, sf);
                    s.push_str(&format!("<marker type=\"{t}\" color=\"{c}\"{o} at=\"{at}\"/>"));
                    counts[1] += 1;
                }
                6..=7 => {
                    let ch = *rng.pick(&TEXT_CHARS);
                    let at = board.square(&mut rng, "");
                    s.push_str(&format!("<marker type=\"text\" color=\"{c}\" at=\"{at}\">{ch}</marker>"));
                    counts[2] += 1;
                }
                8..=9 => {
                    let sym = *rng.pick(&SYMBOLS);
                    let o = opacity(&mut rng);
                    let at = board.square(&mut rng, "");
                    s.push_str(&format!("<marker at=\"{at}\"{o}>{sym}</marker>"));
                    counts[3] += 1;
                }
                10..=11 => {
                    let k = 2 + rng.below(3);
                    let o = opacity(&mut rng);
                    let sq: String = (0..k).map(|_| board.square(&mut rng, "")).collect();
                    s.push_str(&format!("<line color=\"{c}\"{o}>{sq}</line>"));
                    counts[4] += 1;
                }
                12 => {
                    let sf = suffix(&mut rng);
                    let (a, b) = (board.square(&mut rng, sf), board.square(&mut rng, sf));
                    if rng.below(2) == 0 {
                        s.push_str(&format!("<region color=\"{c}\" from=\"{a}\" to=\"{b}\">weak</region>"));
                    } else {
                        s.push_str(&format!("<region color=\"{c}\" from=\"{a}\" to=\"{b}\"/>"));
                    }
                    counts[5] += 1;
                }
                _ => {
                    let v = rng.below(256) as i64 - 128;
                    let at = board.square(&mut rng, "");
                    s.push_str(&format!("<value at=\"{at}\">{v}</value>"));
                    counts[6] += 1;
                }
            }
        }
        s.push_str("</moves>\n  </game>\n");
    }
    s.push_str("</cif>\n");
    std::fs::File::create(&out)
        .and_then(|mut f| f.write_all(s.as_bytes()))
        .expect("write");
    let markers: usize = counts[..7].iter().sum();
    eprintln!(
        "{out}: {} bytes, {markers} marker elements (arrow {}, square {}, text {}, symbol {}, line {}, region {}, value {}), {} move texts",
        s.len(), counts[0], counts[1], counts[2], counts[3], counts[4], counts[5], counts[6], counts[7]
    );
}
