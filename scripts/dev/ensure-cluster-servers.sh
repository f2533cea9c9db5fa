#!/usr/bin/env bash
# The cluster test (engine/test/cluster.test.ts) runs Redis and Ceph's S3 gateway on loopback, from
# Debian's packages: installed here when missing (as root), else named for the user to install.
set -euo pipefail
missing=()
for p in redis-server ceph-mon ceph-osd radosgw; do
  command -v "$p" >/dev/null 2>&1 || missing+=("$p")
done
((${#missing[@]})) || exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's ${missing[*]} for the cluster test…"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  echo "The cluster test needs Debian's ${missing[*]}: run 'sudo apt-get install -y --no-install-recommends ${missing[*]}'" >&2
  exit 1
fi
