package io.vrmq.remoting.tls;

import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.internal.net.NetSocketInternal;
import io.vertx.core.net.NetSocket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * TLS on a remoting server port, as Apache's NettyRemotingServer does it: permissive serves plain and TLS clients on
 * one port, enforcing TLS clients only, each connection decided by its first byte (see {@link TlsDetector}).
 *
 * <p>Why a Netty handler and not Vert.x's own TLS: a Vert.x NetServer is TLS or plain for the whole port, and
 * {@code NetSocket.upgradeToSsl} starts a handshake on a connection whose first bytes it has already consumed, so
 * neither can decide per connection from the first byte. The connect handler runs on the channel's event loop before
 * the channel's first read, so a handler put first in the channel's pipeline there sees every byte, and above it the
 * remoting connection sees plain frames either way.
 *
 * <p>In test mode (Apache's default) the self-signed certificate ({@link SelfSignedCertificates}) is made when the
 * first TLS client arrives, on a worker: a server that never sees one pays nothing for it. With real certificate
 * files the context is built at start, so a bad file stops the start.
 *
 * <p>Thread-safe: the SslContext is built once and shared by every connection and event loop.
 */
public final class ServerTls {
    private static final Logger log = LoggerFactory.getLogger(ServerTls.class);
    static final String HANDLER_NAME = "vrmq-tls";

    private final Vertx vertx;
    private final TlsSettings settings;
    private final String role;
    private final List<String> applicationProtocols;
    private final AtomicReference<Future<SslContext>> context = new AtomicReference<>();

    private ServerTls(Vertx vertx, TlsSettings settings, String role, List<String> applicationProtocols) {
        this.vertx = vertx;
        this.settings = settings;
        this.role = role;
        this.applicationProtocols = List.copyOf(applicationProtocols);
    }

    /** The TLS of a server with {@code settings}, or null when its mode is disabled. */
    public static Future<ServerTls> create(Vertx vertx, TlsSettings settings, String role) {
        return create(vertx, settings, role, List.of());
    }

    /**
     * As {@link #create(Vertx, TlsSettings, String)}, offering {@code applicationProtocols} in ALPN (in order of
     * preference): an HTTP/2 client such as grpc-java refuses a TLS server that does not select "h2".
     */
    public static Future<ServerTls> create(Vertx vertx, TlsSettings settings, String role,
                                           List<String> applicationProtocols) {
        if (settings.serverMode() == TlsMode.DISABLED) {
            log.info("{}: TLS disabled", role);
            return Future.succeededFuture(null);
        }
        ServerTls tls = new ServerTls(vertx, settings, role, applicationProtocols);
        log.info("{}: TLS {} mode ({})", role, settings.serverMode().name().toLowerCase(Locale.ROOT),
            settings.isTestMode() ? "test mode: self-signed certificate" : settings.serverCertPath());
        return settings.isTestMode() ? Future.succeededFuture(tls) : tls.context().map(tls);
    }

    public TlsMode mode() {
        return settings.serverMode();
    }

    /** Call from the connect handler, before the socket is read. */
    public void install(NetSocket socket) {
        ((NetSocketInternal) socket).channelHandlerContext().pipeline().addFirst(HANDLER_NAME,
            new TlsDetector(this));
    }

    /** The server context, built once on a worker. */
    Future<SslContext> context() {
        Future<SslContext> existing = context.get();
        if (existing != null) {
            return existing;
        }
        Future<SslContext> building = vertx.executeBlocking(this::build, false)
            .recover(error -> Future.failedFuture(new IllegalArgumentException("cannot set up TLS for " + role
                + " (" + settings + "): " + error.getMessage(), error)));
        // Two event loops racing for the first TLS client: the first attempt stands, the other's result is dropped.
        return context.compareAndSet(null, building) ? building : context.get();
    }

    private SslContext build() throws Exception {
        SslContextBuilder builder;
        if (settings.isTestMode()) {
            SelfSignedCertificates.Issued issued = SelfSignedCertificates.create("localhost");
            builder = SslContextBuilder.forServer(issued.keys().getPrivate(), issued.certificate())
                .clientAuth(ClientAuth.OPTIONAL);
        } else {
            builder = settings.serverKeyPassword().isBlank()
                ? SslContextBuilder.forServer(new File(settings.serverCertPath()), new File(settings.serverKeyPath()))
                // An encrypted PKCS#8 key (tls.server.keyPassword): decrypted by the same reader as the client's.
                : SslContextBuilder.forServer(KeyFiles.privateKey(settings.serverKeyPath(),
                    settings.serverKeyPassword()), x509(KeyFiles.certificates(settings.serverCertPath())));
            if (!settings.serverAuthClient()) {
                builder.trustManager(InsecureTrustManagerFactory.INSTANCE);
            } else if (!settings.serverTrustCertPath().isBlank()) {
                builder.trustManager(new File(settings.serverTrustCertPath()));
            }
            builder.clientAuth(switch (settings.serverNeedClientAuth()) {
                case "optional" -> ClientAuth.OPTIONAL;
                case "require" -> ClientAuth.REQUIRE;
                default -> ClientAuth.NONE;
            });
        }
        if (!settings.ciphers().isBlank()) {
            builder.ciphers(Arrays.asList(settings.ciphers().split(",")));
        }
        if (!settings.protocols().isBlank()) {
            builder.protocols(settings.protocols().split(","));
        }
        if (!applicationProtocols.isEmpty()) {
            builder.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, applicationProtocols));
        }
        SslContext built = builder.build();
        log.info("{}: SslContext created for the server", role);
        return built;
    }

    private static X509Certificate[] x509(Certificate[] chain) {
        return Arrays.stream(chain).map(X509Certificate.class::cast).toArray(X509Certificate[]::new);
    }
}
