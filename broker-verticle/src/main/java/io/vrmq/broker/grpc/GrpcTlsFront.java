package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.SocketAddress;
import io.vrmq.remoting.tls.ServerTls;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The public gRPC port when TLS is on (permissive or enforcing): plain HTTP/2 and TLS on one port, each connection
 * decided by its first byte with the remoting ports' {@link ServerTls} (same settings, same certificate handling).
 * <p>
 * Why a front: a Vert.x HttpServer is TLS or plain for the whole port and offers no hook before its HTTP/2 sniffing
 * reads the first bytes, so the per-connection choice cannot be made inside it. The front accepts the connection,
 * lets the TLS detector terminate TLS (ALPN "h2") when the client speaks it, and pipes the plain HTTP/2 bytes to the
 * endpoint's HTTP/2 server on a loopback port, after a PROXY protocol v1 line naming the real client, so the
 * endpoint sees the client's address (logs, ACL source IPs). It costs one loopback hop per connection.
 * <p>
 * The loopback port accepts anyone on this host who writes a PROXY line: a local process can reach the endpoint
 * without TLS and claim any source address. The port is bound to 127.0.0.1 only. Created, started and stopped on the
 * endpoint's context; the handlers run on the event loops.
 */
final class GrpcTlsFront {
    private static final Logger log = LoggerFactory.getLogger(GrpcTlsFront.class);
    private static final int CONNECT_TIMEOUT_MS = 3_000;
    static final String INNER_HOST = "127.0.0.1";

    private final Vertx vertx;
    private final ServerTls tls;
    private NetServer server;
    private NetClient inner;

    GrpcTlsFront(Vertx vertx, ServerTls tls) {
        this.vertx = vertx;
        this.tls = tls;
    }

    /** Listens on {@code host:port}, piping each connection to {@code innerPort} on loopback; the bound port. */
    Future<Integer> listen(String host, int port, int innerPort) {
        inner = vertx.createNetClient(new NetClientOptions().setConnectTimeout(CONNECT_TIMEOUT_MS)
            .setTcpNoDelay(true));
        server = vertx.createNetServer(new NetServerOptions().setTcpNoDelay(true).setReuseAddress(true));
        return server.connectHandler(socket -> accept(socket, innerPort)).listen(port, host)
            .map(NetServer::actualPort);
    }

    Future<Void> shutdown(long graceMs) {
        if (server == null) {
            return Future.succeededFuture();
        }
        return server.shutdown(graceMs, TimeUnit.MILLISECONDS).eventually(inner::close);
    }

    private void accept(NetSocket client, int innerPort) {
        tls.install(client);
        client.pause();
        SocketAddress remote = client.remoteAddress();
        SocketAddress local = client.localAddress();
        inner.connect(innerPort, INNER_HOST).onComplete(connected -> {
            if (connected.failed()) {
                log.warn("gRPC connection from {} closed: cannot reach the endpoint on loopback: {}", remote,
                    connected.cause().getMessage());
                client.close();
                return;
            }
            NetSocket endpoint = connected.result();
            endpoint.write(proxyLine(remote, local));
            client.closeHandler(ignored -> endpoint.close());
            endpoint.closeHandler(ignored -> client.close());
            client.pipeTo(endpoint);
            endpoint.pipeTo(client);
        });
    }

    /** PROXY protocol v1: "PROXY TCP4|TCP6 src dst srcPort dstPort\r\n". */
    static Buffer proxyLine(SocketAddress remote, SocketAddress local) {
        String remoteHost = withoutScope(remote.hostAddress());
        String family = remoteHost.contains(":") ? "TCP6" : "TCP4";
        String localHost = withoutScope(local.hostAddress());
        if (family.equals("TCP6") != localHost.contains(":")) {
            // Mixed families cannot be written in v1; the real client still shows, with the port's own address.
            localHost = family.equals("TCP6") ? "::1" : INNER_HOST;
        }
        return Buffer.buffer("PROXY " + family + " " + remoteHost + " " + localHost + " " + remote.port()
            + " " + local.port() + "\r\n");
    }

    /** A link-local IPv6 address's "%scope" is not part of the PROXY grammar. */
    private static String withoutScope(String host) {
        int percent = host.indexOf('%');
        return percent >= 0 ? host.substring(0, percent) : host;
    }
}
