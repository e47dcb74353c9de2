// Warzone starter bot in C++17, standard library only.
//
// How a turn works (spec: td-runner's warzone.md, section 4):
//   1. the runner writes state.json and state.txt into this folder (state.txt holds the same facts as
//      lines of space-separated fields, so no JSON library is needed: this bot reads state.txt);
//   2. it starts this program with the folder as working directory (a fresh process every turn, 2 s);
//   3. it reads ALL of orders.txt, one order per line:
//        deploy COUNT TERRITORY        armies from your pool onto a territory of yours
//        advance COUNT FROM TO         move into your own neighbour, or attack any other neighbour
//        bomb / blockade / airlift / negotiate / reinforce   the five cards (see README.md)
//      TERRITORY is an id here (names work too, quoted when they hold spaces).
// All deploys run first, then everybody's other orders one at a time in round robin. Orders the runner
// rejects are listed next turn (state.json last_turn.rejected, state.txt `rejected` lines); a rejection
// costs nothing else.
//
// Strategy (the same as the Python starter bot, order for order): play a reinforcement card, deploy the whole pool on the
// strongest territory that touches a foreign one, bomb the strongest enemy neighbour, attack the weakest foreign neighbour of each such
// territory when outnumbering it more than two to one, and walk interior armies towards the front.

#include <algorithm>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

struct Territory {
    int id = 0;
    std::string owner;  // a seat ("A".."F") or "neutral"
    long long armies = 0;
    std::vector<int> neighbours;
};

struct State {
    std::string me;
    long long pool = 0;
    int bombCards = 0;
    int reinforcementCards = 0;
    long long reinforcementCardArmies = 5;
    std::map<int, Territory> board;  // by id, ascending
};

// "2,3" -> {2, 3}; "-" (no neighbours) -> {}
static std::vector<int> parseIds(const std::string& text) {
    std::vector<int> ids;
    if (text == "-") return ids;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) ids.push_back(std::stoi(item));
    return ids;
}

// Reads state.txt. Each line starts with a keyword; the ones this bot needs are:
//   you SEAT
//   rules ATTACK% DEFEND% BLOCKADE MINIMUM REINFORCEMENT-CARD GUARD
//   pool N
//   hand BOMB REINFORCEMENT BLOCKADE AIRLIFT DIPLOMACY
//   territory ID OWNER ARMIES CONTINENT NEIGHBOUR-IDS NAME   (the name comes last: it may hold spaces)
static bool readState(const char* path, State& state) {
    std::ifstream file(path);
    if (!file) return false;
    std::string line;
    while (std::getline(file, line)) {
        std::istringstream in(line);
        std::string key;
        in >> key;
        if (key == "you") {
            in >> state.me;
        } else if (key == "rules") {
            long long attack, defend, blockade, minimum;
            in >> attack >> defend >> blockade >> minimum >> state.reinforcementCardArmies;
        } else if (key == "pool") {
            in >> state.pool;
        } else if (key == "hand") {
            in >> state.bombCards >> state.reinforcementCards;
        } else if (key == "territory") {
            Territory t;
            int continent;
            std::string neighbours;
            in >> t.id >> t.owner >> t.armies >> continent >> neighbours;
            t.neighbours = parseIds(neighbours);
            state.board[t.id] = t;
        }
    }
    return !state.me.empty();
}

static bool touchesForeign(const State& s, const Territory& t) {
    for (int n : t.neighbours)
        if (s.board.at(n).owner != s.me) return true;
    return false;
}

int main() {
    State s;
    std::ofstream orders("orders.txt");  // an empty file is a valid "no orders"
    if (!readState("state.txt", s)) return 0;

    std::vector<int> owned;
    for (const auto& [id, t] : s.board)
        if (t.owner == s.me) owned.push_back(id);
    if (owned.empty()) return 0;

    // A reinforcement card adds its armies to this turn's pool before deploys are checked.
    long long pool = s.pool;
    if (s.reinforcementCards > 0) {
        orders << "reinforce\n";
        pool += s.reinforcementCardArmies;
    }

    // Distance of each owned territory to the front (0 = touches a foreign territory), by breadth-first
    // search through our own territories.
    std::map<int, int> distance;
    std::deque<int> queue;
    std::vector<int> fronts;
    for (int id : owned)
        if (touchesForeign(s, s.board[id])) {
            distance[id] = 0;
            queue.push_back(id);
            fronts.push_back(id);
        }
    while (!queue.empty()) {
        int id = queue.front();
        queue.pop_front();
        for (int n : s.board[id].neighbours)
            if (s.board[n].owner == s.me && !distance.count(n)) {
                distance[n] = distance[id] + 1;
                queue.push_back(n);
            }
    }
    if (fronts.empty()) fronts = owned;

    // Deploy everything on the strongest front territory (ties: the lowest id).
    if (pool > 0) {
        int target = fronts[0];
        for (int id : fronts)
            if (s.board[id].armies > s.board[target].armies) target = id;
        orders << "deploy " << pool << " " << target << "\n";
        s.board[target].armies += pool;
    }

    // With a bomb card: halve the strongest enemy territory (not neutral) next to ours holding 2 or more.
    if (s.bombCards > 0) {
        int target = 0;
        for (const auto& [id, t] : s.board) {
            if (t.owner == s.me || t.owner == "neutral" || t.armies <= 1) continue;
            bool touchesOurs = false;
            for (int n : t.neighbours) touchesOurs = touchesOurs || s.board[n].owner == s.me;
            if (touchesOurs && (target == 0 || t.armies > s.board[target].armies)) target = id;
        }
        if (target != 0) orders << "bomb " << target << "\n";
    }

    // Attack the weakest foreign neighbour we outnumber more than two to one (battles: each attacker kills
    // with 60%, each defender with 70%, so a narrow majority usually fails).
    for (int id : fronts) {
        Territory& from = s.board[id];
        if (from.armies == 0) continue;
        int weakest = 0;
        for (int n : from.neighbours) {
            const Territory& to = s.board[n];
            if (to.owner == s.me) continue;
            if (weakest == 0 || to.armies < s.board[weakest].armies) weakest = n;
        }
        if (weakest != 0 && from.armies > 2 * s.board[weakest].armies)
            orders << "advance " << from.armies << " " << id << " " << weakest << "\n";
    }

    // Walk interior armies one step closer to the front (the lowest-id neighbour one step closer).
    for (int id : owned) {
        auto found = distance.find(id);
        if (found == distance.end() || found->second == 0 || s.board[id].armies == 0) continue;
        for (int n : s.board[id].neighbours) {  // neighbours are listed in ascending id order
            auto other = distance.find(n);
            if (other != distance.end() && other->second == found->second - 1) {
                orders << "advance " << s.board[id].armies << " " << id << " " << n << "\n";
                break;
            }
        }
    }
    return 0;
}
