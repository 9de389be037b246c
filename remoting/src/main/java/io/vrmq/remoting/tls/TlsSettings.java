package io.vrmq.remoting.tls;

import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * Apache RocketMQ's TLS settings ({@code TlsSystemConfig}), under the same names and defaults. They come from the
 * role's config (where {@code -Dtls.server.mode=...} system properties override, as for every key), and then, as in
 * Apache, from {@code tls.config.file} (default {@code /etc/rocketmq/tls.properties}) when that file exists: its
 * values win. In test mode (the default) a server uses a fresh self-signed certificate and a client trusts any
 * server. Immutable; read once at start.
 */
public record TlsSettings(TlsMode serverMode, boolean isClientEnabled, boolean isTestMode,
                          String serverNeedClientAuth, String serverKeyPath, String serverKeyPassword,
                          String serverCertPath, boolean serverAuthClient, String serverTrustCertPath,
                          String clientKeyPath, String clientKeyPassword, String clientCertPath,
                          boolean clientAuthServer, String clientTrustCertPath, String ciphers, String protocols) {
    public static final String SERVER_MODE = "tls.server.mode";
    public static final String ENABLE = "tls.enable";
    public static final String CONFIG_FILE = "tls.config.file";
    public static final String TEST_MODE_ENABLE = "tls.test.mode.enable";
    public static final String SERVER_NEED_CLIENT_AUTH = "tls.server.need.client.auth";
    public static final String SERVER_KEY_PATH = "tls.server.keyPath";
    public static final String SERVER_KEY_PASSWORD = "tls.server.keyPassword";
    public static final String SERVER_CERT_PATH = "tls.server.certPath";
    public static final String SERVER_AUTH_CLIENT = "tls.server.authClient";
    public static final String SERVER_TRUST_CERT_PATH = "tls.server.trustCertPath";
    public static final String CLIENT_KEY_PATH = "tls.client.keyPath";
    public static final String CLIENT_KEY_PASSWORD = "tls.client.keyPassword";
    public static final String CLIENT_CERT_PATH = "tls.client.certPath";
    public static final String CLIENT_AUTH_SERVER = "tls.client.authServer";
    public static final String CLIENT_TRUST_CERT_PATH = "tls.client.trustCertPath";
    public static final String CIPHERS = "tls.ciphers";
    public static final String PROTOCOLS = "tls.protocols";
    public static final String DEFAULT_CONFIG_FILE = "/etc/rocketmq/tls.properties";

    public TlsSettings {
        if (!serverNeedClientAuth.equals("none") && !serverNeedClientAuth.equals("optional")
            && !serverNeedClientAuth.equals("require")) {
            throw new IllegalArgumentException("invalid " + SERVER_NEED_CLIENT_AUTH + " (none, optional or require): "
                + serverNeedClientAuth);
        }
        if (!isTestMode && (isBlank(serverCertPath) || isBlank(serverKeyPath)) && serverMode != TlsMode.DISABLED) {
            throw new IllegalArgumentException(TEST_MODE_ENABLE + " is false, so " + SERVER_CERT_PATH + " and "
                + SERVER_KEY_PATH + " must name the server's certificate and key (or set " + SERVER_MODE
                + " to disabled)");
        }
    }

    /** Apache's defaults: permissive, test mode, clients plain. */
    public static TlsSettings defaults() {
        return from(new JsonObject().put(CONFIG_FILE, ""));
    }

    /** From a role's flat config (keys absent: Apache's defaults), then the tls.config.file if it exists. */
    public static TlsSettings from(JsonObject config) {
        JsonObject values = config.copy();
        String file = config.getString(CONFIG_FILE, DEFAULT_CONFIG_FILE);
        if (file != null && !file.isBlank() && Files.isRegularFile(Path.of(file))) {
            Properties fromFile = read(Path.of(file));
            fromFile.stringPropertyNames().forEach(key -> values.put(key, fromFile.getProperty(key)));
        }
        return new TlsSettings(TlsMode.parse(text(values, SERVER_MODE, "permissive")),
            flag(values, ENABLE, false), flag(values, TEST_MODE_ENABLE, true),
            text(values, SERVER_NEED_CLIENT_AUTH, "none"), text(values, SERVER_KEY_PATH, ""),
            text(values, SERVER_KEY_PASSWORD, ""), text(values, SERVER_CERT_PATH, ""),
            flag(values, SERVER_AUTH_CLIENT, false), text(values, SERVER_TRUST_CERT_PATH, ""),
            text(values, CLIENT_KEY_PATH, ""), text(values, CLIENT_KEY_PASSWORD, ""),
            text(values, CLIENT_CERT_PATH, ""), flag(values, CLIENT_AUTH_SERVER, false),
            text(values, CLIENT_TRUST_CERT_PATH, ""), text(values, CIPHERS, ""), text(values, PROTOCOLS, ""));
    }

    /**
     * Whether this role's own outgoing connections use TLS: when {@code tls.enable} says so, and always when its
     * server mode is enforcing (Apache's rule, so that an enforcing broker reaches an enforcing NameServer).
     */
    public boolean isOutgoingTls() {
        return isClientEnabled || serverMode == TlsMode.ENFORCING;
    }

    private static Properties read(Path file) {
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(file)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + CONFIG_FILE + " " + file, e);
        }
        return properties;
    }

    private static String text(JsonObject values, String key, String fallback) {
        Object value = values.getValue(key);
        return value == null ? fallback : String.valueOf(value).trim();
    }

    private static boolean flag(JsonObject values, String key, boolean fallback) {
        Object value = values.getValue(key);
        if (value == null || (value instanceof String text && text.isBlank())) {
            return fallback;
        }
        if (value instanceof Boolean bool) {
            return bool;
        }
        String text = String.valueOf(value).trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("invalid " + key + " (true or false): " + text);
        }
        return Boolean.parseBoolean(text);
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** Never a key password in a log line. */
    @Override
    public String toString() {
        return "TlsSettings[" + SERVER_MODE + "=" + serverMode + ", " + ENABLE + "=" + isClientEnabled + ", "
            + TEST_MODE_ENABLE + "=" + isTestMode + ", " + SERVER_CERT_PATH + "=" + serverCertPath + "]";
    }
}
