#!/usr/bin/env bash
# The agent's packages from one staged tree: lockstep-agent-VERSION-linux-amd64.tar.gz (tar),
# lockstep-agent_PKGVERSION_amd64.deb (dpkg-deb) and lockstep-agent-PKGVERSION-1.x86_64.rpm
# (rpmbuild), each with the bundled runtime, the agent jar, /usr/bin/lockstep-agent and the
# systemd unit, its drop-in and its env file taken from deploy/systemd as they are.
#
#   packages.sh VERSION STAMP AGENT_JAR RUNTIME OUT
#
# VERSION is the project's; a -SNAPSHOT becomes PKGVERSION BASE~SNAPSHOT.STAMP, so a newer build
# upgrades an older one and the release BASE upgrades both. A format whose tool is missing
# (dpkg-deb and dpkg-shlibdeps: dpkg-dev; rpmbuild: rpm) is skipped with a line saying so, and
# fails the build under CI=true. Prints each package's size at the end.
set -euo pipefail

[ $# -eq 5 ] || { echo "usage: packages.sh VERSION STAMP AGENT_JAR RUNTIME OUT" >&2; exit 2; }
version=$1 stamp=$2 jar=$3 runtime=$4 out=$5
src="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"      # dist/src
repo="$(cd "$src/../.." && pwd)"
systemd_dir="$repo/deploy/systemd"

die() { echo "packages.sh: $*" >&2; exit 1; }
skip() {
  if [ "${CI:-}" = true ]; then die "$* [CI=true: every package must be built]"; fi
  echo "packages: skip: $*"
}
[ -f "$jar" ] || die "$jar is missing"
[ -x "$runtime/bin/java" ] || die "$runtime has no bin/java (runtime.sh makes it)"
out=$(mkdir -p "$out" && cd "$out" && pwd)
case "$stamp" in *[!0-9]*|"") die "STAMP '$stamp' must be digits (yyyyMMddHHmmss)";; esac

if [[ $version == *-SNAPSHOT ]]; then
  pkgversion="${version%-SNAPSHOT}~SNAPSHOT.$stamp"
else
  pkgversion=$version
fi
name=lockstep-agent
tarball="$out/$name-$version-linux-amd64.tar.gz"
deb="$out/${name}_${pkgversion}_amd64.deb"
rpm="$out/$name-$pkgversion-1.x86_64.rpm"
t0=$SECONDS
# Compression: gzip -6 for all three. On the 2-core build machine it took 4 s for the 122 MiB
# tree and gave 53 MiB; xz -6 (dpkg's default) gave 43 MiB but took 80 s per package, xz -1
# 47 MiB in 24 s. Build time wins: CI builds the packages on every run.

# --- the staged tree: what every format installs ------------------------------------------
stage="$out/stage"
rm -rf "$stage" "$out"/"$name"-*.tar.gz "$out"/"$name"_*.deb "$out"/"$name"-*.rpm
lib="$stage/usr/lib/$name"
mkdir -p "$lib/bin" "$lib/lib" "$stage/usr/bin" "$stage/usr/lib/systemd/system" \
  "$stage/etc/lockstep" "$stage/etc/systemd/system/$name.service.d"
# cp -a keeps the runtime's times: its class-data archive was made against these files.
cp -a "$runtime" "$lib/runtime"
rm -f "$lib/runtime/lockstep-runtime.key"
install -m 0755 "$src/launcher/$name" "$lib/bin/$name"
install -m 0644 -p "$jar" "$lib/lib/$name.jar"
ln -s "../lib/$name/bin/$name" "$stage/usr/bin/$name"
install -m 0644 "$systemd_dir/$name.service" "$stage/usr/lib/systemd/system/$name.service"
install -m 0644 "$systemd_dir/$name.service.d/10-root.conf" "$stage/etc/systemd/system/$name.service.d/10-root.conf"
install -m 0644 "$systemd_dir/$name.env" "$stage/etc/lockstep/$name.env"
chmod -R u+rwX,go+rX,go-w "$stage"
grep -q '^ExecStart=/usr/bin/lockstep-agent ' "$stage/usr/lib/systemd/system/$name.service" \
  || die "deploy/systemd/$name.service does not start /usr/bin/lockstep-agent"

