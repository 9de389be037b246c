package io.vrmq.remoting.tls;

import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;

import java.util.Arrays;

/**
 * The client side of Apache's TLS settings on a Vert.x NetClient: in test mode (the default) any server certificate
 * is trusted, as Apache's client does; otherwise the server is checked against {@code tls.client.trustCertPath} when
 * {@code tls.client.authServer} is set, and a client certificate is offered when one is configured (its key may be
 * encrypted: {@code tls.client.keyPassword}). Stateless.
 */
public final class ClientTls {
    private ClientTls() {
    }

    /** {@code options} with TLS on, when this role's outgoing connections use it ({@link TlsSettings#isOutgoingTls}). */
    public static NetClientOptions apply(TlsSettings settings, NetClientOptions options) {
        return settings.isOutgoingTls() ? enable(settings, options) : options;
    }

    /**
     * TLS options for {@link io.vrmq.remoting.transport.RemotingClient}'s fallback to a server that requires TLS, or
     * null when this role's connections use TLS anyway. A copy of {@code options}: they stay as they are.
     */
    public static NetClientOptions fallback(TlsSettings settings, NetClientOptions options) {
        return settings.isOutgoingTls() ? null : enable(settings, new NetClientOptions(options));
    }

    /** {@code options} with TLS on whatever the role's rule says (a link that decides for itself, e.g. HA). */
    public static NetClientOptions enable(TlsSettings settings, NetClientOptions options) {
        options.setSsl(true).setHostnameVerificationAlgorithm("");
        if (settings.isTestMode() || !settings.clientAuthServer()) {
            options.setTrustAll(true);
        } else if (!settings.clientTrustCertPath().isBlank()) {
            options.setTrustOptions(new PemTrustOptions().addCertPath(settings.clientTrustCertPath()));
        }
        if (!settings.isTestMode() && !settings.clientCertPath().isBlank() && !settings.clientKeyPath().isBlank()) {
            // An encrypted key (tls.client.keyPassword) needs our reader; Vert.x's PEM options take no password.
            options.setKeyCertOptions(settings.clientKeyPassword().isBlank()
                ? new PemKeyCertOptions().setCertPath(settings.clientCertPath()).setKeyPath(settings.clientKeyPath())
                : new PemKeyFileOptions(settings.clientCertPath(), settings.clientKeyPath(),
                    settings.clientKeyPassword()));
        }
        if (!settings.ciphers().isBlank()) {
            Arrays.stream(settings.ciphers().split(",")).forEach(options::addEnabledCipherSuite);
        }
        if (!settings.protocols().isBlank()) {
            options.setEnabledSecureTransportProtocols(new java.util.LinkedHashSet<>(Arrays.asList(
                settings.protocols().split(","))));
        }
        return options;
    }
}
