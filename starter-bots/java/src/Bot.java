// Tower Defence starter bot (Java, standard library only).
//
// Every round the runner writes `textMap.txt` (and `state.json`) into this folder, starts
// `java -jar bot.jar` with the folder as its working directory, and reads the first line of `command.txt`:
//
//     x,y,buildingType     0 defence, 1 attack, 2 energy, 3 deconstruct, 4 tesla, 5 iron curtain
//     (empty file)         do nothing this round
//
// You always see yourself as player "A" on the left: your half is x = 0..7, the enemy's x = 8..15.
// This bot reads textMap.txt because Java has no JSON parser in its standard library.
// A command the engine rejects wastes the round, so every move below is checked first (canBuild,
// canUseIronCurtain). Put your own strategy in chooseMove.

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Bot {
    static final int DEFENSE = 0, ATTACK = 1, ENERGY = 2, DECONSTRUCT = 3, TESLA = 4, IRON_CURTAIN = 5;
    static final int MAX_TESLAS = 2; // engine rule; not part of the state files

    static final int ENERGY_BUILDINGS_WANTED = 8;
    static final int CURTAIN_MISSILE_THRESHOLD = 4;
    static final int TESLA_RESERVE = 150; // energy to keep on top of the tower's price so it can fire

    record Building(int x, int y, char owner, int type) {}

    record Move(int x, int y, int type) {
        @Override
        public String toString() {
            return x + "," + y + "," + type;
        }
    }

    /** The parts of textMap.txt this bot uses, in the bot's own (always "A") view. */
    static class Game {
        int width, height, half;
        int myEnergy;
        boolean myCurtainAvailable;
        int myCurtainLifetime;
        int curtainPrice;
        final Map<Integer, Integer> prices = new HashMap<>();
        final List<Building> buildings = new ArrayList<>();
        int enemyMissiles;

        static int typeOf(String name) {
            switch (name) {
                case "DEFENSE": return DEFENSE;
                case "ATTACK": return ATTACK;
                case "ENERGY": return ENERGY;
                case "TESLA": return TESLA;
                default: throw new IllegalArgumentException("unknown building type " + name);
            }
        }

        static int number(String line) {
            return Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
        }

        /** Read the text map (spec 7.2): a few sections, each introduced by a header line. */
        static Game parse(List<String> lines) {
            Game game = new Game();
            String section = "";
            String player = "";
            for (String line : lines) {
                if (line.isEmpty()) continue;
                if (line.startsWith("Map Width : ")) game.width = number(line);
                else if (line.startsWith("Map Height : ")) game.height = number(line);
                else if (line.startsWith("---------- PLAYER ")) player = line.substring(18, 19);
                else if (line.contains("BUILDING STATS")) section = "stats";
                else if (line.contains("IRON CURTAIN STATS")) section = "curtain";
                else if (line.contains("BUILDING DATA")) section = "buildings";
                else if (line.contains("MISSILE DATA")) section = "missiles";
                else if (line.startsWith("#") || line.startsWith("*")) section = "";
                else if (player.equals("A") && line.startsWith("Energy : ")) game.myEnergy = number(line);
                else if (player.equals("A") && line.startsWith("IronCurtainAvailable : ")) game.myCurtainAvailable = number(line) == 1;
                else if (player.equals("A") && line.startsWith("ActiveIronCurtainLifetime : ")) game.myCurtainLifetime = number(line);
                else if (section.equals("stats") && !line.startsWith("type;")) {
                    String[] f = line.split(";"); // type;health;constructionTime;price;...
                    game.prices.put(typeOf(f[0]), Integer.parseInt(f[3]));
                } else if (section.equals("curtain") && !line.startsWith("price;")) {
                    game.curtainPrice = Integer.parseInt(line.split(";")[0]);
                } else if (section.equals("buildings") && line.startsWith("[")) {
                    // [x,y] Owner|BuildingType|ConstructionTimeLeft|Health|...
                    String[] xy = line.substring(1, line.indexOf(']')).split(",");
                    String[] f = line.substring(line.indexOf(' ') + 1).split("\\|");
                    game.buildings.add(new Building(Integer.parseInt(xy[0]), Integer.parseInt(xy[1]), f[0].charAt(0), typeOf(f[1])));
                } else if (section.equals("missiles") && line.startsWith("[")) {
                    // [x,y] Owner|Damage|Speed
                    if (line.substring(line.indexOf(' ') + 1).startsWith("B")) game.enemyMissiles++;
                }
            }
            game.half = game.width / 2;
            return game;
        }

        /** How many buildings of `type` `owner` has (in row y, or every row when y < 0); unfinished ones count. */
        int count(char owner, int type, int y) {
            int n = 0;
            for (Building b : buildings) if (b.owner() == owner && b.type() == type && (y < 0 || b.y() == y)) n++;
            return n;
        }

        /** Enemy buildings in rows y-1..y+1: what a tesla in row y can reach. */
        int enemiesNearRow(int y) {
            int n = 0;
            for (Building b : buildings) if (b.owner() == 'B' && Math.abs(b.y() - y) <= 1) n++;
            return n;
        }

        boolean isFree(int x, int y) {
            for (Building b : buildings) if (b.x() == x && b.y() == y) return false;
            return true;
        }

        /** True if the engine would accept building `type` at (x, y) this round. */
        boolean canBuild(int x, int y, int type) {
            if (x < 0 || x >= half || y < 0 || y >= height) return false; // only our own half
            if (!isFree(x, y)) return false;
            if (type == TESLA && count('A', TESLA, -1) >= MAX_TESLAS) return false;
            return myEnergy >= prices.get(type);
        }

        boolean canUseIronCurtain() {
            return myCurtainAvailable && myEnergy >= curtainPrice && myCurtainLifetime < 1;
        }

        /** The first free x in row y, scanning from the front (x = half-1) or from the back (x = 0); -1 if full. */
        int firstFree(int y, boolean fromFront) {
            for (int i = 0; i < half; i++) {
                int x = fromFront ? half - 1 - i : i;
                if (isFree(x, y)) return x;
            }
            return -1;
        }
    }

    /** Return the move to play, or null to do nothing. A simple plan: shield, defend, grow the economy, then attack. */
    static Move chooseMove(Game game) {
        List<Integer> rows = new ArrayList<>();
        for (int y = 0; y < game.height; y++) rows.add(y);

        // 1. Many enemy missiles in flight: raise the iron curtain (blocks them at the middle for 6 rounds).
        if (game.enemyMissiles >= CURTAIN_MISSILE_THRESHOLD && game.canUseIronCurtain()) return new Move(0, 0, IRON_CURTAIN);

        // 2. Put a defence wall at the front of every row where the enemy has an attack building.
        List<Integer> threatened = new ArrayList<>();
        for (int y : rows) if (game.count('B', ATTACK, y) > 0 && game.count('A', DEFENSE, y) == 0) threatened.add(y);
        threatened.sort(Comparator.comparingInt((Integer y) -> -game.count('B', ATTACK, y))); // stable: ties keep row order
        for (int y : threatened) {
            int x = game.firstFree(y, true);
            if (x >= 0) {
                // Wait for the energy rather than spend it elsewhere: this row is under fire.
                return game.canBuild(x, y, DEFENSE) ? new Move(x, y, DEFENSE) : null;
            }
        }

        // 3. Energy buildings pay for themselves after 7 rounds: build them early, at the back.
        if (game.count('A', ENERGY, -1) < ENERGY_BUILDINGS_WANTED) {
            for (int x = 0; x < game.half; x++)
                for (int y : rows)
                    if (game.canBuild(x, y, ENERGY)) return new Move(x, y, ENERGY);
        }

        // 4. Rich? A tesla tower near the front hits up to 9 enemy buildings in a 3-row band.
        if (game.myEnergy >= game.prices.get(TESLA) + TESLA_RESERVE) {
            int x = game.half - 2;
            List<Integer> byTargets = new ArrayList<>(rows);
            byTargets.sort(Comparator.comparingInt((Integer y) -> -game.enemiesNearRow(y)));
            for (int y : byTargets) if (game.canBuild(x, y, TESLA)) return new Move(x, y, TESLA);
        }

        // 5. Attack the row where the enemy has the fewest defences, from the back of our half.
        List<Integer> byDefences = new ArrayList<>(rows);
        byDefences.sort(Comparator.comparingInt((Integer y) -> game.count('B', DEFENSE, y)));
        for (int y : byDefences) {
            int x = game.firstFree(y, false);
            if (x >= 0) return game.canBuild(x, y, ATTACK) ? new Move(x, y, ATTACK) : null;
        }
        return null;
    }

    public static void main(String[] args) throws IOException {
        Game game = Game.parse(Files.readAllLines(Path.of("textMap.txt"), StandardCharsets.UTF_8));
        Move move = chooseMove(game);
        Files.writeString(Path.of("command.txt"), move == null ? "" : move.toString(), StandardCharsets.UTF_8);
    }
}
