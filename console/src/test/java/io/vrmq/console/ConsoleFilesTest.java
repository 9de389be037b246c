package io.vrmq.console;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
