#!/usr/bin/env bash
# Starts a working NameServer + Broker pair with the embedded default configs (the README's first command):
# NameServer on :9876 (admin http://127.0.0.1:9880), Broker on :10911 (fast channel :10909), store under
# ~/vrmq/store. Settings can be overridden with environment variables of the same names as the config keys, e.g.
#   flushDiskType=SYNC_FLUSH storePathRootDir=$HOME/mq-store scripts/start.sh
# Builds both jars on first use (or when VRMQ_REBUILD=1). Ctrl-C or SIGTERM stops both cleanly.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -f "$root/nameserver-verticle/target/vrmq-namesrv.jar" ] || [ ! -f "$root/broker-verticle/target/vrmq-broker.jar" ] \
    || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building the NameServer and Broker jars ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl nameserver-verticle,broker-verticle -am package)
fi
export VRMQ_REBUILD=0
namesrv_pid=""
broker_pid=""
stop_all() {
    [ -n "$broker_pid" ] && kill -TERM "$broker_pid" 2>/dev/null && wait "$broker_pid" 2>/dev/null || true
    [ -n "$namesrv_pid" ] && kill -TERM "$namesrv_pid" 2>/dev/null && wait "$namesrv_pid" 2>/dev/null || true
}
trap stop_all EXIT INT TERM
JAVA_OPTS="${NAMESRV_JAVA_OPTS:--Xmx256m}" "$root/scripts/namesrv.sh" &
namesrv_pid=$!
JAVA_OPTS="${BROKER_JAVA_OPTS:--Xmx512m}" "$root/scripts/broker.sh" &
broker_pid=$!
wait -n "$namesrv_pid" "$broker_pid"
