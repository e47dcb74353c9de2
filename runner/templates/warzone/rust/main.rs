//! Warzone starter (td-runner new): reads state.txt, writes orders.txt, once per turn.
//!
//! The plan: deploy the whole pool on our strongest territory that borders someone else's, then attack
//! its weakest foreign neighbour with everything there when we outnumber it. Every order names
//! territories we own and neighbours of them, so none is rejected. Standard library only (no crates);
//! build with ./build.sh (cargo). Your strategy goes in `orders`.
use std::collections::BTreeMap;
use std::fs;

struct Territory {
    owner: String,
    armies: i64,
    neighbours: Vec<i64>,
}

struct View {
    seat: String,
    pool: i64,
    territories: BTreeMap<i64, Territory>,
}

fn read_state(text: &str) -> View {
    let mut view = View { seat: String::new(), pool: 0, territories: BTreeMap::new() };
    for line in text.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["you", seat, ..] => view.seat = seat.to_string(),
            ["pool", pool, ..] => view.pool = pool.parse().unwrap_or(0),
            ["territory", id, owner, armies, _continent, neighbours, ..] => {
                let neighbours = neighbours.split(',').filter_map(|n| n.parse().ok()).collect(); // "-": none
                let territory = Territory { owner: owner.to_string(), armies: armies.parse().unwrap_or(0), neighbours };
                view.territories.insert(id.parse().unwrap_or(-1), territory);
            }
            _ => {}
        }
    }
    view
}

/// The neighbour of `id` that someone else owns with the fewest armies.
fn weakest_foreign(view: &View, id: i64) -> Option<(i64, i64)> {
    view.territories[&id]
        .neighbours
        .iter()
        .filter_map(|n| view.territories.get(n).map(|t| (t, *n)))
        .filter(|(t, _)| t.owner != view.seat)
        .map(|(t, n)| (t.armies, n))
        .min()
}

/// This turn's order lines.
fn orders(view: &View) -> Vec<String> {
    let base = view
        .territories
        .iter()
        .filter(|(id, t)| t.owner == view.seat && weakest_foreign(view, **id).is_some())
        .max_by_key(|(id, t)| (t.armies, -**id));
    let Some((&base, territory)) = base else { return Vec::new() };
    let mut lines = Vec::new();
    if view.pool > 0 {
        lines.push(format!("deploy {} {}", view.pool, base));
    }
    let armies = territory.armies + view.pool;
    if let Some((defenders, target)) = weakest_foreign(view, base) {
        if armies > 2 * defenders + 1 {
            lines.push(format!("advance {} {} {}", armies, base, target));
        }
    }
    lines
}

fn main() {
    let text = fs::read_to_string("state.txt").unwrap_or_default();
    let lines: String = orders(&read_state(&text)).iter().map(|line| format!("{}\n", line)).collect();
    fs::write("orders.txt", lines).expect("cannot write orders.txt");
}
