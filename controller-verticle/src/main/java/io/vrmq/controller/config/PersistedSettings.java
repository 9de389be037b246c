package io.vrmq.controller.config;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * The settings accepted by UPDATE_CONTROLLER_CONFIG, kept in {@code configStorePath} (a properties file, as RocketMQ
 * keeps its controller.properties) so that they survive a restart; the start applies them over the config file.
 * Blocking file I/O: call on a worker. Writes go to a temporary file first and are then renamed over the old one, so
 * a crash leaves the old or the new content, never half.
 */
public final class PersistedSettings {
    private final Path file;

    public PersistedSettings(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    /** The persisted updates; empty when the file does not exist yet. */
    public Properties read() throws IOException {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (NoSuchFileException e) {
            return properties;
        }
        return properties;
    }

    public void write(Properties properties) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temporary = parent.resolve(file.getFileName() + ".tmp");
        try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            properties.store(writer, "updates accepted by UPDATE_CONTROLLER_CONFIG; applied over the config file");
        }
        Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
