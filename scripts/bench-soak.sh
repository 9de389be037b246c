#!/usr/bin/env bash
# Soak: our NameServer + Broker (the built jars, one JVM each) under RATE msgs/s of async sends from the official
# 5.5.0 client with a push consumer receiving them, for MINUTES minutes (benchmark/load SoakBench). Prints a table
# with one row per minute (send and end-to-end percentiles of that minute, the broker's resident and anonymous
# memory, its CPU time) and the totals: acknowledged, delivered, lost (SEND_OK, never delivered), duplicated. The
# broker logs each GC to its work dir; the pauses per minute are counted from it. Ports, the log line and stopping
# the servers come from scripts/lib/rocketmq-servers.sh.
#
# Usage: scripts/bench-soak.sh
#   env MINUTES (30)  RATE (2000)  SIZE (1024)  QUEUES (8)  FLUSH (ASYNC_FLUSH | SYNC_FLUSH)  SERVER_HEAP (512m)
#       SKIP_BUILD=1 (reuse built jars)  KEEP=1 (keep the work dir with the logs)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-soak
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
MINUTES="${MINUTES:-30}"
RATE="${RATE:-2000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
WORK="$(mktemp -d /tmp/vrmq-soak.XXXXXX)"
STOP_TIMEOUT_SECONDS=10

# The library's cleanup stops the NameServer and the broker (NAMESRV_PID, BROKER_PID); then the work dir goes.
remove_work() { if [[ "${KEEP:-0}" == 1 ]]; then log "work dir kept: $WORK"; else rm -rf "$WORK"; fi; }
trap 'cleanup; remove_work' EXIT

main() {
    if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
        log "building our NameServer and Broker and the load tool (mvn package, tests skipped)"
        (cd "$ROOT" && mvn -B -q -pl nameserver-verticle,broker-verticle,benchmark/load -am -DskipTests package)
    fi
    local namesrv_port broker_port
    namesrv_port="$(free_port)"
    cat > "$WORK/namesrv.json" <<JSON
{"listenPort": $namesrv_port, "bindAddress": "127.0.0.1", "adminPort": -1, "kvConfigPath": "$WORK/kv.json"}
JSON
    java "-Xmx$SERVER_HEAP" -jar "$NAMESRV_JAR" -conf "$WORK/namesrv.json" > "$WORK/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
    broker_port="$(free_port)"
    cat > "$WORK/broker.json" <<JSON
{"brokerClusterName": "SoakCluster", "brokerName": "soak-broker", "listenPort": $broker_port,
 "namesrvAddr": "127.0.0.1:$namesrv_port", "brokerIP1": "127.0.0.1", "flushDiskType": "$FLUSH",
 "storePathRootDir": "$WORK/store", "adminPort": -1, "grpcListenPort": -1}
JSON
    java "-Xmx$SERVER_HEAP" "-Xlog:gc:file=$WORK/gc.log:uptime" -jar "$BROKER_JAR" -conf "$WORK/broker.json" \
        > "$WORK/broker.log" 2>&1 &
    BROKER_PID=$!
    java -Xmx128m -cp "$LOAD_JAR" io.vrmq.load.AwaitRoute --namesrv "127.0.0.1:$namesrv_port" \
        --broker-addr "127.0.0.1:$broker_port" --topic TBW102 --timeout-seconds 60 --pid "$BROKER_PID" > /dev/null \
        || { log "broker not routed; log tail:"; tail -20 "$WORK/broker.log" >&2; exit 1; }
    log "soak: $RATE msgs/s of $SIZE B for $MINUTES min, $FLUSH, broker pid $BROKER_PID (load average" \
        "$(cut -d' ' -f1-3 /proc/loadavg))"
    java -Xmx512m -cp "$LOAD_JAR" io.vrmq.load.SoakBench --namesrv "127.0.0.1:$namesrv_port" --rate "$RATE" \
        --minutes "$MINUTES" --size "$SIZE" --queues "$QUEUES" --watch-pid "$BROKER_PID" --label "vrmq" \
        2> "$WORK/soak.err" | tee "$WORK/soak.out" | grep --line-buffered -E '^(MINUTE|RESULT|\[)' >&2
    report
}

# The MINUTE lines as a table, with the GC pauses of each minute of the broker's uptime from its GC log ("[12.345s]"
# stamps; the broker started a few seconds before the soak, close enough for a count per minute).
report() {
    echo
    echo "| minute | sent | failed | send p50 ms | send p99 | send p999 | received | e2e p50 ms | e2e p99 | e2e p999 | broker RSS MiB | anon MiB | CPU ms | GC pauses |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    awk -v gc="$WORK/gc.log" '
        BEGIN {
            while ((getline line < gc) > 0) {
                if (line ~ /Pause/ && match(line, /^\[[0-9.]+s\]/)) {
                    pauses[int(substr(line, 2, RLENGTH - 3) / 60)]++
                }
            }
        }
        /^MINUTE / {
            for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
            printf "| %d | %d | %d | %s | %s | %s | %d | %s | %s | %s | %s | %s | %s | %d |\n", $2, v["sent"],
                v["failed"], v["sendP50ms"], v["sendP99ms"], v["sendP999ms"], v["received"], v["e2eP50ms"],
                v["e2eP99ms"], v["e2eP999ms"], v["brokerRssMiB"], v["brokerAnonMiB"], v["brokerCpuMs"],
                pauses[$2 - 1] + 0
        }' "$WORK/soak.out"
    echo
    grep '^RESULT ' "$WORK/soak.out" | sed 's/^RESULT /totals: /'
}

main "$@"
