package io.vrmq.compat.support;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;

import org.apache.rocketmq.remoting.protocol.RemotingCommand;

/**
 * A plain {@code java.net.Socket} to a server on loopback, for bytes no well-behaved client would send and for frames
 * encoded by the official {@code RemotingCommand} but written and read by hand. Blocking, with every read bounded by
 * a socket timeout. Test thread only.
 */
public final class RawConnection implements AutoCloseable {

    private static final int CONNECT_TIMEOUT_MS = 5_000;
    private static final int FRAME_LENGTH_BYTES = 4;

    private final Socket socket;

    private RawConnection(Socket socket) {
        this.socket = socket;
    }

    public static RawConnection open(int port, Duration readTimeout) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MS);
        socket.setSoTimeout(Math.toIntExact(readTimeout.toMillis()));
        socket.setTcpNoDelay(true);
        return new RawConnection(socket);
    }

    public void write(byte[] bytes) throws IOException {
        socket.getOutputStream().write(bytes);
        socket.getOutputStream().flush();
    }

    /** Writes the frame the official encoder makes of {@code command} (length field included). */
    public void write(RemotingCommand command) throws IOException {
        ByteBuffer frame = command.encode();
        byte[] bytes = new byte[frame.remaining()];
        frame.get(bytes);
        write(bytes);
    }

    /** Half-closes: the server reads end-of-stream, while this side can still read what it sends back. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Reads one whole frame and decodes it with the official decoder; fails on end-of-stream or timeout. */
    public RemotingCommand readCommand() throws Exception {
        return RemotingCommand.decode(ByteBuffer.wrap(readFrame()));
    }

    /** Reads one whole frame: the bytes after its length field, starting with the serialize-type byte. */
    public byte[] readFrame() throws IOException {
        InputStream in = socket.getInputStream();
        byte[] lengthField = in.readNBytes(FRAME_LENGTH_BYTES);
        if (lengthField.length != FRAME_LENGTH_BYTES) {
            throw new IOException("stream ended before a frame (" + lengthField.length + " bytes)");
        }
        int frameLength = ByteBuffer.wrap(lengthField).getInt();
        byte[] frame = in.readNBytes(frameLength);
        if (frame.length != frameLength) {
            throw new IOException("stream ended inside a frame: " + frame.length + " of " + frameLength + " bytes");
        }
        return frame;
    }

    /**
     * Whether the server closed this connection: a read sees end-of-stream or a reset before the socket timeout.
     * Anything the server sends first is read and dropped; a timeout means the connection is still open.
     */
    public boolean isClosedByServer() throws IOException {
        InputStream in = socket.getInputStream();
        byte[] discard = new byte[4096];
        try {
            while (true) {
                if (in.read(discard) < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true;    // "Connection reset": the server closed with unread input or sent RST
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
