#!/usr/bin/env bash
# Starts a vrmq Broker, like `vertx run` with a JSON config:
#   scripts/broker.sh                         # embedded defaults: :10911 (fast channel :10909), NameServer 127.0.0.1:9876
#   scripts/broker.sh -conf config/broker.json
# Any setting can be overridden by an environment variable or -D system property of the same name:
#   flushDiskType=SYNC_FLUSH storePathRootDir=$HOME/mq-store scripts/broker.sh
# Builds the jar on first use (or when VRMQ_REBUILD=1). Stops cleanly on SIGTERM / Ctrl-C.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/lib/class-data.sh"
. "$root/scripts/lib/jvm-defaults.sh"
jar="$root/broker-verticle/target/vrmq-broker.jar"
if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building $jar ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl broker-verticle -am package)
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-$VRMQ_BROKER_JVM_OPTS} $(class_data_flags "$jar" $$) -jar "$jar" "$@"
