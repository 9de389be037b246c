#!/usr/bin/env bash
# Broker benchmark: the official RocketMQ 5.5.0 client's send and consume throughput and latency against Apache
# RocketMQ 5.5.0 (NameServer + Broker from the Maven artifacts) and against ours (vrmq-namesrv.jar +
# vrmq-broker.jar), in the same run, on the same machine, with the same flush settings and the same load tool
# (benchmark/load MessageLoadBench, 1 KiB messages). One server pair at a time: start its NameServer, start its
# broker and time it to ready (start -> first NameServer lookup that routes TBW102 to it), then the phases, each a
# fresh load-tool JVM on a new topic with 8 queues:
#   warm   async send + concurrent consumer, WARMUP_COUNT messages (JIT, connections, page cache; not reported)
#   sync   sync send from SYNC_THREADS threads, COUNT messages (after a 5,000-message in-process client warm-up)
#   async  async send with ASYNC_WINDOW in flight, COUNT messages; then a push consumer drains them as a backlog:
#          the consume throughput, and lost / duplicated counts
#   live   async send paced at LIVE_RATE msgs/s with a consumer running: end-to-end latency below saturation
#          (after 5,000 messages of in-process warm-up on another topic that the same consumer receives)
# Around each phase the tool reads the broker's CPU time (utime + stime, /proc/<pid>/stat): CPU per message is the
# least noisy figure on a small shared machine. The broker's peak RSS (VmHWM) and anonymous RSS (RssAnon: heap and
# other non-file memory; mapped store files are the rest) are read after the last phase. Prints a side-by-side table
# and the ratios ours/apache. Both brokers run with the same JVM flags (-Xmx$SERVER_HEAP, the JVM's default GC; not
# runbroker.sh's pre-touched heap) unless APACHE_JVM=defaults. Rounds alternate the order (apache first in odd rounds, ours first in even ones)
# so that neither always inherits the other's page cache and disk write-back. Everything started is stopped on exit.
# With REPLICATION set, each side's master gets that role and a slave of its own kind (brokerId 1, same machine)
# that must be routed before the phases start; CPU and memory figures stay the master's. Apache RocketMQ 5 answers a
# SYNC_MASTER send before any slave has it unless inSyncReplicas is 2, so its master gets inSyncReplicas=2: both
# sides then answer SEND_OK only once the slave has the message (RocketMQ 4.x's SYNC_MASTER).
#
# Usage: scripts/bench-vs-rocketmq.sh
#   env COUNT (100000)  WARMUP_COUNT (20000)  SIZE (1024)  QUEUES (8)  SYNC_THREADS (16)  ASYNC_WINDOW (512)
#       LIVE_COUNT (20000)  LIVE_RATE (2000)  FLUSH (ASYNC_FLUSH | SYNC_FLUSH)  ROUNDS (1: apache then vrmq;
#       2: then vrmq and apache again)
#       SERVER_HEAP (512m, the same for every server)  SKIP_BUILD=1 (reuse built jars)
#       REPLICATION (none | ASYNC_MASTER | SYNC_MASTER: the master's role, with a slave per side)
#       QUIET_WAIT_SECONDS (0: before each server, wait up to this long for other Maven builds to finish)
#       CEILING=1 (also run every phase against the protocol ceiling, benchmark/ceiling: one process on our codec and
#       event-loop setup that is its own NameServer and answers sends and pulls from memory, storing nothing
#       durable; each round starts with it, and the report gives ours and Apache's figures as fractions of it.
#       No slave for it with REPLICATION.)
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
#       VRMQ_JVM_OPTS (extra JVM options for our brokers, @DIR@ standing for the server's work directory, e.g.
#       '-XX:StartFlightRecording=filename=@DIR@/broker.jfr,settings=profile'; kept: the work dir is printed at the end)
#       SKIP_APACHE=1 (only ours, and the ceiling with CEILING=1: a quick lever comparison)
#       APACHE_JVM (same | defaults): same = every server -Xmx$SERVER_HEAP with the JVM's default GC; defaults = each
#       side at its own defaults: Apache's NameServer and broker with the JVM flags of its distribution's
#       bin/runserver.sh and bin/runbroker.sh (broker: -Xms8g -Xmx8g pre-touched, G1 with 16 MiB regions,
#       MaxDirectMemorySize=15g; the heap size from APACHE_DEFAULT_BROKER_HEAP, 8g as the script has it), ours with
#       the flags scripts/broker.sh and scripts/namesrv.sh use (scripts/lib/jvm-defaults.sh)
#       VRMQ_JVM_VARIANTS (';'-separated NAME=FLAGS pairs, instead of VRMQ_VARIANTS: our broker runs once per variant
#       in each round, as "vrmq-NAME", with FLAGS as its heap and GC flags, so one run measures JVM flags on the same
#       jar, e.g. 'base=-Xmx512m;young64=-Xmx512m -XX:MaxNewSize=64m'; leading NAME=VALUE words of FLAGS are
#       environment variables for that JVM, e.g. 'arenas2=MALLOC_ARENA_MAX=2 -Xmx512m')
#       BOOT_TIMEOUT_SECONDS (120: how long a server may take to boot and be routed; Apache's pre-touched 8 GiB heap
#       takes minutes on a loaded machine)
#       NMT=1 (both brokers run with -XX:NativeMemoryTracking=summary; after the last phase `jcmd VM.native_memory
#       summary` is saved in the work dir and the report adds a table of committed MiB per category)
# Memory columns: anon RSS (RssAnon: heap, native, stacks: what the issue's memory target counts), file RSS
# (RssFile: resident pages of mapped files, the store's segments and the jars; the page cache, shared with the OS)
# and shmem RSS (RssShmem), all read from /proc/<pid>/status after the last phase.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
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
PHASES="${PHASES:-warm sync async live}"
ACL="${ACL:-0}"
TLS="${TLS:-0}"
ACL_USER=bench
ACL_SECRET=bench-secret-1
VRMQ_BROKER_CONFIG="${VRMQ_BROKER_CONFIG:-}"
VRMQ_VARIANTS="${VRMQ_VARIANTS:-}"
SKIP_APACHE="${SKIP_APACHE:-0}"
APACHE_JVM="${APACHE_JVM:-same}"
APACHE_DEFAULT_BROKER_HEAP="${APACHE_DEFAULT_BROKER_HEAP:-8g}"
VRMQ_JVM_OPTS="${VRMQ_JVM_OPTS:-}"
NMT="${NMT:-0}"
CLIENT_WARMUP_COUNT=5000
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
NAMESRV_PID=""
BROKER_PID=""
SLAVE_PID=""
EXTRA_JVM_OPTS=""
TOOL_PID=""

