#!/usr/bin/env bash
# POP benchmark: the official RocketMQ 5.5.0 client consuming by POP from Apache RocketMQ 5.5.0 (NameServer + Broker
# from the Maven artifacts) and from ours (vrmq-namesrv.jar + vrmq-broker.jar), in the same run, on the same machine,
# with the same flush setting and the same load tool (benchmark/load PopLoadBench, 1 KiB messages). One server pair at
# a time: start its NameServer and broker, wait until TBW102 is routed to the broker, then two phases, each a fresh
# load-tool JVM on a new topic with QUEUES queues and a COUNT-message backlog sent first:
#   push    the push consumer in POP mode (SET_MESSAGE_REQUEST_MODE POP, clientRebalance off, popBatchNums BATCH):
#           consume throughput from its start to the last message
#   direct  POPPERS threads popping BATCH messages of all queues at a time (MQClientAPIImpl.popMessageAsync, queue -1
#           as Apache's proxy pops) and acking each message at once (ackMessageAsync): pop throughput and ack latency
# Around each consumption the tool reads the broker's CPU time (/proc/<pid>/stat). Rounds alternate the order. Prints
# a side-by-side table and the ratios ours/apache. Everything started is stopped on exit.
#
# Usage: scripts/bench-pop-vs-rocketmq.sh
#   env COUNT (50000)  SIZE (1024)  QUEUES (8)  BATCH (32)  POPPERS (4)  FLUSH (ASYNC_FLUSH | SYNC_FLUSH)
#       ROUNDS (1: apache then vrmq; 2: then vrmq and apache again)  SERVER_HEAP (512m)  SKIP_BUILD=1
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
COUNT="${COUNT:-50000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
BATCH="${BATCH:-32}"
POPPERS="${POPPERS:-4}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
CLIENT_HEAP=512m
COMMIT_LOG_FILE_BYTES=134217728
BOOT_TIMEOUT_SECONDS=120
STOP_TIMEOUT_SECONDS=10
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-pop.XXXXXX)"
NAMESRV_PID=""
BROKER_PID=""
TOOL_PID=""

case "$FLUSH" in ASYNC_FLUSH | SYNC_FLUSH) ;; *) echo "FLUSH must be ASYNC_FLUSH or SYNC_FLUSH" >&2; exit 2 ;; esac

log() { echo "[bench-pop $(date -u +%H:%M:%S)] $*" >&2; }

stop_pid() {
    local pid="$1"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 $((STOP_TIMEOUT_SECONDS * 10))); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null || true
    fi
}

stop_servers() {
    stop_pid "$BROKER_PID"
    BROKER_PID=""
    stop_pid "$NAMESRV_PID"
    NAMESRV_PID=""
}

cleanup() {
    stop_pid "$TOOL_PID"
    stop_servers
}
trap cleanup EXIT
trap 'exit 130' INT TERM

build() {
    if [[ "${SKIP_BUILD:-0}" == 1 ]]; then
        log "SKIP_BUILD=1: using the jars already built"
    else
        log "building our NameServer and Broker and the load tool (mvn package, tests skipped)"
        (cd "$ROOT" && mvn -B -q -pl nameserver-verticle,broker-verticle,benchmark/load -am -DskipTests package)
    fi
    log "resolving Apache RocketMQ's classpath (compat-tests test scope)"
    (cd "$ROOT" && mvn -B -q -f compat-tests/pom.xml dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$WORK/apache.classpath" > /dev/null)
    local jar
    for jar in "$VRMQ_NAMESRV_JAR" "$VRMQ_BROKER_JAR" "$LOAD_JAR"; do
        [[ -f "$jar" ]] || { log "missing $jar"; exit 1; }
    done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() {
    local port
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 30000))
        if port_free $((port - 2)) && port_free $((port - 1)) && port_free "$port" && port_free $((port + 1)); then
            echo "$port"
            return
        fi
    done
    log "no free port found"
    exit 1
}

await_namesrv() {
    local log_file="$1"
    for _ in $(seq 1 $((BOOT_TIMEOUT_SECONDS * 10))); do
        grep -q "The Name Server boot success" "$log_file" 2>/dev/null && return
        kill -0 "$NAMESRV_PID" 2>/dev/null || { log "NameServer exited:"; tail -30 "$log_file" >&2; exit 1; }
        sleep 0.1
    done
    log "no NameServer boot line within ${BOOT_TIMEOUT_SECONDS}s:"; tail -30 "$log_file" >&2; exit 1
}

