#!/usr/bin/env bash
# Scale benchmark (issue 15's scale table): how throughput, latency, CPU and memory grow with the work, ours
# (vrmq-namesrv.jar + vrmq-broker.jar) beside Apache RocketMQ 5.5.0 (NameServer + Broker from the Maven artifacts)
# in the same run, driven by the unmodified official 5.5.0 client (benchmark/load). Servers as in
# scripts/bench-vs-rocketmq.sh (scripts/lib/rocketmq-servers.sh: its JVM flags, ASYNC_FLUSH, 8 queues a topic);
# every row starts a fresh NameServer + Broker pair per side; rounds alternate the order (apache first in odd rounds).
# Rows (ROWS picks them, in this order):
#   connections  --producers N official producers, each its own client instance and so its own TCP connection,
#                async sends (window ASYNC_WINDOW over all of them) of CONNECTION_COUNT 1 KiB messages; the
#                connections are counted at the broker's port with ss while the row runs (the most seen). A level
#                of more than PRODUCERS_PER_CLIENT_JVM producers is split over that many producers a JVM
#                (benchmark/load SplitMessageLoad: each part JVM -Xmx$SPLIT_CLIENT_HEAP holds its share of the
#                producers, count, warm-up and window; their measured sends start together; throughput is all
#                parts' sends over the first start to the last end, the percentiles those of the merged latency
#                histograms), since one JVM with a thousand client instances (about ten threads each) on 2 cores
#                stalls. The row also reports the client JVMs and their threads together
#   queues       the same sends round topics of 8 queues (L/8 topics for L queues, written into the broker's
#                topics.json before it starts), a push consumer subscribed to all of them receiving concurrently,
#                so its held pulls grow with the queues too
#   sizes        message bodies of each size, as they are: the producers' compressMsgBodyOverHowmuch is raised
#                above the largest body (the client would zip bodies over 4 KiB; our filler is compressible); each
#                size writes about SIZE_MIB MiB (within SIZE_MIN_COUNT and SIZE_MAX_COUNT messages), the async window
#                holds at most 64 MiB in flight
#   held         a push consumer on HELD_QUEUES queues (pre-written topics) with nothing to read: the broker's CPU and
#                anonymous memory over HELD_IDLE_SECONDS of holding those pulls, then HELD_COUNT messages at
#                HELD_RATE msgs/s round all the topics: end-to-end latency with the pulls held
#   topics       T topics pre-written into topics.json; the broker registers through a relay in front of the
#                NameServer (benchmark/load RegistrationTap) that records every REGISTER_BROKER body and round trip
#                until the last topic is routed; then GET_ROUTEINFO_BY_TOPIC latency at the NameServer with that many
#                topics registered (RouteQueryBench, ROUTE_SECONDS, ROUTE_CONCURRENCY in flight), and both servers'
#                anonymous memory. Both brokers send the body as plain JSON at their defaults (Apache's
#                compressedRegister is false)
# Prints progress lines while it runs and, per row, a table: level, figure, apache, ours, ours/apache (means over
# the rounds). CPU per message is the broker's CPU time (utime + stime from /proc) over the phase per message sent.
#
# Usage: scripts/bench-scale.sh
#   env ROWS ("connections queues sizes held topics")  ROUNDS (1)  SKIP_BUILD=1 (reuse built jars)
#       CONNECTION_LEVELS ("1 100 1000")  CONNECTION_COUNT (20000)
#       QUEUE_LEVELS ("8 1000 10000")  QUEUE_COUNT (20000)
#       SIZE_LEVELS ("128 1024 65536 1048576")  SIZE_MIB (256)  SIZE_MIN_COUNT (200)  SIZE_MAX_COUNT (20000)
#       HELD_QUEUES (10000)  HELD_IDLE_SECONDS (10)  HELD_RATE (200)  HELD_COUNT (2000)
#       TOPIC_LEVELS ("1000 10000 50000")  ROUTE_SECONDS (10)  ROUTE_CONCURRENCY (16)
#       PRODUCERS_PER_CLIENT_JVM (250)  SPLIT_CLIENT_HEAP (256m)  SPLIT_READY_TIMEOUT_SECONDS (300: every part
#       JVM's producers started and warmed up within it, or the level fails)
#       ASYNC_WINDOW (512)  SERVER_HEAP (512m, every server)  CLIENT_HEAP (1g)  QUIET_WAIT_SECONDS (0)
#       BOOT_TIMEOUT_SECONDS (180)  APACHE_JVM, APACHE_DEFAULT_BROKER_HEAP, VRMQ_JVM_OPTS (as in
#       scripts/bench-vs-rocketmq.sh)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-scale
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
plain_pair
ROWS="${ROWS:-connections queues sizes held topics}"
ROUNDS="${ROUNDS:-1}"
CONNECTION_LEVELS="${CONNECTION_LEVELS:-1 100 1000}"
CONNECTION_COUNT="${CONNECTION_COUNT:-20000}"
PRODUCERS_PER_CLIENT_JVM="${PRODUCERS_PER_CLIENT_JVM:-250}"
SPLIT_CLIENT_HEAP="${SPLIT_CLIENT_HEAP:-256m}"
SPLIT_READY_TIMEOUT_SECONDS="${SPLIT_READY_TIMEOUT_SECONDS:-300}"
QUEUE_LEVELS="${QUEUE_LEVELS:-8 1000 10000}"
QUEUE_COUNT="${QUEUE_COUNT:-20000}"
SIZE_LEVELS="${SIZE_LEVELS:-128 1024 65536 1048576}"
SIZE_MIB="${SIZE_MIB:-256}"
SIZE_MIN_COUNT="${SIZE_MIN_COUNT:-200}"
SIZE_MAX_COUNT="${SIZE_MAX_COUNT:-20000}"
HELD_QUEUES="${HELD_QUEUES:-10000}"
HELD_IDLE_SECONDS="${HELD_IDLE_SECONDS:-10}"
HELD_RATE="${HELD_RATE:-200}"
HELD_COUNT="${HELD_COUNT:-2000}"
TOPIC_LEVELS="${TOPIC_LEVELS:-1000 10000 50000}"
ROUTE_SECONDS="${ROUTE_SECONDS:-10}"
ROUTE_CONCURRENCY="${ROUTE_CONCURRENCY:-16}"
ASYNC_WINDOW="${ASYNC_WINDOW:-512}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
CLIENT_HEAP="${CLIENT_HEAP:-1g}"
QUIET_WAIT_SECONDS="${QUIET_WAIT_SECONDS:-0}"
# Client instances start about ten threads each: small stacks keep the client JVMs small.
CLIENT_JVM_OPTS="-Xss256k"
FLUSH=ASYNC_FLUSH
QUEUES=8
COMMIT_LOG_FILE_BYTES=134217728
BOOT_TIMEOUT_SECONDS="${BOOT_TIMEOUT_SECONDS:-180}"
STOP_TIMEOUT_SECONDS=10
MESSAGE_BYTES=1024
WARMUP_COUNT=2000
IN_FLIGHT_BYTES=$((64 * 1024 * 1024))
NO_COMPRESSION_BYTES=2147483647
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-scale.XXXXXX)"
STEP=0

