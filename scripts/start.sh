#!/usr/bin/env bash
# Starts a working NameServer + Broker in one JVM with the embedded default configs (the README's first command):
# NameServer on :9876 (admin http://127.0.0.1:9880), Broker on :10911 (fast channel :10909, admin
# http://127.0.0.1:10980), store under ~/vrmq/store. Optional files per role:
#   scripts/start.sh -namesrv-conf config/namesrv.json -broker-conf config/broker.json
# With a controller (RocketMQ 5 controller mode) in the same JVM, started between NameServer and broker:
#   scripts/start.sh -controller-conf config/controller.json -broker-conf my-controller-mode-broker.json
# (or a NameServer file with "enableControllerInNamesrv": true, which embeds the controller in the NameServer).
# Broker and NameServer settings can be overridden with environment variables of the same names, e.g.
#   flushDiskType=SYNC_FLUSH storePathRootDir=$HOME/mq-store scripts/start.sh
# (a key both roles have, such as listenPort, belongs in the files). Builds the jar on first use (or when
# VRMQ_REBUILD=1). Ctrl-C or SIGTERM stops both cleanly.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/lib/class-data.sh"
. "$root/scripts/lib/jvm-defaults.sh"
jar="$root/standalone/target/vrmq-standalone.jar"
if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building $jar ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl standalone -am package)
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-$VRMQ_STANDALONE_JVM_OPTS} $(class_data_flags "$jar" $$) -jar "$jar" "$@"
