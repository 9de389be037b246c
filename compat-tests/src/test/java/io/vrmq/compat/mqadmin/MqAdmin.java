package io.vrmq.compat.mqadmin;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.apache.rocketmq.common.MixAll;
import org.apache.rocketmq.remoting.RPCHook;
import org.apache.rocketmq.tools.command.MQAdminStartup;

/**
 * Runs one mqadmin command in this JVM through the tool's own entry class, {@code MQAdminStartup.main0}, and
 * captures what it prints.
 *
 * <p>{@code main} only calls {@code main0(args, null)}, and {@code main0} never calls {@code System.exit}: a
 * sub-command's failure is caught there and printed to stderr as a stack trace, which
 * {@link Output#assertSucceeded()} turns into a test failure. (Only a bad command line or {@code -h} makes the tool
 * exit; the tests pass neither.) The command prints with {@code System.out.printf}, so stdout and stderr are swapped
 * for capturing streams while it runs; one command at a time, hence {@code synchronized}. {@code main0} also sets the
 * {@code rocketmq.namesrv.addr} system property from {@code -n}; it is put back afterwards so that no later client in
 * this JVM inherits it.
 */
public final class MqAdmin {

    private MqAdmin() {
    }

    /** {@code mqadmin <command> -n <namesrvAddr> <arguments...>}. */
    public static Output run(String namesrvAddr, String command, String... arguments) {
        return run(null, namesrvAddr, command, arguments);
    }

    /**
     * Like {@link #run(String, String, String...)}, signing with {@code rpcHook} (the AclClientRPCHook the tool
     * builds from {@code conf/tools.yml}; {@code main0} takes it directly), or with the tool's own choice when null.
     */
    public static synchronized Output run(RPCHook rpcHook, String namesrvAddr, String command,
                                          String... arguments) {
        List<String> commandLine = new ArrayList<>();
        commandLine.add(command);
        commandLine.add("-n");
        commandLine.add(namesrvAddr);
        commandLine.addAll(List.of(arguments));
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        PrintStream originalErr = System.err;
        String originalNamesrvAddr = System.getProperty(MixAll.NAMESRV_ADDR_PROPERTY);
        try (PrintStream capturedOut = new PrintStream(stdout, true, StandardCharsets.UTF_8);
             PrintStream capturedErr = new PrintStream(stderr, true, StandardCharsets.UTF_8)) {
            System.setOut(capturedOut);
            System.setErr(capturedErr);
            MQAdminStartup.main0(commandLine.toArray(String[]::new), rpcHook);
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
            restoreProperty(MixAll.NAMESRV_ADDR_PROPERTY, originalNamesrvAddr);
        }
        Output output = new Output(String.join(" ", commandLine), stdout.toString(StandardCharsets.UTF_8),
            stderr.toString(StandardCharsets.UTF_8));
        originalOut.println(output);    // into the test's report file, for reading a failure
        return output;
    }

    private static void restoreProperty(String name, String value) {
        if (value == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, value);
        }
    }

    /** What one command printed. */
    public record Output(String commandLine, String stdout, String stderr) {

        /** The tool prints a failed command's exception (and a caught one's) as a stack trace on stderr. */
        public Output assertSucceeded() {
            if (stderr.contains("Exception") || stderr.contains("Error")) {
                throw new AssertionError("mqadmin " + commandLine + " failed:\n" + this);
            }
            return this;
        }

        /** Lines of stdout, trailing spaces removed. */
        public List<String> lines() {
            return stdout.lines().map(String::stripTrailing).toList();
        }

        /** Lines of stdout containing every one of {@code fragments}. */
        public List<String> linesWith(String... fragments) {
            return lines().stream().filter(line -> List.of(fragments).stream().allMatch(line::contains)).toList();
        }

        /** The one stdout line containing every one of {@code fragments}; fails showing the output otherwise. */
        public String lineWith(String... fragments) {
            List<String> found = linesWith(fragments);
            if (found.size() != 1) {
                throw new AssertionError(found.size() + " lines with " + List.of(fragments) + " in the output of"
                    + " mqadmin " + commandLine + ":\n" + this);
            }
            return found.get(0);
        }

        /** The whitespace-separated columns of {@code line}. */
        public static List<String> columns(String line) {
            return List.of(line.trim().split("\\s+"));
        }

        @Override
        public String toString() {
            return "$ mqadmin " + commandLine + "\n--- stdout ---\n" + stdout + "\n--- stderr ---\n" + stderr
                + "\n--- end ---";
        }
    }
}
