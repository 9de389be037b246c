package io.vrmq.load;

import io.vrmq.loadcommon.Json;

import java.util.Locale;

/**
 * What one measured phase of {@link RouteQueryLoad} produced; printed as one JSON line that the benchmark script
 * parses.
 *
 * @param requests successful responses (code 0)
 * @param errors   failed requests: a response code other than 0, a timeout, a send or connection failure
 */
record LoadResult(String label, String namesrvAddr, int concurrency, long requests, long errors, long elapsedNanos,
                  long p50Micros, long p99Micros, long p999Micros, String firstError) {

    double requestsPerSecond() {
        return elapsedNanos == 0 ? 0 : requests * 1e9 / elapsedNanos;
    }

    String toJson() {
        return String.format(Locale.ROOT, "{\"label\":%s,\"namesrv\":%s,\"concurrency\":%d,\"requests\":%d,"
                + "\"errors\":%d,\"seconds\":%.3f,\"requestsPerSecond\":%.1f,\"p50Micros\":%d,\"p99Micros\":%d,"
                + "\"p999Micros\":%d,\"firstError\":%s}",
            Json.quote(label), Json.quote(namesrvAddr), concurrency, requests, errors, elapsedNanos / 1e9,
            requestsPerSecond(), p50Micros, p99Micros, p999Micros, Json.quote(firstError));
    }
}
