// A do-nothing-much Tower Defence bot for benchmarks/bot_turn.py: reads state.json every round and answers
// one fixed command (build energy at 0,0), so its cost is the JVM's and the runner's, not a strategy's.
//
//   java -cp CLASSES Bot                  per turn: read state.json, write command.txt, exit
//   java -cp CLASSES Bot --persistent     one process: per stdin line (the round) read state.json and
//                                         print C;<round>;<command>
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

public final class Bot {
    private static final String COMMAND = "0,0,2";

    private static String decide() throws IOException {
        String state = Files.readString(Path.of("state.json"), StandardCharsets.UTF_8);
        return state.isEmpty() ? "" : COMMAND;
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("--persistent")) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                int round = Integer.parseInt(line.trim());
                System.out.println("C;" + round + ";" + decide());
                System.out.flush();
            }
        } else {
            Files.writeString(Path.of("command.txt"), decide(), StandardCharsets.UTF_8);
        }
    }
}
