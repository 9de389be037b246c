#!/usr/bin/env bash
# Controller-mode benchmark: replicated sends and master failover of one broker set, ours against Apache RocketMQ
# 5.5.0, in the same run, on the same machine, with the same settings and the same official 5.5.0 client. Each side:
# three controllers (ours: vrmq-controller.jar, Ratis; Apache's: ControllerStartup, DLedger type, one JVM each), one
# NameServer and three brokers of one broker set in controller mode (brokerId -1, brokerRole SLAVE: the controller
# decides; allAckInSyncStateSet=true: SEND_OK only once every SyncStateSet member has the message), RocketMQ's default
# periods, $FLUSH. Once the controller reports all three alive in the SyncStateSet:
#   sync      sync sends of SIZE bytes from SYNC_THREADS threads, COUNT messages (after a 5,000-message client
#             warm-up), benchmark/load MessageLoadBench: msgs/s, p50/p99, CPU per message of the master and of all
#             three brokers (utime + stime from /proc over the send phase)
#   failover  RUNS times: io.vrmq.load.FailoverProbe sends sync messages at RATE msgs/s from 4 threads (route
#             refresh every second, set before the producer starts), asks the controller leader for the master and
#             SIGKILLs it, then times, from the kill: "elected" (the controller leader names another master,
#             CONTROLLER_GET_SYNC_STATE_DATA every 20 ms), "routed" (the NameServer routes it as id 0), "first
#             SEND_OK" (the first one whose offsetMsgId names a broker other than the killed one), "resynced" (the
#             SyncStateSet again holds the surviving slave: until then a SEND_OK means one copy, the new master's), and
#             counts the sends that failed. The killed broker is then restarted on its ports and store and must be
#             back alive in the SyncStateSet (and hold the probe's topic) before the next kill ("rejoin": restart ->
#             that).
# Rounds alternate the order (apache first in odd rounds, ours first in even ones). Every server gets the same JVM
# flags (-Xmx$SERVER_HEAP for brokers, -Xmx$CONTROLLER_HEAP for controllers and NameServers, the JVM's default GC).
# Apache's servers log at INFO to their stdout, like ours; all logs stay in the work dir. The NameServers start as
# scripts/lib/rocketmq-servers.sh starts them (which also gives the ports, the log line and the tool runs). Everything
# started is stopped on exit and the stores are removed.
#
# Usage: scripts/bench-failover.sh
#   env COUNT (50000)  SIZE (1024)  QUEUES (8)  SYNC_THREADS (16)  RUNS (5)  RATE (500)
#       FLUSH (ASYNC_FLUSH | SYNC_FLUSH)  ROUNDS (1: apache then vrmq; 2: then vrmq and apache again)
#       SERVER_HEAP (512m)  CONTROLLER_HEAP (256m)  SKIP_BUILD=1 (reuse built jars)
#       QUIET_WAIT_SECONDS (0: before each side, wait up to this long for other Maven builds to finish)
#       SIDES ("apache vrmq"; one of them to run only that side, e.g. while looking into it)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-failover
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
COUNT="${COUNT:-50000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
SYNC_THREADS="${SYNC_THREADS:-16}"
RUNS="${RUNS:-5}"
RATE="${RATE:-500}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
CONTROLLER_HEAP="${CONTROLLER_HEAP:-256m}"
QUIET_WAIT_SECONDS="${QUIET_WAIT_SECONDS:-0}"
SIDES="${SIDES:-apache vrmq}"
CLIENT_WARMUP_COUNT=5000
CLIENT_HEAP=256m
CLIENT_JVM_OPTS=""
COMMIT_LOG_FILE_BYTES=134217728
BROKER_NAME=bench-ctl
PROBE_TOPIC=FailoverBench
BOOT_TIMEOUT_SECONDS=120
IN_SYNC_TIMEOUT_SECONDS=180
STOP_TIMEOUT_SECONDS=10
VRMQ_CONTROLLER_JAR="$ROOT/controller-verticle/target/vrmq-controller.jar"
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-failover.XXXXXX)"
# The library's settings: every server -Xmx$SERVER_HEAP but the NameServers (-Xmx$CONTROLLER_HEAP); Apache's at INFO,
# with java.lang opened to them.
APACHE_JVM=same
NAMESRV_HEAP="$CONTROLLER_HEAP"
APACHE_LOG_LEVEL=INFO
EXTRA_JVM_OPTS="--add-opens java.base/java.lang=ALL-UNNAMED"
# The library keeps the NameServer's pid (NAMESRV_PID) and the tool's (TOOL_PID); the brokers and controllers are here.
CONTROLLER_PIDS=()
BROKER_PIDS=()
BROKER_PORTS=()
TAKEN_PORTS=()
PORT=""

