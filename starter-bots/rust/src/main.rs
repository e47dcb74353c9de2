//! Tower Defence starter bot (Rust, standard library only: no crates).
//!
//! Every round the runner writes `textMap.txt` (and `state.json`) into this folder, starts `./bot` with
//! the folder as its working directory, and reads the first line of `command.txt`:
//!
//! ```text
//! x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
//! (empty file)         do nothing this round
//! ```
//!
//! You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
//! This bot reads textMap.txt so that it needs no JSON crate.
//! A command the engine rejects wastes the round, so every move below is checked first (`can_build`,
//! `can_use_iron_curtain`). Put your own strategy in `choose_move`.

use std::collections::HashMap;
use std::fs;
use std::process;

const DEFENSE: i32 = 0;
const ATTACK: i32 = 1;
const ENERGY: i32 = 2;
#[allow(dead_code)]
const DECONSTRUCT: i32 = 3;
const TESLA: i32 = 4;
const IRON_CURTAIN: i32 = 5;
const MAX_TESLAS: usize = 2; // engine rule; not part of the state files

const ENERGY_BUILDINGS_WANTED: usize = 8;
const CURTAIN_MISSILE_THRESHOLD: i32 = 4;
const TESLA_RESERVE: i32 = 150; // energy to keep on top of the tower's price so it can fire

struct Building {
    x: i32,
    y: i32,
    owner: char,
    kind: i32,
}

struct Move {
    x: i32,
    y: i32,
    kind: i32,
}

/// The parts of textMap.txt this bot uses, in the bot's own (always "A") view.
#[derive(Default)]
struct Game {
    width: i32,
    height: i32,
    half: i32,
    my_energy: i32,
    my_curtain_available: bool,
    my_curtain_lifetime: i32,
    curtain_price: i32,
    prices: HashMap<i32, i32>,
    buildings: Vec<Building>,
    enemy_missiles: i32,
}

fn type_of(name: &str) -> Result<i32, String> {
    match name {
        "DEFENSE" => Ok(DEFENSE),
        "ATTACK" => Ok(ATTACK),
        "ENERGY" => Ok(ENERGY),
        "TESLA" => Ok(TESLA),
        _ => Err(format!("unknown building type {name}")),
    }
}

fn int(text: &str) -> Result<i32, String> {
    text.trim().parse().map_err(|_| format!("not a number: {text:?}"))
}

fn number_after_colon(line: &str) -> Result<i32, String> {
    int(line.split(':').nth(1).unwrap_or(""))
}

/// Split "[x,y] rest" into (x, y, rest).
fn cell_line(line: &str) -> Result<(i32, i32, &str), String> {
    let (coords, rest) = line[1..].split_once("] ").ok_or(format!("bad line {line:?}"))?;
    let (x, y) = coords.split_once(',').ok_or(format!("bad line {line:?}"))?;
    Ok((int(x)?, int(y)?, rest))
}

impl Game {
    /// Read the text map (spec 7.2): a few sections, each introduced by a header line.
    fn parse(text: &str) -> Result<Game, String> {
        let mut game = Game::default();
        let mut section = "";
        let mut player = "";
        for line in text.lines().filter(|l| !l.is_empty()) {
            if let Some(rest) = line.strip_prefix("---------- PLAYER ") {
                player = &rest[..1];
            } else if line.starts_with("Map Width : ") {
                game.width = number_after_colon(line)?;
            } else if line.starts_with("Map Height : ") {
                game.height = number_after_colon(line)?;
            } else if line.contains("BUILDING STATS") {
                section = "stats";
            } else if line.contains("IRON CURTAIN STATS") {
                section = "curtain";
            } else if line.contains("BUILDING DATA") {
                section = "buildings";
            } else if line.contains("MISSILE DATA") {
                section = "missiles";
            } else if line.starts_with('#') || line.starts_with('*') {
                section = "";
            } else if player == "A" && line.starts_with("Energy : ") {
                game.my_energy = number_after_colon(line)?;
            } else if player == "A" && line.starts_with("IronCurtainAvailable : ") {
                game.my_curtain_available = number_after_colon(line)? == 1;
            } else if player == "A" && line.starts_with("ActiveIronCurtainLifetime : ") {
                game.my_curtain_lifetime = number_after_colon(line)?;
            } else if section == "stats" && !line.starts_with("type;") {
                // type;health;constructionTime;price;...
                let fields: Vec<&str> = line.split(';').collect();
                game.prices.insert(type_of(fields[0])?, int(fields[3])?);
            } else if section == "curtain" && !line.starts_with("price;") {
                game.curtain_price = int(line.split(';').next().unwrap_or(""))?;
            } else if section == "buildings" && line.starts_with('[') {
                // [x,y] Owner|BuildingType|ConstructionTimeLeft|Health|...
                let (x, y, rest) = cell_line(line)?;
                let fields: Vec<&str> = rest.split('|').collect();
                let owner = fields[0].chars().next().unwrap_or('?');
                game.buildings.push(Building { x, y, owner, kind: type_of(fields[1])? });
            } else if section == "missiles" && line.starts_with('[') {
                // [x,y] Owner|Damage|Speed
                let (_, _, rest) = cell_line(line)?;
                if rest.starts_with('B') {
                    game.enemy_missiles += 1;
                }
            }
        }
        game.half = game.width / 2;
        Ok(game)
    }