# --- the class-data archive (AppCDS) of the agent's and its workers' classes -------------------
# JDK 17 maps an archive only for the very classpath it was dumped with (path, size and time of
# the jar), so it is dumped for the installed path, /usr/lib/lockstep-agent/lib/lockstep-agent.jar:
# in a mount namespace of its own, the staged tree is laid over /usr/lib (needs root: CI builds as
# root). The classes are those a training run loads, as a deployed agent does: the agent with mTLS
# (a throwaway CA and EC P-256 certificates, as lockstep certs makes them) until it listens, its
# start-up rehearsal (the agent's run path and a worker JVM running a ping-pong), and two Describe
# calls over mTLS and HTTP/2 (curl: the handshake, the HTTP/2 and gRPC server paths); and a worker
# JVM without a task. On a lab guest's emulated CPU the rehearsal took 16.0 s against 21.4 s with
# the archive of a training run that stopped at listening, --insecure (docs/performance.md, "The
# agent's and workers' start in the lab's emulated guests"); the launcher passes it on.
train_certs() {  # DIR: ca.pem, agent.pem, agent-key.pem, client.pem, client-key.pem
  local d=$1 n
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=train-ca \
    -keyout "$d/ca-key.pem" -out "$d/ca.pem" 2>/dev/null
  for n in agent client; do
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$n" \
      -keyout "$d/$n-key.pem" -out "$d/$n.csr" 2>/dev/null
    printf 'subjectAltName=IP:127.0.0.1\n' >"$d/$n.ext"
    openssl x509 -req -in "$d/$n.csr" -CA "$d/ca.pem" -CAkey "$d/ca-key.pem" -CAcreateserial \
      -days 2 -extfile "$d/$n.ext" -out "$d/$n.pem" 2>/dev/null
  done
}
class_archive() {
  local t java=$lib/runtime/bin/java jsa=$lib/lib/$name.jsa port i
  t=$(mktemp -d)
  # shellcheck disable=SC2064  # expand $t now
  trap "rm -rf '$t'" RETURN
  mkdir -p "$t/root" "$t/mnt" "$t/tls"
  train_certs "$t/tls" || die "openssl could not make the training run's certificates"
  "$java" -XX:DumpLoadedClassList="$t/worker.list" -cp "$lib/lib/$name.jar" \
    lockstep.agent.worker.WorkerMain </dev/null >/dev/null || true  # no task: it exits non-zero
  LOCKSTEP_WORKER_JAVA_OPTIONS="-XX:DumpLoadedClassList=$t/worker-run.list" \
    "$java" -XX:DumpLoadedClassList="$t/agent.list" -cp "$lib/lib/$name.jar" \
    lockstep.agent.service.AgentMain --listen 127.0.0.1:0 --root "$t/root" --name build \
    --spare-workers 0 --tls-cert "$t/tls/agent.pem" --tls-key "$t/tls/agent-key.pem" \
    --tls-client-ca "$t/tls/ca.pem" >"$t/agent.out" 2>&1 &
  local pid=$! waited=0
  # listening, and the rehearsal over (done, or failed: its classes are then what it loaded)
  until grep -q ' listening on ' "$t/agent.out" && grep -q 'start-up rehearsal' "$t/agent.out"; do
    kill -0 "$pid" 2>/dev/null || { cat "$t/agent.out" >&2; die "the training agent exited"; }
    [ $waited -lt 1200 ] || { kill "$pid"; cat "$t/agent.out" >&2; die "the training agent did not listen and rehearse within 120 s"; }
    sleep 0.1; waited=$((waited + 1))
  done
  port=$(sed -n 's/.* listening on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$t/agent.out" | head -n1)
  [ -n "$port" ] || { kill "$pid"; cat "$t/agent.out" >&2; die "no port in the training agent's listening line"; }
  # a Describe: an empty request in gRPC's frame (no compression, length 0)
  printf '\0\0\0\0\0' >"$t/describe.bin"
  for i in 1 2; do
    curl -sS --http2 --max-time 60 --cacert "$t/tls/ca.pem" --cert "$t/tls/client.pem" \
      --key "$t/tls/client-key.pem" -H 'content-type: application/grpc' -H 'te: trailers' \
      --data-binary @"$t/describe.bin" -o "$t/describe.out" -D "$t/describe.headers" \
      "https://127.0.0.1:$port/lockstep.agent.v1.AgentService/Describe" \
      || { kill "$pid"; cat "$t/agent.out" >&2; die "the training Describe over mTLS failed"; }
    grep -qi '^grpc-status: *0' "$t/describe.headers" \
      || { kill "$pid"; cat "$t/describe.headers" "$t/agent.out" >&2; die "the training Describe did not answer OK"; }
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  cat "$t/agent.list" "$t/worker.list" "$t/worker-run.list" 2>/dev/null | grep -v '^#' \
    | awk '!seen[$0]++' >"$t/classes.list"
  unshare --mount --propagation private bash -ec "
    mount -t tmpfs lockstep-cds '$t/mnt'
    mkdir -p '$t/mnt/up/$name' '$t/mnt/work'
    cp -a '$lib/.' '$t/mnt/up/$name/'
    mount -t overlay overlay -o 'lowerdir=/usr/lib,upperdir=$t/mnt/up,workdir=$t/mnt/work' /usr/lib
    /usr/lib/$name/runtime/bin/java -Xshare:dump -XX:SharedClassListFile='$t/classes.list' \
      -XX:SharedArchiveFile='$t/$name.jsa' -cp /usr/lib/$name/lib/$name.jar >'$t/dump.out' 2>&1 \
      || { cat '$t/dump.out' >&2; exit 1; }
  " || die "dumping the class-data archive failed"
  install -m 0644 "$t/$name.jsa" "$jsa"
  echo "packages: class-data archive lib/$name.jsa: $(wc -l <"$t/classes.list") classes (agent with mTLS $(grep -vc '^#' "$t/agent.list"), rehearsal's worker $(cat "$t/worker-run.list" 2>/dev/null | grep -vc '^#' || true)), $(( $(stat -c %s "$jsa") / 1048576 )) MiB"
}
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null && command -v openssl >/dev/null \
  && command -v curl >/dev/null; then
  class_archive
else
  skip "class-data archive lib/$name.jsa (dumped for the installed paths in a mount namespace: needs root; its training run needs openssl and curl)"
fi
installed_kib=$(du -sk "$stage" | cut -f1)

# --- .tar.gz: the same tree under one top directory -----------------------------------------
tar --owner=0 --group=0 --numeric-owner --sort=name -C "$stage" \
  --transform "s,^\.,$name-$version," -czf "$tarball" .

# Maintainer scripts: functions.sh, then the script's own part.
script() {  # script KIND NAME
  printf '#!/bin/sh\n# Generated by dist/src/build/packages.sh from dist/src/pkg/functions.sh and %s/%s.\n' "$1" "$2"
  cat "$src/pkg/functions.sh"
  printf '\n'
  cat "$src/pkg/$1/$2"
}

# --- .deb ----------------------------------------------------------------------------------
if command -v dpkg-deb >/dev/null && command -v dpkg-shlibdeps >/dev/null; then
  debroot="$out/deb"
  rm -rf "$debroot"
  cp -a "$stage" "$debroot"
  mkdir -p "$debroot/DEBIAN"
  for s in postinst prerm postrm; do
    script deb "$s" >"$debroot/DEBIAN/$s"
    chmod 0755 "$debroot/DEBIAN/$s"
  done
  printf '/etc/lockstep/%s.env\n/etc/systemd/system/%s.service.d/10-root.conf\n' "$name" "$name" \
    >"$debroot/DEBIAN/conffiles"
  # The shared libraries' packages, as Debian computes them (the runtime's AWT libraries are
  # left out: the agent never loads them, and X11 has no business on a cluster node).
  shlib_work=$(mktemp -d)
  mkdir -p "$shlib_work/debian"
  printf 'Source: %s\n\nPackage: %s\nArchitecture: amd64\n' "$name" "$name" >"$shlib_work/debian/control"
  mapfile -t elves < <(find "$debroot/usr/lib/$name/runtime" -type f \( -name '*.so' -o -path '*/bin/*' -o -name jspawnhelper \) \
    | grep -vE '/lib(awt|awt_xawt|awt_headless|splashscreen|jawt|fontmanager|lcms|javajpeg|jsound|mlib_image)\.so$')
  shlibs=$(cd "$shlib_work" && dpkg-shlibdeps -O --warnings=0 "${elves[@]}" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
  rm -rf "$shlib_work"
  [ -n "$shlibs" ] || die "dpkg-shlibdeps found no dependencies for the runtime"
  cat >"$debroot/DEBIAN/control" <<EOF
Package: $name
Version: $pkgversion
Architecture: amd64
Maintainer: ${LOCKSTEP_PACKAGE_MAINTAINER:-Lockstep maintainers <maintainers@users.noreply.a-seed-a4e206dc.example>}
Installed-Size: $installed_kib
Depends: $shlibs, passwd
Suggests: chrony
Section: admin
Priority: optional
Description: Lockstep agent: lock and I/O workloads on cluster file systems
 The agent of Lockstep, one per node of a cluster file system (GFS2, OCFS2,
 GlusterFS, NFS, CephFS): a coordinator starts the same workload on every
 node at one instant over gRPC and collects what each node measured.
 .
 Runs on its own Java runtime (bundled, only the modules it uses): the node
 needs no Java. Installs the systemd unit lockstep-agent.service, not started
 until /etc/lockstep/lockstep-agent.env names this node's root and TLS files.
EOF
  dpkg-deb --root-owner-group -Zgzip -z6 --build "$debroot" "$deb" >/dev/null
  rm -rf "$debroot"
else
  skip ".deb: dpkg-deb or dpkg-shlibdeps not found (apt-get install dpkg-dev)"
fi

# --- .rpm ----------------------------------------------------------------------------------
if command -v rpmbuild >/dev/null; then
  top="$out/rpm"
  rm -rf "$top"
  mkdir -p "$top/SPECS"
  spec="$top/SPECS/$name.spec"
  scriptlet() {  # the functions and a body, with rpm's macro character escaped
    { cat "$src/pkg/functions.sh"; printf '\n'; cat "$src/pkg/rpm/$1"; } | sed 's/%/%%/g'
  }
  # The glibc floor of the runtime's native libraries (Debian 12's OpenJDK: 2.34, RHEL 9).
  glibc=$(find "$stage/usr/lib/$name/runtime" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec objdump -T {} + 2>/dev/null \
    | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
  [ -n "$glibc" ] || die "cannot tell the runtime's glibc version (objdump, from binutils)"
  {
    cat <<EOF
Name: $name
Version: $pkgversion
Release: 1
Summary: Lockstep agent: lock and I/O workloads on cluster file systems
License: Proprietary
BuildArch: x86_64
# The runtime's libraries are this package's own: no automatic requires or provides from them
# (they would name the AWT libraries' X11 dependencies, which the agent never loads).
AutoReqProv: no
Requires: glibc >= $glibc, zlib, libstdc++, libgcc, shadow-utils
%global debug_package %{nil}
%global __os_install_post %{nil}
%global _build_id_links none
%global __jar_repack 0
%define _binary_payload w6.gzdio

%description
The agent of Lockstep, one per node of a cluster file system. Runs on its own
Java runtime (bundled): the node needs no Java. Installs lockstep-agent.service,
not started until /etc/lockstep/lockstep-agent.env names this node's root.

%install
cp -a $stage/. %{buildroot}/

%files
%defattr(-,root,root,-)
/usr/bin/$name
/usr/lib/$name
/usr/lib/systemd/system/$name.service
%dir /etc/lockstep
%config(noreplace) /etc/lockstep/$name.env
%dir /etc/systemd/system/$name.service.d
%config(noreplace) /etc/systemd/system/$name.service.d/10-root.conf

EOF
    for s in pre post preun postun posttrans; do
      printf '%%%s\n' "$s"
      scriptlet "$s"
      printf '\n'
    done
  } >"$spec"
  rpmbuild -bb --quiet --define "_topdir $top" "$spec" >"$top/rpmbuild.log" 2>&1 \
    || { tail -n 30 "$top/rpmbuild.log" >&2; die "rpmbuild failed (log $top/rpmbuild.log)"; }
  mv "$top/RPMS/x86_64/$(basename "$rpm")" "$rpm"
  rm -rf "$top"
else
  skip ".rpm: rpmbuild not found (apt-get install rpm)"
fi

echo "packages: version $pkgversion, installed size $((installed_kib / 1024)) MiB, built in $((SECONDS - t0)) s:"
for f in "$tarball" "$deb" "$rpm"; do
  [ -f "$f" ] && awk -v b="$(stat -c %s "$f")" -v n="$(basename "$f")" 'BEGIN { printf "packages:   %6.1f MiB  %s\n", b / 1048576, n }'
done
true
