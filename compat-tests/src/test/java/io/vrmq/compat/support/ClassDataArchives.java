package io.vrmq.compat.support;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Class-data sharing (AppCDS) for the child JVMs started from one of our jars: the first child of a jar in this test
 * JVM records the classes it loaded into an archive when it exits ({@code -XX:ArchiveClassesAtExit}), later children
 * of that jar map the archive instead of loading and verifying those classes again ({@code -XX:SharedArchiveFile}),
 * which takes about a third off the start of a server JVM. Test children only; nothing of the servers changes.
 *
 * <p>The archive is valid only for the jar it was made from (the JVM checks its size and modification time and
 * silently starts without it otherwise), so it is keyed by those too: a jar rebuilt during the run gets a fresh one.
 * A child that is killed (SIGKILL) writes none; the next child of that jar records again. Writing the archive adds
 * about a second to that one child's exit. Archives live in the temp dir under this JVM's pid and are deleted when it
 * exits. Children started another way (Apache's classes from the test classpath, which has directories CDS cannot
 * archive) get no options. The JVM's CDS messages are switched off: the tests read the children's logs.
 * Thread-safe.
 */
final class ClassDataArchives {

    private static final List<String> QUIET = List.of("-Xlog:cds=off", "-Xlog:cds+dynamic=off");
    private static final Map<String, Path> READY = new HashMap<>();
    private static final Map<String, Recording> RECORDING = new HashMap<>();
    private static int recordingCount;

    /** A child writing the archive of a jar when it exits. */
    private record Recording(Path archive, ChildJvm child) {
    }

    private ClassDataArchives() {
    }

    /**
     * The JVM options for a child with {@code javaArguments}: the archive of its jar once one exists, or recording it
     * when none is being recorded; none for a child not started from a single jar.
     */
    static synchronized List<String> optionsFor(List<String> javaArguments) {
        Path jar = singleJar(javaArguments);
        if (jar == null) {
            return List.of();
        }
        String key = key(jar);
        Path ready = READY.get(key) != null ? READY.get(key) : adoptFinishedRecording(key);
        if (ready != null) {
            return withQuiet("-XX:SharedArchiveFile=" + ready);
        }
        if (RECORDING.containsKey(key) && RECORDING.get(key).child() != null) {
            return List.of();    // the recording child still runs: start this one without an archive
        }
        Path archive = Path.of(System.getProperty("java.io.tmpdir"), "vrmq-compat-cds-" + ProcessHandle.current().pid()
            + "-" + (++recordingCount) + ".jsa.part");
        archive.toFile().deleteOnExit();
        RECORDING.put(key, new Recording(archive, null));
        return withQuiet("-XX:ArchiveClassesAtExit=" + archive);
    }

    /** Tells which child records the archive that {@link #optionsFor} just handed out, so that its exit is seen. */
    static synchronized void launched(List<String> javaArguments, List<String> options, ChildJvm child) {
        Path jar = singleJar(javaArguments);
        if (jar != null && options.stream().anyMatch(option -> option.startsWith("-XX:ArchiveClassesAtExit="))) {
            String key = key(jar);
            RECORDING.put(key, new Recording(RECORDING.get(key).archive(), child));
        }
    }

    /** A recording child that has exited leaves a complete archive (or none, when it was killed). */
    private static Path adoptFinishedRecording(String key) {
        Recording recording = RECORDING.get(key);
        if (recording == null || recording.child() == null || recording.child().isAlive()) {
            return null;
        }
        RECORDING.remove(key);
        Path part = recording.archive();
        try {
            if (!Files.isRegularFile(part) || Files.size(part) == 0) {
                return null;    // killed before it could write: the next child records again
            }
            Path archive = part.resolveSibling(part.getFileName().toString().replace(".part", ""));
            Files.move(part, archive, StandardCopyOption.ATOMIC_MOVE);
            archive.toFile().deleteOnExit();
            READY.put(key, archive);
            return archive;
        } catch (IOException e) {
            return null;    // no archive is only slower
        }
    }

    private static List<String> withQuiet(String option) {
        return Stream.concat(Stream.of(option), QUIET.stream()).toList();
    }

    /** The jar of {@code -jar x.jar}, or of {@code -cp x.jar} naming one jar; null otherwise. */
    private static Path singleJar(List<String> javaArguments) {
        for (int i = 0; i + 1 < javaArguments.size(); i++) {
            String option = javaArguments.get(i);
            String value = javaArguments.get(i + 1);
            if ((option.equals("-jar") || option.equals("-cp")) && value.endsWith(".jar")
                && !value.contains(File.pathSeparator)) {
                return Path.of(value).toAbsolutePath();
            }
        }
        return null;
    }

    private static String key(Path jar) {
        try {
            return jar + "|" + Files.size(jar) + "|" + Files.getLastModifiedTime(jar).toMillis();
        } catch (IOException e) {
            return jar.toString();
        }
    }
}