case "$FLUSH" in ASYNC_FLUSH | SYNC_FLUSH) ;; *) echo "FLUSH must be ASYNC_FLUSH or SYNC_FLUSH" >&2; exit 2 ;; esac

# Brokers first (they would otherwise log controller and NameServer errors while stopping), then the rest.
stop_side() {
    local pid
    for pid in "${BROKER_PIDS[@]}"; do stop_pid "$pid"; done
    BROKER_PIDS=()
    stop_servers
    for pid in "${CONTROLLER_PIDS[@]}"; do stop_pid "$pid"; done
    CONTROLLER_PIDS=()
}

# In place of the library's EXIT trap, also on a failed run: the stores go (hundreds of MB), the logs and tool outputs
# stay in the work dir.
trap 'stop_pid "$TOOL_PID"; stop_side; rm -rf "$WORK"/*/b*/store "$WORK"/*/c*/store' EXIT

# Sets PORT to a port p with p-2 .. p+1 free (brokers listen on p, the fast channel p-2 and HA p+1), at least 4 away
# from every port picked before for this side: the servers bind only later, so a port check alone would not see
# earlier picks. Not in $(...): the list of picks must survive the call.
pick_port() {
    local port taken near
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 30000))
        near=0
        for taken in "${TAKEN_PORTS[@]}"; do ((port - taken < 4 && taken - port < 4)) && near=1; done
        if ((near == 0)) && port_free $((port - 2)) && port_free $((port - 1)) && port_free "$port" \
            && port_free $((port + 1)); then
            TAKEN_PORTS+=("$port")
            PORT="$port"
            return
        fi
    done
    log "no free port found"
    exit 1
}

# start_<kind>_controllers DIR: three nodes n0..n2; sets CONTROLLER_ADDR ("a;b;c", the brokers' controllerAddr).
start_apache_controllers() {
    local dir="$1" ports=() i
    for i in 0 1 2; do pick_port; ports+=("$PORT"); done
    local peers="n0-127.0.0.1:${ports[0]};n1-127.0.0.1:${ports[1]};n2-127.0.0.1:${ports[2]}"
    CONTROLLER_ADDR="127.0.0.1:${ports[0]};127.0.0.1:${ports[1]};127.0.0.1:${ports[2]}"
    for i in 0 1 2; do
        local node="$dir/c$i"
        mkdir -p "$node"
        cat > "$node/controller.conf" <<CONF
controllerType=DLedger
controllerDLegerGroup=bench-controller
controllerDLegerPeers=$peers
controllerDLegerSelfId=n$i
controllerStorePath=$node/store
configStorePath=$node/controller.properties
mappedFileSize=16777216
bindAddress=127.0.0.1
CONF
        apache_jvm "$node" "-Xmx$CONTROLLER_HEAP" org.apache.rocketmq.controller.ControllerStartup \
            -c "$node/controller.conf" > "$node/controller.log" 2>&1 &
        CONTROLLER_PIDS+=($!)
    done
}

start_vrmq_controllers() {
    local dir="$1" ports=() raft=() i
    for i in 0 1 2; do pick_port; ports+=("$PORT"); pick_port; raft+=("$PORT"); done
    local peers="n0-127.0.0.1:${ports[0]};n1-127.0.0.1:${ports[1]};n2-127.0.0.1:${ports[2]}"
    local raft_peers="n0-127.0.0.1:${raft[0]};n1-127.0.0.1:${raft[1]};n2-127.0.0.1:${raft[2]}"
    CONTROLLER_ADDR="127.0.0.1:${ports[0]};127.0.0.1:${ports[1]};127.0.0.1:${ports[2]}"
    for i in 0 1 2; do
        local node="$dir/c$i"
        mkdir -p "$node"
        pick_port
        cat > "$node/controller.json" <<JSON
{"controllerDLegerGroup": "bench-controller", "controllerDLegerPeers": "$peers", "controllerDLegerSelfId": "n$i",
 "controllerRaftPeers": "$raft_peers", "controllerStorePath": "$node/store",
 "configStorePath": "$node/controller.properties", "bindAddress": "127.0.0.1", "adminHost": "127.0.0.1",
 "adminPort": $PORT}
JSON
        java "-Xmx$CONTROLLER_HEAP" -jar "$VRMQ_CONTROLLER_JAR" -conf "$node/controller.json" \
            > "$node/controller.log" 2>&1 &
        CONTROLLER_PIDS+=($!)
    done
}

