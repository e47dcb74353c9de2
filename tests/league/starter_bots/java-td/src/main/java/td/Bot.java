package td;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Tower Defence bot: an energy building in row 4 whenever its own energy (player "A") pays for one. */
public final class Bot {
    private static final Pattern OWN_ENERGY =
            Pattern.compile("\"playerType\"\\s*:\\s*\"A\"[^}]*?\"energy\"\\s*:\\s*(\\d+)");

    public static void main(String[] args) throws IOException {
        String state = Files.readString(Path.of("state.json"), StandardCharsets.UTF_8);
        Matcher energy = OWN_ENERGY.matcher(state);
        boolean affordable = energy.find() && Integer.parseInt(energy.group(1)) >= 20;
        Files.writeString(Path.of("command.txt"), affordable ? "0,4,2" : "", StandardCharsets.UTF_8);
    }
}
