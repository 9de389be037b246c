package io.vrmq.broker.ha;

import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vrmq.remoting.tls.ClientTls;
import io.vrmq.remoting.tls.TlsSettings;

import java.util.Locale;

/**
 * Whether a slave's link to its master's HA port uses TLS (beyond Apache: its HA links are always plain).
 * {@code haClientTls}: {@code auto} (the default) follows the rule of every outgoing connection of the broker
 * ({@code tls.enable}, or its own {@code tls.server.mode} is enforcing); {@code true} and {@code false} decide alone,
 * e.g. {@code false} to follow an Apache master while the broker's other links use TLS. The master's side follows
 * {@code tls.server.mode} on the HA port as on the remoting ports. Immutable.
 */
public record HaLinkTls(TlsSettings settings, boolean isTls) {
    public static final String HA_CLIENT_TLS = "haClientTls";

    /** From the broker's raw config and its TLS settings. */
    public static HaLinkTls from(JsonObject config, TlsSettings settings) {
        String value = String.valueOf(config.getValue(HA_CLIENT_TLS, "auto")).trim().toLowerCase(Locale.ROOT);
        boolean isTls = switch (value) {
            case "auto", "" -> settings.isOutgoingTls();
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("invalid " + HA_CLIENT_TLS + " (auto, true or false): "
                + value);
        };
        return new HaLinkTls(settings, isTls);
    }

    /** Plain links (tests, and brokers without TLS settings). */
    public static HaLinkTls plain() {
        return new HaLinkTls(TlsSettings.defaults(), false);
    }

    /** Fresh options for a slave's HA client. */
    public NetClientOptions clientOptions() {
        NetClientOptions options = new NetClientOptions().setConnectTimeout(3_000).setTcpNoDelay(true);
        if (!isTls) {
            return options;
        }
        return ClientTls.enable(settings, options);
    }
}
