#!/usr/bin/env bash
# Starts a vrmq controller node (RocketMQ 5 controller mode: master election and SyncStateSet for brokers with
# enableControllerMode=true), like `vertx run` with a JSON config:
#   scripts/controller.sh                                     # embedded defaults: one node n0 on :9878, Raft :10878,
#                                                             # admin http://127.0.0.1:9882, store ~/vrmq/controller
#   scripts/controller.sh -conf config/controller.json
#   scripts/controller.sh -conf config/controller-mode/controller-n0.json   # one of three (see its README)
# Any setting can be overridden by an environment variable or -D system property of the same name:
#   adminPort=9892 scripts/controller.sh       JAVA_OPTS="-Xmx256m -DcontrollerDLegerSelfId=n1" scripts/controller.sh
# Builds the jar on first use (or when VRMQ_REBUILD=1). Stops cleanly on SIGTERM / Ctrl-C.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/lib/class-data.sh"
jar="$root/controller-verticle/target/vrmq-controller.jar"
if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building $jar ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl controller-verticle -am package)
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx512m} $(class_data_flags "$jar" $$) -jar "$jar" "$@"
