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
# a side-by-side table and the ratios ours/apache. Servers as scripts/lib/rocketmq-servers.sh starts them (each
# broker logs its GCs to its work dir; Apache's broker.conf adds timerWheelEnable=true). Everything started is stopped
# on exit.
#
# Usage: scripts/bench-pop-vs-rocketmq.sh
#   env COUNT (50000)  SIZE (1024)  QUEUES (8)  BATCH (32)  POPPERS (4)  FLUSH (ASYNC_FLUSH | SYNC_FLUSH)
#       ROUNDS (1: apache then vrmq; 2: then vrmq and apache again)  SERVER_HEAP (512m)  SKIP_BUILD=1
#       VRMQ_JVM_OPTS (as in scripts/bench-vs-rocketmq.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-pop
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
plain_pair
COUNT="${COUNT:-50000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
BATCH="${BATCH:-32}"
POPPERS="${POPPERS:-4}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
CLIENT_HEAP=512m
CLIENT_JVM_OPTS=""
COMMIT_LOG_FILE_BYTES=134217728
BOOT_TIMEOUT_SECONDS=120
STOP_TIMEOUT_SECONDS=10
APACHE_JVM=same
# Apache's POP needs its timer wheel (timerWheelEnable, on by default); both sides keep their POP defaults.
APACHE_BROKER_CONF_EXTRA="timerWheelEnable=true"
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-pop.XXXXXX)"

case "$FLUSH" in ASYNC_FLUSH | SYNC_FLUSH) ;; *) echo "FLUSH must be ASYNC_FLUSH or SYNC_FLUSH" >&2; exit 2 ;; esac

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
    CURRENT_LABEL="$label"
    start_namesrv "$label" "$dir"
    start_broker "$label" "$dir" "$NAMESRV" TBW102
    phase "$round" "$label" push "$NAMESRV"
    phase "$round" "$label" direct "$NAMESRV"
    log "$label: stopping"
    stop_servers
    rm -rf "$dir/store" || log "could not remove all of $dir/store"
}

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
build_jars nameserver-verticle,broker-verticle,benchmark/load "$VRMQ_NAMESRV_JAR" "$VRMQ_BROKER_JAR" "$LOAD_JAR"
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
