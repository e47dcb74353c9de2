// Tower Defence starter bot (C++17, standard library only).
//
// Every round the runner writes `textMap.txt` (and `state.json`) into this folder, starts `./bot` with
// the folder as its working directory, and reads the first line of `command.txt`:
//
//     x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
//     (empty file)         do nothing this round
//
// You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
// This bot reads textMap.txt because the C++ standard library has no JSON parser.
// A command the engine rejects wastes the round, so every move below is checked first (canBuild,
// canUseIronCurtain). Put your own strategy in chooseMove.

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

enum Type { DEFENSE = 0, ATTACK = 1, ENERGY = 2, DECONSTRUCT = 3, TESLA = 4, IRON_CURTAIN = 5 };
const int MAX_TESLAS = 2;  // engine rule; not part of the state files

const int ENERGY_BUILDINGS_WANTED = 8;
const int CURTAIN_MISSILE_THRESHOLD = 4;
const int TESLA_RESERVE = 150;  // energy to keep on top of the tower's price so it can fire

struct Building {
    int x, y;
    char owner;
    int type;
};

struct Move {
    int x, y, type;
};

int typeOf(const std::string& name) {
    if (name == "DEFENSE") return DEFENSE;
    if (name == "ATTACK") return ATTACK;
    if (name == "ENERGY") return ENERGY;
    if (name == "TESLA") return TESLA;
    throw std::runtime_error("unknown building type " + name);
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

int numberAfterColon(const std::string& line) { return std::stoi(line.substr(line.find(':') + 1)); }

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    std::string field;
    while (std::getline(in, field, sep)) out.push_back(field);
    return out;
}

// The parts of textMap.txt this bot uses, in the bot's own (always "A") view.
struct Game {
    int width = 0, height = 0, half = 0;
    int myEnergy = 0;
    bool myCurtainAvailable = false;
    int myCurtainLifetime = 0;
    int curtainPrice = 0;
    std::map<int, int> prices;
    std::vector<Building> buildings;
    int enemyMissiles = 0;

    // Read the text map (spec 7.2): a few sections, each introduced by a header line.
    static Game parse(std::istream& in) {
        Game game;
        std::string line, section, player;
        while (std::getline(in, line)) {
            if (line.empty()) continue;
            if (startsWith(line, "Map Width : ")) game.width = numberAfterColon(line);
            else if (startsWith(line, "Map Height : ")) game.height = numberAfterColon(line);
            else if (startsWith(line, "---------- PLAYER ")) player = line.substr(18, 1);
            else if (line.find("BUILDING STATS") != std::string::npos) section = "stats";
            else if (line.find("IRON CURTAIN STATS") != std::string::npos) section = "curtain";
            else if (line.find("BUILDING DATA") != std::string::npos) section = "buildings";
            else if (line.find("MISSILE DATA") != std::string::npos) section = "missiles";
            else if (line[0] == '#' || line[0] == '*') section = "";
            else if (player == "A" && startsWith(line, "Energy : ")) game.myEnergy = numberAfterColon(line);
            else if (player == "A" && startsWith(line, "IronCurtainAvailable : ")) game.myCurtainAvailable = numberAfterColon(line) == 1;
            else if (player == "A" && startsWith(line, "ActiveIronCurtainLifetime : ")) game.myCurtainLifetime = numberAfterColon(line);
            else if (section == "stats" && !startsWith(line, "type;")) {
                auto f = split(line, ';');  // type;health;constructionTime;price;...
                game.prices[typeOf(f[0])] = std::stoi(f[3]);
            } else if (section == "curtain" && !startsWith(line, "price;")) {
                game.curtainPrice = std::stoi(split(line, ';')[0]);
            } else if (section == "buildings" && line[0] == '[') {
                // [x,y] Owner|BuildingType|ConstructionTimeLeft|Health|...
                auto xy = split(line.substr(1, line.find(']') - 1), ',');
                auto f = split(line.substr(line.find(' ') + 1), '|');
                game.buildings.push_back({std::stoi(xy[0]), std::stoi(xy[1]), f[0][0], typeOf(f[1])});
            } else if (section == "missiles" && line[0] == '[') {
                // [x,y] Owner|Damage|Speed
                if (line[line.find(' ') + 1] == 'B') game.enemyMissiles++;
            }
        }
        game.half = game.width / 2;
        return game;
    }