# write_<kind>_broker DIR PORT NAMESRV: one broker's config in controller mode (the controller assigns id and role).
write_apache_broker() {
    local dir="$1" port="$2" namesrv="$3" store="$1/store"
    mkdir -p "$dir"
    cat > "$dir/broker.conf" <<CONF
brokerClusterName=BenchCluster
brokerName=$BROKER_NAME
brokerId=-1
brokerRole=SLAVE
enableControllerMode=true
controllerAddr=$CONTROLLER_ADDR
allAckInSyncStateSet=true
brokerIP1=127.0.0.1
brokerIP2=127.0.0.1
bindAddress=127.0.0.1
listenPort=$port
namesrvAddr=$namesrv
flushDiskType=$FLUSH
autoCreateTopicEnable=true
defaultTopicQueueNums=$QUEUES
$(apache_store_conf "$store")
CONF
}

write_vrmq_broker() {
    local dir="$1" port="$2" namesrv="$3"
    mkdir -p "$dir"
    cat > "$dir/broker.json" <<JSON
{"brokerClusterName": "BenchCluster", "brokerName": "$BROKER_NAME", "brokerId": -1, "brokerRole": "SLAVE",
 "enableControllerMode": true, "controllerAddr": "$CONTROLLER_ADDR", "allAckInSyncStateSet": true,
 "listenPort": $port, "namesrvAddr": "$namesrv", "brokerIP1": "127.0.0.1", "bindAddress": "127.0.0.1",
 "flushDiskType": "$FLUSH", "autoCreateTopicEnable": true, "defaultTopicQueueNums": $QUEUES,
 "storePathRootDir": "$dir/store", "mappedFileSizeCommitLog": $COMMIT_LOG_FILE_BYTES, "adminPort": -1, "grpcListenPort": -1}
JSON
}

# launch_<kind>_broker DIR INDEX: (re)starts broker INDEX from its config, appending to its log.
launch_apache_broker() {
    local dir="$1" index="$2"
    apache_jvm "$dir" "-Xmx$SERVER_HEAP" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" \
        >> "$dir/broker.log" 2>&1 &
    BROKER_PIDS[index]=$!
}

launch_vrmq_broker() {
    local dir="$1" index="$2"
    java "-Xmx$SERVER_HEAP" -jar "$VRMQ_BROKER_JAR" -conf "$dir/broker.json" >> "$dir/broker.log" 2>&1 &
    BROKER_PIDS[index]=$!
}

# await_in_sync LABEL DIR OUT [extra args]: until the controller reports a master and all three in the SyncStateSet.
await_in_sync() {
    local label="$1" dir="$2" out="$3"
    shift 3
    run_tool "$out" io.vrmq.load.AwaitSyncStateSet --controllers "$CONTROLLER_ADDR" --broker-name "$BROKER_NAME" \
        --timeout-seconds "$IN_SYNC_TIMEOUT_SECONDS" "$@" \
        || { log "$label: broker set not in sync; broker log tails:"; tail -n 15 "$dir"/b*/broker.log >&2; exit 1; }
}

broker_index() {
    local i
    for i in 0 1 2; do [[ "127.0.0.1:${BROKER_PORTS[i]}" == "$1" ]] && { echo "$i"; return; }; done
    log "no broker of ours at $1"
    exit 1
}

broker_pid_list() {
    local i list=""
    for i in 0 1 2; do list+="${list:+,}127.0.0.1:${BROKER_PORTS[i]}=${BROKER_PIDS[i]}"; done
    echo "$list"
}

now_ms() { date +%s%3N; }

# start_side LABEL DIR: controllers (until one leads), NameServer, then the three brokers until all are in sync.
# Sets NAMESRV; the pids and ports go into CONTROLLER_PIDS, NAMESRV_PID, BROKER_PIDS and BROKER_PORTS.
start_side() {
    local label="$1" dir="$2" i
    TAKEN_PORTS=()
    log "$label: starting three controllers (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "start_${label}_controllers" "$dir"
    for i in 0 1 2; do
        await_line "${CONTROLLER_PIDS[i]}" "$dir/c$i/controller.log" "The Controller Server boot success" \
            "controller n$i"
    done
    await_in_sync "$label" "$dir" "$dir/leader.out" --replicas 0
    pick_port
    NAMESRV="127.0.0.1:$PORT"
    log "$label: controllers $CONTROLLER_ADDR lead; starting the NameServer on $NAMESRV"
    "start_${label}_namesrv" "$PORT" "$dir"
    await_namesrv "$dir/namesrv.log"
    BROKER_PORTS=()
    for i in 0 1 2; do
        pick_port
        BROKER_PORTS+=("$PORT")
        "write_${label}_broker" "$dir/b$i" "$PORT" "$NAMESRV"
    done
    log "$label: starting three brokers on ports ${BROKER_PORTS[*]}, $FLUSH, allAckInSyncStateSet"
    local start_ms
    start_ms="$(now_ms)"
    for i in 0 1 2; do "launch_${label}_broker" "$dir/b$i" "$i"; done
    await_in_sync "$label" "$dir" "$dir/in-sync.out" --replicas 3
    log "$label: all three in the SyncStateSet $(( $(now_ms) - start_ms )) ms after the brokers' start"
}