case "$APACHE_JVM" in same | defaults) ;; *) echo "APACHE_JVM must be same or defaults" >&2; exit 2 ;; esac
. "$ROOT/scripts/lib/jvm-defaults.sh"
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

# Our servers of this run: "vrmq", or "vrmq-NAME" per VRMQ_VARIANTS entry; VARIANT_JSON[label] holds its keys.
declare -A VARIANT_JSON=()
declare -A VARIANT_JVM=()
VRMQ_LABELS=()
json_inner() {   # the members of a JSON object, without its braces ("" for an empty or missing object)
    local inner
    inner="$(sed -E 's/^[[:space:]]*\{//; s/\}[[:space:]]*$//' <<< "$1")"
    [[ "$inner" =~ [^[:space:]] ]] && echo "$inner" || true
}
if [[ -n "$VRMQ_BROKER_CONFIG" && "$VRMQ_BROKER_CONFIG" != \{*\} ]]; then
    echo "VRMQ_BROKER_CONFIG must be a JSON object" >&2; exit 2
fi
VRMQ_JVM_VARIANTS="${VRMQ_JVM_VARIANTS:-}"
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
kind_of() { [[ "$1" == vrmq* ]] && echo vrmq || echo "$1"; }
CURRENT_LABEL=""

log() { echo "[bench-vs-rocketmq $(date -u +%H:%M:%S)] $*" >&2; }

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
    stop_pid "$SLAVE_PID"
    SLAVE_PID=""
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
        (cd "$ROOT" && mvn -B -q -pl nameserver-verticle,broker-verticle,benchmark/load,benchmark/ceiling -am \
            -DskipTests package)
    fi
    log "resolving Apache RocketMQ's classpath (compat-tests test scope)"
    (cd "$ROOT" && mvn -B -q -f compat-tests/pom.xml dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$WORK/apache.classpath" > /dev/null)
    local jar
    for jar in "$VRMQ_NAMESRV_JAR" "$VRMQ_BROKER_JAR" "$LOAD_JAR" "$CEILING_JAR"; do
        [[ -f "$jar" ]] || { log "missing $jar"; exit 1; }
    done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# A port p with p-2 .. p+1 free too: brokers listen on p and on the fast channel p-2; Apache's HA port is p+1.
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

await_quiet() {
    [[ "$QUIET_WAIT_SECONDS" -gt 0 ]] || return 0
    local waited=0
    while pgrep -f plexus-classworlds > /dev/null && [[ "$waited" -lt "$QUIET_WAIT_SECONDS" ]]; do
        ((waited % 30 == 0)) && log "a Maven build is running; waiting (${waited}s of ${QUIET_WAIT_SECONDS}s)"
        sleep 5
        waited=$((waited + 5))
    done
}

await_namesrv() {
    local log_file="$1"
    for _ in $(seq 1 $((BOOT_TIMEOUT_SECONDS * 10))); do
        grep -qE "The Name Server boot success|^ceiling ready on" "$log_file" 2>/dev/null && return
        kill -0 "$NAMESRV_PID" 2>/dev/null || { log "NameServer exited:"; tail -30 "$log_file" >&2; exit 1; }
        sleep 0.1
    done
    log "no NameServer boot line within ${BOOT_TIMEOUT_SECONDS}s:"; tail -30 "$log_file" >&2; exit 1
}

# Apache's servers, run in the background: exec, so that $! is the JVM's pid. They log at WARN to stdout (the compat
# tests' logback file), not INFO to ~/logs; ours log at INFO to stdout as shipped. All logs go to the work dir.
apache_jvm() {
    local dir="$1" heap_flags="$2"
    shift 2
    # shellcheck disable=SC2086 # heap_flags and EXTRA_JVM_OPTS are lists of options
    ROCKETMQ_HOME="$dir" exec java $heap_flags $EXTRA_JVM_OPTS -Duser.home="$dir" \
        -Drocketmq.home.dir="$dir" -Drmq.logback.configurationFile="$APACHE_LOGBACK" -Drocketmq.compat.log.level=WARN \
        -cp "$(cat "$WORK/apache.classpath")" "$@"
}

start_apache_namesrv() {
    local port="$1" dir="$2"
    printf 'listenPort=%s\nbindAddress=127.0.0.1\nkvConfigPath=%s/kv.json\nconfigStorePath=%s/namesrv.properties\n' \
        "$port" "$dir" "$dir" > "$dir/namesrv.conf"
    apache_jvm "$dir" "$(server_jvm_flags apache namesrv)" org.apache.rocketmq.namesrv.NamesrvStartup \
        -c "$dir/namesrv.conf" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

start_vrmq_namesrv() {
    local port="$1" dir="$2"
    cat > "$dir/namesrv.json" <<JSON
{"listenPort": $port, "bindAddress": "127.0.0.1", "adminPort": -1, "kvConfigPath": "$dir/kv.json"}
JSON
    # shellcheck disable=SC2046 # a list of options
    java $(server_jvm_flags vrmq namesrv) -jar "$VRMQ_NAMESRV_JAR" -conf "$dir/namesrv.json" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

# The ceiling is its NameServer and its broker in one process: "starting its broker" only names that process.
start_ceiling_namesrv() {
    local port="$1" dir="$2"
    java "-Xmx$SERVER_HEAP" -XX:MaxDirectMemorySize=1280m "$(gc_log_option "$dir")" -jar "$CEILING_JAR" \
        --host 127.0.0.1 --port "$port" --max-stored-mib 1024 \
        --default-queues "$QUEUES" > "$dir/namesrv.log" 2>&1 &
    NAMESRV_PID=$!
}

start_ceiling_broker() {
    BROKER_PID="$NAMESRV_PID"
}

# server_jvm_flags <apache|vrmq> <namesrv|broker>: the heap and GC flags of that server (see APACHE_JVM).
# Apache's are those of distribution/bin/runserver.sh and runbroker.sh (apache/rocketmq, unchanged since 5.3: the
# Java 9+ branch), without their GC log (the broker logs GC to the work dir like ours) and numactl.
server_jvm_flags() {
    if [[ "$APACHE_JVM" == same ]]; then
        echo "-Xmx$SERVER_HEAP"
        return
    fi
    local g1="-XX:+UseG1GC -XX:G1HeapRegionSize=16m -XX:G1ReservePercent=25 -XX:InitiatingHeapOccupancyPercent=30"
    g1="$g1 -XX:SoftRefLRUPolicyMSPerMB=0"
    case "$1 $2" in
        "apache namesrv") echo "-server -Xms4g -Xmx4g -XX:MetaspaceSize=128m -XX:MaxMetaspaceSize=320m $g1" \
            "-XX:-OmitStackTraceInFastThrow -XX:-UseLargePages" ;;
        "apache broker") echo "-server -Xms$APACHE_DEFAULT_BROKER_HEAP -Xmx$APACHE_DEFAULT_BROKER_HEAP $g1" \
            "-XX:-OmitStackTraceInFastThrow -XX:+AlwaysPreTouch -XX:MaxDirectMemorySize=15g -XX:-UseLargePages" \
            "-XX:-UseBiasedLocking -XX:+IgnoreUnrecognizedVMOptions" ;;
        "vrmq namesrv") echo "$VRMQ_NAMESRV_JVM_OPTS" ;;
        "vrmq broker") echo "$VRMQ_BROKER_ENV $VRMQ_BROKER_JVM_OPTS" ;;
    esac
}

