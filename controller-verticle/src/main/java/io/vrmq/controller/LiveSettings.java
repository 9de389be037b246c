package io.vrmq.controller;

import io.vertx.core.json.JsonObject;

import java.util.Set;
import java.util.function.Consumer;

/**
 * The controller settings that UPDATE_CONTROLLER_CONFIG (1009) changes on a running node at once. Every other
 * accepted key is persisted and takes effect at the next start. Thread-safe: volatile fields, written by the config
 * processor, read by the election and scan code on the controller's event loop.
 */
public final class LiveSettings {
    public static final Set<String> LIVE_KEYS = Set.of("scanNotActiveBrokerInterval", "scanInactiveMasterInterval",
        "electMasterMaxRetryCount", "enableElectUncleanMaster", "notifyBrokerRoleChanged");

    private volatile long scanNotActiveBrokerIntervalMs;
    private volatile long scanInactiveMasterIntervalMs;
    private volatile int electMasterMaxRetryCount;
    private volatile boolean enableElectUncleanMaster;
    private volatile boolean notifyBrokerRoleChanged;
    private volatile Consumer<LiveSettings> intervalListener = settings -> {
    };

    public LiveSettings(ControllerConfig config) {
        this.scanNotActiveBrokerIntervalMs = config.scanNotActiveBrokerIntervalMs();
        this.scanInactiveMasterIntervalMs = config.scanInactiveMasterIntervalMs();
        this.electMasterMaxRetryCount = config.electMasterMaxRetryCount();
        this.enableElectUncleanMaster = config.enableElectUncleanMaster();
        this.notifyBrokerRoleChanged = config.notifyBrokerRoleChanged();
    }

    public long scanNotActiveBrokerIntervalMs() {
        return scanNotActiveBrokerIntervalMs;
    }

    public long scanInactiveMasterIntervalMs() {
        return scanInactiveMasterIntervalMs;
    }

    public int electMasterMaxRetryCount() {
        return electMasterMaxRetryCount;
    }

    public boolean enableElectUncleanMaster() {
        return enableElectUncleanMaster;
    }

    public boolean notifyBrokerRoleChanged() {
        return notifyBrokerRoleChanged;
    }

    /** Told when a scan interval changed, so that the timers can be re-armed. */
    public void onIntervalChange(Consumer<LiveSettings> listener) {
        this.intervalListener = listener;
    }

    /** Takes the live keys' values from an already validated config. */
    public void apply(ControllerConfig validated) {
        boolean isIntervalChanged = validated.scanNotActiveBrokerIntervalMs() != scanNotActiveBrokerIntervalMs
            || validated.scanInactiveMasterIntervalMs() != scanInactiveMasterIntervalMs;
        scanNotActiveBrokerIntervalMs = validated.scanNotActiveBrokerIntervalMs();
        scanInactiveMasterIntervalMs = validated.scanInactiveMasterIntervalMs();
        electMasterMaxRetryCount = validated.electMasterMaxRetryCount();
        enableElectUncleanMaster = validated.enableElectUncleanMaster();
        notifyBrokerRoleChanged = validated.notifyBrokerRoleChanged();
        if (isIntervalChanged) {
            intervalListener.accept(this);
        }
    }

    /** The running values of the live keys over {@code settings}. */
    public JsonObject overlay(JsonObject settings) {
        return settings.copy()
            .put("scanNotActiveBrokerInterval", scanNotActiveBrokerIntervalMs)
            .put("scanInactiveMasterInterval", scanInactiveMasterIntervalMs)
            .put("electMasterMaxRetryCount", electMasterMaxRetryCount)
            .put("enableElectUncleanMaster", enableElectUncleanMaster)
            .put("notifyBrokerRoleChanged", notifyBrokerRoleChanged);
    }
}
