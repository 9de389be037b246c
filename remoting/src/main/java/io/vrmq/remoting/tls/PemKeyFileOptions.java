package io.vrmq.remoting.tls;

import io.vertx.core.Vertx;
import io.vertx.core.net.KeyCertOptions;

import javax.net.ssl.KeyManagerFactory;
import java.util.function.Function;

/**
 * Vert.x key options for a PEM certificate and a PEM key that may be encrypted ({@link KeyFiles}): Vert.x's own
 * {@code PemKeyCertOptions} take no key password. The files are read when Vert.x builds the SSL context (on its
 * worker), as with its own options. Immutable; equal options share Vert.x's cached context.
 */
record PemKeyFileOptions(String certPath, String keyPath, String keyPassword) implements KeyCertOptions {
    @Override
    public KeyCertOptions copy() {
        return this;
    }

    @Override
    public KeyManagerFactory getKeyManagerFactory(Vertx vertx) throws Exception {
        return KeyFiles.keyManagers(certPath, keyPath, keyPassword);
    }

    /** One certificate whatever the server name (no SNI). */
    @Override
    public Function<String, KeyManagerFactory> keyManagerFactoryMapper(Vertx vertx) {
        return serverName -> null;
    }

    /** Never the key password. */
    @Override
    public String toString() {
        return "PemKeyFileOptions[certPath=" + certPath + ", keyPath=" + keyPath + "]";
    }
}