    /// How many buildings of `kind` `owner` has (in row `y` if given); unfinished ones count.
    fn count(&self, owner: char, kind: i32, y: Option<i32>) -> usize {
        self.buildings
            .iter()
            .filter(|b| b.owner == owner && b.kind == kind && y.map_or(true, |y| b.y == y))
            .count()
    }

    /// Enemy buildings in rows y-1..y+1: what a tesla in row y can reach.
    fn enemies_near_row(&self, y: i32) -> usize {
        self.buildings.iter().filter(|b| b.owner == 'B' && (b.y - y).abs() <= 1).count()
    }

    fn is_free(&self, x: i32, y: i32) -> bool {
        !self.buildings.iter().any(|b| b.x == x && b.y == y)
    }

    /// True if the engine would accept building `kind` at (x, y) this round.
    fn can_build(&self, x: i32, y: i32, kind: i32) -> bool {
        if x < 0 || x >= self.half || y < 0 || y >= self.height {
            return false; // only our own half
        }
        if !self.is_free(x, y) {
            return false;
        }
        if kind == TESLA && self.count('A', TESLA, None) >= MAX_TESLAS {
            return false;
        }
        self.my_energy >= self.prices[&kind]
    }

    fn can_use_iron_curtain(&self) -> bool {
        self.my_curtain_available && self.my_energy >= self.curtain_price && self.my_curtain_lifetime < 1
    }

    /// The first free x in row y, scanning from the front (x = half-1) or from the back (x = 0).
    fn first_free(&self, y: i32, from_front: bool) -> Option<i32> {
        let columns: Vec<i32> =
            if from_front { (0..self.half).rev().collect() } else { (0..self.half).collect() };
        columns.into_iter().find(|&x| self.is_free(x, y))
    }
}

/// Return the move to play, or None to do nothing. A simple plan: shield, defend, grow the economy, then attack.
fn choose_move(game: &Game) -> Option<Move> {
    let rows: Vec<i32> = (0..game.height).collect();

    // 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
    if game.enemy_missiles >= CURTAIN_MISSILE_THRESHOLD && game.can_use_iron_curtain() {
        return Some(Move { x: 0, y: 0, kind: IRON_CURTAIN });
    }

    // 2. Put a defence wall at the front of every row where the enemy has an attack building.
    let mut threatened: Vec<i32> = rows
        .iter()
        .copied()
        .filter(|&y| game.count('B', ATTACK, Some(y)) > 0 && game.count('A', DEFENSE, Some(y)) == 0)
        .collect();
    // Most attackers first; sort_by_key is stable, so ties keep row order.
    threatened.sort_by_key(|&y| std::cmp::Reverse(game.count('B', ATTACK, Some(y))));
    for &y in &threatened {
        if let Some(x) = game.first_free(y, true) {
            // Wait for the energy rather than spend it elsewhere: this row is under fire.
            return if game.can_build(x, y, DEFENSE) { Some(Move { x, y, kind: DEFENSE }) } else { None };
        }
    }

    // 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
    if game.count('A', ENERGY, None) < ENERGY_BUILDINGS_WANTED {
        for x in 0..game.half {
            for &y in &rows {
                if game.can_build(x, y, ENERGY) {
                    return Some(Move { x, y, kind: ENERGY });
                }
            }
        }
    }

    // 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
    if game.my_energy >= game.prices[&TESLA] + TESLA_RESERVE {
        let x = game.half - 2;
        let mut by_targets = rows.clone();
        by_targets.sort_by_key(|&y| std::cmp::Reverse(game.enemies_near_row(y)));
        if let Some(&y) = by_targets.iter().find(|&&y| game.can_build(x, y, TESLA)) {
            return Some(Move { x, y, kind: TESLA });
        }
    }

    // 5. Attack the row where the enemy has the fewest defences, from the back of our half.
    let mut by_defences = rows.clone();
    by_defences.sort_by_key(|&y| game.count('B', DEFENSE, Some(y)));
    for &y in &by_defences {
        if let Some(x) = game.first_free(y, false) {
            return if game.can_build(x, y, ATTACK) { Some(Move { x, y, kind: ATTACK }) } else { None };
        }
    }
    None
}

fn run() -> Result<(), String> {
    let text = fs::read_to_string("textMap.txt").map_err(|e| format!("cannot read textMap.txt: {e}"))?;
    let game = Game::parse(&text)?;
    let command = match choose_move(&game) {
        Some(m) => format!("{},{},{}", m.x, m.y, m.kind),
        None => String::new(),
    };
    fs::write("command.txt", command).map_err(|e| format!("cannot write command.txt: {e}"))
}

fn main() {
    if let Err(message) = run() {
        eprintln!("{message}");
        process::exit(1);
    }
}
