# Sourced by the start scripts and scripts/lib/rocketmq-servers.sh (the benchmarks): our servers' default JVM flags
# (JAVA_OPTS replaces them). One place, so that the benchmark's "ours at our defaults" is what the start scripts run.
#
# Broker (benchmark/RESULTS.md, "Start time and memory"): the heap holds tables and requests in flight, not the
# stored messages (those are in the mapped store files): about 11 MiB live under the benchmark's load. -Xmx512m
# leaves room for large topic and offset tables. -XX:MaxNewSize=64m: left alone, G1 grows the young generation to
# some 120 MiB of eden on this load, every page of it resident, for no gain in throughput or CPU per message; capped
# at 64 MiB a young collection only runs more often, copying as little.
VRMQ_BROKER_JVM_OPTS="-Xmx512m -XX:MaxNewSize=64m"
# Environment for the broker's JVM, as NAME=VALUE words (none).
VRMQ_BROKER_ENV=""
VRMQ_NAMESRV_JVM_OPTS="-Xmx512m"
# NameServer + Broker (+ controller) in one JVM (scripts/start.sh): the broker's flags.
VRMQ_STANDALONE_JVM_OPTS="$VRMQ_BROKER_JVM_OPTS"
