package io.vrmq.broker.grpc;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.SocketAddress;
import io.vrmq.remoting.protocol.RemotingCommand;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.TlsSettings;
import io.vrmq.remoting.transport.ProcessorTable;
import io.vrmq.remoting.transport.RemotingClient;
import io.vrmq.remoting.transport.RemotingLimits;
import io.vrmq.remoting.transport.RemotingObserver;

import java.util.function.UnaryOperator;

/**
 * The gRPC endpoint's way into this broker: a remoting connection to the broker's own listen port on loopback. Each
 * RPC becomes the remoting request Apache's proxy sends its broker for it (SEND_MESSAGE_V2, POP_MESSAGE,
 * ACK_MESSAGE, ...), so every check, reply code and durability rule of those processors holds for gRPC clients
 * too, and nothing of send, POP or transactions exists twice. The broker's own requests to its clients come back on
 * the same connection (CHECK_TRANSACTION_STATE, GET_CONSUMER_RUNNING_INFO, CONSUME_MESSAGE_DIRECTLY).
 * <p>
 * The hop costs one loopback round trip and an encode/decode per call; the processors take a remoting connection,
 * so a socket-less path would need one in the remoting module. The connection uses TLS by the broker's own client
 * rule ({@link TlsSettings#isOutgoingTls}: tls.enable, or the server mode is enforcing), so an enforcing broker still
 * accepts it; in test mode it trusts the broker's self-signed certificate as every test-mode client does.
 * Thread-safe.
 */
final class BrokerLink {
    private static final int CONNECT_TIMEOUT_MS = 3_000;

    private final RemotingClient client;
    private final String brokerAddress;
    private final long requestTimeoutMs;
    /** This side's address of the link's current connection, as the broker sees the peer; null before the first. */
    private volatile SocketAddress localAddress;

    /**
     * @param signer  signs every request with the broker's innerClientAuthenticationCredentials (or leaves it as is
     *                without them): with ACL on, only calls {@link GrpcAuth} passed come here
     * @param inbound what answers the broker's requests to the clients (transaction checks, admin questions)
     */
    BrokerLink(Vertx vertx, RemotingLimits limits, TlsSettings tls, UnaryOperator<RemotingCommand> signer,
               String brokerAddress, ProcessorTable inbound) {
        this.client = new RemotingClient(vertx, ClientTls.apply(tls, new NetClientOptions()
            .setConnectTimeout(CONNECT_TIMEOUT_MS).setTcpNoDelay(true)), limits, inbound, RemotingObserver.NONE,
            signer);
        this.brokerAddress = brokerAddress;
        this.requestTimeoutMs = limits.requestTimeoutMs();
    }

    /** "host:port" of the broker's listen port as seen from this process: loopback unless bound elsewhere. */
    static String loopbackAddress(String bindAddress, int listenPort) {
        boolean isWildcard = bindAddress == null || bindAddress.isBlank() || bindAddress.equals("0.0.0.0")
            || bindAddress.equals("::") || bindAddress.equals("[::]");
        return (isWildcard ? "127.0.0.1" : bindAddress) + ":" + listenPort;
    }

    Future<RemotingCommand> call(RemotingCommand request) {
        rememberLocalAddress();
        return client.invoke(brokerAddress, request, requestTimeoutMs);
    }

    /**
     * Whether the broker's connection with {@code peer} at its far end is this link: the broker never expires it, as
     * it carries every gRPC client.
     */
    boolean isPeer(SocketAddress peer) {
        SocketAddress local = localAddress;
        return local != null && peer != null && local.port() == peer.port()
            && String.valueOf(local.hostAddress()).equals(String.valueOf(peer.hostAddress()));
    }

    /** The link reconnects after a failure, from a new port: taken from the connection the next call uses. */
    private void rememberLocalAddress() {
        client.connection(brokerAddress).onSuccess(connection -> localAddress = connection.localSocketAddress());
    }

    /** For a request the broker may hold (a long-polling pop): {@code holdMs} more than the usual timeout. */
    Future<RemotingCommand> call(RemotingCommand request, long holdMs) {
        rememberLocalAddress();
        return client.invoke(brokerAddress, request, requestTimeoutMs + holdMs);
    }

    Future<Void> callOneway(RemotingCommand request) {
        return client.invokeOneway(brokerAddress, request);
    }

    Future<Void> close() {
        return client.close();
    }
}
