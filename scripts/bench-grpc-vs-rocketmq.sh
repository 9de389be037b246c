#!/usr/bin/env bash
# gRPC benchmark: the official RocketMQ 5 Java SDK (rocketmq-client-java 5.2.0, plain text) sending and receiving
# through Apache RocketMQ 5.5.0's gRPC endpoint (NameServer + Broker + Proxy in CLUSTER mode, from the Maven Central
# jars) and through ours (vrmq-namesrv.jar + vrmq-broker.jar, the broker's own grpcListenPort), in the same run, on
# the same machine, with the same flush setting and the same load tool (benchmark/grpc-load GrpcLoadBench, 1 KiB
# messages). One side at a time: start its NameServer and broker, wait until TBW102 is routed to the broker, create
# every topic (QUEUES queues) and consumer group the phases use (benchmark/load CreateResources: the SDK has no admin
# API, and Apache's proxy refuses groups that do not exist), for Apache start its proxy (rmq-proxy.json: the
# NameServer, a free gRPC port and remoting port, CLUSTER mode) and wait for it, then the phases, each a fresh
# load-tool JVM on its own topic:
#   warm   async send + concurrent receivers, WARMUP_COUNT messages (JIT, connections, page cache; not reported)
#   sync   sync send from SYNC_THREADS threads, COUNT messages (after a 5,000-message in-process client warm-up)
#   async  async send (sendAsync) with ASYNC_WINDOW in flight, COUNT messages; then RECEIVERS threads drain them as
#          a backlog through one SimpleConsumer (receive up to BATCH, ack each message, receive again): the receive
#          + ack throughput, the ack latency, and lost / duplicated counts
#   live   async send paced at LIVE_RATE msgs/s with the receivers running: end-to-end latency below saturation
#          (after 5,000 messages of in-process warm-up on another topic that the same receivers get)
# Around each phase the tool reads the CPU time (utime + stime, /proc/<pid>/stat) of our broker, and of Apache's
# broker and proxy separately: CPU per message is the least noisy figure on a small shared machine. Peak RSS (VmHWM)
# and anonymous RSS (RssAnon) of the same processes are read after the last phase. For Apache, the message path is
# broker + proxy, so the tables show them together and each apart; ours is the broker alone. Prints a side-by-side
# table and the ratios ours/apache. Every server runs with the same JVM flags (-Xmx$SERVER_HEAP, the JVM's default
# GC); the NameServers and brokers as scripts/lib/rocketmq-servers.sh starts them (each broker logs its GCs to its work
# dir, the proxy too). Both gRPC ports run their default TLS mode, permissive (TLS and plain text on one port, chosen
# per connection; the SDK connects in plain text); TLS_MODE=disabled makes both plain-text-only (Apache:
# -Dtls.server.mode, ours: tls.server.mode). Rounds alternate the order (apache first in odd rounds, ours first in
# even ones) so that neither always inherits the other's page cache and disk write-back. Everything started is stopped
# on exit.
#
# Usage: scripts/bench-grpc-vs-rocketmq.sh
#   env COUNT (50000)  WARMUP_COUNT (20000)  SIZE (1024)  QUEUES (8)  SYNC_THREADS (16)  ASYNC_WINDOW (512)
#       LIVE_COUNT (20000)  LIVE_RATE (1000)  RECEIVERS (4)  BATCH (32: Apache's proxy caps a receive at 32)
#       CLIENT_WARMUP_COUNT (5000: the in-process warm-up of the sync, async and live phases)
#       FLUSH (ASYNC_FLUSH | SYNC_FLUSH)  ROUNDS (1: apache then vrmq; 2: then vrmq and apache again)
#       SERVER_HEAP (512m, the same for every server)  SKIP_BUILD=1 (reuse built jars)
#       TLS_MODE (permissive | disabled)
#       MAX_SEND_SECONDS (600: a send phase stops there)  DRAIN_SECONDS (300: what is not received by then is lost)
#       QUIET_WAIT_SECONDS (0: before each side, wait up to this long for other Maven builds to finish)
#       VRMQ_JVM_OPTS (as in scripts/bench-vs-rocketmq.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-grpc
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
plain_pair
COUNT="${COUNT:-50000}"
WARMUP_COUNT="${WARMUP_COUNT:-20000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
SYNC_THREADS="${SYNC_THREADS:-16}"
ASYNC_WINDOW="${ASYNC_WINDOW:-512}"
LIVE_COUNT="${LIVE_COUNT:-20000}"
LIVE_RATE="${LIVE_RATE:-1000}"
RECEIVERS="${RECEIVERS:-4}"
BATCH="${BATCH:-32}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
TLS_MODE="${TLS_MODE:-permissive}"
QUIET_WAIT_SECONDS="${QUIET_WAIT_SECONDS:-0}"
MAX_SEND_SECONDS="${MAX_SEND_SECONDS:-600}"
DRAIN_SECONDS="${DRAIN_SECONDS:-300}"
CLIENT_WARMUP_COUNT="${CLIENT_WARMUP_COUNT:-5000}"
CLIENT_HEAP=512m
COMMIT_LOG_FILE_BYTES=134217728
BOOT_TIMEOUT_SECONDS=120
STOP_TIMEOUT_SECONDS=10
PHASES="warm sync async live"
TOPIC_PREFIX=GrpcBench_
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
GRPC_LOAD_JAR="$ROOT/benchmark/grpc-load/target/vrmq-grpc-load.jar"
APACHE_POM="$ROOT/benchmark/apache-proxy/pom.xml"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-grpc.XXXXXX)"
# The library's server settings: every server -Xmx$SERVER_HEAP, one plain ASYNC_MASTER a side; every Apache server
# (NameServer, broker, proxy) in TLS_MODE; our broker's gRPC port and TLS mode go into VRMQ_BROKER_CONFIG per side.
# Apache's proxy is the library's AUX_PID: stopped on exit before the servers. The clients' log files go under the work
# dir, the SDK's at WARN.
APACHE_JVM=same
EXTRA_JVM_OPTS="-Dtls.server.mode=$TLS_MODE"
CLIENT_JVM_OPTS="-Drocketmq.log.root=$WORK/client/logs -Drocketmq.log.level=WARN"