# sync_phase ROUND LABEL DIR: MessageLoadBench's sync sends; the master's CPU and the two slaves' CPU.
sync_phase() {
    local round="$1" label="$2" dir="$3" master master_index replicas="" i
    master="$(sed -n 's/^IN_SYNC master=\([^ ]*\).*/\1/p' "$dir/in-sync.out")"
    master_index="$(broker_index "$master")"
    for i in 0 1 2; do ((i == master_index)) || replicas+="${replicas:+,}${BROKER_PIDS[i]}"; done
    log "$label: phase sync, master $master"
    run_tool "$dir/sync.out" io.vrmq.load.MessageLoadBench --namesrv "$NAMESRV" --label "$label" --topic Bench_sync \
        --size "$SIZE" --queues "$QUEUES" --mode sync --threads "$SYNC_THREADS" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT" --watch-pid "${BROKER_PIDS[master_index]}" --replica-pids "$replicas" \
        || { log "$label: phase sync failed; master log:"; tail -30 "$dir/b$master_index/broker.log" >&2; exit 1; }
    echo "$round $label $(sed -n 's/^RESULT //p' "$dir/sync.out")" >> "$WORK/sync"
}

# failover_phase ROUND LABEL DIR: RUNS kills of the master, each but the last followed by the killed broker's restart.
failover_phase() {
    local round="$1" label="$2" dir="$3" run killed killed_index rejoin_ms start_ms
    for run in $(seq 1 "$RUNS"); do
        log "$label: failover $run of $RUNS"
        run_tool "$dir/failover-$run.out" io.vrmq.load.FailoverProbe --namesrv "$NAMESRV" \
            --controllers "$CONTROLLER_ADDR" --broker-name "$BROKER_NAME" --brokers "$(broker_pid_list)" \
            --topic "$PROBE_TOPIC" --queues "$QUEUES" --rate "$RATE" --size "$SIZE" --label "$label" \
            || { log "$label: failover $run not complete; broker log tails:"; tail -n 15 "$dir"/b*/broker.log >&2
                 exit 1; }
        killed="$(sed -n 's/^KILLED \([^ ]*\).*/\1/p' "$dir/failover-$run.out")"
        killed_index="$(broker_index "$killed")"
        { wait "${BROKER_PIDS[killed_index]}"; } 2>/dev/null || true    # reap it (quietly): its pid is not ours now
        BROKER_PIDS[killed_index]=""
        rejoin_ms=-1
        if ((run < RUNS)); then
            start_ms="$(now_ms)"
            "launch_${label}_broker" "$dir/b$killed_index" "$killed_index"
            await_in_sync "$label" "$dir" "$dir/rejoin-$run.out" --replicas 3 --topic "$PROBE_TOPIC"
            rejoin_ms=$(( $(now_ms) - start_ms ))
            log "$label: $killed restarted, back in the SyncStateSet after $rejoin_ms ms"
        fi
        echo "$round $label $run $rejoin_ms $(sed -n 's/^RESULT //p' "$dir/failover-$run.out")" >> "$WORK/failover"
    done
}

bench() {
    local round="$1" label="$2" dir="$WORK/$2-$1"
    mkdir -p "$dir"
    await_quiet
    start_side "$label" "$dir"
    sync_phase "$round" "$label" "$dir"
    failover_phase "$round" "$label" "$dir"
    log "$label: stopping"
    stop_side
    rm -rf "$dir"/b*/store "$dir"/c*/store
}

# "median min max" of the numbers on stdin (median of an even count: the mean of the middle two).
stats() { sort -n | awk '{ v[NR] = $1 } END { if (NR == 0) { print "- - -"; exit }
    m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m, v[1], v[NR] }'; }

# "median min max" of one field of the failover results of one side and round (-1 = not seen: left out).
failover_stats() {
    local line
    awk -v r="$1" -v l="$2" '$1 == r && $2 == l { $1 = $2 = $3 = $4 = ""; print }' "$WORK/failover" \
        | while read -r line; do field "$line" "$3"; done | awk '$1 >= 0' | stats
}

