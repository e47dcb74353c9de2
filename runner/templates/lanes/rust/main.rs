//! Lanes starter (td-runner new): reads state.json, writes commands.txt, once per turn.
//!
//! The plan: a missile tower on row 2 while money allows, and every owned rifle sent down one column of
//! the opponent's lane (a new column each turn). Costs are checked before a line is written, so the file
//! is never rejected. state.json is read with a few string searches, enough for the numbers used here
//! (no crates). Build with ./build.sh (cargo). Your strategy goes in `orders`.
use std::fs;

/// The integer after `"key"`, searching `text`; None when there is none.
fn json_int(text: &str, key: &str) -> Option<i64> {
    let at = text.find(&format!("\"{}\"", key))? + key.len() + 2;
    let rest = text[at..].trim_start_matches(|c: char| c.is_whitespace() || c == ':');
    let end = rest.find(|c: char| !(c.is_ascii_digit() || c == '-')).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// This turn's command lines, between TURN and END.
fn orders(state: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let (me_at, opponent_at) = match (state.find("\"me\""), state.find("\"opponent\"")) {
        (Some(m), Some(o)) if m < o => (m, o),
        _ => return lines,
    };
    let me = &state[me_at..opponent_at];
    let turn = json_int(state, "turn").unwrap_or(0);
    let mut money = json_int(me, "money").unwrap_or(0);
    let soldiers = &me[me.find("\"soldiers\"").unwrap_or(0)..];
    let mut rifles = json_int(soldiers, "rifle").unwrap_or(0);
    // our towers: every "col" .. "row" pair inside "me"
    let towers = &me[me.find("\"towers\"").unwrap_or(me.len())..];
    let built: Vec<(i64, i64)> = towers
        .match_indices("\"col\"")
        .map(|(at, _)| (json_int(&towers[at..], "col").unwrap_or(-1), json_int(&towers[at..], "row").unwrap_or(-1)))
        .collect();
    if let Some(col) = (1..=5).find(|col| !built.contains(&(*col, 2))) {
        if money >= 3 + 2 {
            lines.push(format!("BUILD missile {} 2", col)); // a tower, and still enough for a rifle
            money -= 3;
        }
    }
    if money >= 2 {
        lines.push("RECRUIT rifle".to_string());
        rifles += 1;
    }
    if rifles > 0 {
        lines.push(format!("DEPLOY rifle 1 {} {}", turn % 7, rifles));
    }
    lines
}

fn main() {
    let state = fs::read_to_string("state.json").expect("cannot read state.json");
    let turn = json_int(&state, "turn").unwrap_or(0);
    let mut text = format!("TURN {}\n", turn);
    for line in orders(&state) {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str("END\n");
    fs::write("commands.txt.tmp", text).expect("cannot write commands.txt.tmp");
    fs::rename("commands.txt.tmp", "commands.txt").expect("cannot rename"); // never half a file
}