nmt_option() { [[ "$NMT" == 1 ]] && echo "-XX:NativeMemoryTracking=summary" || true; }

# With NMT=1: the broker's native memory summary, before it stops.
save_nmt() {
    [[ "$NMT" == 1 ]] || return 0
    jcmd "$BROKER_PID" VM.native_memory summary scale=KB > "$1/nmt.txt" 2>&1 || log "jcmd VM.native_memory failed"
}

# Brokers log each GC (one line per pause, negligible cost) so the report can count the pauses.
gc_log_option() { echo "-Xlog:gc:file=$1/gc.log"; }

# start_<kind>_broker PORT NAMESRV DIR [slave]: the master (or, with "slave", its slave in DIR/slave).
start_apache_broker() {
    local port="$1" namesrv="$2" dir="$3" id=0 role="$MASTER_ROLE" acks=1
    [[ "${4:-}" == slave ]] && { dir="$dir/slave"; id=1; role=SLAVE; mkdir -p "$dir"; }
    [[ "$role" == SYNC_MASTER ]] && acks=2
    local store="$dir/store"
    cat > "$dir/broker.conf" <<CONF
brokerClusterName=BenchCluster
brokerName=bench-broker
brokerId=$id
brokerRole=$role
inSyncReplicas=$acks
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
CONF
    if [[ "$ACL" == 1 ]]; then
        cat >> "$dir/broker.conf" <<CONF
authenticationEnabled=true
authorizationEnabled=true
authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
initAuthenticationUser={"username":"$ACL_USER","password":"$ACL_SECRET"}
innerClientAuthenticationCredentials={"accessKey":"$ACL_USER","secretKey":"$ACL_SECRET"}
CONF
    fi
    EXTRA_JVM_OPTS="$(gc_log_option "$dir") $(nmt_option)" apache_jvm "$dir" "$(server_jvm_flags apache broker)" \
        org.apache.rocketmq.broker.BrokerStartup \
        -c "$dir/broker.conf" > "$dir/broker.log" 2>&1 &
    started_broker "${4:-}" $!
}

