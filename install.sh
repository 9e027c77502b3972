#!/bin/sh
# Installs the memfas command: builds it once, copies it to PREFIX/lib/memfas and writes the launcher
# PREFIX/bin/memfas, which starts at once and never builds anything (what an MCP client needs). Run it again after
# updating the sources. Needs a JDK 17 or newer (JAVA_HOME, or java on the PATH).
#
#   ./install.sh            # into ~/.local: the command is ~/.local/bin/memfas
#   ./install.sh /opt/memfas
set -eu
root=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
who=install.sh
# Runs Maven with the arguments in the repository root and says on standard error which module it builds and when it
# fetches dependencies (the first build takes minutes), instead of nothing; on failure, Maven's last 40 lines.
build() {
  log=$(mktemp)
  status=$(mktemp)
  { (cd "$root" && ./mvnw -B "$@") 2>&1; echo $? >"$status"; } | awk -v who="$who" -v logfile="$log" '
    { print > logfile }
    /^\[INFO\] Download(ing|ed) from / && !fetching { print who ": fetching dependencies..."; fflush(); fetching = 1 }
    /^\[INFO\] Building .* \[[0-9]+\/[0-9]+\]$/ {
      step = $NF; name = $0
      sub(/^\[INFO\] Building /, "", name); sub(/ +\[[0-9]+\/[0-9]+\]$/, "", name); sub(/ [^ ]+$/, "", name)
      print who ": building " name " " step; fflush()
    }' >&2
  code=$(cat "$status")
  rm -f "$status"
  if [ "$code" != 0 ]; then
    tail -n 40 "$log" >&2
    echo "$who: the build failed (exit $code); its whole log is $log" >&2
    return 1
  fi
  rm -f "$log"
}
prefix=${1:-"$HOME/.local"}
case "$prefix" in /*) ;; *) prefix="$(pwd)/$prefix" ;; esac
if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/java" ]; then
  java="$JAVA_HOME/bin/java"
elif command -v java >/dev/null 2>&1; then
  java=$(command -v java)
else
  echo "install.sh: no java: set JAVA_HOME or put a JDK 17 or newer on the PATH" >&2
  exit 1
fi

echo "install.sh: building memfas-cli (the first build fetches dependencies and takes minutes)" >&2
build -pl memfas-cli -am package -DskipTests

lib="$prefix/lib/memfas"
rm -rf "$lib"
mkdir -p "$lib/docs/examples" "$prefix/bin"
cp "$root/memfas-cli/target/memfas.jar" "$lib/"
cp -R "$root/memfas-cli/target/lib" "$lib/lib"
cp -R "$root/docs/examples/memory" "$lib/docs/examples/memory"

# Start-up: one run that starts the MCP server, remembers and curates records the classes it loads, so that later
# starts map them instead of loading them again. On a JDK with the ahead-of-time cache (25 and newer) that is an AOT
# cache, which also keeps the classes linked; before it, a class-data-sharing archive. Not essential: without either,
# memfas starts as usual. A JVM that cannot use them (another version, a changed jar) ignores them.
if "$java" -XX:+PrintFlagsFinal -version 2>/dev/null | grep -q ' AOTCacheOutput '; then
  record="-XX:AOTCacheOutput=$lib/memfas.aot"
  use="-XX:AOTCache=\"$lib/memfas.aot\" -Xlog:aot=off -Xlog:cds=off"
else
  record="-XX:ArchiveClassesAtExit=$lib/memfas.jsa"
  use="-XX:SharedArchiveFile=\"$lib/memfas.jsa\" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off"
fi
work=$(mktemp -d)
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"install","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"remember","arguments":{"text":"Deploys go out on Tuesdays."}}}' \
  '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"get_context","arguments":{"query":"when do we deploy?"}}}' \
  | "$java" "$record" --enable-native-access=ALL-UNNAMED -Dmemfas.home="$lib" -jar "$lib/memfas.jar" \
      mcp --db "$work/memfas.db" --no-telemetry >/dev/null 2>"$work/err" \
  || { echo "install.sh: no start-up archive ($(tail -n 1 "$work/err")); memfas will start without it" >&2; use=""; }
rm -rf "$work"

# --enable-native-access: ONNX Runtime loads its native library, which JDK 24 and newer warn about unless it is allowed.
cat > "$prefix/bin/memfas" <<LAUNCHER
#!/bin/sh
# The memfas command, installed by install.sh.
exec "$java" $use --enable-native-access=ALL-UNNAMED \\
  -Dmemfas.home="$lib" -jar "$lib/memfas.jar" "\$@"
LAUNCHER
chmod +x "$prefix/bin/memfas"
echo "installed $prefix/bin/memfas" >&2
"$prefix/bin/memfas" --version
