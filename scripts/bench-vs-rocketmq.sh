#!/usr/bin/env bash
# Broker benchmark: the official RocketMQ 5.5.0 client's send and consume throughput and latency against Apache
# RocketMQ 5.5.0 (NameServer + Broker from the Maven artifacts) and against ours (vrmq-namesrv.jar +
# vrmq-broker.jar), in the same run, on the same machine, with the same flush settings and the same load tool
# (benchmark/load MessageLoadBench, 1 KiB messages). One server pair at a time: start its NameServer, start its
# broker and time it to ready (start -> first NameServer lookup that routes TBW102 to it), then the phases, each a
# fresh load-tool JVM on a new topic with 8 queues:
#   warm   async send + concurrent consumer, WARMUP_COUNT messages (JIT, connections, page cache; not reported),
#          then WARMUP_COUNT more drained as a backlog (phase "warmdrain", run with warm): without it the measured
#          drain was the broker's first, and its JIT compiler took about half the broker's CPU during it
#          (benchmark/RESULTS.md, "Consume path"), so the drain timed the compiler more than the pull path
#   sync   sync send from SYNC_THREADS threads, COUNT messages (after a 5,000-message in-process client warm-up)
#   async  async send with ASYNC_WINDOW in flight, COUNT messages; then a push consumer drains them as a backlog:
#          the consume throughput (first to last message), and lost / duplicated counts; "to 1st msg" is the time
#          from starting that consumer to its first message, shown apart: the official client's start loses the
#          heartbeat that carries its new subscription version now and then (2 of the 6 backlog consumers of the sixth
#          session's last run, Apache's and ours alike), and then waits 30 s for its next one (the load tool's
#          --first-delivery-seconds, 45, allows for it)
#   live   async send paced at LIVE_RATE msgs/s with a consumer running: end-to-end latency below saturation
#          (after 5,000 messages of in-process warm-up on another topic that the same consumer receives)
# Around each phase the tool reads the broker's CPU time (utime + stime, /proc/<pid>/stat): CPU per message is the
# least noisy figure on a small shared machine. After the last phase the broker's /proc/<pid>/status gives its peak
# RSS (VmHWM), anonymous RSS (RssAnon: heap, native memory, stacks: what the issue's memory target counts), file RSS
# (RssFile: resident pages of mapped files, the store's segments and the jars; page cache, shared with the OS) and
# shmem RSS (RssShmem). Prints a side-by-side table and the ratios ours/apache. Both brokers run with the same JVM
# flags (-Xmx$SERVER_HEAP, the JVM's default GC; not runbroker.sh's pre-touched heap) unless APACHE_JVM=defaults.
# Rounds alternate the order (apache first in odd rounds, ours first in even ones) so that neither always inherits
# the other's page cache and disk write-back. Everything started is stopped on exit.
# With REPLICATION set, each side's master gets that role and a slave of its own kind (brokerId 1, same machine)
# that must be routed before the phases start; CPU and memory figures stay the master's. Apache RocketMQ 5 answers a
# SYNC_MASTER send before any slave has it unless inSyncReplicas is 2, so its master gets inSyncReplicas=2: both
# sides then answer SEND_OK only once the slave has the message (RocketMQ 4.x's SYNC_MASTER).
#
# Usage: scripts/bench-vs-rocketmq.sh
#   env COUNT (100000)  WARMUP_COUNT (20000)  SIZE (1024)  QUEUES (8)  SYNC_THREADS (16)  ASYNC_WINDOW (512)
#       CLIENT_WARMUP_COUNT (5000: the in-process warm-up before the sync, async and live phases)
#       LIVE_WARMUP_COUNT (CLIENT_WARMUP_COUNT: the live phase's, paced like it; 5,000 at 2,000 msgs/s is 2.5 s, too
#       short for either broker's JIT to settle on the paced pattern: benchmark/RESULTS.md, "End-to-end tail")
#       LIVE_COUNT (20000)  LIVE_RATE (2000)  FLUSH (ASYNC_FLUSH | SYNC_FLUSH)  ROUNDS (1: apache then vrmq;
#       2: then vrmq and apache again)
#       SERVER_HEAP (512m, every server's with APACHE_JVM=same, and the ceiling's)  SKIP_BUILD=1 (reuse built jars)
#       REPLICATION (none | ASYNC_MASTER | SYNC_MASTER: the master's role, with a slave per side)
#       QUIET_WAIT_SECONDS (0: before each server, wait up to this long for other Maven builds to finish)
#       CEILING=1 (also run every phase against the protocol ceiling, benchmark/ceiling: one process on our codec and
#       event-loop setup that is its own NameServer and answers sends and pulls from memory, storing nothing
#       durable; each round starts with it, and the report gives ours and Apache's figures as fractions of it.
#       No slave for it with REPLICATION.)
#       CEILING_EPOLL (false: the ceiling on Java NIO, as our servers at their default useEpollNativeSelector false;
#       true: on Netty's native epoll transport, to compare with servers run with useEpollNativeSelector true)
#       PHASES ("warm sync async live": the phases to run, in that order; e.g. "warm sync async")
#       ACL=1 (both brokers authenticate and authorize every request, ACL 2.0, and the load tool signs with the
#       official AclClientRPCHook as the Super user the brokers create from initAuthenticationUser: so authorization
#       is the Super user's shortcut on both sides)
#       TLS=1 (the load tool's client runs with -Dtls.enable=true: every connection to the NameServer and broker is
#       TLS; both servers stay in their default permissive mode with a self-signed test-mode certificate)
#       scripts/bench-security.sh runs this script with neither, ACL=1 and TLS=1 and sets the figures side by side.
#       VRMQ_BROKER_CONFIG (a JSON object whose keys are added to every broker.json of ours, master and slave, e.g.
#       '{"serverSelectorThreads":1}')
#       VRMQ_VARIANTS (space-separated NAME=JSON pairs: our broker runs once per variant in each round, as server
#       "vrmq-NAME", with JSON's keys added after VRMQ_BROKER_CONFIG's, so one run measures a lever on and off with
#       the same jar, e.g. 'off={"serverSelectorThreads":1,"batchAppendsPerWriterTurn":false}
#       on={"serverSelectorThreads":2,"batchAppendsPerWriterTurn":true}'; the report adds each variant's ratio to
#       the first. Odd rounds run apache then the variants in order, even rounds the variants reversed then apache.)
#       SKIP_APACHE=1 (only ours, and the ceiling with CEILING=1: a quick lever comparison)
#       APACHE_JVM (same | defaults): same = every server -Xmx$SERVER_HEAP with the JVM's default GC; defaults = each
#       side at its own defaults: Apache's NameServer and broker with the JVM flags of its distribution's
#       bin/runserver.sh and bin/runbroker.sh (broker: -Xms8g -Xmx8g pre-touched, G1 with 16 MiB regions,
#       MaxDirectMemorySize=15g; the heap size from APACHE_DEFAULT_BROKER_HEAP, 8g as the script has it), ours with
#       the flags scripts/broker.sh and scripts/namesrv.sh use (scripts/lib/jvm-defaults.sh)
#       VRMQ_JVM_OPTS (extra JVM flags for our brokers, master and slave, after the heap and GC flags, @DIR@ standing
#       for that broker's work directory, e.g. '-XX:StartFlightRecording=filename=@DIR@/broker.jfr,settings=profile'
#       or '-XX:MaxDirectMemorySize=64m'; the work dir is kept and printed at the end)
#       VRMQ_JVM_VARIANTS (';'-separated NAME=FLAGS pairs, instead of VRMQ_VARIANTS: our broker runs once per variant
#       in each round, as "vrmq-NAME", with FLAGS as its heap and GC flags, so one run measures JVM flags on the same
#       jar, e.g. 'base=-Xmx512m;young64=-Xmx512m -XX:MaxNewSize=64m'; leading NAME=VALUE words of FLAGS are
#       environment variables for that JVM, e.g. 'arenas2=MALLOC_ARENA_MAX=2 -Xmx512m')
#       BOOT_TIMEOUT_SECONDS (120: how long a server may take to boot and be routed; Apache's pre-touched 8 GiB heap
#       takes minutes on a loaded machine)
#       NMT=1 (both brokers run with -XX:NativeMemoryTracking=summary; after the last phase `jcmd VM.native_memory
#       summary` is saved in the work dir and the report adds a table of committed MiB per category)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BENCH_NAME=bench-vs-rocketmq
# shellcheck source=lib/rocketmq-servers.sh
source "$ROOT/scripts/lib/rocketmq-servers.sh"
COUNT="${COUNT:-100000}"
WARMUP_COUNT="${WARMUP_COUNT:-20000}"
SIZE="${SIZE:-1024}"
QUEUES="${QUEUES:-8}"
SYNC_THREADS="${SYNC_THREADS:-16}"
ASYNC_WINDOW="${ASYNC_WINDOW:-512}"
LIVE_COUNT="${LIVE_COUNT:-20000}"
LIVE_RATE="${LIVE_RATE:-2000}"
FLUSH="${FLUSH:-ASYNC_FLUSH}"
ROUNDS="${ROUNDS:-1}"
SERVER_HEAP="${SERVER_HEAP:-512m}"
QUIET_WAIT_SECONDS="${QUIET_WAIT_SECONDS:-0}"
REPLICATION="${REPLICATION:-none}"
CEILING="${CEILING:-0}"
CEILING_EPOLL="${CEILING_EPOLL:-false}"
PHASES="${PHASES:-warm sync async live}"
ACL="${ACL:-0}"
TLS="${TLS:-0}"
ACL_USER=bench
ACL_SECRET=bench-secret-1
VRMQ_BROKER_CONFIG="${VRMQ_BROKER_CONFIG:-}"
VRMQ_VARIANTS="${VRMQ_VARIANTS:-}"
SKIP_APACHE="${SKIP_APACHE:-0}"
VRMQ_JVM_VARIANTS="${VRMQ_JVM_VARIANTS:-}"
NMT="${NMT:-0}"
CLIENT_WARMUP_COUNT="${CLIENT_WARMUP_COUNT:-5000}"
LIVE_WARMUP_COUNT="${LIVE_WARMUP_COUNT:-$CLIENT_WARMUP_COUNT}"
CLIENT_HEAP=512m
COMMIT_LOG_FILE_BYTES=134217728
BOOT_TIMEOUT_SECONDS="${BOOT_TIMEOUT_SECONDS:-120}"
STOP_TIMEOUT_SECONDS=10
VRMQ_NAMESRV_JAR="$ROOT/nameserver-verticle/target/vrmq-namesrv.jar"
VRMQ_BROKER_JAR="$ROOT/broker-verticle/target/vrmq-broker.jar"
LOAD_JAR="$ROOT/benchmark/load/target/vrmq-load.jar"
CEILING_JAR="$ROOT/benchmark/ceiling/target/vrmq-ceiling.jar"
APACHE_LOGBACK="$ROOT/compat-tests/src/test/resources/rmq-compat-logback.xml"
WORK="$(mktemp -d -t bench-vs-rocketmq.XXXXXX)"

