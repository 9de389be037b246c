#!/usr/bin/env bash
# NameServer benchmark: GET_ROUTEINFO_BY_TOPIC (105) requests per second against Apache RocketMQ's NameServer and
# ours, in the same run, with the same client (benchmark/load RouteQueryBench on the official 5.5.0 remoting
# client), on the same machine. Each server in turn: start it on a free loopback port, register one broker with one
# topic through REGISTER_BROKER (so both hold the same route), warm up, measure, stop it. Prints a side-by-side table
# with the ratio ours/apache. On a small shared machine read the ratio, not the absolute numbers: the load client
# runs on the same cores as the server. Apache's NameServer starts as scripts/lib/rocketmq-servers.sh starts it (ours
# here with its admin port on, a free one).
#
# Usage: scripts/bench-namesrv.sh
#   env DURATION_SECONDS (20)  WARMUP_SECONDS (5)  CONCURRENCY (64)  ROUNDS (1: apache then vrmq; 2: twice)
#       SERVER_HEAP (256m, the same for both)  SKIP_BUILD=1 (reuse built jars)  VRMQ_NAMESRV_JAR (our jar's path)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-namesrv
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
DURATION_SECONDS="${DURATION_SECONDS:-20}"
WARMUP_SECONDS="${WARMUP_SECONDS:-5}"
CONCURRENCY="${CONCURRENCY:-64}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-256m}"
VRMQ_NAMESRV_JAR="${VRMQ_NAMESRV_JAR:-$ROOT/nameserver-verticle/target/vrmq-namesrv.jar}"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
BOOT_TIMEOUT_SECONDS=60
STOP_TIMEOUT_SECONDS=30
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-namesrv.XXXXXX)"
APACHE_JVM=same
# The one server of each run is the library's NameServer (NAMESRV_PID, stopped by stop_servers and on exit).

# The load tool, and our NameServer only when VRMQ_NAMESRV_JAR is missing (it may name another build of ours); Apache's
# NameServer runs from the official Maven artifacts (compat-tests' test classpath).
build() {
    local modules=benchmark/load
    [[ -f "$VRMQ_NAMESRV_JAR" ]] || modules="$modules,nameserver-verticle"
    build_jars "$modules" "$VRMQ_NAMESRV_JAR" "$LOAD_JAR"
}

start_apache() {
    local port="$1" dir="$WORK/apache-$1"
    mkdir -p "$dir"
    start_apache_namesrv "$port" "$dir"
    await_namesrv "$dir/namesrv.log"
}

start_vrmq() {
    local port="$1" dir="$WORK/vrmq-$1"
    mkdir -p "$dir"
    cat > "$dir/namesrv.json" <<JSON
{"listenPort": $port, "bindAddress": "127.0.0.1", "adminPort": 0, "adminHost": "127.0.0.1",
 "kvConfigPath": "$dir/kv.json"}
JSON
    java "-Xmx$SERVER_HEAP" -jar "$VRMQ_NAMESRV_JAR" -conf "$dir/namesrv.json" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
    await_namesrv "$dir/namesrv.log"
}

# Runs the load against one server; appends its RESULT json line to $WORK/results.
bench() {
    local label="$1" port
    port="$(free_port)"
    log "starting $label NameServer on 127.0.0.1:$port"
    "start_$label" "$port"
    java -Xmx256m -Drocketmq.log.root="$WORK/client-logs" -jar "$LOAD_JAR" \
        --namesrv "127.0.0.1:$port" --register bench-broker --topic BenchTopic --concurrency "$CONCURRENCY" \
        --warmup-seconds "$WARMUP_SECONDS" --duration-seconds "$DURATION_SECONDS" --label "$label" \
        | tee "$WORK/$label-$port.out"
    grep '^RESULT ' "$WORK/$label-$port.out" | sed 's/^RESULT //' >> "$WORK/results"
    stop_servers
}

report() {
    echo
    echo "GET_ROUTEINFO_BY_TOPIC, concurrency $CONCURRENCY, warm-up ${WARMUP_SECONDS}s, measured ${DURATION_SECONDS}s," \
        "$(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    printf '%-8s %12s %10s %10s %10s %8s\n' server 'req/s' 'p50 µs' 'p99 µs' 'p99.9 µs' errors
    local line
    while read -r line; do
        printf '%-8s %12s %10s %10s %10s %8s\n' "$(field "$line" label)" "$(field "$line" requestsPerSecond)" \
            "$(field "$line" p50Micros)" "$(field "$line" p99Micros)" "$(field "$line" p999Micros)" \
            "$(field "$line" errors)"
    done < "$WORK/results"
    awk -F'"requestsPerSecond":' '
        /"label":"apache"/ { split($2, v, ","); apache += v[1]; apacheRuns++ }
        /"label":"vrmq"/   { split($2, v, ","); vrmq += v[1]; vrmqRuns++ }
        END { if (apacheRuns && vrmqRuns) printf "ratio ours/apache (mean req/s): %.2f\n", (vrmq / vrmqRuns) / (apache / apacheRuns) }
    ' "$WORK/results"
    echo "(work dir with server logs: $WORK)"
}

build
for _ in $(seq 1 "$ROUNDS"); do
    bench apache
    bench vrmq
done
report
