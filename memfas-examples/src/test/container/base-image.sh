#!/bin/sh
# Makes a base image for memfas's container image from this machine's own JDK, for a test where no registry can be
# reached: a jlink'd Java runtime, the shared libraries it and memfas's native libraries (SQLite, ONNX Runtime, the
# tokenizer) load, and nothing else. Saved as a docker-archive tarball, which Jib reads as tar://PATH.
#
#   base-image.sh JAVA_HOME OUT_DIR   # writes OUT_DIR/base.tar; needs podman (CONTAINERS_CONF as the caller sets it)
set -eu
java_home=$1
out=$2
root="$out/rootfs"
rm -rf "$root"
mkdir -p "$root/etc" "$root/tmp" "$root/root" "$root/data"
chmod 1777 "$root/tmp"
"$java_home/bin/jlink" --add-modules java.se,jdk.unsupported,jdk.crypto.ec,jdk.zipfs,jdk.management \
  --strip-debug --no-man-pages --no-header-files --output "$root/opt/java"
# The libraries the runtime links against, and those native code of memfas's dependencies needs (glibc's whole set,
# the C++ runtime).
{
  find "$root/opt/java" \( -name '*.so' -o -path '*/bin/java' \) -exec ldd {} \; 2>/dev/null
  for lib in /lib/x86_64-linux-gnu/libstdc++.so.6 /lib/x86_64-linux-gnu/libgcc_s.so.1; do ldd "$lib"; echo " $lib"; done
  ls /lib/x86_64-linux-gnu/libpthread.so.* /lib/x86_64-linux-gnu/libdl.so.* /lib/x86_64-linux-gnu/librt.so.* \
     /lib/x86_64-linux-gnu/libresolv.so.* /lib/x86_64-linux-gnu/libnss_files.so.* /lib/x86_64-linux-gnu/libnss_dns.so.* \
     /lib64/ld-linux-x86-64.so.2 | sed 's/^/ /'
} | grep -o ' /[^ ]*\.so[.0-9]*' | sort -u | while read -r lib; do
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done
echo 'root:x:0:0:root:/root:/bin/sh' > "$root/etc/passwd"
echo 'root:x:0:' > "$root/etc/group"
tar -C "$root" -cf "$out/rootfs.tar" .
name="localhost/memfas-test-base:$(date +%s)"
podman import --change "ENV PATH=/opt/java/bin:/usr/bin:/bin" --change "ENV JAVA_HOME=/opt/java" \
  --change "ENV LANG=C.UTF-8" "$out/rootfs.tar" "$name" >/dev/null
rm -f "$out/base.tar"
podman save --format docker-archive -o "$out/base.tar" "$name" >/dev/null
podman rmi -f "$name" >/dev/null
rm -rf "$root" "$out/rootfs.tar"