case "$FLUSH" in ASYNC_FLUSH | SYNC_FLUSH) ;; *) echo "FLUSH must be ASYNC_FLUSH or SYNC_FLUSH" >&2; exit 2 ;; esac
case "$TLS_MODE" in permissive | disabled) ;; *) echo "TLS_MODE must be permissive or disabled" >&2; exit 2 ;; esac

# Apache's proxy in CLUSTER mode in front of the broker: its gRPC port is what the SDK dials. Its remoting port
# (default 8080) is moved to a free one too, so that nothing else on the machine is in the way.
start_apache_proxy() {
    local grpc_port="$1" namesrv="$2" dir="$3"
    cat > "$dir/rmq-proxy.json" <<JSON
{"rocketMQClusterName": "BenchCluster", "proxyMode": "cluster", "namesrvAddr": "$namesrv",
 "grpcServerPort": $grpc_port, "remotingListenPort": $(free_port)}
JSON
    EXTRA_JVM_OPTS="$EXTRA_JVM_OPTS -Xlog:gc:file=$dir/gc-proxy.log" apache_jvm "$dir" "-Xmx$SERVER_HEAP" \
        org.apache.rocketmq.proxy.ProxyStartup -pc "$dir/rmq-proxy.json" > "$dir/proxy.log" 2>&1 &
    AUX_PID=$!
    await_line "$AUX_PID" "$dir/proxy.log" "rocketmq-proxy startup successfully" "apache proxy"
}

# The proxy first (it would otherwise log its broker's and NameServer's absence), then the library's pair.
stop_side() {
    stop_pid "$AUX_PID"
    AUX_PID=""
    stop_servers
}

# Every topic (each phase's, and the in-process warm-up topics) and every consumer group of the phases.
create_resources() {
    local dir="$1" namesrv="$2" topics="" groups="" name
    for name in $PHASES; do
        topics="$topics,$TOPIC_PREFIX$name"
        [[ "$name" != warm ]] && topics="$topics,$TOPIC_PREFIX${name}_warmup"
        [[ "$name" != sync ]] && groups="$groups,GID_$TOPIC_PREFIX$name"
    done
    run_tool "$dir/resources.out" io.vrmq.load.CreateResources --namesrv "$namesrv" \
        --topics "${topics#,}" --queues "$QUEUES" --groups "${groups#,}"
}

# One phase of GrpcLoadBench; appends "round label phase json" to $WORK/results.
phase() {
    local round="$1" label="$2" name="$3" endpoints="$4"
    shift 4
    log "$label: phase $name"
    local out="$WORK/$label-$round-$name.out" dir="$WORK/$label-$round"
    LOAD_JAR="$GRPC_LOAD_JAR" run_tool "$out" io.vrmq.grpcload.GrpcLoadBench --endpoints "$endpoints" --label "$label" \
        --topic "$TOPIC_PREFIX$name" --group "GID_$TOPIC_PREFIX$name" --size "$SIZE" --receivers "$RECEIVERS" \
        --batch "$BATCH" --max-send-seconds "$MAX_SEND_SECONDS" --drain-seconds "$DRAIN_SECONDS" \
        --watch-pid "$BROKER_PID" --proxy-pid "${AUX_PID:-0}" "$@" \
        || { log "$label: phase $name failed; server logs:"; tail -20 "$dir/broker.log" >&2
             [[ -f "$dir/proxy.log" ]] && tail -20 "$dir/proxy.log" >&2; exit 1; }
    echo "$round $label $name $(grep '^RESULT ' "$out" | sed 's/^RESULT //')" >> "$WORK/results"
}

