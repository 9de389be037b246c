# Sourced by the start scripts: JVM flags for an application class-data archive (AppCDS) of one jar.
#
# Why: a JVM start spends most of its first second loading and verifying classes (Vert.x, Netty, Jackson, ours).
# With the classes of an earlier run mapped from an archive, NameServer + Broker in one JVM route their first send
# in about 1.3 s instead of about 2.1 s on this project's 2-core machine (benchmark/RESULTS.md, "Start time").
# Java 17 has no -XX:+AutoCreateSharedArchive (Java 19+), so the first start after a build records the archive
# when it exits and every later start maps it.
#
# Each recording JVM writes its own file (<jar>.<pid>.jsa): several processes of the same jar may start together
# (scripts/controller-mode-group.sh) and one must not map a file another is still writing. A later start adopts
# the newest recording whose process has ended (a rename, atomic; checked once by a JVM that must map it) and deletes
# the rest. A jar newer than the archive (a rebuild) makes a new recording. VRMQ_CDS=0 turns all of it off.

# class_data_flags <jar> <pid>: prints the flags (none when VRMQ_CDS=0) for the JVM that will run as <pid>: the
# caller's own pid when it then execs java ($$ in a script, $BASHPID in a subshell).
class_data_flags() {
    local jar="$1" own_pid="$2"
    [ "${VRMQ_CDS:-1}" = "0" ] && return 0
    local archive="${jar%.jar}.jsa"
    local recording pid newest=""
    for recording in "${jar%.jar}".*.jsa; do
        [ -f "$recording" ] || continue
        pid="${recording%.jsa}"
        pid="${pid##*.}"
        kill -0 "$pid" 2>/dev/null && continue        # still running: its file may be half written
        if [ -z "$newest" ] || [ "$recording" -nt "$newest" ]; then
            [ -n "$newest" ] && rm -f "$newest"
            newest="$recording"
        else
            rm -f "$recording"
        fi
    done
    if [ -n "$newest" ]; then
        if [ "$newest" -nt "$jar" ]; then
            mv -f "$newest" "$archive"
            # A recording cut short (its JVM killed while writing) would otherwise stay, silently unused, until the
            # next build: the JVM checks an archive at start, and -Xshare:on makes a bad one an error.
            ( ulimit -c 0; java -Xshare:on -XX:SharedArchiveFile="$archive" -XX:ErrorFile=/dev/null -cp "$jar" \
                -version > /dev/null 2>&1 ) || rm -f "$archive"
        else
            rm -f "$newest"
        fi
    fi
    # -Xlog:cds=off: an archive from another JDK build is ignored (the JVM then loads classes as usual) without
    # a warning on every start.
    if [ -f "$archive" ] && [ "$archive" -nt "$jar" ]; then
        echo "-XX:SharedArchiveFile=$archive -Xlog:cds=off -Xlog:cds+dynamic=off"
    else
        echo "-XX:ArchiveClassesAtExit=${jar%.jar}.$own_pid.jsa -Xlog:cds=off -Xlog:cds+dynamic=off"
    fi
}