# One line per side and round: the sync figures, then median/min/max of each failover figure.
summarize() {
    local round label json
    while read -r round label json; do
        echo "$round $label $(field "$json" sendPerSecond) $(field "$json" sendP50Micros)" \
            "$(field "$json" sendP99Micros) $(field "$json" brokerCpuSendMillis) $(field "$json" replicaCpuSendMillis)" \
            "$(field "$json" sent) $(( $(field "$json" sendErrors) + $(field "$json" sendNotOk) ))" \
            "$(failover_stats "$round" "$label" electedMillis) $(failover_stats "$round" "$label" routedMillis)" \
            "$(failover_stats "$round" "$label" firstOkMillis) $(failover_stats "$round" "$label" resyncMillis)" \
            "$(failover_stats "$round" "$label" failedSends)" \
            "$(awk -v r="$round" -v l="$label" '$1 == r && $2 == l && $4 >= 0 { print $4 }' "$WORK/failover" | stats)"
    done < "$WORK/sync"
}

report() {
    summarize > "$WORK/summary"
    echo
    echo "Controller mode, 3 controllers + 3 brokers (allAckInSyncStateSet), official client 5.5.0, ${SIZE}-byte" \
        "messages, $QUEUES queues, $FLUSH, brokers -Xmx$SERVER_HEAP, controllers/NameServer -Xmx$CONTROLLER_HEAP;" \
        "sync: $SYNC_THREADS threads, $COUNT messages; failover: $RUNS kills at $RATE msgs/s; $(nproc) cores," \
        "$(date -u '+%Y-%m-%d %H:%M UTC')"
    awk '
        function add(key, value) { v[key, $2] += value }
        function ratio(key) { return v[key, "apache"] == 0 ? "-" \
            : sprintf("%.2f", (v[key, "vrmq"] / runs["vrmq"]) / (v[key, "apache"] / runs["apache"])) }
        function cpu(millis, messages) { return messages > 0 ? 1000 * millis / messages : 0 }
        function spread(i) { return sprintf("%s (%s–%s)", $i, $(i + 1), $(i + 2)) }
        {
            runs[$2]++; n++
            master = cpu($6, $8); all = cpu($6 + $7, $8)
            add("sync", $3); add("p50", $4); add("p99", $5); add("cpu", master); add("cpuall", all)
            add("elected", $10); add("routed", $13); add("firstok", $16); add("resync", $19); add("failed", $22)
            add("rejoin", $25)
            sync[n] = sprintf("| %s | %d | %.0f | %.2f | %.2f | %.0f | %.0f | %d |", $2, $1, $3, $4 / 1000,
                $5 / 1000, master, all, $9)
            fo[n] = sprintf("| %s | %d | %s | %s | %s | %s | %s | %s |", $2, $1, spread(10), spread(13),
                spread(16), spread(19), spread(22), spread(25))
        }
        END {
            print ""
            print "| server | round | sync msgs/s | p50 ms | p99 ms | CPU µs/msg master | CPU µs/msg all 3 brokers | send errors |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print sync[i]
            print ""
            print "Failover, median (min–max) over the kills; times in ms from the SIGKILL:"
            print ""
            print "| server | round | elected | routed | first SEND_OK | resynced | failed sends | rejoin ms |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print fo[i]
            if (!runs["apache"] || !runs["vrmq"]) exit
            print ""
            print "Ratios ours/apache (means of the rounds). Throughput: above 1 is better for us; the rest: below 1 is."
            print ""
            print "| sync msgs/s | p50 | p99 | CPU/msg master | CPU/msg all | elected | routed | first SEND_OK | resynced | failed sends | rejoin |"
            print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", ratio("sync"),
                ratio("p50"), ratio("p99"), ratio("cpu"), ratio("cpuall"), ratio("elected"), ratio("routed"),
                ratio("firstok"), ratio("resync"), ratio("failed"), ratio("rejoin")
        }
    ' "$WORK/summary"
    echo
    echo "(work dir with server logs and each tool run's output: $WORK)"
}

log "work dir $WORK"
build_jars controller-verticle,nameserver-verticle,broker-verticle,benchmark/load "$VRMQ_CONTROLLER_JAR" \
    "$VRMQ_NAMESRV_JAR" "$VRMQ_BROKER_JAR" "$LOAD_JAR"
for round in $(seq 1 "$ROUNDS"); do
    for label in $( ((round % 2 == 1)) && echo apache vrmq || echo vrmq apache); do
        if [[ " $SIDES " == *" $label "* ]]; then bench "$round" "$label"; fi
    done
done
report
