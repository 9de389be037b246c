package io.vrmq.console;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The console's files, read once into memory from the classpath folder {@link ConsoleResources#WEBROOT} (inside the
 * jar, or a directory when run from classes). Our servers keep Vert.x's classpath file resolving off (its cache
 * directory is deleted by a shutdown hook of Vert.x's own while ours still write state files), so they serve these
 * bytes instead of a StaticHandler. About 60 KiB. {@link #load} does blocking I/O: call it on a worker; the result is
 * immutable and may be shared by any thread.
 */
public final class ConsoleFiles {
    /** A file to serve: its bytes and the Content-Type header. */
    public record File(byte[] bytes, String contentType) {
    }

    private static final String INDEX = "index.html";
    private static final Map<String, String> CONTENT_TYPES = Map.of(
        "html", "text/html; charset=utf-8",
        "js", "text/javascript; charset=utf-8",
        "css", "text/css; charset=utf-8",
        "svg", "image/svg+xml",
        "png", "image/png",
        "json", "application/json");

    private final Map<String, File> filesByPath;

    private ConsoleFiles(Map<String, File> filesByPath) {
        this.filesByPath = Collections.unmodifiableMap(filesByPath);
    }

    /** The files {@link #load()} read, shared by every admin API of this JVM. */
    private static ConsoleFiles loaded;

    /**
     * Reads every file under the webroot, once per JVM: the NameServer and the broker of one process (the standalone
     * jar) serve the same files, and finding them walks all of the jar's entries (some 21,000 in the standalone jar),
     * on the two cores the roles' starts share. Blocking: a second caller waits for the first one's read.
     */
    public static synchronized ConsoleFiles load() {
        if (loaded == null) {
            loaded = load(ConsoleFiles.class.getClassLoader());
        }
        return loaded;
    }

    /** Reads every file under the webroot of {@code loader}'s classpath. Blocking. */
    static ConsoleFiles load(ClassLoader loader) {
        URL index = loader.getResource(ConsoleResources.WEBROOT + "/" + INDEX);
        if (index == null) {
            throw new IllegalStateException("console files missing: no " + ConsoleResources.WEBROOT + "/" + INDEX
                + " on the classpath");
        }
        try {
            if ("jar".equals(index.getProtocol())) {
                return new ConsoleFiles(readAll(index));
            }
            return new ConsoleFiles(readAll(Path.of(index.toURI()).getParent()));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the console files from " + index, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("console files at an unreadable location " + index, e);
        }
    }

    /**
     * The file for a request path ("/" and "" give index.html), or null: unknown paths, and anything that is not one
     * of the loaded files, find nothing (no file system is touched).
     */
    public File find(String requestPath) {
        String path = requestPath.startsWith("/") ? requestPath.substring(1) : requestPath;
        return filesByPath.get(path.isEmpty() ? INDEX : path);
    }

    /** The loaded paths, relative to the webroot ("index.html", "js/main.js", ...). */
    public Set<String> paths() {
        return filesByPath.keySet();
    }

    /**
     * The webroot's entries of the jar that holds {@code index}. Through a {@link JarFile}, not a zip file system: the
     * JDK shares one parsed central directory among the JarFiles of a file, and the class loader has parsed it
     * already, whereas a zip file system parses all of it again (the standalone jar has some 20,000 entries: tens of
     * milliseconds of every start, for each role with an admin API).
     */
    private static Map<String, File> readAll(URL index) throws IOException {
        JarURLConnection connection = (JarURLConnection) index.openConnection();
        connection.setUseCaches(false);   // a JarFile of our own, closed here
        String prefix = ConsoleResources.WEBROOT + "/";
        Map<String, File> files = new TreeMap<>();
        try (JarFile jar = connection.getJarFile()) {
            for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
                if (entry.isDirectory() || !entry.getName().startsWith(prefix)) {
                    continue;
                }
                String relative = entry.getName().substring(prefix.length());
                try (InputStream in = jar.getInputStream(entry)) {
                    files.put(relative, new File(in.readAllBytes(), contentTypeOf(relative)));
                }
            }
        }
        return files;
    }

    private static Map<String, File> readAll(Path root) throws IOException {
        Map<String, File> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                String relative = root.relativize(file).toString().replace('\\', '/');
                files.put(relative, new File(Files.readAllBytes(file), contentTypeOf(relative)));
            }
        }
        return files;
    }

    static String contentTypeOf(String path) {
        int dot = path.lastIndexOf('.');
        return CONTENT_TYPES.getOrDefault(dot < 0 ? "" : path.substring(dot + 1), "application/octet-stream");
    }
}
