package io.vrmq.loadcommon;

import java.util.HashMap;
import java.util.Map;

/**
 * The load tools' command lines: {@code --name value} pairs, and the check that stops a tool with its usage text.
 * Shared by the load tools of benchmark/load and benchmark/grpc-load.
 */
public final class CommandLine {

    private CommandLine() {
    }

    /** The {@code --name value} pairs by name (without the dashes); a stray word stops with {@code usage}. */
    public static Map<String, String> parse(String[] args, String usage) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            require(args[i].startsWith("--") && i + 1 < args.length, "expected --name value at '" + args[i] + "'",
                usage);
            values.put(args[i].substring(2), args[i + 1]);
        }
        return values;
    }

    public static void require(boolean condition, String message, String usage) {
        if (!condition) {
            throw new IllegalArgumentException(message + "\n" + usage);
        }
    }
}
