#!/usr/bin/env bash
# Starts a whole controller-mode broker set on this machine (config/controller-mode/): three controllers (Raft group,
# :9878 :9868 :9858, admin :9882-9884), a NameServer (:9876, admin :9880) and three brokers of broker-a in controller
# mode with allAckInSyncStateSet (:10911 :11011 :11111, admin :10980 :11080 :11180), each in its own JVM, logs and
# process ids under ~/vrmq/controller-mode/. It prints what to watch and what to kill to see a failover, then waits;
# Ctrl-C or SIGTERM stops everything. Builds the jars on first use (or when VRMQ_REBUILD=1).
#   scripts/controller-mode-group.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/lib/class-data.sh"
home="$HOME/vrmq/controller-mode"
conf="$root/config/controller-mode"
jars=("$root/controller-verticle/target/vrmq-controller.jar" "$root/nameserver-verticle/target/vrmq-namesrv.jar"
      "$root/broker-verticle/target/vrmq-broker.jar")
for jar in "${jars[@]}"; do
    if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
        echo "building the controller, NameServer and broker jars ..." >&2
        (cd "$root" && mvn -B -q -DskipTests -pl controller-verticle,nameserver-verticle,broker-verticle -am package)
        break
    fi
done
mkdir -p "$home/logs" "$home/pids"
pids=()

start() {   # start <name> <jar> <config>
    # The subshell execs java, so its pid ($BASHPID, read before the command substitution's own subshell) is the JVM's.
    # shellcheck disable=SC2086,SC2046
    ( own_pid=$BASHPID; exec java ${JAVA_OPTS:--Xmx256m} $(class_data_flags "$2" "$own_pid") -jar "$2" -conf "$3" ) \
        > "$home/logs/$1.log" 2>&1 &
    pids+=("$!")
    echo "$!" > "$home/pids/$1"
    echo "started $1 (pid $!), log $home/logs/$1.log"
}

stopped=0
stop_all() {
    [ "$stopped" = 1 ] && return
    stopped=1
    echo "stopping ..."
    kill -TERM "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
    rm -f "$home"/pids/*
}
trap stop_all EXIT
trap 'exit 0' INT TERM

for node in n0 n1 n2; do
    start "controller-$node" "${jars[0]}" "$conf/controller-$node.json"
done
start namesrv "${jars[1]}" "$conf/namesrv.json"
sleep 3    # the brokers retry until a controller leads; waiting a little keeps their logs short
for broker in 1 2 3; do
    start "broker-a-$broker" "${jars[2]}" "$conf/broker-a-$broker.json"
done

cat <<INFO

Watch (any controller answers; mqadmin 5.x works too: getSyncStateSet -a 127.0.0.1:9878 -b broker-a):
  curl -s localhost:9882/api/v1/controller/groups       # master, epochs, SyncStateSet, every replica's offsets
  curl -s localhost:10980/api/v1/broker/ha              # one broker's view: role, controller, epochs, confirm offset
See a failover: kill the master the first command names, e.g.
  kill -9 \$(cat $home/pids/broker-a-1)                    # a new master within about a second
  (restart it with: java -jar ${jars[2]} -conf $conf/broker-a-1.json; it rejoins as a slave)
Kill the controller leader the same way (\$(cat $home/pids/controller-n0)): the other two elect a new one.
Ctrl-C stops everything.
INFO
wait
