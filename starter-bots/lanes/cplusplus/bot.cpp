// Lanes starter bot (C++17, standard library only). Build with ./build.sh.
//
// How a turn works (docs/rules/lanes.md, 'The bot protocol'):
//  * The runner deletes commands.txt, writes map.txt and state.json into this folder and starts ./bot
//    with this folder as the working directory. You have 5 seconds.
//  * state.json: the turn, both HPs, every tower on both lanes, your money and soldiers, last turn's
//    summary and the errors of your last file. map.txt draws both lanes (row 20 on top).
//  * commands.txt: "TURN <k>" first, "END" last, and between them
//        BUILD <missile|rocket|frost|blockade> <col 0..6> <row 0..19>      (your own lane)
//        RECRUIT <shield|rifle|bomb|horse> [<count>]
//        DEPLOY <soldier> <timestep 1..100> <col 0..6> [<count>] [advance|fire]   (opponent's lane)
//    One bad line rejects the whole file (you then do nothing this turn).
//
// This bot: turn 1 builds a frost tower and three missiles near its goal row; every turn it recruits
// horses (speed 2, they jump a single tower) with a third of its money and sends all of them down
// column 3 in one group. It reads state.json with plain string searches to stay dependency-free.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

// The integer after the first `"key":` found at or after `from`; -1 when absent.
static long number_after(const std::string& text, const std::string& key, std::size_t from = 0) {
    std::size_t at = text.find("\"" + key + "\":", from);
    if (at == std::string::npos) return -1;
    return std::stol(text.substr(at + key.size() + 3));
}

int main() {
    std::ifstream in("state.json");
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string state = buffer.str();
    const long turn = number_after(state, "turn");
    const std::size_t me = state.find("\"me\":");  // my block comes before the opponent's
    long money = number_after(state, "money", me);
    const long horses_owned = number_after(state, "horse", state.find("\"soldiers\":", me));

    std::ostringstream out;
    out << "TURN " << turn << "\n";
    if (turn == 1) {  // the board is empty on turn 1, so these cells are free
        out << "BUILD frost 3 1\nBUILD missile 1 2\nBUILD missile 5 2\nBUILD missile 3 4\n";
        money -= 12;
    }
    const long recruits = money / 3 / 3;  // a third of the money, 3 per horse
    if (recruits > 0) out << "RECRUIT horse " << recruits << "\n";
    const long horses = horses_owned + recruits;
    if (horses > 0) out << "DEPLOY horse 1 3 " << horses << "\n";
    out << "END\n";

    {
        std::ofstream file("commands.txt.tmp");
        file << out.str();
    }
    return std::rename("commands.txt.tmp", "commands.txt") == 0 ? 0 : 1;
}
