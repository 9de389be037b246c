package io.vrmq.broker.controller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The controller id this broker was given, in RocketMQ's two files (text, no newline), so that a restarted broker
 * keeps its id and a broker that died between asking for an id and getting it resumes where it stopped:
 * <pre>
 *  brokerIdentity        clusterName#brokerName#brokerId
 *  brokerIdentity-temp   clusterName#brokerName#brokerId#registerCheckCode   (an id applied for, not yet confirmed)
 * </pre>
 * Each write keeps the previous content in {@code <file>.bak} and replaces the file atomically (written to a temp
 * file, forced, renamed), so a crash leaves the old or the new content, never a torn one.
 * Blocking file I/O: call from a worker thread, never an event loop.
 */
public final class BrokerIdentityFiles {
    private final Path identity;
    private final Path temp;

    public BrokerIdentityFiles(String identityPath) {
        this.identity = Path.of(identityPath);
        this.temp = Path.of(identityPath + "-temp");
    }

    /** An id confirmed by the controller. */
    public record Assigned(String clusterName, String brokerName, long brokerId) {
    }

    /** An id applied for: the check code lets the controller accept the same application again. */
    public record Applied(String clusterName, String brokerName, long brokerId, String registerCheckCode) {
    }

    /** The confirmed id, or null when there is none (a new broker). Throws when the file is not RocketMQ's form. */
    public Assigned readAssigned() {
        String text = readOrNull(identity);
        if (text == null) {
            return null;
        }
        String[] parts = text.trim().split("#");
        if (parts.length != 3) {
            throw new IllegalStateException(identity + " is not clusterName#brokerName#brokerId: " + text);
        }
        return new Assigned(parts[0], parts[1], parseId(parts[2], identity));
    }

    /** The id applied for and not confirmed yet, or null. */
    public Applied readApplied() {
        String text = readOrNull(temp);
        if (text == null) {
            return null;
        }
        String[] parts = text.trim().split("#", 4);
        if (parts.length != 4) {
            throw new IllegalStateException(temp + " is not clusterName#brokerName#brokerId#registerCheckCode: "
                + text);
        }
        return new Applied(parts[0], parts[1], parseId(parts[2], temp), parts[3]);
    }

    public void writeApplied(Applied applied) {
        write(temp, applied.clusterName() + "#" + applied.brokerName() + "#" + applied.brokerId() + "#"
            + applied.registerCheckCode());
    }

    /** Records the confirmed id, then drops the application. */
    public void confirm(Assigned assigned) {
        write(identity, assigned.clusterName() + "#" + assigned.brokerName() + "#" + assigned.brokerId());
        deleteApplied();
    }

    public void deleteApplied() {
        try {
            Files.deleteIfExists(temp);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + temp, e);
        }
    }

    private static long parseId(String id, Path file) {
        try {
            return Long.parseLong(id.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(file + " holds no numeric broker id: " + id, e);
        }
    }

    private static String readOrNull(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static void write(Path file, String content) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            Files.createDirectories(parent);
            if (Files.exists(file)) {
                Files.copy(file, Path.of(file + ".bak"), StandardCopyOption.REPLACE_EXISTING);
            }
            Path tmp = Path.of(file + ".tmp");
            try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
                channel.write(ByteBuffer.wrap(content.getBytes(StandardCharsets.UTF_8)));
                channel.force(true);
            }
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}
