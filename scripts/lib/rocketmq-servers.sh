# shellcheck shell=bash
# Sourced by the benchmark scripts (scripts/bench-*.sh): the log line, building the jars and Apache's classpath,
# free ports, waiting for a boot line, starting and stopping one NameServer + Broker pair of either kind (Apache
# RocketMQ 5.5.0 or ours), running a load-tool JVM. bench-vs-rocketmq.sh and bench-scale.sh use all of it; the
# others the parts that fit them. Not runnable by itself.
#
# The sourcing script sets, before calling these functions (each function needs only those it reads):
#   BENCH_NAME (the log prefix)  ROOT  WORK (its temp dir)  SERVER_HEAP  NAMESRV_HEAP (optional: the NameServers'
#   heap with APACHE_JVM=same; SERVER_HEAP unless set)  CLIENT_HEAP  CLIENT_JVM_OPTS
#   FLUSH  QUEUES  MASTER_ROLE  COMMIT_LOG_FILE_BYTES  BOOT_TIMEOUT_SECONDS  STOP_TIMEOUT_SECONDS  QUIET_WAIT_SECONDS
#   ACL (0 | 1) with ACL_USER and ACL_SECRET  VRMQ_BROKER_CONFIG (JSON object or "")  NMT (0 | 1)
#   VARIANT_JSON (associative array: label -> JSON object)  VARIANT_JVM (label -> our broker's JVM flags, in place
#   of its defaults; may be empty)  CURRENT_LABEL
#   VRMQ_NAMESRV_JAR  VRMQ_BROKER_JAR  LOAD_JAR  APACHE_LOGBACK
#   APACHE_BROKER_CONF_EXTRA (lines appended to every Apache broker.conf, or "")
#   APACHE_POM (build_jars: whose test classpath runs Apache's servers, compat-tests/pom.xml unless set)
#   APACHE_LOG_LEVEL (the level Apache's servers log at, WARN unless set)  EXTRA_JVM_OPTS (more JVM options for
#   every Apache server, "" unless set)
# The library reads from the environment itself, for every script that sources it (documented in
# scripts/bench-vs-rocketmq.sh; a script whose report does not show them sets APACHE_JVM=same after sourcing):
# APACHE_JVM (same | defaults)  APACHE_DEFAULT_BROKER_HEAP (8g)  VRMQ_JVM_OPTS.
# start_namesrv and start_broker set NAMESRV, BROKER_PORT and READY_MS. The library keeps the process ids here:
# NAMESRV_PID  BROKER_PID  SLAVE_PID  TOOL_PID (the running load-tool JVM)  AUX_PID (one more helper process beside
# the servers, e.g. a tap, or Apache's gRPC proxy). The EXIT trap stops all of them (a script with more processes of
# its own sets its own trap).

NAMESRV=""
BROKER_PORT=""
READY_MS=""
NAMESRV_PID=""
BROKER_PID=""
SLAVE_PID=""
TOOL_PID=""
AUX_PID=""
EXTRA_JVM_OPTS=""
APACHE_LOG_LEVEL=WARN
APACHE_POM="$ROOT/compat-tests/pom.xml"
APACHE_BROKER_CONF_EXTRA="${APACHE_BROKER_CONF_EXTRA:-}"
APACHE_JVM="${APACHE_JVM:-same}"
APACHE_DEFAULT_BROKER_HEAP="${APACHE_DEFAULT_BROKER_HEAP:-8g}"
VRMQ_JVM_OPTS="${VRMQ_JVM_OPTS:-}"
case "$APACHE_JVM" in same | defaults) ;; *) echo "APACHE_JVM must be same or defaults" >&2; exit 2 ;; esac
# Our servers' default JVM flags (the start scripts' own), for APACHE_JVM=defaults.
# shellcheck source=lib/jvm-defaults.sh
source "$ROOT/scripts/lib/jvm-defaults.sh"

# plain_pair: the settings of one plain pair a side (an ASYNC_MASTER with no slave, no ACL, no NMT, no variants of
# ours), for a script that offers none of them; called right after sourcing, before the script's own settings.
plain_pair() {
    MASTER_ROLE=ASYNC_MASTER
    ACL=0
    ACL_USER=""
    ACL_SECRET=""
    VRMQ_BROKER_CONFIG=""
    NMT=0
    CURRENT_LABEL=""
    declare -gA VARIANT_JSON=()
    declare -gA VARIANT_JVM=()
}

