#!/usr/bin/env bash
# Install and start what the web-table tests need on a fresh Debian machine:
# Debian's Chromium (for Playwright, no browser download), a PostgreSQL server, nginx
# (the cluster's proxy: the tests and `make cluster` run their own nginx as the current user
# on a high port with their own config; the package's system instance is not started) and
# HAProxy (tests/test_haproxy.py runs its own from deploy/haproxy.cfg; no system instance).
# Prints the PostgreSQL URL for the tests on its last line. Safe to run again.
set -euo pipefail
SUDO=""
AS_PG=(runuser -u postgres --)
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; AS_PG=(sudo -u postgres); fi
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v pg_lsclusters >/dev/null 2>&1 && [ -n "$(ls /usr/lib/postgresql 2>/dev/null)" ] \
    || need+=(postgresql)
[ -x /usr/sbin/nginx ] || need+=(nginx)
[ -x /usr/sbin/haproxy ] || need+=(haproxy)
if [ "${#need[@]}" -gt 0 ]; then
    echo "installing Debian packages: ${need[*]}" >&2
    $SUDO apt-get update -qq >&2
    # The nginx package would start a system instance on port 80 (and fail the install
    # where port 80 is taken): a policy-rc.d (invoke-rc.d(8)) refuses that start (and
    # HAProxy's, which the tests do not use either).
    policy=""
    if [ ! -e /usr/sbin/policy-rc.d ]; then
        policy=/usr/sbin/policy-rc.d
        printf '#!/bin/sh\ncase "$1" in nginx|haproxy) exit 101;; esac\nexit 0\n' | $SUDO tee "$policy" >/dev/null
        $SUDO chmod 755 "$policy"
        trap '$SUDO rm -f "$policy"' EXIT
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}" >&2
    if [ -n "$policy" ]; then $SUDO rm -f "$policy"; trap - EXIT; fi
fi
cluster=$(pg_lsclusters --no-header | head -1)
if [ -z "$cluster" ]; then
    version=$(ls /usr/lib/postgresql | sort -n | tail -1)
    $SUDO pg_createcluster "$version" main >&2
    cluster=$(pg_lsclusters --no-header | head -1)
fi
read -r version name port status _ <<<"$cluster"
if [ "$status" != "online" ]; then
    $SUDO pg_ctlcluster "$version" "$name" start >&2
fi
"${AS_PG[@]}" psql -p "$port" -qtAc \
    "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname='tikki') THEN
       CREATE ROLE tikki LOGIN CREATEDB PASSWORD 'tikki'; END IF; END\$\$;" >&2
"${AS_PG[@]}" psql -p "$port" -qtAc "SELECT 1 FROM pg_database WHERE datname='tikki'" \
    | grep -q 1 || "${AS_PG[@]}" createdb -p "$port" -O tikki tikki >&2
echo "postgresql://tikki:tikki@127.0.0.1:${port}/tikki"