case "$FLUSH" in ASYNC_FLUSH | SYNC_FLUSH) ;; *) echo "FLUSH must be ASYNC_FLUSH or SYNC_FLUSH" >&2; exit 2 ;; esac
case "$REPLICATION" in none | ASYNC_MASTER | SYNC_MASTER) ;;
    *) echo "REPLICATION must be none, ASYNC_MASTER or SYNC_MASTER" >&2; exit 2 ;; esac
MASTER_ROLE="$([[ "$REPLICATION" == none ]] && echo ASYNC_MASTER || echo "$REPLICATION")"
[[ "$CEILING" == 1 && ( "$ACL" == 1 || "$TLS" == 1 ) ]] && { echo "the ceiling has no ACL or TLS" >&2; exit 2; }
for name in $PHASES; do
    case "$name" in warm | sync | async | live) ;; *) echo "PHASES: unknown phase $name" >&2; exit 2 ;; esac
done
# The load tool's extra JVM options and arguments for ACL and TLS (one copy of the credentials for every side).
CLIENT_JVM_OPTS="$([[ "$TLS" == 1 ]] && echo "-Dtls.enable=true" || true)"
CLIENT_ACL_ARGS=()
[[ "$ACL" == 1 ]] && CLIENT_ACL_ARGS=(--access-key "$ACL_USER" --secret-key "$ACL_SECRET")

