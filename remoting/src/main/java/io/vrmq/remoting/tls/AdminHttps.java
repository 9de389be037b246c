package io.vrmq.remoting.tls;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.KeyCertOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import java.security.cert.Certificate;

/**
 * HTTPS on a role's admin HTTP port (beyond Apache, whose roles have no admin HTTP API): with {@code adminTls} on, the
 * port serves HTTPS only, with the certificate the remoting ports use ({@code tls.server.certPath} / {@code keyPath} /
 * {@code keyPassword}), or in test mode ({@code tls.test.mode.enable}, the default) a fresh self-signed one. Plain
 * HTTP stays the default. Stateless; {@link #apply} does its blocking part on a worker.
 */
public final class AdminHttps {
    /** Config key of every role: true serves the admin API over HTTPS. */
    public static final String ADMIN_TLS = "adminTls";

    private AdminHttps() {
    }

    /** Whether {@code config} turns HTTPS on for the admin port (absent: no). */
    public static boolean isEnabled(JsonObject config) {
        Object value = config.getValue(ADMIN_TLS);
        if (value == null || value instanceof Boolean) {
            return Boolean.TRUE.equals(value);
        }
        String text = String.valueOf(value).trim();
        if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
            throw new IllegalArgumentException("invalid " + ADMIN_TLS + " (true or false): " + text);
        }
        return Boolean.parseBoolean(text);
    }

    /** "https" or "http", for log lines and announcements. */
    public static String scheme(boolean isEnabled) {
        return isEnabled ? "https" : "http";
    }

    /**
     * A client of other roles' admin ports (the NameServer's console proxy to the brokers): HTTPS when
     * {@code isEnabled}, trusting any server in test mode or without {@code tls.client.authServer}, else checking it
     * against {@code tls.client.trustCertPath}.
     */
    public static HttpClientOptions clientOptions(TlsSettings settings, boolean isEnabled, HttpClientOptions options) {
        if (!isEnabled) {
            return options;
        }
        options.setSsl(true).setVerifyHost(false);
        if (settings.isTestMode() || !settings.clientAuthServer()) {
            return options.setTrustAll(true);
        }
        return settings.clientTrustCertPath().isBlank() ? options
            : options.setTrustOptions(new PemTrustOptions().addCertPath(settings.clientTrustCertPath()));
    }

    /** {@code options} with TLS on when {@code isEnabled}; fails naming the setting when no certificate can be had. */
    public static Future<HttpServerOptions> apply(Vertx vertx, TlsSettings settings, boolean isEnabled,
                                                  HttpServerOptions options) {
        if (!isEnabled) {
            return Future.succeededFuture(options);
        }
        if (settings.isTestMode()) {
            return vertx.executeBlocking(() -> {
                SelfSignedCertificates.Issued issued = SelfSignedCertificates.create("localhost");
                return KeyCertOptions.wrap(KeyFiles.keyManagers(issued.keys().getPrivate(),
                    new Certificate[] {issued.certificate()}));
            }, false).map(keys -> options.setSsl(true).setKeyCertOptions(keys));
        }
        if (settings.serverCertPath().isBlank() || settings.serverKeyPath().isBlank()) {
            return Future.failedFuture(new IllegalArgumentException(ADMIN_TLS + " is on and "
                + TlsSettings.TEST_MODE_ENABLE + " is false, so " + TlsSettings.SERVER_CERT_PATH + " and "
                + TlsSettings.SERVER_KEY_PATH + " must name the certificate and key"));
        }
        KeyCertOptions keys = settings.serverKeyPassword().isBlank()
            ? new PemKeyCertOptions().setCertPath(settings.serverCertPath()).setKeyPath(settings.serverKeyPath())
            : new PemKeyFileOptions(settings.serverCertPath(), settings.serverKeyPath(), settings.serverKeyPassword());
        return Future.succeededFuture(options.setSsl(true).setKeyCertOptions(keys));
    }
}