# "peakKiB anonKiB threads gcPauses gcPauseMs" of a running process and its GC log, or zeros for none.
process_figures() {
    local pid="$1" gc_log="$2"
    if [[ -z "$pid" ]]; then
        echo "0 0 0 0 0"
        return
    fi
    local status="/proc/$pid/status"
    echo "$(awk '/^VmHWM:/ {print $2}' "$status") $(awk '/^RssAnon:/ {print $2}' "$status")" \
        "$(awk '/^Threads:/ {print $2}' "$status")" \
        "$(awk '/Pause/ { pauses++; sub(/ms$/, "", $NF); millis += $NF } END { printf "%d %.0f", pauses, millis }' \
            "$gc_log")"
}

bench() {
    local round="$1" label="$2" dir="$WORK/$2-$1"
    mkdir -p "$dir"
    await_quiet
    CURRENT_LABEL="$label"
    local grpc_port
    grpc_port="$(free_port)"
    VRMQ_BROKER_CONFIG="{\"grpcListenPort\": $grpc_port, \"tls.server.mode\": \"$TLS_MODE\"}"
    start_namesrv "$label" "$dir"
    start_broker "$label" "$dir" "$NAMESRV" TBW102
    create_resources "$dir" "$NAMESRV"
    if [[ "$label" == apache ]]; then
        log "$label: starting the proxy (CLUSTER mode), gRPC on 127.0.0.1:$grpc_port, tls.server.mode $TLS_MODE"
        start_apache_proxy "$grpc_port" "$NAMESRV" "$dir"
    fi
    local endpoints="127.0.0.1:$grpc_port"
    phase "$round" "$label" warm "$endpoints" --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --count "$WARMUP_COUNT" --consume concurrent
    phase "$round" "$label" sync "$endpoints" --mode sync --threads "$SYNC_THREADS" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT"
    phase "$round" "$label" async "$endpoints" --mode async --threads 1 --window "$ASYNC_WINDOW" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT" --consume after
    phase "$round" "$label" live "$endpoints" --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --count "$LIVE_COUNT" --rate "$LIVE_RATE" --warmup-count "$CLIENT_WARMUP_COUNT" --consume concurrent
    echo "$round $label $(process_figures "$BROKER_PID" "$dir/gc.log")" \
        "$(process_figures "$AUX_PID" "$dir/gc-proxy.log")" >> "$WORK/servers"
    log "$label: stopping"
    stop_side
    rm -rf "$dir/store" || log "could not remove all of $dir/store"
}

# One line per server run: the figures the tables show, in the order the awk in report() reads them.
summarize() {
    local round label b_peak b_anon b_threads b_pauses b_pause_ms p_peak p_anon p_threads p_pauses p_pause_ms
    local sync async live
    while read -r round label b_peak b_anon b_threads b_pauses b_pause_ms p_peak p_anon p_threads p_pauses \
        p_pause_ms; do
        sync="$(phase_json "$round" "$label" sync)"
        async="$(phase_json "$round" "$label" async)"
        live="$(phase_json "$round" "$label" live)"
        echo "$label" \
            "$(field "$sync" sendPerSecond) $(field "$sync" sendP99Micros)" \
            "$(field "$async" sendPerSecond) $(field "$async" sendP99Micros) $(field "$async" consumePerSecond)" \
            "$(field "$async" ackP99Micros) $(field "$live" e2eP50Micros) $(field "$live" e2eP99Micros)" \
            "$(field "$sync" sent) $(field "$sync" brokerCpuSendMillis) $(field "$sync" proxyCpuSendMillis)" \
            "$(field "$async" sent) $(field "$async" brokerCpuSendMillis) $(field "$async" proxyCpuSendMillis)" \
            "$(field "$async" consumed) $(field "$async" brokerCpuDrainMillis)" \
            "$(field "$async" proxyCpuDrainMillis)" \
            "$b_peak $b_anon $b_threads $b_pauses $b_pause_ms $p_peak $p_anon $p_threads $p_pauses $p_pause_ms" \
            "$(( $(field "$async" lost) + $(field "$live" lost) ))" \
            "$(( $(field "$async" duplicated) + $(field "$live" duplicated) ))" \
            "$(( $(field "$sync" sendErrors) + $(field "$async" sendErrors) + $(field "$live" sendErrors) ))" \
            "$(( $(field "$async" ackFailures) + $(field "$live" ackFailures) ))"
    done < "$WORK/servers"
}

