#!/usr/bin/env bash
# Starts a vrmq NameServer, like `vertx run` with a JSON config:
#   scripts/namesrv.sh                          # embedded defaults: remoting :9876, admin 127.0.0.1:9880
#   scripts/namesrv.sh -conf config/namesrv.json
# Any setting can be overridden by an environment variable or -D system property of the same name:
#   listenPort=9877 scripts/namesrv.sh       JAVA_OPTS="-Xmx256m -DlistenPort=9877" scripts/namesrv.sh
# With "enableControllerInNamesrv": true in the file (or the variable enableControllerInNamesrv=true) the NameServer
# also runs a controller, configured from the same file, as RocketMQ's NamesrvStartup does:
#   scripts/namesrv.sh -conf config/controller-mode/namesrv-with-controller.json
# That needs the controller, so it runs the standalone jar instead of the NameServer's own.
# Builds the jar on first use (or when VRMQ_REBUILD=1). Stops cleanly on SIGTERM / Ctrl-C.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
. "$root/scripts/lib/class-data.sh"
. "$root/scripts/lib/jvm-defaults.sh"
conf=""
previous=""
for argument in "$@"; do
    case "$argument" in
        -conf=*|--conf=*) conf="${argument#*=}" ;;
    esac
    if [ "$previous" = "-conf" ] || [ "$previous" = "--conf" ]; then
        conf="$argument"
    fi
    previous="$argument"
done
embedded="${enableControllerInNamesrv:-false}"
if [ -n "$conf" ] && [ -f "$conf" ] \
    && grep -Eq '"enableControllerInNamesrv"[[:space:]]*:[[:space:]]*"?true' "$conf"; then
    embedded=true
fi
if [ "$embedded" = "true" ]; then
    jar="$root/standalone/target/vrmq-standalone.jar"
    module=standalone
else
    jar="$root/nameserver-verticle/target/vrmq-namesrv.jar"
    module=nameserver-verticle
fi
if [ ! -f "$jar" ] || [ "${VRMQ_REBUILD:-0}" = "1" ]; then
    echo "building $jar ..." >&2
    (cd "$root" && mvn -B -q -DskipTests -pl "$module" -am package)
fi
if [ "$embedded" = "true" ]; then
    # shellcheck disable=SC2086
    exec java ${JAVA_OPTS:-$VRMQ_NAMESRV_JVM_OPTS} $(class_data_flags "$jar" $$) -cp "$jar" io.vrmq.standalone.NameServerWithControllerMain "$@"
fi
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-$VRMQ_NAMESRV_JVM_OPTS} $(class_data_flags "$jar" $$) -jar "$jar" "$@"
