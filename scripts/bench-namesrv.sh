#!/usr/bin/env bash
# NameServer benchmark: GET_ROUTEINFO_BY_TOPIC (105) requests per second against Apache RocketMQ's NameServer and
# ours, in the same run, with the same client (benchmark/load RouteQueryBench on the official 5.5.0 remoting
# client), on the same machine. Each server in turn: start it on a free loopback port, register one broker with one
# topic through REGISTER_BROKER (so both hold the same route), warm up, measure, stop it. Prints a side-by-side table
# with the ratio ours/apache. On a small shared machine read the ratio, not the absolute numbers: the load client
# runs on the same cores as the server.
#
# Usage: scripts/bench-namesrv.sh
#   env DURATION_SECONDS (20)  WARMUP_SECONDS (5)  CONCURRENCY (64)  ROUNDS (1: apache then vrmq; 2: twice)
#       SERVER_HEAP (256m, the same for both)  SKIP_BUILD=1 (reuse built jars)  VRMQ_NAMESRV_JAR (our jar's path)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DURATION_SECONDS="${DURATION_SECONDS:-20}"
WARMUP_SECONDS="${WARMUP_SECONDS:-5}"
CONCURRENCY="${CONCURRENCY:-64}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-256m}"
VRMQ_NAMESRV_JAR="${VRMQ_NAMESRV_JAR:-$ROOT/nameserver-verticle/target/vrmq-namesrv.jar}"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
BOOT_TIMEOUT_SECONDS=60
STOP_TIMEOUT_SECONDS=30
WORK="$(mktemp -d -t bench-namesrv.XXXXXX)"
SERVER_PID=""

log() { echo "[bench-namesrv] $*" >&2; }

stop_server() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID"
        for _ in $(seq 1 $((STOP_TIMEOUT_SECONDS * 10))); do
            kill -0 "$SERVER_PID" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID"
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    SERVER_PID=""
}
trap stop_server EXIT

build() {
    if [[ "${SKIP_BUILD:-0}" == 1 ]]; then
        log "SKIP_BUILD=1: using the jars already built"
    else
        log "building the load tool and the Apache classpath"
        (cd "$ROOT" && mvn -B -q -f benchmark/load/pom.xml -DskipTests package > /dev/null)
        if [[ ! -f "$VRMQ_NAMESRV_JAR" ]]; then
            log "building our NameServer"
            (cd "$ROOT" && mvn -B -q -pl nameserver-verticle -am -DskipTests package)
        fi
    fi
    # Apache's NameServer runs from the official Maven artifacts: the compat-tests test classpath has them.
    (cd "$ROOT" && mvn -B -q -f compat-tests/pom.xml dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$WORK/apache.classpath" > /dev/null)
    [[ -f "$VRMQ_NAMESRV_JAR" ]] || { log "missing $VRMQ_NAMESRV_JAR"; exit 1; }
    [[ -f "$LOAD_JAR" ]] || { log "missing $LOAD_JAR"; exit 1; }
}

free_port() {
    local port
    for _ in $(seq 1 100); do
        port=$((20000 + RANDOM % 30000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
    log "no free port found"
    exit 1
}

await_boot() {
    local log_file="$1"
    for _ in $(seq 1 $((BOOT_TIMEOUT_SECONDS * 10))); do
        grep -q "The Name Server boot success" "$log_file" 2>/dev/null && return
        kill -0 "$SERVER_PID" 2>/dev/null || { log "server exited:"; tail -30 "$log_file" >&2; exit 1; }
        sleep 0.1
    done
    log "no boot line within ${BOOT_TIMEOUT_SECONDS}s:"; tail -30 "$log_file" >&2; exit 1
}

start_apache() {
    local port="$1" dir="$WORK/apache-$1"
    mkdir -p "$dir"
    printf 'listenPort=%s\nbindAddress=127.0.0.1\nkvConfigPath=%s/kv.json\nconfigStorePath=%s/namesrv.properties\n' \
        "$port" "$dir" "$dir" > "$dir/namesrv.conf"
    # Logs at WARN to stdout (the compat tests' logback file), not INFO to ~/logs: both servers log what they must.
    java "-Xmx$SERVER_HEAP" -Duser.home="$dir" -Drocketmq.home.dir="$dir" \
        -Drmq.logback.configurationFile="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml" \
        -Drocketmq.compat.log.level=WARN \
        -cp "$(cat "$WORK/apache.classpath")" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.conf" \
        > "$dir/server.log" 2>&1 &
    SERVER_PID=$!
    await_boot "$dir/server.log"
}

start_vrmq() {
    local port="$1" dir="$WORK/vrmq-$1"
    mkdir -p "$dir"
    cat > "$dir/namesrv.json" <<JSON
{"listenPort": $port, "bindAddress": "127.0.0.1", "adminPort": 0, "adminHost": "127.0.0.1",
 "kvConfigPath": "$dir/kv.json"}
JSON
    java "-Xmx$SERVER_HEAP" -jar "$VRMQ_NAMESRV_JAR" -conf "$dir/namesrv.json" > "$dir/server.log" 2>&1 &
    SERVER_PID=$!
    await_boot "$dir/server.log"
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
    stop_server
}

field() { sed -E "s/.*\"$2\":\"?([^,\"}]*).*/\1/" <<< "$1"; }

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
