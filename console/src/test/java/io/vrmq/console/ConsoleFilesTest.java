package io.vrmq.console;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's files as the servers load them, and that every module and asset they name is among them. */
class ConsoleFilesTest {
    private static final Pattern IMPORT = Pattern.compile("from\\s+'(\\.[^']+)'");
    private static final Pattern HTML_REFERENCE = Pattern.compile("(?:src|href)=\"([^\":#]+)\"");

    private final ConsoleFiles files = ConsoleFiles.load();

    @Test
    void rootAndIndexAreTheSamePage() {
        ConsoleFiles.File index = files.find("/");
        assertNotNull(index);
        assertEquals("text/html; charset=utf-8", index.contentType());
        assertEquals(index, files.find("/index.html"));
        assertEquals(index, files.find(""));
    }

    @Test
    void scriptsAndStylesHaveTheirContentTypes() {
        assertEquals("text/javascript; charset=utf-8", files.find("/js/main.js").contentType());
        assertEquals("text/css; charset=utf-8", files.find("/console.css").contentType());
    }

    @Test
    void pathsOutsideTheLoadedFilesFindNothing() {
        assertNull(files.find("/js/../../pom.xml"));
        assertNull(files.find("/no-such-file.js"));
        assertNull(files.find("/js"));
    }

    /** The NameServer and the broker of one JVM share one read of the jar (it walks all of its entries). */
    @Test
    void theServersOfOneJvmShareOneRead() {
        assertSame(files, ConsoleFiles.load());
    }

    /** Inside a jar (how the servers run) only the webroot's files are read, by their paths under it. */
    @Test
    void filesAreReadFromAJarUnderTheWebroot(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("with-console.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            put(out, "io/vrmq/Other.class", "not served");
            out.putNextEntry(new JarEntry(ConsoleResources.WEBROOT + "/js/"));   // a directory: not a file
            out.closeEntry();
            put(out, ConsoleResources.WEBROOT + "/index.html", "<html></html>");
            put(out, ConsoleResources.WEBROOT + "/js/pages/a.js", "export const a = 1;");
        }
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null)) {
            ConsoleFiles fromJar = ConsoleFiles.load(loader);
            assertEquals(Set.of("index.html", "js/pages/a.js"), fromJar.paths());
            assertEquals("export const a = 1;", new String(fromJar.find("/js/pages/a.js").bytes(),
                StandardCharsets.UTF_8));
            assertEquals("text/html; charset=utf-8", fromJar.find("/").contentType());
        }
    }

    private static void put(JarOutputStream out, String name, String text) throws IOException {
        out.putNextEntry(new JarEntry(name));
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.closeEntry();
    }

    @Test
    void everyImportedModuleAndReferencedAssetIsServed() {
        for (String path : files.paths()) {
            if (!path.endsWith(".js") && !path.endsWith(".html")) {
                continue;
            }
            String text = new String(files.find(path).bytes(), StandardCharsets.UTF_8);
            Matcher reference = (path.endsWith(".js") ? IMPORT : HTML_REFERENCE).matcher(text);
            while (reference.find()) {
                String target = URI.create("x:/" + path).resolve(reference.group(1)).getPath().substring(1);
                assertTrue(files.paths().contains(target), path + " refers to " + reference.group(1)
                    + " (" + target + "), which is not served; served: " + files.paths());
            }
        }
    }
}
