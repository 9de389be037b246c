#!/usr/bin/env bash
# Start time: from `scripts/start.sh` (NameServer + Broker in one JVM, the README's first command) to the first
# GET_ROUTEINFO_BY_TOPIC that routes TBW102 to the broker, asked every 50 ms by the official 5.5.0 client
# (benchmark/load AwaitRoute, started and polling before the server starts, so that its own JVM start is not
# counted). Each round starts it twice on a fresh store: once without the class-data archive (VRMQ_CDS=0) and once
# with it (scripts/lib/class-data.sh; recorded by a first, unmeasured start after the build), alternating which
# goes first. Prints one line per start (with the server's CPU time until it was routed, user + system, the less
# noisy figure on a shared machine) and the medians.
#
# Usage: scripts/bench-start.sh
#   env ROUNDS (5)  SKIP_BUILD=1 (reuse built jars)  QUIET_WAIT_SECONDS (0: before each start, wait up to this
#       long for other Maven builds to finish)  JAVA_OPTS (unset: scripts/start.sh's own defaults; set: these JVM
#       flags instead, e.g. to compare a flag)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-start
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
ROUNDS="${ROUNDS:-5}"
QUIET_WAIT_SECONDS="${QUIET_WAIT_SECONDS:-0}"
STANDALONE_JAR="$ROOT/standalone/target/vrmq-standalone.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
WORK="$(mktemp -d /tmp/vrmq-bench-start.XXXXXX)"
STOP_TIMEOUT_SECONDS=10
ADMIN_PORT_OFFSET=69
SERVER_PID=""

# The one server process of this script (scripts/start.sh) is its own, not the library's pair.
trap 'stop_pid "$SERVER_PID"; rm -rf "$WORK"' EXIT

# start_once <cds 0|1> <label>: prints "<label> <ms>" on stdout.
start_once() {
    local cds="$1" label="$2" namesrv_port broker_port dir="$WORK/$2"
    await_quiet
    rm -rf "$dir" && mkdir -p "$dir"
    # Each port p with p+ADMIN_PORT_OFFSET free too: its admin port here.
    namesrv_port="$(free_port "$ADMIN_PORT_OFFSET")"
    broker_port="$(free_port "$ADMIN_PORT_OFFSET")"
    printf '{"listenPort": %d, "adminPort": %d, "kvConfigPath": "%s/kvConfig.json"}\n' \
        "$namesrv_port" $((namesrv_port + ADMIN_PORT_OFFSET)) "$dir" > "$dir/namesrv.json"
    printf '{"listenPort": %d, "adminPort": %d, "namesrvAddr": "127.0.0.1:%d", "brokerIP1": "127.0.0.1", "storePathRootDir": "%s/store", "grpcListenPort": -1}\n' \
        "$broker_port" $((broker_port + ADMIN_PORT_OFFSET)) "$namesrv_port" "$dir" > "$dir/broker.json"
    # The client starts first and polls (its own JVM start is not the server's); the server once it polls.
    java -Xmx128m -cp "$LOAD_JAR" io.vrmq.load.AwaitRoute --namesrv "127.0.0.1:$namesrv_port" \
        --broker-addr "127.0.0.1:$broker_port" --topic TBW102 --timeout-seconds 90 > "$dir/ready.out" 2>&1 &
    local await_pid=$!
    until grep -q '^WAITING ' "$dir/ready.out" 2>/dev/null; do
        kill -0 "$await_pid" 2>/dev/null || { log "AwaitRoute ended:"; cat "$dir/ready.out" >&2; exit 1; }
        sleep 0.05
    done
    sleep 0.5
    local start_ms
    start_ms="$(date +%s%3N)"
    VRMQ_CDS="$cds" "$ROOT/scripts/start.sh" \
        -namesrv-conf "$dir/namesrv.json" -broker-conf "$dir/broker.json" > "$dir/server.log" 2>&1 &
    SERVER_PID=$!
    wait "$await_pid" || { log "$label: not routed; log tail:"; tail -20 "$dir/server.log" >&2; exit 1; }
    local ready_ms=$(( $(sed -n 's/^READY //p' "$dir/ready.out") - start_ms )) cpu_ms
    cpu_ms="$(awk -v hz="$(getconf CLK_TCK)" '{ print int(($14 + $15) * 1000 / hz) }' "/proc/$SERVER_PID/stat")"
    stop_pid "$SERVER_PID"
    SERVER_PID=""
    log "$label: routed after $ready_ms ms, server CPU $cpu_ms ms (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    echo "$label $ready_ms $cpu_ms"
}

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

main() {
    if [[ "${SKIP_BUILD:-0}" != "1" ]]; then
        log "building the standalone jar and the load tool (mvn package, tests skipped)"
        (cd "$ROOT" && mvn -B -q -pl standalone,benchmark/load -am -DskipTests package)
    fi
    log "recording the class-data archive (one unmeasured start)"
    rm -f "${STANDALONE_JAR%.jar}".*jsa
    start_once 1 record > /dev/null
    local results="$WORK/results" round
    for round in $(seq 1 "$ROUNDS"); do
        if (( round % 2 )); then
            start_once 0 "plain" >> "$results"
            start_once 1 "archive" >> "$results"
        else
            start_once 1 "archive" >> "$results"
            start_once 0 "plain" >> "$results"
        fi
    done
    local plain archive plain_cpu archive_cpu
    plain="$(awk '$1 == "plain" { print $2 }' "$results" | median)"
    archive="$(awk '$1 == "archive" { print $2 }' "$results" | median)"
    plain_cpu="$(awk '$1 == "plain" { print $3 }' "$results" | median)"
    archive_cpu="$(awk '$1 == "archive" { print $3 }' "$results" | median)"
    echo "start to routed, median of $ROUNDS: without the archive $plain ms, with it $archive ms" \
        "(ratio $(awk -v a="$archive" -v p="$plain" 'BEGIN { printf "%.2f", a / p }')); server CPU until routed:" \
        "$plain_cpu ms without, $archive_cpu ms with${JAVA_OPTS:+ (JAVA_OPTS $JAVA_OPTS)}"
}

main "$@"
