package io.vrmq.remoting.config;

import io.vertx.config.ConfigRetriever;
import io.vertx.config.ConfigRetrieverOptions;
import io.vertx.config.ConfigStoreOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a role's flat JSON configuration with vertx-config, in this order, later wins:
 * <ol>
 *   <li>the defaults embedded in the jar (every key the role knows, with its default value);</li>
 *   <li>the file given with {@code -conf}, if any: a key the defaults do not have, or a value of another type,
 *   stops the start with a message naming the key;</li>
 *   <li>environment variables, then system properties, of the same names (only known keys are taken).</li>
 * </ol>
 * Values from the environment are strings; they are converted to the default's type.
 *
 * <p>Two roles may share one file (a NameServer with its embedded controller): each loads it with its own defaults
 * and names the other's defaults as siblings, whose keys it then skips instead of refusing.
 */
public final class RoleConfigLoader {
    private RoleConfigLoader() {
    }

    public static Future<JsonObject> load(Vertx vertx, String defaultsResource, String configPath) {
        return load(vertx, defaultsResource, List.of(), configPath);
    }

    /** Like {@link #load(Vertx, String, String)}; the keys of {@code siblingResources} are skipped in the file. */
    public static Future<JsonObject> load(Vertx vertx, String defaultsResource, List<String> siblingResources,
                                          String configPath) {
        JsonObject defaults;
        Set<String> siblingKeys = new HashSet<>();
        try {
            defaults = readResource(defaultsResource);
            siblingResources.forEach(sibling -> siblingKeys.addAll(readResource(sibling).fieldNames()));
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
        Future<JsonObject> file = configPath == null ? Future.succeededFuture(new JsonObject())
            : readFile(vertx, configPath).map(json -> ConfigValues.checked(defaults, json, "config file " + configPath,
                siblingKeys));
        return file.compose(fromFile -> readOverrides(vertx, defaults)
            .map(overrides -> defaults.copy().mergeIn(fromFile).mergeIn(overrides)));
    }

    /**
     * One key's value, read the same way but before Vert.x exists (the transport Vert.x is built with): the default,
     * then the file, then the environment variable, then the system property of that name. Any problem (the file
     * unreadable or not JSON, a value of the wrong type) leaves the value from before it; the full {@link #load} that
     * follows refuses the start over it, naming the key or the file. Null when {@code defaultsResource} lacks the key.
     */
    public static Object valueBeforeVertx(String defaultsResource, String configPath, String key) {
        JsonObject defaults = readResource(defaultsResource);
        if (!defaults.containsKey(key)) {
            return null;
        }
        JsonObject only = new JsonObject().put(key, defaults.getValue(key));
        Object value = only.getValue(key);
        if (configPath != null) {
            value = orBefore(value, () -> {
                JsonObject file = new JsonObject(Files.readString(Path.of(configPath), StandardCharsets.UTF_8));
                return file.containsKey(key) ? ConfigValues.checked(only, new JsonObject().put(key,
                    file.getValue(key)), configPath).getValue(key) : null;
            });
        }
        value = orBefore(value, () -> overrideOf(only, key, System.getenv(key)));
        return orBefore(value, () -> overrideOf(only, key, System.getProperty(key)));
    }

    private static Object overrideOf(JsonObject only, String key, String text) {
        return text == null ? null : ConfigValues.overridesOf(only, new JsonObject().put(key, text)).getValue(key);
    }

    private interface ValueSource {
        Object read() throws IOException;
    }

    /** {@code source}'s value, or {@code before} when it has none or cannot be read. */
    private static Object orBefore(Object before, ValueSource source) {
        try {
            Object value = source.read();
            return value != null ? value : before;
        } catch (IOException | RuntimeException e) {
            return before;
        }
    }

    /** The defaults embedded in the jar under {@code resource}; throws when it is missing or not JSON. */
    public static JsonObject defaults(String resource) {
        return readResource(resource);
    }

    private static Future<JsonObject> readFile(Vertx vertx, String path) {
        return vertx.fileSystem().readFile(path)
            .recover(error -> Future.failedFuture(new IllegalArgumentException("cannot read config file " + path
                + ": " + error.getMessage(), error)))
            .map(bytes -> {
                try {
                    return bytes.toJsonObject();
                } catch (DecodeException e) {
                    throw new IllegalArgumentException("config file " + path + " is not a JSON object: "
                        + e.getMessage(), e);
                }
            });
    }

    private static Future<JsonObject> readOverrides(Vertx vertx, JsonObject defaults) {
        JsonArray keys = new JsonArray(defaults.fieldNames().stream().sorted().toList());
        ConfigRetrieverOptions options = new ConfigRetrieverOptions()
            .setIncludeDefaultStores(false)
            .addStore(new ConfigStoreOptions().setType("env").setConfig(new JsonObject().put("keys", keys)
                .put("raw-data", true)))
            .addStore(new ConfigStoreOptions().setType("sys").setConfig(new JsonObject().put("cache", false)
                .put("raw-data", true)));
        ConfigRetriever retriever = ConfigRetriever.create(vertx, options);
        return retriever.getConfig()
            .map(all -> ConfigValues.overridesOf(defaults, all))
            .eventually(() -> {
                retriever.close();
                return Future.succeededFuture();
            });
    }

    private static JsonObject readResource(String resource) {
        try (InputStream in = RoleConfigLoader.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("embedded default config " + resource + " is missing");
            }
            return new JsonObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read embedded default config " + resource, e);
        }
    }
}