start_vrmq_broker() {
    local port="$1" namesrv="$2" dir="$3" id=0 role="$MASTER_ROLE" extra member
    [[ "${4:-}" == slave ]] && { dir="$dir/slave"; id=1; role=SLAVE; mkdir -p "$dir"; }
    # Later keys win (Jackson keeps the last of duplicate keys): the run's, then the variant's.
    extra=""
    for member in "$(json_inner "$VRMQ_BROKER_CONFIG")" "$(json_inner "${VARIANT_JSON[$CURRENT_LABEL]:-}")"; do
        [[ -n "$member" ]] && extra="$extra, $member"
    done
    cat > "$dir/broker.json" <<JSON
{"brokerClusterName": "BenchCluster", "brokerName": "bench-broker", "brokerId": $id, "brokerRole": "$role",
 "listenPort": $port, "namesrvAddr": "$namesrv", "brokerIP1": "127.0.0.1", "flushDiskType": "$FLUSH",
 "autoCreateTopicEnable": true, "defaultTopicQueueNums": $QUEUES, "storePathRootDir": "$dir/store",
 "mappedFileSizeCommitLog": $COMMIT_LOG_FILE_BYTES, "adminPort": -1, "grpcListenPort": -1$(vrmq_acl_keys)$extra}
JSON
    local flags=() environment=() word
    # shellcheck disable=SC2206 # a list of words
    for word in ${VARIANT_JVM[$CURRENT_LABEL]:-$(server_jvm_flags vrmq broker)} ${VRMQ_JVM_OPTS//@DIR@/$dir}; do
        if [[ ${#flags[@]} -eq 0 && "$word" =~ ^[A-Z_][A-Z0-9_]*= ]]; then environment+=("$word"); else flags+=("$word"); fi
    done
    # shellcheck disable=SC2046 # a list of options
    env ${environment[@]+"${environment[@]}"} java "${flags[@]}" "$(gc_log_option "$dir")" $(nmt_option) \
        -jar "$VRMQ_BROKER_JAR" \
        -conf "$dir/broker.json" \
        > "$dir/broker.log" 2>&1 &
    started_broker "${4:-}" $!
}

# With ACL=1: our broker.json keys for the same users as Apache's broker.conf (the JSON values as JSON strings).
vrmq_acl_keys() {
    [[ "$ACL" == 1 ]] || return 0
    local user="{\\\"username\\\":\\\"$ACL_USER\\\",\\\"password\\\":\\\"$ACL_SECRET\\\"}"
    local inner="{\\\"accessKey\\\":\\\"$ACL_USER\\\",\\\"secretKey\\\":\\\"$ACL_SECRET\\\"}"
    printf ',\n "authenticationEnabled": true, "authorizationEnabled": true, "initAuthenticationUser": "%s",' "$user"
    printf '\n "innerClientAuthenticationCredentials": "%s"' "$inner"
}

started_broker() {
    if [[ "$1" == slave ]]; then SLAVE_PID="$2"; else BROKER_PID="$2"; fi
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

# Runs one load-tool JVM in the background (so the trap can stop it), shows its output, waits for it. The client's
# own log files go under the work dir (user.home).
run_tool() {
    local out="$1"
    shift
    : > "$out"
    # shellcheck disable=SC2086 # CLIENT_JVM_OPTS is empty or one option
    java "-Xmx$CLIENT_HEAP" $CLIENT_JVM_OPTS -Duser.home="$WORK/client" -cp "$LOAD_JAR" "$@" > "$out" 2>&1 &
    TOOL_PID=$!
    tail -n +1 -f --pid="$TOOL_PID" "$out" || true
    local status=0
    wait "$TOOL_PID" || status=$?
    TOOL_PID=""
    return "$status"
}

# One phase of MessageLoadBench (skipped when PHASES leaves it out); appends "round label phase json" to
# $WORK/results.
phase() {
    local round="$1" label="$2" name="$3" namesrv="$4"
    shift 4
    [[ " $PHASES " == *" $name "* ]] || return 0
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
    local namesrv_port broker_port
    CURRENT_LABEL="$label"
    namesrv_port="$(free_port)"
    log "$label: starting the NameServer on 127.0.0.1:$namesrv_port (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "start_$(kind_of "$label")_namesrv" "$namesrv_port" "$dir"
    await_namesrv "$dir/namesrv.log"
    broker_port="$(free_port)"
    [[ "$label" == ceiling ]] && broker_port="$namesrv_port"
    local namesrv="127.0.0.1:$namesrv_port"
    log "$label: starting the broker on 127.0.0.1:$broker_port, $FLUSH, $MASTER_ROLE, store $dir/store"
    local start_ms
    start_ms="$(date +%s%3N)"
    "start_$(kind_of "$label")_broker" "$broker_port" "$namesrv" "$dir"
    [[ -n "${VARIANT_JSON[$label]:-}" || ( "$label" == vrmq && -n "$VRMQ_BROKER_CONFIG" ) ]] \
        && log "$label: broker config additions $VRMQ_BROKER_CONFIG ${VARIANT_JSON[$label]:-}"
    [[ -n "${VARIANT_JVM[$label]:-}" ]] && log "$label: broker JVM flags ${VARIANT_JVM[$label]}"
    run_tool "$dir/ready.out" io.vrmq.load.AwaitRoute --namesrv "$namesrv" --broker-addr "127.0.0.1:$broker_port" \
        --topic TBW102 --timeout-seconds "$BOOT_TIMEOUT_SECONDS" --pid "$BROKER_PID" \
        || { log "$label: broker not ready; log tail:"; tail -30 "$dir/broker.log" >&2; exit 1; }
    local ready_ms=$(( $(sed -n 's/^READY //p' "$dir/ready.out") - start_ms ))
    log "$label: broker routed after ${ready_ms} ms"
    start_slave "$label" "$namesrv" "$dir"
    phase "$round" "$label" warm "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" \
        --count "$WARMUP_COUNT" --consume concurrent
    phase "$round" "$label" sync "$namesrv" --mode sync --threads "$SYNC_THREADS" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT"
    phase "$round" "$label" async "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" --count "$COUNT" \
        --warmup-count "$CLIENT_WARMUP_COUNT" --consume after
    phase "$round" "$label" live "$namesrv" --mode async --threads 1 --window "$ASYNC_WINDOW" --count "$LIVE_COUNT" \
        --rate "$LIVE_RATE" --warmup-count "$CLIENT_WARMUP_COUNT" --consume concurrent
    local status="/proc/$BROKER_PID/status" gc
    save_nmt "$dir"
    gc="$(awk '/Pause/ { pauses++; sub(/ms$/, "", $NF); millis += $NF } END { printf "%d %.0f", pauses, millis }' \
        "$dir/gc.log")"
    echo "$round $label $ready_ms $(awk '/^VmHWM:/ {print $2}' "$status") $(awk '/^RssAnon:/ {print $2}' "$status")" \
        "$(awk '/^Threads:/ {print $2}' "$status") $gc $(awk '/^RssFile:/ {print $2}' "$status")" \
        "$(awk '/^RssShmem:/ {print $2}' "$status")" >> "$WORK/servers"
    log "$label: stopping"
    stop_servers
    rm -rf "$dir/store" "$dir/slave/store" || log "could not remove all of $dir/store"
}

# A field of a phase's JSON; 0 for a phase that did not run (PHASES).
field() { if [[ -z "${1// /}" ]]; then echo 0; else sed -E "s/.*\"$2\":\"?([^,\"}]*).*/\1/" <<< "$1"; fi; }

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
            "$file $shmem"
    done < "$WORK/servers"
}

phase_json() { awk -v r="$1" -v l="$2" -v p="$3" '$1 == r && $2 == l && $3 == p { $1 = $2 = $3 = ""; print }' \
    "$WORK/results"; }

report() {
    summarize > "$WORK/summary"
    echo
    echo "Official client 5.5.0, ${SIZE}-byte messages, $QUEUES queues, $FLUSH, $MASTER_ROLE" \
        "$([[ "$REPLICATION" == none ]] && echo "(no slave)" || echo "with a slave");" \
        "sync: $SYNC_THREADS threads, async: window $ASYNC_WINDOW, $COUNT messages each; live: $LIVE_COUNT at" \
        "$LIVE_RATE msgs/s; phases: $PHASES; ACL $([[ "$ACL" == 1 ]] && echo on || echo off)," \
        "client TLS $([[ "$TLS" == 1 ]] && echo on || echo off); JVM flags: $([[ "$APACHE_JVM" == same ]] \
            && echo "-Xmx$SERVER_HEAP on every server" || echo "each side's defaults (APACHE_JVM=defaults)");" \
        "${VRMQ_JVM_OPTS:+(ours also $VRMQ_JVM_OPTS) }$(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
    awk '
        function micros(cpuMillis, messages) { return messages > 0 ? 1000 * cpuMillis / messages : 0 }
        function add(key, value) { v[key, $1] += value; row[key] = value }
        function of(side, key) { return (v[key, side] / runs[side]) / (v[key, "ceiling"] / runs["ceiling"]) }
        function ratio(key, side, base) { b = v[key, base] / runs[base]; return b > 0 ? (v[key, side] / runs[side]) / b : 0 }
        function ratioRow(side, base) {
            printf "| %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                side, ratio("sync", side, base), ratio("async", side, base), ratio("consume", side, base),
                ratio("syncp99", side, base), ratio("asyncp99", side, base), ratio("e2e50", side, base),
                ratio("e2e99", side, base), ratio("cpusync", side, base), ratio("cpuasync", side, base),
                ratio("cpuconsume", side, base), ratio("rss", side, base), ratio("anon", side, base),
                ratio("file", side, base), ratio("ready", side, base)
        }
        function ratioHeader() {
            print "| server | sync msgs/s | async msgs/s | consume msgs/s | sync p99 | async p99 | e2e p50 | e2e p99 | CPU/msg sync | CPU/msg async | CPU/msg consume | peak RSS | anon RSS | file RSS | ready |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        }
        {
            runs[$1]++; n++; label[n] = $1
            add("sync", $3); add("syncp99", $4 / 1000); add("async", $5); add("asyncp99", $6 / 1000)
            add("consume", $7); add("e2e50", $8 / 1000); add("e2e99", $9 / 1000)
            perf[n] = sprintf("| %s | %.0f | %.2f | %.0f | %.2f | %.0f | %.2f | %.2f | %d | %d | %d |", $1, $3,
                $4 / 1000, $5, $6 / 1000, $7, $8 / 1000, $9 / 1000, $21, $22, $23)
            add("ready", $2 / 1000); add("cpusync", micros($10, $11)); add("cpuasync", micros($12, $13))
            add("cpuconsume", micros($14, $15)); add("rss", $16 / 1024); add("anon", $17 / 1024)
            add("threads", $18); add("gcms", $20); add("file", $24 / 1024)
            cost[n] = sprintf("| %s | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %d | %d | %d |", $1,
                $2 / 1000, micros($10, $11), micros($12, $13), micros($14, $15), $16 / 1024, $17 / 1024, $24 / 1024,
                $25 / 1024, $18, $19, $20)
        }
        END {
            print ""
            print "| server | sync msgs/s | sync p99 ms | async msgs/s | async p99 ms | consume msgs/s | e2e p50 ms | e2e p99 ms | lost | dup | send errors |"
            print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
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