for row in $ROWS; do
    case "$row" in connections | queues | sizes | held | topics) ;; *) echo "ROWS: unknown row $row" >&2; exit 2 ;; esac
done
for level in $QUEUE_LEVELS $HELD_QUEUES; do
    ((level % QUEUES == 0)) || { echo "queue counts must be multiples of $QUEUES: $level" >&2; exit 2; }
done

# The steps of one side in one round, for the progress lines.
steps_per_side() {
    local steps=0 row words
    for row in $ROWS; do
        case "$row" in
            connections) read -r -a words <<< "$CONNECTION_LEVELS" ;;
            queues) read -r -a words <<< "$QUEUE_LEVELS" ;;
            sizes) read -r -a words <<< "$SIZE_LEVELS" ;;
            held) words=(1) ;;
            topics) read -r -a words <<< "$TOPIC_LEVELS" ;;
        esac
        steps=$((steps + ${#words[@]}))
    done
    echo "$steps"
}
TOTAL_STEPS=$(( $(steps_per_side) * 2 * ROUNDS ))

progress() {
    STEP=$((STEP + 1))
    log "step $STEP of $TOTAL_STEPS: $*"
}

# write_topics DIR NAME COUNT [NAME COUNT ...]: the broker's config/topics.json (RocketMQ's form; both brokers read
# it at start) with, per pair, topic NAME (COUNT 1) or NAME_0 .. NAME_<COUNT-1>, $QUEUES queues each, read-write.
write_topics() {
    local dir="$1"
    shift
    mkdir -p "$dir/store/config"
    awk -v queues="$QUEUES" -v now="$(date +%s%3N)" -v pairs="$*" '
        function entry(name) {
            printf "%s\n    \"%s\": {\"topicName\": \"%s\", \"readQueueNums\": %d, \"writeQueueNums\": %d, \"perm\": 6, " \
                "\"topicFilterType\": \"SINGLE_TAG\", \"topicSysFlag\": 0, \"order\": false, \"attributes\": {}}", \
                separator, name, name, queues, queues
            separator = ","
        }
        BEGIN {
            printf "{\n  \"topicConfigTable\": {"
            count = split(pairs, words, " ")
            for (w = 1; w < count; w += 2) {
                if (words[w + 1] == 1) { entry(words[w]) } else { for (i = 0; i < words[w + 1]; i++) entry(words[w] "_" i) }
            }
            printf "\n  },\n  \"dataVersion\": {\"counter\": 1, \"stateVersion\": 0, \"timestamp\": %s}\n}\n", now
        }' > "$dir/store/config/topics.json"
}

# start_servers LABEL DIR [BROKER_NAMESRV [ROUTE_TOPIC]]: a fresh pair (see the library's start_broker).
start_servers() {
    local label="$1" dir="$2"
    await_quiet
    CURRENT_LABEL="$label"
    if [[ -z "$NAMESRV_PID" ]]; then
        start_namesrv "$label" "$dir" >&2
    fi
    start_broker "$label" "$dir" "${3:-$NAMESRV}" "${4:-TBW102}" >&2
}

finish_servers() {
    local label="$1" dir="$2"
    log "$label: stopping"
    stop_servers
    rm -rf "$dir/store" || log "could not remove all of $dir/store"
}

# The most established connections at the broker's port (its server side: one per client instance), sampled twice a
# second into FILE by a background loop (AUX_PID) until stop_pid.
start_connection_count() {
    local port="$1" file="$2"
    echo 0 > "$file"
    (
        most=0
        while true; do
            now="$(ss -Htn state established "( sport = :$port )" | wc -l)"
            if ((now > most)); then most="$now"; echo "$most" > "$file"; fi
            sleep 0.5
        done
    ) &
    AUX_PID=$!
}

# metric ROUND LABEL ROW LEVEL NAME VALUE: one figure for the report.
metric() { echo "$1|$2|$3|$4|$5|$6" >> "$WORK/metrics"; }

# load ROUND LABEL ROW LEVEL ARGS...: one MessageLoadBench run against the running pair (LOAD_MAIN: or another tool
# with its options and RESULT line, e.g. SplitMessageLoad); sets LOAD_JSON to its RESULT JSON ("" when it failed:
# the row's report says so) and LOAD_OUT to its output file.
LOAD_JSON=""
LOAD_OUT=""
LOAD_MAIN=io.vrmq.load.MessageLoadBench
load() {
    local round="$1" label="$2" row="$3" level="$4"
    shift 4
    local out="$WORK/$label-$round-$row-$level.out"
    LOAD_OUT="$out"
    if run_tool "$out" "$LOAD_MAIN" --namesrv "$NAMESRV" --label "$label $row $level" \
        --watch-pid "$BROKER_PID" "$@" >&2; then
        LOAD_JSON="$(grep '^RESULT ' "$out" | sed 's/^RESULT //')"
    else
        LOAD_JSON=""
        log "$label: $row $level failed (output $out); broker log tail:"
        tail -20 "$WORK/$label-$round-$row/broker.log" >&2 || true
        metric "$round" "$label" "$row" "$level" "failed" 1
    fi
}

# CPU per message: the broker's CPU time over the sends (and the drain, when a consumer ran) per message sent.
cpu_micros_per_message() {
    local json="$1" cpu
    cpu=$(( $(field "$json" brokerCpuSendMillis) + $(field "$json" brokerCpuDrainMillis | sed 's/^-1$/0/') ))
    awk -v cpu="$cpu" -v sent="$(field "$json" sent)" 'BEGIN { printf "%.1f", (sent > 0 ? 1000 * cpu / sent : 0) }'
}

kib_to_mib() { awk -v kib="$1" 'BEGIN { printf "%.0f", kib / 1024 }'; }
micros_to_ms() { awk -v micros="$1" 'BEGIN { printf "%.2f", micros / 1000 }'; }

send_metrics() {
    local round="$1" label="$2" row="$3" level="$4" json="$5"
    [[ -n "$json" ]] || return 0
    metric "$round" "$label" "$row" "$level" "send msgs/s" "$(field "$json" sendPerSecond)"
    metric "$round" "$label" "$row" "$level" "send p99 ms" "$(micros_to_ms "$(field "$json" sendP99Micros)")"
    metric "$round" "$label" "$row" "$level" "broker CPU µs/msg" "$(cpu_micros_per_message "$json")"
    metric "$round" "$label" "$row" "$level" "broker anon RSS MiB" "$(kib_to_mib "$(field "$json" brokerRssAnonKib)")"
    metric "$round" "$label" "$row" "$level" "send errors" \
        "$(( $(field "$json" sendErrors) + $(field "$json" sendNotOk) ))"
}

row_connections() {
    local round="$1" label="$2" dir="$WORK/$2-$1-connections" producers json jvms split
    mkdir -p "$dir"
    start_servers "$label" "$dir"
    for producers in $CONNECTION_LEVELS; do
        jvms=$(( (producers + PRODUCERS_PER_CLIENT_JVM - 1) / PRODUCERS_PER_CLIENT_JVM ))
        split=()
        if ((jvms > 1)); then
            LOAD_MAIN=io.vrmq.load.SplitMessageLoad
            split=(--client-jvms "$jvms" --client-heap "$SPLIT_CLIENT_HEAP" --client-jvm-opts "$CLIENT_JVM_OPTS"
                --ready-timeout-seconds "$SPLIT_READY_TIMEOUT_SECONDS")
        fi
        progress "$label: connections, $producers producers in $jvms client JVM(s)"
        start_connection_count "$BROKER_PORT" "$dir/connections-$producers"
        load "$round" "$label" connections "$producers" "${split[@]}" --topic "Scale_conn_$producers" \
            --producers "$producers" --mode async --threads 1 --window "$ASYNC_WINDOW" --size "$MESSAGE_BYTES" \
            --count "$CONNECTION_COUNT" --warmup-count $((producers > WARMUP_COUNT ? producers : WARMUP_COUNT))
        LOAD_MAIN=io.vrmq.load.MessageLoadBench
        json="$LOAD_JSON"
        stop_pid "$AUX_PID"
        AUX_PID=""
        metric "$round" "$label" connections "$producers" "connections at the broker" \
            "$(cat "$dir/connections-$producers")"
        metric "$round" "$label" connections "$producers" "client JVMs" "$jvms"
        metric "$round" "$label" connections "$producers" "client threads (all JVMs)" \
            "$(sed -n 's/.*client threads: \([0-9]*\).*/\1/p' "$LOAD_OUT" | awk '{ sum += $1 } END { print sum + 0 }')"
        send_metrics "$round" "$label" connections "$producers" "$json"
    done
    finish_servers "$label" "$dir"
}

row_queues() {
    local round="$1" label="$2" dir="$WORK/$2-$1-queues" queues json pairs=()
    mkdir -p "$dir"
    for queues in $QUEUE_LEVELS; do pairs+=("Scale_q$queues" $((queues / QUEUES))); done
    write_topics "$dir" "${pairs[@]}"
    start_servers "$label" "$dir"
    for queues in $QUEUE_LEVELS; do
        progress "$label: queues, $queues queues in $((queues / QUEUES)) topics"
        load "$round" "$label" queues "$queues" --topic "Scale_q$queues" --topic-count $((queues / QUEUES)) \
            --queues "$QUEUES" --create-topics false --mode async --threads 1 --window "$ASYNC_WINDOW" \
            --size "$MESSAGE_BYTES" --count "$QUEUE_COUNT" --consume concurrent
        json="$LOAD_JSON"
        [[ -n "$json" ]] || continue
        metric "$round" "$label" queues "$queues" "queues the consumer owns" "$(field "$json" ownedQueues)"
        send_metrics "$round" "$label" queues "$queues" "$json"
        metric "$round" "$label" queues "$queues" "e2e p99 ms" "$(micros_to_ms "$(field "$json" e2eP99Micros)")"
        metric "$round" "$label" queues "$queues" "lost" "$(field "$json" lost)"
    done
    finish_servers "$label" "$dir"
}

row_sizes() {
    local round="$1" label="$2" dir="$WORK/$2-$1-sizes" size count window json
    mkdir -p "$dir"
    start_servers "$label" "$dir"
    for size in $SIZE_LEVELS; do
        count=$((SIZE_MIB * 1024 * 1024 / size))
        count=$((count < SIZE_MIN_COUNT ? SIZE_MIN_COUNT : count > SIZE_MAX_COUNT ? SIZE_MAX_COUNT : count))
        window=$((IN_FLIGHT_BYTES / size))
        window=$((window < 1 ? 1 : window > ASYNC_WINDOW ? ASYNC_WINDOW : window))
        progress "$label: sizes, $size-byte bodies, $count messages, window $window"
        load "$round" "$label" sizes "$size" --topic "Scale_size_$size" --mode async --threads 1 \
            --window "$window" --size "$size" --count "$count" --compress-over-bytes "$NO_COMPRESSION_BYTES" \
            --warmup-count $((count < WARMUP_COUNT ? count : WARMUP_COUNT))
        json="$LOAD_JSON"
        [[ -n "$json" ]] || continue
        metric "$round" "$label" sizes "$size" "messages" "$(field "$json" sent)"
        metric "$round" "$label" sizes "$size" "send MB/s" "$(field "$json" sendMBPerSecond)"
        send_metrics "$round" "$label" sizes "$size" "$json"
    done
    finish_servers "$label" "$dir"
}

row_held() {
    local round="$1" label="$2" dir="$WORK/$2-$1-held" json level="$HELD_QUEUES"
    mkdir -p "$dir"
    write_topics "$dir" Scale_held $((HELD_QUEUES / QUEUES))
    start_servers "$label" "$dir"
    progress "$label: held, $HELD_QUEUES queues held for ${HELD_IDLE_SECONDS}s, then $HELD_COUNT at $HELD_RATE msgs/s"
    load "$round" "$label" held "$level" --topic Scale_held --topic-count $((HELD_QUEUES / QUEUES)) \
        --queues "$QUEUES" --create-topics false --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --size "$MESSAGE_BYTES" --count "$HELD_COUNT" --rate "$HELD_RATE" --consume concurrent \
        --idle-seconds "$HELD_IDLE_SECONDS"
        json="$LOAD_JSON"
    if [[ -n "$json" ]]; then
        metric "$round" "$label" held "$level" "pulls held (queues owned)" "$(field "$json" ownedQueues)"
        metric "$round" "$label" held "$level" "idle broker CPU ms/s" "$(awk -v ms="$(field "$json" brokerIdleCpuMillis)" \
            -v s="$HELD_IDLE_SECONDS" 'BEGIN { printf "%.1f", ms / s }')"
        metric "$round" "$label" held "$level" "idle broker anon RSS MiB" \
            "$(kib_to_mib "$(field "$json" brokerIdleRssAnonKib)")"
        metric "$round" "$label" held "$level" "e2e p50 ms" "$(micros_to_ms "$(field "$json" e2eP50Micros)")"
        metric "$round" "$label" held "$level" "e2e p99 ms" "$(micros_to_ms "$(field "$json" e2eP99Micros)")"
        metric "$round" "$label" held "$level" "send p99 ms" "$(micros_to_ms "$(field "$json" sendP99Micros)")"
        metric "$round" "$label" held "$level" "lost" "$(field "$json" lost)"
    fi
    finish_servers "$label" "$dir"
}

# One topic count: pre-written topics, the broker registering through the relay, then route queries.
topics_level() {
    local round="$1" label="$2" topics="$3" dir="$WORK/$2-$1-topics-$3" tap_port out json
    mkdir -p "$dir"
    write_topics "$dir" Scale_t "$topics"
    progress "$label: topics, $topics topics"
    await_quiet
    CURRENT_LABEL="$label"
    start_namesrv "$label" "$dir"
    tap_port="$(free_port)"
    java -Xmx256m -cp "$LOAD_JAR" io.vrmq.load.RegistrationTap --listen-port "$tap_port" --namesrv "$NAMESRV" \
        > "$dir/tap.out" 2>&1 &
    AUX_PID=$!
    for _ in $(seq 1 100); do grep -q '^TAP listening' "$dir/tap.out" && break; sleep 0.1; done
    start_servers "$label" "$dir" "127.0.0.1:$tap_port" "Scale_t_$((topics - 1))"
    metric "$round" "$label" topics "$topics" "ready s (start to last topic routed)" \
        "$(awk -v ms="$READY_MS" 'BEGIN { printf "%.2f", ms / 1000 }')"
    out="$dir/route.out"
    run_tool "$out" io.vrmq.load.RouteQueryBench --namesrv "$NAMESRV" --topic Scale_t_0 --label "$label" \
        --concurrency "$ROUTE_CONCURRENCY" --warmup-seconds 2 --duration-seconds "$ROUTE_SECONDS" >&2 \
        || log "$label: route queries failed ($out)"
    json="$(grep '^RESULT ' "$out" | sed 's/^RESULT //' || true)"
    registration_metrics "$round" "$label" "$topics" "$dir/tap.out"
    if [[ -n "$json" ]]; then
        metric "$round" "$label" topics "$topics" "route query p50 µs" "$(field "$json" p50Micros)"
        metric "$round" "$label" topics "$topics" "route query p99 µs" "$(field "$json" p99Micros)"
        metric "$round" "$label" topics "$topics" "route queries/s" "$(field "$json" requestsPerSecond)"
    fi
    metric "$round" "$label" topics "$topics" "broker anon RSS MiB" \
        "$(kib_to_mib "$(proc_status "$BROKER_PID" RssAnon)")"
    metric "$round" "$label" topics "$topics" "NameServer anon RSS MiB" \
        "$(kib_to_mib "$(proc_status "$NAMESRV_PID" RssAnon)")"
    stop_pid "$AUX_PID"
    AUX_PID=""
    finish_servers "$label" "$dir"
}

# From the relay's lines: how many REGISTER_BROKER (103) the broker sent before the measurement ended, their bytes
# together, and the largest one's body and round trip.
registration_metrics() {
    local round="$1" label="$2" topics="$3" tap_out="$4" summary
    summary="$(sed -n 's/^TAP //p' "$tap_out" | awk '
        /"code":103,/ {
            match($0, /"bodyBytes":[0-9]+/); bytes = substr($0, RSTART + 12, RLENGTH - 12)
            match($0, /"roundTripMicros":[0-9]+/); micros = substr($0, RSTART + 18, RLENGTH - 18)
            count++; total += bytes
            if (bytes + 0 > largest) { largest = bytes + 0; largestMicros = micros }
        }
        END { printf "%d %d %d %d", count, total, largest, largestMicros }')"
    read -r count total largest micros <<< "$summary"
    metric "$round" "$label" topics "$topics" "REGISTER_BROKER sent" "$count"
    metric "$round" "$label" topics "$topics" "REGISTER_BROKER largest body KiB" \
        "$(awk -v b="$largest" 'BEGIN { printf "%.0f", b / 1024 }')"
    metric "$round" "$label" topics "$topics" "REGISTER_BROKER largest round trip ms" "$(micros_to_ms "$micros")"
    metric "$round" "$label" topics "$topics" "REGISTER_BROKER bytes in all MiB" \
        "$(awk -v b="$total" 'BEGIN { printf "%.1f", b / 1048576 }')"
}

row_topics() {
    local round="$1" label="$2" topics
    for topics in $TOPIC_LEVELS; do topics_level "$round" "$label" "$topics"; done
}

side() {
    local round="$1" label="$2" row
    for row in $ROWS; do "row_$row" "$round" "$label"; done
}

# Per row: | level | figure | apache | vrmq | vrmq/apache |, means over the rounds; "failed" where a run failed.
report() {
    echo
    echo "Scale table: official client 5.5.0, $FLUSH, JVM flags: $(jvm_flags_summary); $ROUNDS round(s);" \
        "$(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the end; $(date -u '+%Y-%m-%d %H:%M UTC')"
    awk -F'|' '
        {
            key = $3 SUBSEP $4 SUBSEP $5
            if (!(key in seen)) { seen[key] = 1; order[++n] = key }
            if (!(($3) in rowSeen)) { rowSeen[$3] = 1; rows[++rowCount] = $3 }
            sum[key, $2] += $6; runs[key, $2]++
            if ($5 == "failed") failed[$3, $4, $2] = 1
        }
        function mean(key, side) { return runs[key, side] ? sum[key, side] / runs[key, side] : "" }
        function shown(key, side, level, row) {
            if (failed[row, level, side]) return "failed"
            value = mean(key, side)
            return value == "" ? "-" : sprintf(value == int(value) ? "%d" : "%.2f", value)
        }
        END {
            for (r = 1; r <= rowCount; r++) {
                row = rows[r]
                print ""
                print "Row: " row
                print ""
                print "| level | figure | apache | vrmq | vrmq/apache |"
                print "|---|---|---:|---:|---:|"
                for (i = 1; i <= n; i++) {
                    split(order[i], part, SUBSEP)
                    if (part[1] != row || part[3] == "failed") continue
                    a = mean(order[i], "apache"); v = mean(order[i], "vrmq")
                    ratio = (a != "" && v != "" && a > 0) ? sprintf("%.2f", v / a) : "-"
                    printf "| %s | %s | %s | %s | %s |\n", part[2], part[3], shown(order[i], "apache", part[2], row),
                        shown(order[i], "vrmq", part[2], row), ratio
                }
            }
        }' "$WORK/metrics"
    echo
    echo "(work dir with server logs and each run's output: $WORK)"
}

log "work dir $WORK; rows: $ROWS; $TOTAL_STEPS steps"
build_jars nameserver-verticle,broker-verticle,benchmark/load "$VRMQ_NAMESRV_JAR" "$VRMQ_BROKER_JAR" "$LOAD_JAR"
: > "$WORK/metrics"
for round in $(seq 1 "$ROUNDS"); do
    if ((round % 2 == 1)); then side "$round" apache; side "$round" vrmq; else side "$round" vrmq; side "$round" apache; fi
done
report
