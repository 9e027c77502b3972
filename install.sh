#!/bin/sh
# Installs the memfas command: builds it once, copies it to PREFIX/lib/memfas and writes the launcher
# PREFIX/bin/memfas, which starts at once and never builds anything (what an MCP client needs). Run it again after
# updating the sources. Needs a JDK 17 or newer (JAVA_HOME, or java on the PATH).
#
#   ./install.sh            # into ~/.local: the command is ~/.local/bin/memfas
#   ./install.sh /opt/memfas
set -eu
root=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
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

echo "install.sh: building memfas-cli..." >&2
(cd "$root" && ./mvnw -B -q -pl memfas-cli -am package -DskipTests) >&2

lib="$prefix/lib/memfas"
rm -rf "$lib"
mkdir -p "$lib/docs/examples" "$prefix/bin"
cp "$root/memfas-cli/target/memfas.jar" "$lib/"
cp -R "$root/memfas-cli/target/lib" "$lib/lib"
cp -R "$root/docs/examples/memory" "$lib/docs/examples/memory"

# Class-data sharing: one run that starts the MCP server, remembers and curates records the classes it loads, so that
# later starts map them instead of loading them again. Not essential: without the archive memfas starts as usual.
work=$(mktemp -d)
printf '%s\n' \
  '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"install","version":"1"}}}' \
  '{"jsonrpc":"2.0","method":"notifications/initialized"}' \
  '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"remember","arguments":{"text":"Deploys go out on Tuesdays."}}}' \
  '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_context","arguments":{"query":"when do we deploy?"}}}' \
  | "$java" -XX:ArchiveClassesAtExit="$lib/memfas.jsa" -Dmemfas.home="$lib" -jar "$lib/memfas.jar" \
      mcp --db "$work/memfas.db" --no-telemetry >/dev/null 2>"$work/err" \
  || echo "install.sh: no class-data archive ($(tail -n 1 "$work/err")); memfas will start without it" >&2
rm -rf "$work"

cat > "$prefix/bin/memfas" <<LAUNCHER
#!/bin/sh
# The memfas command, installed by install.sh. A JVM that cannot use the archive (another version) ignores it.
exec "$java" -XX:SharedArchiveFile="$lib/memfas.jsa" -Xshare:auto -Xlog:cds=off -Xlog:cds+dynamic=off \\
  -Dmemfas.home="$lib" -jar "$lib/memfas.jar" "\$@"
LAUNCHER
chmod +x "$prefix/bin/memfas"
echo "installed $prefix/bin/memfas" >&2
"$prefix/bin/memfas" --version
