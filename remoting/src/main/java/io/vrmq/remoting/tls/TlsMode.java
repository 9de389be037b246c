package io.vrmq.remoting.tls;

import java.util.Locale;

/**
 * Apache RocketMQ's {@code tls.server.mode}: what a server does with TLS, decided per connection from its first
 * byte (0x16 starts a TLS handshake, a remoting frame never does in practice: its first byte is the top of a length).
 */
public enum TlsMode {
    /** Plain only; a TLS client's handshake is taken for a frame of absurd length and its connection closed. */
    DISABLED,
    /** Plain and TLS on the same port (Apache's default). */
    PERMISSIVE,
    /** TLS only; a plain connection is closed without an answer. */
    ENFORCING;

    /** @throws IllegalArgumentException naming the setting when {@code value} is none of the three */
    public static TlsMode parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("invalid tls.server.mode (disabled, permissive or enforcing): "
                + value);
        }
    }
}
