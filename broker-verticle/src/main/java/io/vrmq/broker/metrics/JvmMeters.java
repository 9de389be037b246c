package io.vrmq.broker.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * Micrometer's JVM and process meters bound to the broker's registry: memory pools and buffers ({@code jvm_memory_*},
 * {@code jvm_buffer_*}, which include the mapped CommitLog segments), GC pauses, threads, classes, CPU and uptime.
 * Owned by the broker verticle; {@link #close} detaches the GC listener.
 */
public final class JvmMeters implements AutoCloseable {
    private final JvmGcMetrics gcMetrics;

    private JvmMeters(JvmGcMetrics gcMetrics) {
        this.gcMetrics = gcMetrics;
    }

    public static JvmMeters bindTo(MeterRegistry registry) {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics gcMetrics = new JvmGcMetrics();
        gcMetrics.bindTo(registry);
        return new JvmMeters(gcMetrics);
    }

    @Override
    public void close() {
        gcMetrics.close();
    }
}
