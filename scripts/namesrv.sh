#!/usr/bin/env bash
# Starts a vrmq NameServer, like `vertx run` with a JSON config:
#   scripts/namesrv.sh                          # embedded defaults: remoting :9876, admin 127.0.0.1:9880
#   scripts/namesrv.sh -conf config/namesrv.json
# Any setting can be overridden by an environment variable or -D system property of the same name:
#   listenPort=9877 scripts/namesrv.sh       JAVA_OPTS="-Xmx256m -DlistenPort=9877" scripts/namesrv.sh
# Builds the jar on first use (or when VRMQ_REBUILD=1). Stops cleanly on SIGTERM / Ctrl-C.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jar="$root/nameserver-verticle/target/vrmq-namesrv.jar"
if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building $jar ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl nameserver-verticle -am package)
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx512m} -jar "$jar" "$@"