apache_jvm() {
    local dir="$1"
    shift
    ROCKETMQ_HOME="$dir" exec java "-Xmx$SERVER_HEAP" -Duser.home="$dir" -Drocketmq.home.dir="$dir" \
        -Drmq.logback.configurationFile="$APACHE_LOGBACK" -Drocketmq.compat.log.level=WARN \
        -cp "$(cat "$WORK/apache.classpath")" "$@"
}

start_apache_namesrv() {
    local port="$1" dir="$2"
    printf 'listenPort=%s\nbindAddress=127.0.0.1\nkvConfigPath=%s/kv.json\nconfigStorePath=%s/namesrv.properties\n' \
        "$port" "$dir" "$dir" > "$dir/namesrv.conf"
    apache_jvm "$dir" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.conf" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

start_vrmq_namesrv() {
    local port="$1" dir="$2"
    cat > "$dir/namesrv.json" <<JSON
{"listenPort": $port, "bindAddress": "127.0.0.1", "adminPort": -1, "kvConfigPath": "$dir/kv.json"}
JSON
    java "-Xmx$SERVER_HEAP" -jar "$VRMQ_NAMESRV_JAR" -conf "$dir/namesrv.json" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

# Apache's POP needs its timer wheel (timerWheelEnable, on by default); both sides keep their POP defaults.
start_apache_broker() {
    local port="$1" namesrv="$2" dir="$3" store="$3/store"
    cat > "$dir/broker.conf" <<CONF
brokerClusterName=BenchCluster
brokerName=bench-broker
brokerId=0
brokerRole=ASYNC_MASTER
brokerIP1=127.0.0.1
listenPort=$port
namesrvAddr=$namesrv
flushDiskType=$FLUSH
autoCreateTopicEnable=true
defaultTopicQueueNums=$QUEUES
storePathRootDir=$store
storePathCommitLog=$store/commitlog
storePathConsumeQueue=$store/consumequeue
storePathIndex=$store/index
storeCheckpoint=$store/checkpoint
abortFile=$store/abort
mappedFileSizeCommitLog=$COMMIT_LOG_FILE_BYTES
timerWheelEnable=true
CONF
    apache_jvm "$dir" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" > "$dir/broker.log" 2>&1 &
    BROKER_PID=$!
}

start_vrmq_broker() {
    local port="$1" namesrv="$2" dir="$3"
    cat > "$dir/broker.json" <<JSON
{"brokerClusterName": "BenchCluster", "brokerName": "bench-broker", "brokerId": 0, "brokerRole": "ASYNC_MASTER",
 "listenPort": $port, "namesrvAddr": "$namesrv", "brokerIP1": "127.0.0.1", "flushDiskType": "$FLUSH",
 "autoCreateTopicEnable": true, "defaultTopicQueueNums": $QUEUES, "storePathRootDir": "$dir/store",
 "mappedFileSizeCommitLog": $COMMIT_LOG_FILE_BYTES, "adminPort": -1, "grpcListenPort": -1}
JSON
    java "-Xmx$SERVER_HEAP" -jar "$VRMQ_BROKER_JAR" -conf "$dir/broker.json" > "$dir/broker.log" 2>&1 &
    BROKER_PID=$!
}

run_tool() {
    local out="$1"
    shift
    : > "$out"
    java "-Xmx$CLIENT_HEAP" -Duser.home="$WORK/client" -cp "$LOAD_JAR" "$@" > "$out" 2>&1 &
    TOOL_PID=$!
    tail -n +1 -f --pid="$TOOL_PID" "$out" || true
    local status=0
    wait "$TOOL_PID" || status=$?
    TOOL_PID=""
    return "$status"
}

phase() {
    local round="$1" label="$2" mode="$3" namesrv="$4"
    log "$label: phase $mode"
    local out="$WORK/$label-$round-$mode.out"
    run_tool "$out" io.vrmq.load.PopLoadBench --namesrv "$namesrv" --label "$label" --topic "PopBench_${mode}" \
        --mode "$mode" --count "$COUNT" --size "$SIZE" --queues "$QUEUES" --batch "$BATCH" --poppers "$POPPERS" \
        --watch-pid "$BROKER_PID" \
        || { log "$label: phase $mode failed; broker log:"; tail -30 "$WORK/$label-$round/broker.log" >&2; exit 1; }
    echo "$round $label $mode $(grep '^RESULT ' "$out" | sed 's/^RESULT //')" >> "$WORK/results"
}

bench() {
    local round="$1" label="$2" dir="$WORK/$2-$1"
    mkdir -p "$dir"
    local namesrv_port broker_port
    namesrv_port="$(free_port)"
    log "$label: starting the NameServer on 127.0.0.1:$namesrv_port (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "start_${label}_namesrv" "$namesrv_port" "$dir"
    await_namesrv "$dir/namesrv.log"
    broker_port="$(free_port)"
    local namesrv="127.0.0.1:$namesrv_port"
    log "$label: starting the broker on 127.0.0.1:$broker_port, $FLUSH, store $dir/store"
    "start_${label}_broker" "$broker_port" "$namesrv" "$dir"
    run_tool "$dir/ready.out" io.vrmq.load.AwaitRoute --namesrv "$namesrv" --broker-addr "127.0.0.1:$broker_port" \
        --topic TBW102 --timeout-seconds "$BOOT_TIMEOUT_SECONDS" --pid "$BROKER_PID" \
        || { log "$label: broker not ready; log tail:"; tail -30 "$dir/broker.log" >&2; exit 1; }
    phase "$round" "$label" push "$namesrv"
    phase "$round" "$label" direct "$namesrv"
    log "$label: stopping"
    stop_servers
    rm -rf "$dir/store" || log "could not remove all of $dir/store"
}

field() { sed -E "s/.*\"$2\":\"?([^,\"}]*).*/\1/" <<< "$1"; }

phase_json() { awk -v r="$1" -v l="$2" -v p="$3" '$1 == r && $2 == l && $3 == p { $1 = $2 = $3 = ""; print }' \
    "$WORK/results"; }

report() {
    echo
    echo "Official client 5.5.0 by POP, ${SIZE}-byte messages, $QUEUES queues, backlog of $COUNT, batch $BATCH," \
        "$POPPERS poppers, $FLUSH, servers -Xmx$SERVER_HEAP; $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo
    echo "| server | push consumer msgs/s | direct pop+ack msgs/s | ack p50 ms | ack p99 ms | ack p999 ms |" \
        "broker CPU µs/msg push | direct | duplicates | ack failures |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    local round label push direct
    awk '{print $1, $2}' "$WORK/results" | sort -u | sort -k1,1n | while read -r round label; do
        push="$(phase_json "$round" "$label" push)"
        direct="$(phase_json "$round" "$label" direct)"
        awk -v l="$label" -v pr="$(field "$push" consumePerSecond)" -v dr="$(field "$direct" consumePerSecond)" \
            -v p50="$(field "$direct" ackP50Micros)" -v p99="$(field "$direct" ackP99Micros)" \
            -v p999="$(field "$direct" ackP999Micros)" -v pc="$(field "$push" brokerCpuMillis)" \
            -v pn="$(field "$push" consumed)" -v dc="$(field "$direct" brokerCpuMillis)" \
            -v dn="$(field "$direct" consumed)" \
            -v dup="$(( $(field "$push" duplicated) + $(field "$direct" duplicated) ))" \
            -v af="$(field "$direct" ackFailures)" 'BEGIN {
                printf "| %s | %d | %d | %.2f | %.2f | %.2f | %.0f | %.0f | %d | %d |\n", l, pr, dr, p50 / 1000,
                    p99 / 1000, p999 / 1000, (pn > 0 ? 1000 * pc / pn : 0), (dn > 0 ? 1000 * dc / dn : 0), dup, af }'
    done
    echo
    echo "(work dir with server logs and each phase's output: $WORK)"
}

log "work dir $WORK"
build
for round in $(seq 1 "$ROUNDS"); do
    if ((round % 2 == 1)); then
        bench "$round" apache
        bench "$round" vrmq
    else
        bench "$round" vrmq
        bench "$round" apache
    fi
done
report