# Our servers of this run: "vrmq", or "vrmq-NAME" per VRMQ_VARIANTS or VRMQ_JVM_VARIANTS entry; VARIANT_JSON[label]
# holds its broker.json keys, VARIANT_JVM[label] its JVM flags.
declare -A VARIANT_JSON=()
declare -A VARIANT_JVM=()
VRMQ_LABELS=()
if [[ -n "$VRMQ_BROKER_CONFIG" && "$VRMQ_BROKER_CONFIG" != \{*\} ]]; then
    echo "VRMQ_BROKER_CONFIG must be a JSON object" >&2; exit 2
fi
[[ -n "$VRMQ_VARIANTS" && -n "$VRMQ_JVM_VARIANTS" ]] \
    && { echo "VRMQ_VARIANTS and VRMQ_JVM_VARIANTS do not mix" >&2; exit 2; }
if [[ -n "$VRMQ_JVM_VARIANTS" ]]; then
    IFS=';' read -r -a jvm_variants <<< "$VRMQ_JVM_VARIANTS"
    for variant in "${jvm_variants[@]}"; do
        name="${variant%%=*}"
        [[ "$variant" == *=* && "$name" =~ ^[A-Za-z0-9_]+$ ]] \
            || { echo "VRMQ_JVM_VARIANTS entries are NAME=FLAGS (NAME letters, digits, _): $variant" >&2; exit 2; }
        VRMQ_LABELS+=("vrmq-$name")
        VARIANT_JSON["vrmq-$name"]=""
        VARIANT_JVM["vrmq-$name"]="${variant#*=}"
    done
