package io.vrmq.load;

import io.vrmq.loadcommon.CommandLine;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.rocketmq.remoting.exception.RemotingCommandException;
import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * A loopback TCP relay between a broker and its NameServer that reports what each registration costs on the wire:
 * for every request the broker sends (REGISTER_BROKER 103, QUERY_DATA_VERSION 322, ...) one line
 * {@code TAP {"code":103,"bodyBytes":...,"compressed":"false","roundTripMicros":...,"responseCode":0}} once its
 * response has passed, the round trip measured at the relay from the request's last byte to the response's last
 * byte (the NameServer's decoding and table update, plus loopback transfer). The broker is given the relay's port as
 * its namesrvAddr; everything else talks to the NameServer directly. Frames are decoded with the official 5.5.0
 * codec (JSON or binary headers alike) and forwarded unchanged. Runs until killed: the accept loop on the main
 * thread, two copying threads per connection.
 *
 * <pre>java -cp vrmq-load.jar io.vrmq.load.RegistrationTap --listen-port 20001 --namesrv 127.0.0.1:9876</pre>
 */
public final class RegistrationTap {

    static final String USAGE = "usage: RegistrationTap --listen-port port --namesrv host:port";
    /** Frames above this are not ours to relay (the NameServer's own frame limit is 16 MiB). */
    private static final int MAX_FRAME_BYTES = 64 * 1024 * 1024;
    private static final int FRAME_LENGTH_BYTES = 4;
    /** RemotingCommand's flag bit of a response. */
    private static final int RESPONSE_FLAG = 1;

    private final InetSocketAddress namesrv;
    private final Map<Integer, Pending> pending = new ConcurrentHashMap<>();

    private RegistrationTap(InetSocketAddress namesrv) {
        this.namesrv = namesrv;
    }

    public static void main(String[] args) throws IOException {
        Map<String, String> values = CommandLine.parse(args, USAGE);
        CommandLine.require(values.containsKey("listen-port") && values.containsKey("namesrv"),
            "--listen-port and --namesrv are required", USAGE);
        String[] hostPort = values.get("namesrv").split(":");
        RegistrationTap tap = new RegistrationTap(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])));
        try (ServerSocket server = new ServerSocket(Integer.parseInt(values.get("listen-port")), 50,
            InetAddress.getLoopbackAddress())) {
            System.out.println("TAP listening on " + server.getLocalSocketAddress() + ", relaying to " + tap.namesrv);
            while (true) {
                tap.relay(server.accept());
            }
        }
    }

    private void relay(Socket broker) throws IOException {
        Socket upstream = new Socket(namesrv.getAddress(), namesrv.getPort());
        broker.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        start("tap-up", () -> copy(broker, upstream, true));
        start("tap-down", () -> copy(upstream, broker, false));
    }

    /** Copies frames until either side closes, then closes both; {@code isRequest}: broker to NameServer. */
    private void copy(Socket from, Socket to, boolean isRequest) {
        try (from; to) {
            DataInputStream in = new DataInputStream(from.getInputStream());
            DataOutputStream out = new DataOutputStream(to.getOutputStream());
            while (true) {
                int length = in.readInt();
                if (length < FRAME_LENGTH_BYTES || length > MAX_FRAME_BYTES) {
                    throw new IOException("frame length " + length + " outside [4, " + MAX_FRAME_BYTES + "]");
                }
                byte[] frame = new byte[length];
                in.readFully(frame);
                long nowNanos = System.nanoTime();
                observe(frame, isRequest, nowNanos);
                out.writeInt(length);
                out.write(frame);
                out.flush();
            }
        } catch (IOException closed) {
            // one side closed: the relay of this connection ends with it
        }
    }

    private void observe(byte[] frame, boolean isRequest, long nowNanos) {
        RemotingCommand command;
        try {
            command = RemotingCommand.decode(ByteBuffer.wrap(frame));
        } catch (RemotingCommandException e) {
            System.out.println("TAP undecodable frame of " + frame.length + " bytes: " + e.getMessage());
            return;
        }
        boolean isResponse = (command.getFlag() & RESPONSE_FLAG) != 0;
        if (isRequest && !isResponse) {
            String compressed = command.getExtFields() == null ? null : command.getExtFields().get("compressed");
            int bodyBytes = command.getBody() == null ? 0 : command.getBody().length;
            pending.put(command.getOpaque(), new Pending(command.getCode(), bodyBytes, compressed, nowNanos));
        } else if (!isRequest && isResponse) {
            Pending request = pending.remove(command.getOpaque());
            if (request != null) {
                System.out.printf(Locale.ROOT, "TAP {\"code\":%d,\"bodyBytes\":%d,\"compressed\":\"%s\","
                        + "\"roundTripMicros\":%d,\"responseCode\":%d}%n", request.code(), request.bodyBytes(),
                    request.compressed(), (nowNanos - request.sentNanos()) / 1_000, command.getCode());
            }
        }
    }

    private static void start(String name, Runnable task) {
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** A broker request seen, waiting for its response. */
    private record Pending(int code, int bodyBytes, String compressed, long sentNanos) {
    }
}
