package io.vrmq.namesrv;

import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * The NameServer settings that UPDATE_NAMESRV_CONFIG (318) may change on a running server, and the view of every
 * setting that GET_NAMESRV_CONFIG (319) answers. The rest (ports, addresses, paths, wire limits) are fixed at start,
 * as RocketMQ keeps kvConfigPath and friends on its config black list. Thread-safe: volatile fields, written by the
 * processor on an event loop, read by every request.
 */
public final class LiveSettings {
    static final Set<String> CHANGEABLE = Set.of("scanNotActiveBrokerInterval", "brokerChannelExpiredTime",
        "orderMessageEnable", "supportActingMaster");

    private final JsonObject startConfig;
    private volatile long scanNotActiveBrokerIntervalMs;
    private volatile long brokerChannelExpiredTimeMs;
    private volatile boolean orderMessageEnable;
    private volatile boolean supportActingMaster;
    private volatile int boundListenPort;
    private volatile LongConsumer scanIntervalListener = intervalMs -> {
    };

    public LiveSettings(JsonObject startConfig, NameServerConfig config) {
        this.startConfig = startConfig.copy();
        this.scanNotActiveBrokerIntervalMs = config.scanNotActiveBrokerIntervalMs();
        this.brokerChannelExpiredTimeMs = config.brokerChannelExpiredTimeMs();
        this.orderMessageEnable = config.orderMessageEnable();
        this.supportActingMaster = config.supportActingMaster();
        this.boundListenPort = config.listenPort();
    }

    public long scanNotActiveBrokerIntervalMs() {
        return scanNotActiveBrokerIntervalMs;
    }

    public long brokerChannelExpiredTimeMs() {
        return brokerChannelExpiredTimeMs;
    }

    public boolean orderMessageEnable() {
        return orderMessageEnable;
    }

    public boolean supportActingMaster() {
        return supportActingMaster;
    }

    void boundListenPort(int port) {
        this.boundListenPort = port;
    }

    /** Told the new interval when it changes, so the scan timer can be re-armed. */
    void onScanIntervalChange(LongConsumer listener) {
        this.scanIntervalListener = listener;
    }

    /**
     * Applies every change or none: returns null when applied, else the reason naming the first key refused.
     */
    public String apply(Properties changes) {
        for (String key : changes.stringPropertyNames()) {
            if (!startConfig.containsKey(key)) {
                return key + " is not a NameServer setting";
            }
            if (!CHANGEABLE.contains(key)) {
                return key + " cannot be changed at runtime: set it in the config file and restart";
            }
        }
        long scanMs = positiveLong(changes, "scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs);
        long expiredMs = positiveLong(changes, "brokerChannelExpiredTime", brokerChannelExpiredTimeMs);
        if (scanMs <= 0 || expiredMs <= 0) {
            return "scanNotActiveBrokerInterval and brokerChannelExpiredTime must be positive numbers of ms";
        }
        boolean isScanChanged = scanMs != scanNotActiveBrokerIntervalMs;
        scanNotActiveBrokerIntervalMs = scanMs;
        brokerChannelExpiredTimeMs = expiredMs;
        orderMessageEnable = bool(changes, "orderMessageEnable", orderMessageEnable);
        supportActingMaster = bool(changes, "supportActingMaster", supportActingMaster);
        if (isScanChanged) {
            scanIntervalListener.accept(scanMs);
        }
        return null;
    }

    /** Every setting with its current value, sorted by key. */
    public Map<String, Object> current() {
        Map<String, Object> values = new TreeMap<>(startConfig.getMap());
        values.put("listenPort", boundListenPort);
        values.put("scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs);
        values.put("brokerChannelExpiredTime", brokerChannelExpiredTimeMs);
        values.put("orderMessageEnable", orderMessageEnable);
        values.put("supportActingMaster", supportActingMaster);
        values.keySet().removeIf(LiveSettings::isSecret);   // secrets never leave the process
        return values;
    }

    /** Key passwords (tls.*.keyPassword) and the users' JSON with their secrets. */
    private static boolean isSecret(String key) {
        String lower = key.toLowerCase(java.util.Locale.ROOT);
        return lower.contains("password") || lower.contains("credentials") || key.equals("initAuthenticationUser");
    }

    private static long positiveLong(Properties changes, String key, long current) {
        String value = changes.getProperty(key);
        if (value == null) {
            return current;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static boolean bool(Properties changes, String key, boolean current) {
        String value = changes.getProperty(key);
        return value == null ? current : Boolean.parseBoolean(value.trim());
    }
}
