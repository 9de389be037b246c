package io.vrmq.remoting.config;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.junit5.VertxTestContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Defaults, then the file, then system properties; unknown keys and ill-typed values refused by name.
 * {@code test-defaults.json} holds an int, a long (outside the int range, so that JSON reads it as one),
 * a boolean and a string.
 */
@ExtendWith(VertxExtension.class)
class RoleConfigLoaderTest {
    private static final String DEFAULTS = "test-defaults.json";
    private static final Set<String> DEFAULT_KEYS = Set.of("listenPort", "maxStoreBytes", "autoCreateTopicEnable",
        "brokerName");

    @AfterEach
    void clearSystemProperties() {
        DEFAULT_KEYS.forEach(System::clearProperty);
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void withoutAFileTheDefaultsAreTheConfig(Vertx vertx, VertxTestContext test) {
        RoleConfigLoader.load(vertx, DEFAULTS, null).onComplete(test.succeeding(config -> test.verify(() -> {
            assertEquals(new JsonObject().put("listenPort", 10911).put("maxStoreBytes", 8_589_934_592L)
                .put("autoCreateTopicEnable", true).put("brokerName", "broker-a"), config);
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void theFileOverridesTheDefaults(Vertx vertx, VertxTestContext test, @TempDir Path dir) throws IOException {
        Path file = write(dir, "{\"listenPort\":20911,\"maxStoreBytes\":17179869184,"
            + "\"autoCreateTopicEnable\":false,\"brokerName\":\"broker-b\"}");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.succeeding(config -> test.verify(() -> {
            assertEquals(20911, config.getInteger("listenPort"));
            assertEquals(17_179_869_184L, config.getLong("maxStoreBytes"));
            assertEquals(false, config.getBoolean("autoCreateTopicEnable"));
            assertEquals("broker-b", config.getString("brokerName"));
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void theResultHasEveryDefaultKeyWhenTheFileSetsOnlySome(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        Path file = write(dir, "{\"brokerName\":\"broker-b\"}");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.succeeding(config -> test.verify(() -> {
            assertEquals(DEFAULT_KEYS, config.fieldNames());
            assertEquals(10911, config.getInteger("listenPort"));
            assertEquals("broker-b", config.getString("brokerName"));
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void anUnknownKeyInTheFileFailsNamingIt(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        Path file = write(dir, "{\"listenPort\":20911,\"listenPortt\":20912}");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error instanceof IllegalArgumentException, error.toString());
            assertTrue(error.getMessage().contains("'listenPortt'"), error.getMessage());
            test.completeNow();
        })));
    }

    /** Two roles reading one file: each skips the other's keys, keeps its own, and still refuses unknown ones. */
    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void aSiblingRolesKeysAreSkippedNotRefused(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        Path file = write(dir, "{\"listenPort\":20911,\"peers\":\"n0-127.0.0.1:1\"}");
        Path unknown = write(Files.createDirectories(dir.resolve("second")), "{\"peers\":\"n0-127.0.0.1:1\",\"nope\":1}");

        RoleConfigLoader.load(vertx, DEFAULTS, List.of("test-sibling-defaults.json"), file.toString())
            .compose(config -> {
                assertEquals(20911, config.getInteger("listenPort"), "a key both know is taken");
                assertEquals(Set.copyOf(DEFAULT_KEYS), config.fieldNames(), "the sibling's key stays out");
                return RoleConfigLoader.load(vertx, DEFAULTS, List.of("test-sibling-defaults.json"),
                    unknown.toString());
            })
            .onComplete(test.failing(error -> test.verify(() -> {
                assertTrue(error.getMessage().contains("'nope'"), error.getMessage());
                test.completeNow();
            })));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "listenPort            | \"many\"",
        "listenPort            | 1.5",
        "listenPort            | 4294967296",
        "listenPort            | true",
        "maxStoreBytes         | \"lots\"",
        "maxStoreBytes         | 1.5",
        "autoCreateTopicEnable | \"yes\"",
        "autoCreateTopicEnable | 1",
        "brokerName            | {\"name\":\"b\"}",
        "brokerName            | [\"b\"]",
        "listenPort            | null",
    })
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void anIllTypedValueInTheFileFailsNamingItsKey(String key, String value, Vertx vertx, VertxTestContext test,
                                                  @TempDir Path dir) throws IOException {
        Path file = write(dir, "{\"" + key + "\":" + value + "}");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error instanceof IllegalArgumentException, error.toString());
            assertTrue(error.getMessage().contains("'" + key + "'"), error.getMessage());
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void aSystemPropertyOfTheSameNameOverridesTheFile(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        Path file = write(dir, "{\"listenPort\":20911,\"autoCreateTopicEnable\":true}");
        System.setProperty("listenPort", "30911");
        System.setProperty("autoCreateTopicEnable", "false");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.succeeding(config -> test.verify(() -> {
            assertEquals(30911, config.getValue("listenPort"), "converted to the default's type");
            assertEquals(false, config.getValue("autoCreateTopicEnable"));
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void anIllTypedSystemPropertyFailsNamingIt(Vertx vertx, VertxTestContext test) {
        System.setProperty("maxStoreBytes", "a lot");

        RoleConfigLoader.load(vertx, DEFAULTS, null).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error.getMessage().contains("'maxStoreBytes'"), error.getMessage());
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void aMissingFileFailsNamingItsPath(Vertx vertx, VertxTestContext test, @TempDir Path dir) {
        String missing = dir.resolve("nope.json").toString();

        RoleConfigLoader.load(vertx, DEFAULTS, missing).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error.getMessage().contains(missing), error.getMessage());
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void aFileThatIsNotAJsonObjectFailsNamingItsPath(Vertx vertx, VertxTestContext test, @TempDir Path dir)
        throws IOException {
        Path file = write(dir, "listenPort = 1");

        RoleConfigLoader.load(vertx, DEFAULTS, file.toString()).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error.getMessage().contains(file.toString()), error.getMessage());
            test.completeNow();
        })));
    }

    @Test
    @Timeout(value = 5, timeUnit = TimeUnit.SECONDS)
    void aMissingDefaultsResourceFailsNamingIt(Vertx vertx, VertxTestContext test) {
        RoleConfigLoader.load(vertx, "no-such-defaults.json", null).onComplete(test.failing(error -> test.verify(() -> {
            assertTrue(error.getMessage().contains("no-such-defaults.json"), error.getMessage());
            test.completeNow();
        })));
    }

    private static Path write(Path dir, String json) throws IOException {
        return Files.writeString(dir.resolve("role.json"), json, StandardCharsets.UTF_8);
    }
}