    // How many buildings of `type` `owner` has (in row y, or every row when y < 0); unfinished ones count.
    int count(char owner, int type, int y = -1) const {
        return std::count_if(buildings.begin(), buildings.end(), [&](const Building& b) {
            return b.owner == owner && b.type == type && (y < 0 || b.y == y);
        });
    }

    // Enemy buildings in rows y-1..y+1: what a tesla in row y can reach.
    int enemiesNearRow(int y) const {
        return std::count_if(buildings.begin(), buildings.end(),
                             [&](const Building& b) { return b.owner == 'B' && std::abs(b.y - y) <= 1; });
    }

    bool isFree(int x, int y) const {
        return std::none_of(buildings.begin(), buildings.end(),
                            [&](const Building& b) { return b.x == x && b.y == y; });
    }

    // True if the engine would accept building `type` at (x, y) this round.
    bool canBuild(int x, int y, int type) const {
        if (x < 0 || x >= half || y < 0 || y >= height) return false;  // only our own half
        if (!isFree(x, y)) return false;
        if (type == TESLA && count('A', TESLA) >= MAX_TESLAS) return false;
        return myEnergy >= prices.at(type);
    }

    bool canUseIronCurtain() const {
        return myCurtainAvailable && myEnergy >= curtainPrice && myCurtainLifetime < 1;
    }

    // The first free x in row y, scanning from the front (x = half-1) or from the back (x = 0); -1 if full.
    int firstFree(int y, bool fromFront) const {
        for (int i = 0; i < half; i++) {
            int x = fromFront ? half - 1 - i : i;
            if (isFree(x, y)) return x;
        }
        return -1;
    }
};

// Return the move to play, or nothing. A simple plan: shield, defend, grow the economy, then attack.
std::optional<Move> chooseMove(const Game& game) {
    std::vector<int> rows(game.height);
    std::iota(rows.begin(), rows.end(), 0);

    // 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
    if (game.enemyMissiles >= CURTAIN_MISSILE_THRESHOLD && game.canUseIronCurtain()) return Move{0, 0, IRON_CURTAIN};

    // 2. Put a defence wall at the front of every row where the enemy has an attack building.
    std::vector<int> threatened;
    for (int y : rows)
        if (game.count('B', ATTACK, y) > 0 && game.count('A', DEFENSE, y) == 0) threatened.push_back(y);
    std::stable_sort(threatened.begin(), threatened.end(),  // most attackers first; ties keep row order
                     [&](int a, int b) { return game.count('B', ATTACK, a) > game.count('B', ATTACK, b); });
    for (int y : threatened) {
        int x = game.firstFree(y, true);
        if (x >= 0) {
            // Wait for the energy rather than spend it elsewhere: this row is under fire.
            if (game.canBuild(x, y, DEFENSE)) return Move{x, y, DEFENSE};
            return std::nullopt;
        }
    }

    // 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
    if (game.count('A', ENERGY) < ENERGY_BUILDINGS_WANTED) {
        for (int x = 0; x < game.half; x++)
            for (int y : rows)
                if (game.canBuild(x, y, ENERGY)) return Move{x, y, ENERGY};
    }

    // 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
    if (game.myEnergy >= game.prices.at(TESLA) + TESLA_RESERVE) {
        int x = game.half - 2;
        std::vector<int> byTargets = rows;
        std::stable_sort(byTargets.begin(), byTargets.end(),
                         [&](int a, int b) { return game.enemiesNearRow(a) > game.enemiesNearRow(b); });
        for (int y : byTargets)
            if (game.canBuild(x, y, TESLA)) return Move{x, y, TESLA};
    }

    // 5. Attack the row where the enemy has the fewest defences, from the back of our half.
    std::vector<int> byDefences = rows;
    std::stable_sort(byDefences.begin(), byDefences.end(),
                     [&](int a, int b) { return game.count('B', DEFENSE, a) < game.count('B', DEFENSE, b); });
    for (int y : byDefences) {
        int x = game.firstFree(y, false);
        if (x >= 0) {
            if (game.canBuild(x, y, ATTACK)) return Move{x, y, ATTACK};
            return std::nullopt;
        }
    }
    return std::nullopt;
}

int main() {
    std::ifstream in("textMap.txt");
    Game game = Game::parse(in);
    std::optional<Move> move = chooseMove(game);
    std::ofstream out("command.txt");
    if (move) out << move->x << "," << move->y << "," << move->type;
    return 0;
}
