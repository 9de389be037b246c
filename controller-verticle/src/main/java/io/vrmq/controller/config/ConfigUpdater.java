package io.vrmq.controller.config;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vrmq.controller.ControllerConfig;
import io.vrmq.controller.LiveSettings;
import io.vrmq.remoting.auth.ClientCredentials;
import io.vrmq.remoting.protocol.RemotingCommandException;
import io.vrmq.remoting.protocol.ResponseCode;
import io.vrmq.remoting.tls.AdminHttps;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * UPDATE_CONTROLLER_CONFIG (1009) and GET_CONTROLLER_CONFIG (1010) of one node. An update is refused as a whole with
 * NO_PERMISSION if it names a black-listed key (RocketMQ's rule; paths are always black-listed) or a key this
 * controller does not have, and with SYSTEM_ERROR if a value does not validate. Otherwise it is persisted to
 * {@code configStorePath}; the {@link LiveSettings#LIVE_KEYS} take effect at once, the others at the next start.
 * Call on the controller's event loop: updates are applied in arrival order, files written on a worker in that order.
 */
public final class ConfigUpdater {
    private static final Logger log = LoggerFactory.getLogger(ConfigUpdater.class);

    private final Vertx vertx;
    private final JsonObject startSettings;
    private final ControllerConfig config;
    private final LiveSettings live;
    private final PersistedSettings store;
    private final Properties persisted;

    /**
     * @param startSettings every setting as this node started with it (persisted updates included)
     * @param persisted     the persisted updates read at start
     */
    public ConfigUpdater(Vertx vertx, JsonObject startSettings, ControllerConfig config, LiveSettings live,
                         PersistedSettings store, Properties persisted) {
        this.vertx = vertx;
        this.startSettings = startSettings.copy();
        this.config = config;
        this.live = live;
        this.store = store;
        this.persisted = new Properties();
        this.persisted.putAll(persisted);
    }

    /** Every setting with its running value, sorted, as {@code key=value} lines. */
    public String currentText() {
        StringBuilder text = new StringBuilder();
        new TreeMap<>(live.overlay(startSettings).getMap()).forEach((key, value) -> {
            // Key passwords and the signing secret stay inside.
            if (!key.toLowerCase(java.util.Locale.ROOT).contains("password") && !key.equals(ClientCredentials.KEY)) {
                text.append(key).append('=').append(value).append('\n');
            }
        });
        return text.toString();
    }

    public Future<Void> update(Properties changes) {
        for (String key : changes.stringPropertyNames()) {
            // TLS settings name files and secrets, the credentials are a secret: never changeable over the network
            // (read at start only).
            if (config.configBlackList().contains(key) || key.startsWith("tls.") || key.equals(ClientCredentials.KEY)
                || key.equals(AdminHttps.ADMIN_TLS)) {
                return Future.failedFuture(new RemotingCommandException(ResponseCode.NO_PERMISSION,
                    "Can not update config in black list."));
            }
            if (!startSettings.containsKey(key)) {
                return Future.failedFuture(new RemotingCommandException(ResponseCode.NO_PERMISSION,
                    "Can not update config: " + key + " is not a controller setting"));
            }
        }
        Properties next = new Properties();
        next.putAll(persisted);
        changes.stringPropertyNames().forEach(key -> next.setProperty(key, changes.getProperty(key).trim()));
        ControllerConfig validated;
        try {
            validated = ControllerConfig.from(SettingValues.withPersisted(startSettings, next,
                config.configBlackList(), new java.util.ArrayList<>()));
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
                "Can not update config: " + e.getMessage()));
        }
        persisted.clear();
        persisted.putAll(next);
        Properties toWrite = new Properties();
        toWrite.putAll(next);
        return vertx.executeBlocking(() -> {
            store.write(toWrite);
            return null;
        }).<Void>map(written -> {
            live.apply(validated);
            log.info("controller settings updated and persisted to {}: {}", store.file(), describe(changes));
            return null;
        }).recover(error -> Future.failedFuture(new RemotingCommandException(ResponseCode.SYSTEM_ERROR,
            "Can not persist config to " + store.file() + ": " + error.getMessage())));
    }

    private static Map<String, String> describe(Properties changes) {
        Map<String, String> sorted = new TreeMap<>();
        changes.stringPropertyNames().forEach(key -> sorted.put(key, changes.getProperty(key)));
        return sorted;
    }
}
