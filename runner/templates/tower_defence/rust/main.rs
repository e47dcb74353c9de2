//! Tower Defence starter (td-runner new): reads textMap.txt, writes command.txt, once per round.
//!
//! The plan: energy buildings in the two back columns until there are 6, then attack buildings from the
//! front. Every move is checked first (own half, free cell, enough energy), so no command is refused.
//! Standard library only (no crates); build with ./build.sh (cargo). Your strategy goes in `choose`.
use std::fs;

const WIDTH: usize = 8;
const HEIGHT: usize = 8;
const ATTACK: u32 = 1;
const ENERGY: u32 = 2;

struct View {
    energy: i64,
    taken: [[bool; HEIGHT]; WIDTH], // where one of our buildings stands (finished or not)
    energy_buildings: usize,
}

fn read_map(text: &str) -> View {
    let mut view = View { energy: -1, taken: [[false; HEIGHT]; WIDTH], energy_buildings: 0 };
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Energy :") {
            if view.energy < 0 {
                view.energy = rest.trim().parse().unwrap_or(0); // player A's block comes first: that is us
            }
        } else if line.starts_with('[') && line.contains("] A|") {
            let cell: Vec<usize> = line[1..line.find(']').unwrap_or(1)]
                .split(',')
                .filter_map(|n| n.trim().parse().ok())
                .collect();
            if let [x, y] = cell[..] {
                if x < WIDTH && y < HEIGHT {
                    view.taken[x][y] = true;
                }
            }
            if line.contains("|ENERGY|") {
                view.energy_buildings += 1;
            }
        }
    }
    view
}

/// The command `x,y,type`, or "" to do nothing.
fn choose(view: &View) -> String {
    let (kind, price, columns): (u32, i64, Vec<usize>) = if view.energy_buildings < 6 {
        (ENERGY, 20, vec![0, 1])
    } else {
        (ATTACK, 30, (2..WIDTH).rev().collect())
    };
    if view.energy < price {
        return String::new(); // wait for the energy
    }
    for x in columns {
        for y in 0..HEIGHT {
            if !view.taken[x][y] {
                return format!("{},{},{}", x, y, kind);
            }
        }
    }
    String::new()
}

fn main() {
    let text = fs::read_to_string("textMap.txt").unwrap_or_default();
    let command = choose(&read_map(&text));
    fs::write("command.txt", command).expect("cannot write command.txt");
}
