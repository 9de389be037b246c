#!/usr/bin/env bash
# The cost of ACL and TLS on sends: scripts/bench-vs-rocketmq.sh three times in a row, each time against Apache
# RocketMQ 5.5.0 and ours with the same settings: neither, ACL=1 (both brokers authenticate and authorize, the
# official client signs with AclClientRPCHook) and TLS=1 (the official client with tls.enable=true against the
# servers' default permissive mode). By default only the send phases run (PHASES="warm sync async"); the consume
# figures of the async phase come along. Prints each run's own report, then one table: per setting and server the
# sync and async send throughput, p99 and broker CPU per message, each setting as a fraction of the run without
# either (1 = no cost), and ours/apache per setting.
#
# Usage: scripts/bench-security.sh
#   env as bench-vs-rocketmq.sh (COUNT, ROUNDS, SKIP_BUILD=1, QUIET_WAIT_SECONDS, ...); PHASES ("warm sync async")
#       SETTINGS ("off acl tls": which runs, in that order; "off" must be among them for the fractions)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
export PHASES="${PHASES:-warm sync async}"
SETTINGS="${SETTINGS:-off acl tls}"
OUT="$(mktemp -d -t bench-security.XXXXXX)"

log() { echo "[bench-security $(date -u +%H:%M:%S)] $*" >&2; }

log "reports in $OUT"
skip_build="${SKIP_BUILD:-0}"
for setting in $SETTINGS; do
    case "$setting" in
        off) acl=0 tls=0 ;;
        acl) acl=1 tls=0 ;;
        tls) acl=0 tls=1 ;;
        *) echo "SETTINGS: unknown setting $setting (off, acl, tls)" >&2; exit 2 ;;
    esac
    log "setting $setting (ACL=$acl TLS=$tls), load average $(cut -d' ' -f1-3 /proc/loadavg)"
    SKIP_BUILD="$skip_build" ACL="$acl" TLS="$tls" "$ROOT/scripts/bench-vs-rocketmq.sh" | tee "$OUT/$setting.md"
    skip_build=1   # the jars and Apache's classpath are built once
done

# Rows of the reports' first two tables ("| server | sync msgs/s | ..." and "| server | ready s | broker CPU ...")
# as "setting server sync syncp99 async asyncp99 cpusync cpuasync", averaged over the rounds.
for setting in $SETTINGS; do
    awk -v setting="$setting" '
        /^\| server \| sync msgs\/s \| sync p99 ms/ { table = "perf"; next }   # not the ratio tables
        /^\| server \| ready s/ { table = "cost"; next }
        /^\|---/ { next }
        /^\| (apache|vrmq) \|/ {
            split($0, cell, "|")
            side = cell[2]; gsub(/ /, "", side)
            if (table == "perf") { runs[side]++; sync[side] += cell[3]; syncp99[side] += cell[4]
                                   async[side] += cell[5]; asyncp99[side] += cell[6] }
            if (table == "cost") { cpusync[side] += cell[4]; cpuasync[side] += cell[5] }
            next
        }
        { table = "" }
        END {
            for (side in runs) printf "%s %s %.0f %.2f %.0f %.2f %.0f %.0f\n", setting, side, sync[side] / runs[side],
                syncp99[side] / runs[side], async[side] / runs[side], asyncp99[side] / runs[side],
                cpusync[side] / runs[side], cpuasync[side] / runs[side]
        }
    ' "$OUT/$setting.md"
done > "$OUT/figures"

echo
echo "ACL and TLS cost on sends: official client 5.5.0, settings $SETTINGS, phases $PHASES; $(nproc) cores," \
    "$(date -u '+%Y-%m-%d %H:%M UTC'), load average at the end $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| setting | server | sync msgs/s | sync p99 ms | async msgs/s | async p99 ms | broker CPU µs/msg sync | async | sync msgs/s vs off | async msgs/s vs off | CPU/msg sync vs off | CPU/msg async vs off |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
awk '
    { key = $1 " " $2; sync[key] = $3; syncp99[key] = $4; async[key] = $5; asyncp99[key] = $6; cpus[key] = $7
      cpua[key] = $8; order[++n] = key; setting[key] = $1; side[key] = $2; settings[$1] = 1 }
    function frac(value, off) { return off > 0 ? sprintf("%.2f", value / off) : "-" }
    END {
        for (i = 1; i <= n; i++) {
            k = order[i]; off = "off " side[k]
            printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", setting[k], side[k], sync[k],
                syncp99[k], async[k], asyncp99[k], cpus[k], cpua[k], frac(sync[k], sync[off]),
                frac(async[k], async[off]), frac(cpus[k], cpus[off]), frac(cpua[k], cpua[off])
        }
        print ""
        print "Ours/apache per setting (throughput: above 1 is better for us; CPU per message: below 1 is)."
        print ""
        print "| setting | sync msgs/s | async msgs/s | CPU/msg sync | CPU/msg async |"
        print "|---|---:|---:|---:|---:|"
        for (i = 1; i <= n; i++) {
            k = order[i]
            if (side[k] != "vrmq" || !(setting[k] " apache" in sync)) continue
            a = setting[k] " apache"
            printf "| %s | %s | %s | %s | %s |\n", setting[k], frac(sync[k], sync[a]), frac(async[k], async[a]),
                frac(cpus[k], cpus[a]), frac(cpua[k], cpua[a])
        }
    }
' "$OUT/figures"
echo
echo "(each run's report: $OUT/<setting>.md)"
