#!/usr/bin/env bash
# Sourced by scripts/test.sh: starts a throwaway PostgreSQL cluster on loopback and exports TEST_DATABASE_URL, so the
# storage suite runs its SQL on a real server as well as on PGlite (DESIGN: one SQL dialect, one code path).
# Installs Debian's postgresql when it is missing. On any failure it says so and leaves TEST_DATABASE_URL unset: the
# PostgreSQL half of the storage suite then shows as skipped in the summary, never as passed.

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$pg_bin" ]; then
  echo "postgres: installing Debian's postgresql (apt-get)"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null 2>&1 || true
  pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
fi

pg_start() {
  [ -n "$pg_bin" ] || { echo "postgres: not available"; return 1; }
  PG_TMP=$(mktemp -d /tmp/service-widget-pg.XXXXXX)
  local port=$((20000 + RANDOM % 20000))
  # initdb refuses to run as root: run the cluster as the postgres user then.
  local as=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { echo "postgres: no postgres user"; return 1; }
    chown postgres:postgres "$PG_TMP"
    as=(runuser -u postgres --)
  fi
  "${as[@]}" "$pg_bin/initdb" -D "$PG_TMP/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null 2>&1 ||
    { echo "postgres: initdb failed"; return 1; }
  "${as[@]}" "$pg_bin/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w -t 30 \
    -o "-p $port -k $PG_TMP -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null 2>&1 ||
    { echo "postgres: could not start (see $PG_TMP/log)"; return 1; }
  PG_AS=("${as[@]}")
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  echo "postgres: $("$pg_bin/postgres" --version) on 127.0.0.1:$port"
}

pg_stop() {
  [ -n "${PG_TMP:-}" ] || return 0
  "${PG_AS[@]}" "$pg_bin/pg_ctl" -D "$PG_TMP/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TMP"
}

pg_start || echo "postgres: PostgreSQL backend tests will be skipped"
trap pg_stop EXIT
