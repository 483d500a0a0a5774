# A throwaway PostgreSQL cluster on 127.0.0.1 for the tests, removed when the shell that
# sources this file exits (scripts/test does). Its port is PGPORT_TEST when set; otherwise a
# free port the system hands out, so the tests run beside another PostgreSQL (5432, another
# checkout's tests) without a word. Exports COMPANION_TEST_POSTGRES_URL; does nothing when it
# is already set or when no PostgreSQL is installed.
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -n "$pgbin" ] && [ -z "${COMPANION_TEST_POSTGRES_URL:-}" ]; then
  pgdir=$(mktemp -d /tmp/companion-pg.XXXXXX)
  as_pg=()
  if [ "$(id -u)" = 0 ]; then chown postgres "$pgdir"; as_pg=(runuser -u postgres --); fi
  postgres_stop() {
    # || true: under set -e a server that never started would leave its folder behind
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -m fast stop >/dev/null 2>&1 || true
    rm -rf "$pgdir"
  }
  trap postgres_stop EXIT
  "${as_pg[@]}" "$pgbin/initdb" -D "$pgdir/data" -A trust -U postgres -E UTF8 >/dev/null
  # Thrown away afterwards, so nothing waits for the disk: the tests kill Companion's servers,
  # never PostgreSQL itself, and what they check is what PostgreSQL answered.
  fast="-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
  # A free port may be taken by someone else between asking and starting: ask again.
  for attempt in 1 2 3 4 5; do
    port=${PGPORT_TEST:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
    if "${as_pg[@]}" "$pgbin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w \
      -o "-h 127.0.0.1 -p $port -k $pgdir $fast" start >/dev/null; then
      break
    fi
    if [ -n "${PGPORT_TEST:-}" ] || [ "$attempt" = 5 ]; then
      echo "PostgreSQL for the tests did not start on port $port${PGPORT_TEST:+ (PGPORT_TEST)}:" >&2
      tail -n 5 "$pgdir/log" >&2
      exit 1
    fi
  done
  export COMPANION_TEST_POSTGRES_URL="postgresql+psycopg://postgres@127.0.0.1:$port/postgres"
fi
