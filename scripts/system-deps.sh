#!/usr/bin/env bash
# System packages for the web table's tests (Debian): Chromium for the end-to-end browser
# tests, PostgreSQL for the storage tests and nginx (nginx-light) for the check of the
# reverse proxy's example configuration (docs/web.md). Idempotent: installs only what is missing,
# starts the cluster if it is down, creates the test role and database if they are absent.
#
# The last line printed on stdout is the DSN of the test database, e.g.
#   PENDRAGON_TEST_POSTGRES=$(scripts/system-deps.sh | tail -n 1)
# Everything else goes to stderr. Needs root (CI runs as root); with sudo otherwise.
set -euo pipefail

PG_USER=${PENDRAGON_PG_USER:-pendragon}
PG_PASSWORD=${PENDRAGON_PG_PASSWORD:-pendragon}
PG_DATABASE=${PENDRAGON_PG_DATABASE:-pendragon_test}

log() { echo "system-deps: $*" >&2; }

SUDO=""
AS_POSTGRES=(runuser -u postgres --)
if [ "$(id -u)" -ne 0 ]; then
    SUDO="sudo"
    AS_POSTGRES=(sudo -u postgres)
fi

missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
[ -x /usr/sbin/nginx ] || missing+=(nginx-light)
if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]}"
    $SUDO apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >&2
else
    log "chromium, postgresql and nginx already installed"
fi

# The newest installed major version and its default cluster.
PG_VERSION=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | awk '{print $1, $2}' | grep -q "^${PG_VERSION} main$"; then
    log "creating cluster ${PG_VERSION}/main"
    $SUDO pg_createcluster "${PG_VERSION}" main >&2
fi
if ! pg_lsclusters -h | awk -v v="${PG_VERSION}" '$1 == v && $2 == "main" {print $4}' | grep -q online; then
    log "starting cluster ${PG_VERSION}/main"
    $SUDO pg_ctlcluster "${PG_VERSION}" main start >&2
fi
PG_PORT=$(pg_lsclusters -h | awk -v v="${PG_VERSION}" '$1 == v && $2 == "main" {print $3}')

# Wait until the server accepts connections (a fresh start can take a moment).
for _ in $(seq 1 30); do
    if (cd / && "${AS_POSTGRES[@]}" psql -p "${PG_PORT}" -tAc "SELECT 1" >/dev/null 2>&1); then
        break
    fi
    sleep 1
done

psql_admin() { (cd / && "${AS_POSTGRES[@]}" psql -p "${PG_PORT}" -v ON_ERROR_STOP=1 -tAc "$1"); }

if [ "$(psql_admin "SELECT 1 FROM pg_roles WHERE rolname = '${PG_USER}'")" != "1" ]; then
    log "creating role ${PG_USER}"
    psql_admin "CREATE ROLE ${PG_USER} LOGIN PASSWORD '${PG_PASSWORD}'" >/dev/null
fi
if [ "$(psql_admin "SELECT 1 FROM pg_database WHERE datname = '${PG_DATABASE}'")" != "1" ]; then
    log "creating database ${PG_DATABASE}"
    psql_admin "CREATE DATABASE ${PG_DATABASE} OWNER ${PG_USER}" >/dev/null
fi

echo "postgresql://${PG_USER}:${PG_PASSWORD}@127.0.0.1:${PG_PORT}/${PG_DATABASE}"