elif [[ -z "$VRMQ_VARIANTS" ]]; then
    VRMQ_LABELS=(vrmq)
    VARIANT_JSON[vrmq]=""
else
    for variant in $VRMQ_VARIANTS; do
        name="${variant%%=*}"
        [[ "$variant" == *=\{*\} && "$name" =~ ^[A-Za-z0-9_]+$ ]] \
            || { echo "VRMQ_VARIANTS entries are NAME={json} (NAME letters, digits, _): $variant" >&2; exit 2; }
        VRMQ_LABELS+=("vrmq-$name")
        VARIANT_JSON["vrmq-$name"]="${variant#*=}"
    done
fi
CURRENT_LABEL=""

build() {
    build_jars nameserver-verticle,broker-verticle,benchmark/load,benchmark/ceiling "$VRMQ_NAMESRV_JAR" \
        "$VRMQ_BROKER_JAR" "$LOAD_JAR" "$CEILING_JAR"
}


# The ceiling is its NameServer and its broker in one process: "starting its broker" only names that process.
start_ceiling_namesrv() {
    local port="$1" dir="$2"
    java "-Xmx$SERVER_HEAP" -XX:MaxDirectMemorySize=1280m "$(gc_log_option "$dir")" -jar "$CEILING_JAR" \
        --host 127.0.0.1 --port "$port" --max-stored-mib 1024 \
        --default-queues "$QUEUES" --use-epoll-native-selector "$CEILING_EPOLL" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

start_ceiling_broker() {
    BROKER_PID="$NAMESRV_PID"
}

# With REPLICATION: the master's slave, routed (so registered and told its master) before the phases.
start_slave() {
    local label="$1" namesrv="$2" dir="$3"
    [[ "$REPLICATION" != none && "$label" != ceiling ]] || return 0
    local slave_port
    slave_port="$(free_port)"
    log "$label: starting its slave on 127.0.0.1:$slave_port"
    "start_$(kind_of "$label")_broker" "$slave_port" "$namesrv" "$dir" slave
    run_tool "$dir/slave/ready.out" io.vrmq.load.AwaitRoute --namesrv "$namesrv" \
        --broker-addr "127.0.0.1:$slave_port" --topic TBW102 --timeout-seconds "$BOOT_TIMEOUT_SECONDS" \
        --pid "$SLAVE_PID" || { log "$label: slave not ready; log tail:"; tail -30 "$dir/slave/broker.log" >&2; exit 1; }
}

# One phase of MessageLoadBench (skipped when PHASES leaves it out); appends "round label phase json" to
# $WORK/results.
phase() {
    local round="$1" label="$2" name="$3" namesrv="$4"
    shift 4
    local gate="$name"
    [[ "$name" == warmdrain ]] && gate=warm
    [[ " $PHASES " == *" $gate "* ]] || return 0
    log "$label: phase $name"
    local out="$WORK/$label-$round-$name.out"
    run_tool "$out" io.vrmq.load.MessageLoadBench --namesrv "$namesrv" --label "$label" --topic "Bench_${name}" \
        --size "$SIZE" --queues "$QUEUES" --watch-pid "$BROKER_PID" ${CLIENT_ACL_ARGS[@]+"${CLIENT_ACL_ARGS[@]}"} \
        "$@" \
        || { log "$label: phase $name failed; broker log:"; tail -30 "$WORK/$label-$round/broker.log" >&2; exit 1; }
    echo "$round $label $name $(grep '^RESULT ' "$out" | sed 's/^RESULT //')" >> "$WORK/results"
}

bench() {
    local round="$1" label="$2" dir="$WORK/$2-$1"
    mkdir -p "$dir"
    await_quiet
    CURRENT_LABEL="$label"
    start_namesrv "$label" "$dir"
    local namesrv="$NAMESRV"
    start_broker "$label" "$dir" "$namesrv" TBW102
    [[ -n "${VARIANT_JSON[$label]:-}" || ( "$label" == vrmq && -n "$VRMQ_BROKER_CONFIG" ) ]] \
        && log "$label: broker config additions $VRMQ_BROKER_CONFIG ${VARIANT_JSON[$label]:-}"
    local ready_ms="$READY_MS"
    start_slave "$label" "$namesrv" "$dir"
    phase "$round" "$label" warm "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --count "$WARMUP_COUNT" --consume concurrent
    phase "$round" "$label" warmdrain "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --count "$WARMUP_COUNT" --consume after
    phase "$round" "$label" sync "$namesrv" --mode sync --threads "$SYNC_THREADS" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT"
    phase "$round" "$label" async "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT" --consume after
    phase "$round" "$label" live "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" --count "$LIVE_COUNT" \
        --rate "$LIVE_RATE" --warmup-count "$LIVE_WARMUP_COUNT" --consume concurrent
    local gc
    [[ "$label" == ceiling ]] || save_nmt "$dir"
    gc="$(awk '/Pause/ { pauses++; sub(/ms$/, "", $NF); millis += $NF } END { printf "%d %.0f", pauses, millis }' \
        "$dir/gc.log")"
    echo "$round $label $ready_ms $(proc_status "$BROKER_PID" VmHWM) $(proc_status "$BROKER_PID" RssAnon)" \
        "$(proc_status "$BROKER_PID" Threads) $gc $(proc_status "$BROKER_PID" RssFile)" \
        "$(proc_status "$BROKER_PID" RssShmem)" >> "$WORK/servers"
    log "$label: stopping"
    stop_servers
    rm -rf "$dir/store" "$dir/slave/store" || log "could not remove all of $dir/store"
}

# One line per server run: the figures the tables show, in the order the awk in report() reads them.
summarize() {
    local round label ready peak anon threads pauses pause_ms file shmem sync async live
    while read -r round label ready peak anon threads pauses pause_ms file shmem; do
        sync="$(phase_json "$round" "$label" sync)"
        async="$(phase_json "$round" "$label" async)"
        live="$(phase_json "$round" "$label" live)"
        echo "$label $ready" \
            "$(field "$sync" sendPerSecond) $(field "$sync" sendP99Micros)" \
            "$(field "$async" sendPerSecond) $(field "$async" sendP99Micros) $(field "$async" consumePerSecond)" \
            "$(field "$live" e2eP50Micros) $(field "$live" e2eP99Micros)" \
            "$(field "$sync" brokerCpuSendMillis) $(field "$sync" sent)" \
            "$(field "$async" brokerCpuSendMillis) $(field "$async" sent)" \
            "$(field "$async" brokerCpuDrainMillis) $(field "$async" consumed)" \
            "$peak $anon $threads $pauses $pause_ms" \
            "$(( $(field "$async" lost) + $(field "$live" lost) ))" \
            "$(( $(field "$async" duplicated) + $(field "$live" duplicated) ))" \
            "$(( $(field "$sync" sendErrors) + $(field "$sync" sendNotOk) + $(field "$async" sendErrors) \
                + $(field "$async" sendNotOk) + $(field "$live" sendErrors) + $(field "$live" sendNotOk) ))" \
            "$file $shmem $(field "$async" consumeStartMillis)"
    done < "$WORK/servers"
}

report() {
    summarize > "$WORK/summary"
    echo
    echo "Official client 5.5.0, ${SIZE}-byte messages, $QUEUES queues, $FLUSH, $MASTER_ROLE" \
        "$([[ "$REPLICATION" == none ]] && echo "(no slave)" || echo "with a slave");" \
        "sync: $SYNC_THREADS threads, async: window $ASYNC_WINDOW, $COUNT messages each; live: $LIVE_COUNT at" \
        "$LIVE_RATE msgs/s; phases: $PHASES; ACL $([[ "$ACL" == 1 ]] && echo on || echo off)," \
        "client TLS $([[ "$TLS" == 1 ]] && echo on || echo off); JVM flags: $(jvm_flags_summary);" \
        "$(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    awk '
        function micros(cpuMillis, messages) { return messages > 0 ? 1000 * cpuMillis / messages : 0 }
        function add(key, value) { v[key, $1] += value; row[key] = value }
        function of(side, key) { return (v[key, side] / runs[side]) / (v[key, "ceiling"] / runs["ceiling"]) }
        function ratio(key, side, base) { b = v[key, base] / runs[base]; return b > 0 ? (v[key, side] / runs[side]) / b : 0 }
        function ratioRow(side, base) {
            printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                side, ratio("sync", side, base), ratio("async", side, base), ratio("consume", side, base),
                ratio("syncp99", side, base), ratio("asyncp99", side, base), ratio("e2e50", side, base),
                ratio("e2e99", side, base), ratio("cpusync", side, base), ratio("cpuasync", side, base),
                ratio("cpuconsume", side, base), ratio("rss", side, base), ratio("anon", side, base),
                ratio("file", side, base), ratio("shmem", side, base), ratio("ready", side, base)
        }
        function ratioHeader() {
            print "| server | sync msgs/s | async msgs/s | consume msgs/s | sync p99 | async p99 | e2e p50 | e2e p99 | CPU/msg sync | CPU/msg async | CPU/msg consume | peak RSS | anon RSS | file RSS | shmem RSS | ready |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        }
        {
            runs[$1]++; n++; label[n] = $1
            add("sync", $3); add("syncp99", $4 / 1000); add("async", $5); add("asyncp99", $6 / 1000)
            add("consume", $7); add("e2e50", $8 / 1000); add("e2e99", $9 / 1000)
            perf[n] = sprintf("| %s | %.0f | %.2f | %.0f | %.2f | %.0f | %.1f | %.2f | %.2f | %d | %d | %d |", $1, $3,
                $4 / 1000, $5, $6 / 1000, $7, $26 / 1000, $8 / 1000, $9 / 1000, $21, $22, $23)
            add("ready", $2 / 1000); add("cpusync", micros($10, $11)); add("cpuasync", micros($12, $13))
            add("cpuconsume", micros($14, $15)); add("rss", $16 / 1024); add("anon", $17 / 1024)
            add("threads", $18); add("gcms", $20); add("file", $24 / 1024); add("shmem", $25 / 1024)
            cost[n] = sprintf("| %s | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %d | %d |", $1,
                $2 / 1000, micros($10, $11), micros($12, $13), micros($14, $15), $16 / 1024, $17 / 1024, $24 / 1024,
                $25 / 1024, $18, $19, $20)
        }
        END {
            print ""
            print "| server | sync msgs/s | sync p99 ms | async msgs/s | async p99 ms | consume msgs/s | to 1st msg s | e2e p50 ms | e2e p99 ms | lost | dup | send errors |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print perf[i]
            print ""
            print "| server | ready s | broker CPU µs/msg sync | async | consume | peak RSS MiB | anon RSS MiB | file RSS MiB | shmem RSS MiB | threads | GC pauses | GC pause ms |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
            for (i = 1; i <= n; i++) print cost[i]
            if (runs["ceiling"]) {
                print ""
                print "Fractions of the protocol ceiling (means over the runs; throughput: 1 is the ceiling; p99: 1 is the ceiling, above is slower)."
                print ""
                print "| server | sync msgs/s | async msgs/s | consume msgs/s | sync p99 | async p99 | e2e p99 |"
                print "|---|---:|---:|---:|---:|---:|---:|"
                sideCount = split(vrmqLabels " apache", sides, " ")
                for (s = 1; s <= sideCount; s++) {
                    side = sides[s]
                    if (!runs[side]) continue
                    printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", side, of(side, "sync"), of(side, "async"),
                        of(side, "consume"), of(side, "syncp99"), of(side, "asyncp99"), of(side, "e2e99")
                }
            }
            labelCount = split(vrmqLabels, ours, " ")
            if (runs["apache"]) {
                print ""
                print "Ratios ours/apache (means over the runs). Throughput: above 1 is better for us; the rest: below 1 is."
                print ""
                ratioHeader()
                for (s = 1; s <= labelCount; s++) if (runs[ours[s]]) ratioRow(ours[s], "apache")
            }
            if (labelCount > 1 && runs[ours[1]]) {
                print ""
                print "Ratios of each variant to " ours[1] " (same jar, same run; throughput above 1 is better, the rest below 1)."
                print ""
                ratioHeader()
                for (s = 2; s <= labelCount; s++) if (runs[ours[s]]) ratioRow(ours[s], ours[1])
            }
        }
    ' vrmqLabels="${VRMQ_LABELS[*]}" "$WORK/summary"
    nmt_report
    echo
    echo "(work dir with server logs, GC logs and each phase's output: $WORK)"
}

# With NMT=1: committed KiB per NMT category of each broker run, side by side, in MiB.
nmt_report() {
    [[ "$NMT" == 1 ]] || return 0
    local files=() names=() file
    for file in "$WORK"/*/nmt.txt; do
        [[ -f "$file" ]] || continue
        files+=("$file")
        names+=("$(basename "$(dirname "$file")")")
    done
    [[ ${#files[@]} -gt 0 ]] || return 0
    echo
    echo "Native Memory Tracking after the last phase, committed MiB (jcmd VM.native_memory summary):"
    echo
    awk -v names="${names[*]}" '
        FNR == 1 { f++ }
        /^Total: / { cat = "Total" }
        /^-  *[A-Z]/ { cat = $0; sub(/^- */, "", cat); sub(/ *\(.*/, "", cat) }
        cat != "" && /committed=/ {
            match($0, /committed=[0-9]+KB/)
            kb = substr($0, RSTART + 10, RLENGTH - 12)
            if (!(cat in seen)) { seen[cat] = 1; order[++n] = cat }
            v[cat, f] = kb; cat = ""
        }
        END {
            split(names, nm, " ")
            printf "| category |"; for (i = 1; i <= f; i++) printf " %s |", nm[i]; print ""
            printf "|---|"; for (i = 1; i <= f; i++) printf "---:|"; print ""
            for (k = 1; k <= n; k++) {
                printf "| %s |", order[k]
                for (i = 1; i <= f; i++) printf " %.1f |", v[order[k], i] / 1024
                print ""
            }
        }' "${files[@]}"
}

log "work dir $WORK"
build
for round in $(seq 1 "$ROUNDS"); do
    [[ "$CEILING" == 1 ]] && bench "$round" ceiling
    if ((round % 2 == 1)); then
        [[ "$SKIP_APACHE" == 1 ]] || bench "$round" apache
        for label in "${VRMQ_LABELS[@]}"; do bench "$round" "$label"; done
    else
        for ((i = ${#VRMQ_LABELS[@]} - 1; i >= 0; i--)); do bench "$round" "${VRMQ_LABELS[$i]}"; done
        [[ "$SKIP_APACHE" == 1 ]] || bench "$round" apache
    fi
done
report