report() {
    summarize > "$WORK/summary"
    echo
    echo "Official Java SDK rocketmq-client-java 5.2.0 over gRPC (plain text), ${SIZE}-byte messages, $QUEUES queues," \
        "$FLUSH, servers -Xmx$SERVER_HEAP, tls.server.mode $TLS_MODE; sync: $SYNC_THREADS threads, async: window" \
        "$ASYNC_WINDOW, $COUNT messages each, received by $RECEIVERS SimpleConsumer threads (batch $BATCH, one ack" \
        "per message); live: $LIVE_COUNT at $LIVE_RATE msgs/s; apache = NameServer + Broker + Proxy 5.5.0 (CLUSTER" \
        "mode), vrmq = NameServer + Broker with grpcListenPort; $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    awk '
        function micros(cpuMillis, messages) { return messages > 0 && cpuMillis > 0 ? 1000 * cpuMillis / messages : 0 }
        function add(key, value) { v[key, $1] += value }
        function ratio(key) { return (v[key, "vrmq"] / runs["vrmq"]) / (v[key, "apache"] / runs["apache"]) }
        function shown(value, isProxy) { return isProxy ? sprintf("%.0f", value) : "-" }
        {
            runs[$1]++; n++
            add("sync", $2); add("syncp99", $3 / 1000); add("async", $4); add("asyncp99", $5 / 1000)
            add("receive", $6); add("ackp99", $7 / 1000); add("e2e50", $8 / 1000); add("e2e99", $9 / 1000)
            perf[n] = sprintf("| %s | %.0f | %.2f | %.0f | %.2f | %.0f | %.2f | %.2f | %.2f | %d | %d | %d | %d |",
                $1, $2, $3 / 1000, $4, $5 / 1000, $6, $7 / 1000, $8 / 1000, $9 / 1000, $29, $30, $31, $32)
            hasProxy = $24 > 0
            bSync = micros($11, $10); pSync = micros($12, $10)
            bAsync = micros($14, $13); pAsync = micros($15, $13)
            bReceive = micros($17, $16); pReceive = micros($18, $16)
            add("cpusync", bSync + pSync); add("cpuasync", bAsync + pAsync); add("cpureceive", bReceive + pReceive)
            add("rss", ($19 + $24) / 1024); add("anon", ($20 + $25) / 1024)
            cost[n] = sprintf("| %s | %.0f | %.0f | %.0f | %.0f | %s | %.0f | %s | %.0f | %s | %.0f | %.0f | %s | %.0f | %d | %d | %d |",
                $1, bSync + pSync, bAsync + pAsync, bReceive + pReceive, bSync, shown(pSync, hasProxy), bAsync,
                shown(pAsync, hasProxy), bReceive, shown(pReceive, hasProxy), ($19 + $24) / 1024, $19 / 1024,
                shown($24 / 1024, hasProxy), ($20 + $25) / 1024, $21 + $26, $22 + $27, $23 + $28)
        }
        END {
            print ""
            print "| server | sync msgs/s | sync p99 ms | async msgs/s | async p99 ms | receive+ack msgs/s | ack p99 ms | e2e p50 ms | e2e p99 ms | lost | dup | send errors | ack failures |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print perf[i]
            print ""
            print "CPU µs per message (apache: broker + proxy, then each; vrmq: the broker) and memory after the last phase."
            print ""
            print "| server | CPU µs/msg sync | async | receive | broker sync | proxy sync | broker async | proxy async | broker receive | proxy receive | peak RSS MiB | broker | proxy | anon RSS MiB | threads | GC pauses | GC pause ms |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print cost[i]
            if (!runs["apache"] || !runs["vrmq"]) exit
            print ""
            print "Ratios ours/apache (means over the runs; CPU and memory: our broker against Apache broker + proxy). Throughput: above 1 is better for us; the rest: below 1 is."
            print ""
            print "| sync msgs/s | async msgs/s | receive msgs/s | sync p99 | async p99 | ack p99 | e2e p50 | e2e p99 | CPU/msg sync | CPU/msg async | CPU/msg receive | peak RSS | anon RSS |"
            print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            printf "| %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                ratio("sync"), ratio("async"), ratio("receive"), ratio("syncp99"), ratio("asyncp99"), ratio("ackp99"),
                ratio("e2e50"), ratio("e2e99"), ratio("cpusync"), ratio("cpuasync"), ratio("cpureceive"),
                ratio("rss"), ratio("anon")
        }
    ' "$WORK/summary"
    echo
    echo "(work dir with server logs, GC logs and each phase's output: $WORK)"
}

log "work dir $WORK"
build_jars nameserver-verticle,broker-verticle,benchmark/load,benchmark/grpc-load "$VRMQ_NAMESRV_JAR" \
    "$VRMQ_BROKER_JAR" "$LOAD_JAR" "$GRPC_LOAD_JAR"
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
