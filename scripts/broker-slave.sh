#!/usr/bin/env bash
# Starts a vrmq Broker as a slave (master/slave replication, RocketMQ's classic HA), through scripts/broker.sh:
#   scripts/broker-slave.sh                   # config/master-slave/broker-a-slave.json: broker-a, brokerId 1, :11011
#   scripts/broker-slave.sh -conf my-slave.json
# The slave learns its master from the NameServer, or follows haMasterAddress; settings are overridden as for
# scripts/broker.sh, by an environment variable or -D system property of the same name:
#   haMasterAddress=10.0.0.5:10912 scripts/broker-slave.sh
# Its master: scripts/broker.sh -conf config/master-slave/broker-a-master.json (see config/master-slave/README.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
has_conf=0
for argument in "$@"; do
    if [ "$argument" = "-conf" ]; then
        has_conf=1
    fi
done
if [ "$has_conf" = "0" ]; then
    set -- -conf "$root/config/master-slave/broker-a-slave.json" "$@"
fi
exec "$root/scripts/broker.sh" "$@"