json_inner() {   # the members of a JSON object, without its braces ("" for an empty or missing object)
    local inner
    inner="$(sed -E 's/^[[:space:]]*\{//; s/\}[[:space:]]*$//' <<< "$1")"
    [[ "$inner" =~ [^[:space:]] ]] && echo "$inner" || true
}

kind_of() { [[ "$1" == vrmq* ]] && echo vrmq || echo "$1"; }

log() { echo "[$BENCH_NAME $(date -u +%H:%M:%S)] $*" >&2; }

# stop_pid PID: TERM, up to STOP_TIMEOUT_SECONDS, then KILL; reaps it (also one that had already exited: quietly).
stop_pid() {
    local pid="$1"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
        kill -TERM "$pid" 2>/dev/null || true
        for _ in $(seq 1 $((STOP_TIMEOUT_SECONDS * 10))); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
    fi
    [[ -z "$pid" ]] || wait "$pid" 2>/dev/null || true
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
    stop_pid "$AUX_PID"
    stop_servers
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# build_jars MODULES JAR...: mvn package of the comma-separated modules and what they need (tests skipped; not with
# SKIP_BUILD=1), then Apache's classpath into $WORK/apache.classpath: APACHE_POM's test scope (compat-tests' pom, the
# official 5.5.0 artifacts, unless the script sets another, e.g. benchmark/apache-proxy's with the proxy); every JAR
# must exist afterwards.
build_jars() {
    local modules="$1" jar
    shift
    if [[ "${SKIP_BUILD:-0}" == 1 ]]; then
        log "SKIP_BUILD=1: using the jars already built"
    else
        log "building $modules (mvn package, tests skipped)"
        (cd "$ROOT" && mvn -B -q -pl "$modules" -am -DskipTests package)
    fi
    log "resolving Apache RocketMQ's classpath (${APACHE_POM#"$ROOT/"}, test scope)"
    (cd "$ROOT" && mvn -B -q -f "$APACHE_POM" dependency:build-classpath -Dmdep.includeScope=test \
        -Dmdep.outputFile="$WORK/apache.classpath" > "$WORK/apache-classpath.log" 2>&1) \
        || { log "could not resolve it:"; tail -30 "$WORK/apache-classpath.log" >&2; exit 1; }
    for jar in "$@"; do
        [[ -f "$jar" ]] || { log "missing $jar"; exit 1; }
    done
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port [OFFSET...]: a port p with p-2 .. p+1 free too (brokers listen on p and on the fast channel p-2; Apache's
# HA port is p+1), and p+OFFSET for each OFFSET (another port the caller derives from p).
free_port() {
    local port offset is_free
    for _ in $(seq 1 200); do
        port=$((20000 + RANDOM % 30000))
        is_free=0
        if port_free $((port - 2)) && port_free $((port - 1)) && port_free "$port" && port_free $((port + 1)); then
            is_free=1
            for offset in "$@"; do port_free $((port + offset)) || is_free=0; done
        fi
        if ((is_free == 1)); then
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

# await_line PID LOG_FILE PATTERN WHAT: until LOG_FILE has a line matching PATTERN (grep -E), up to
# BOOT_TIMEOUT_SECONDS; stops the run if the process exits first.
await_line() {
    local pid="$1" log_file="$2" pattern="$3" what="$4"
    for _ in $(seq 1 $((BOOT_TIMEOUT_SECONDS * 10))); do
        grep -qE "$pattern" "$log_file" 2>/dev/null && return
        kill -0 "$pid" 2>/dev/null || { log "$what exited:"; tail -30 "$log_file" >&2; exit 1; }
        sleep 0.1
    done
    log "no '$pattern' from $what within ${BOOT_TIMEOUT_SECONDS}s:"; tail -30 "$log_file" >&2; exit 1
}

await_namesrv() { await_line "$NAMESRV_PID" "$1" "The Name Server boot success|^ceiling ready on" NameServer; }

# Apache's servers, run in the background: exec, so that $! is the JVM's pid. They log at APACHE_LOG_LEVEL (WARN) to
# stdout (the compat tests' logback file), not INFO to ~/logs; ours log at INFO to stdout as shipped. All logs go to
# the work dir.
apache_jvm() {
    local dir="$1" heap_flags="$2"
    shift 2
    # shellcheck disable=SC2086 # heap_flags and EXTRA_JVM_OPTS are lists of options
    ROCKETMQ_HOME="$dir" exec java $heap_flags $EXTRA_JVM_OPTS -Duser.home="$dir" \
        -Drocketmq.home.dir="$dir" -Drmq.logback.configurationFile="$APACHE_LOGBACK" \
        -Drocketmq.compat.log.level="$APACHE_LOG_LEVEL" -cp "$(cat "$WORK/apache.classpath")" "$@"
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

# server_jvm_flags <apache|vrmq> <namesrv|broker>: the heap and GC flags of that server (see APACHE_JVM); ours may
# start with NAME=VALUE words, environment variables for its JVM (VRMQ_BROKER_ENV). Apache's are those of
# distribution/bin/runserver.sh and runbroker.sh (apache/rocketmq, unchanged since 5.3: the Java 9+ branch), without
# their GC log (the broker logs GC to the work dir like ours) and numactl.
server_jvm_flags() {
    if [[ "$APACHE_JVM" == same ]]; then
        [[ "$2" == namesrv ]] && echo "-Xmx${NAMESRV_HEAP:-$SERVER_HEAP}" || echo "-Xmx$SERVER_HEAP"
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

# The report's words for the servers' JVM flags.
jvm_flags_summary() {
    local summary="-Xmx$SERVER_HEAP on every server"
    [[ "$APACHE_JVM" == defaults ]] \
        && summary="each side's defaults (APACHE_JVM=defaults, Apache's broker -Xmx$APACHE_DEFAULT_BROKER_HEAP)"
    [[ ${#VARIANT_JVM[@]} -gt 0 ]] && summary="$summary, our brokers each variant's own"
    echo "$summary${VRMQ_JVM_OPTS:+ (our brokers also $VRMQ_JVM_OPTS)}"
}

# Brokers log each GC (one line per pause, negligible cost) so the report can count the pauses.
gc_log_option() { echo "-Xlog:gc:file=$1/gc.log"; }

nmt_option() { if [[ "$NMT" == 1 ]]; then echo "-XX:NativeMemoryTracking=summary"; fi; }

# With NMT=1: the master broker's native memory summary into DIR/nmt.txt, before it stops.
save_nmt() {
    [[ "$NMT" == 1 ]] || return 0
    jcmd "$BROKER_PID" VM.native_memory summary scale=KB > "$1/nmt.txt" 2>&1 || log "jcmd VM.native_memory failed"
}

# proc_status PID NAME: the value of one /proc/PID/status line (kB for the memory lines).
proc_status() { awk -v name="$2:" '$1 == name { print $2 }' "/proc/$1/status"; }

# apache_store_conf STORE: the store lines of an Apache broker.conf, every path under STORE.
apache_store_conf() {
    local store="$1"
    cat <<CONF
storePathRootDir=$store
storePathCommitLog=$store/commitlog
storePathConsumeQueue=$store/consumequeue
storePathIndex=$store/index
storeCheckpoint=$store/checkpoint
abortFile=$store/abort
mappedFileSizeCommitLog=$COMMIT_LOG_FILE_BYTES
CONF
}

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
$(apache_store_conf "$store")
CONF
    [[ -n "$APACHE_BROKER_CONF_EXTRA" ]] && echo "$APACHE_BROKER_CONF_EXTRA" >> "$dir/broker.conf"
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
    local flags
    flags="$(server_jvm_flags apache broker)"
    log "$CURRENT_LABEL: broker JVM flags $flags"
    EXTRA_JVM_OPTS="$EXTRA_JVM_OPTS $(gc_log_option "$dir") $(nmt_option)" apache_jvm "$dir" "$flags" \
        org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" > "$dir/broker.log" 2>&1 &
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
    # The variant's flags or our defaults, then VRMQ_JVM_OPTS with @DIR@ as this broker's directory; leading NAME=VALUE
    # words are the JVM's environment.
    local flags=() environment=() word
    # shellcheck disable=SC2206 # lists of words
    for word in ${VARIANT_JVM[$CURRENT_LABEL]:-$(server_jvm_flags vrmq broker)} ${VRMQ_JVM_OPTS//@DIR@/$dir}; do
        if [[ ${#flags[@]} -eq 0 && "$word" =~ ^[A-Z_][A-Z0-9_]*= ]]; then
            environment+=("$word")
        else
            flags+=("$word")
        fi
    done
    log "$CURRENT_LABEL: broker JVM ${environment[*]:+environment ${environment[*]}, }flags ${flags[*]}"
    # shellcheck disable=SC2046 # a list of options
    env ${environment[@]+"${environment[@]}"} java "${flags[@]}" "$(gc_log_option "$dir")" $(nmt_option) \
        -jar "$VRMQ_BROKER_JAR" -conf "$dir/broker.json" > "$dir/broker.log" 2>&1 &
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

# start_namesrv LABEL DIR: starts LABEL's NameServer ("apache", "vrmq..." or "ceiling") on a free loopback port and
# waits for its boot line; sets NAMESRV (host:port).
start_namesrv() {
    local label="$1" dir="$2" port
    port="$(free_port)"
    log "$label: starting the NameServer on 127.0.0.1:$port (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    "start_$(kind_of "$label")_namesrv" "$port" "$dir"
    await_namesrv "$dir/namesrv.log"
    NAMESRV="127.0.0.1:$port"
}

# start_broker LABEL DIR BROKER_NAMESRV ROUTE_TOPIC: starts LABEL's broker with BROKER_NAMESRV as its namesrvAddr
# (NAMESRV, or a relay in front of it) and waits until NAMESRV routes ROUTE_TOPIC to it; sets BROKER_PORT and
# READY_MS (from its start to that route). The ceiling's broker is its NameServer process.
start_broker() {
    local label="$1" dir="$2" broker_namesrv="$3" route_topic="$4" start_ms
    BROKER_PORT="$(free_port)"
    [[ "$label" == ceiling ]] && BROKER_PORT="${NAMESRV##*:}"
    log "$label: starting the broker on 127.0.0.1:$BROKER_PORT, $FLUSH, $MASTER_ROLE, store $dir/store"
    start_ms="$(date +%s%3N)"
    "start_$(kind_of "$label")_broker" "$BROKER_PORT" "$broker_namesrv" "$dir"
    run_tool "$dir/ready.out" io.vrmq.load.AwaitRoute --namesrv "$NAMESRV" --broker-addr "127.0.0.1:$BROKER_PORT" \
        --topic "$route_topic" --timeout-seconds "$BOOT_TIMEOUT_SECONDS" --pid "$BROKER_PID" \
        || { log "$label: broker not ready; log tail:"; tail -30 "$dir/broker.log" >&2; exit 1; }
    READY_MS=$(( $(sed -n 's/^READY //p' "$dir/ready.out") - start_ms ))
    log "$label: broker routed $route_topic after ${READY_MS} ms"
}

# run_tool OUT CLASS ARGS...: runs one load-tool JVM (LOAD_JAR) in the background (so the trap can stop it), shows
# its output, waits for it. The client's own log files go under the work dir (user.home).
run_tool() {
    local out="$1"
    shift
    : > "$out"
    # shellcheck disable=SC2086 # CLIENT_JVM_OPTS is a list of options
    java "-Xmx$CLIENT_HEAP" $CLIENT_JVM_OPTS -Duser.home="$WORK/client" -cp "$LOAD_JAR" "$@" > "$out" 2>&1 &
    TOOL_PID=$!
    # stderr of both to /dev/null: bash reports a server process the tool SIGKILLed ("Killed ...") when it reaps it.
    { tail -n +1 -f --pid="$TOOL_PID" "$out" || true; } 2>/dev/null
    local status=0
    { wait "$TOOL_PID" || status=$?; } 2>/dev/null
    TOOL_PID=""
    return "$status"
}

# phase_json ROUND LABEL PHASE: the RESULT JSON of that phase, from the lines "round label phase json" the script
# appends to $WORK/results.
phase_json() { awk -v r="$1" -v l="$2" -v p="$3" '$1 == r && $2 == l && $3 == p { $1 = $2 = $3 = ""; print }' \
    "$WORK/results"; }

# field JSON NAME: a field of a tool's one-line RESULT JSON; 0 for an empty line (a phase that did not run).
field() { if [[ -z "${1// /}" ]]; then echo 0; else sed -E "s/.*\"$2\":\"?([^,\"}]*).*/\1/" <<< "$1"; fi; }
