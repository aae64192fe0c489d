#!/usr/bin/env bash
# The restore drill (docs/deploy.md, "Back up and restore"): back up a running platform, restore it
# into an empty database and object store, migrate, start and check that it answers as before.
#   1. source: a scratch database on DATABASE_URL's server (and a data dir), the stack started on it,
#      `npm run seed` (a tenant, products, the books search index), a logo uploaded; its state recorded
#   2. back up: pg_dump -Fc of the database, every object of the store copied to a folder (local:
#      DATA_DIR/objects; OBJECT_STORE=s3: the bucket S3_BUCKET, listed and copied object by object)
#   3. restore: pg_restore into a new empty database, the objects copied back (into a new data dir,
#      or the empty bucket RESTORE_S3_BUCKET), ROLE=migrate, the
#      stack started on the copy with MIGRATE_ON_START=0 (it refuses to start if migrate missed one)
#   4. verify: every table's row count as dumped (before anything starts on the copy), then on the
#      restored stack a search answer, a product page and the logo's bytes as the source answered
# Env: DATABASE_URL (the server: default postgres://postgres@127.0.0.1:5432/postgres), REDIS_URL
# (default redis://127.0.0.1:6379), TEST_PORT_BASE (ports base+1600…base+1605; default 17000),
# DRILL_KEEP=1 keeps the databases and files. On the compose topology, run it with DATABASE_URL at the
# compose PostgreSQL (published or from a one-off container), OBJECT_STORE=s3 + S3_* at MinIO and
# RESTORE_S3_BUCKET an empty bucket there.
set -euo pipefail
cd "$(dirname "$0")/.."
ADMIN_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
BASE=$(( ${TEST_PORT_BASE:-17000} + 1600 ))
export GATEWAY_PORT=$BASE PLATFORM_PORT=$((BASE + 1)) AI_PORT=$((BASE + 2)) CATALOG_PORT=$((BASE + 3)) SEARCH_PORT=$((BASE + 4)) REST_PORT=$((BASE + 5))
export NODE_ENV=production LOG_LEVEL=warn SHUTDOWN_DELAY_MS=0
secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
export JWT_SECRET="$(secret)" INTERNAL_SECRET="$(secret)" MASTER_KEY="$(secret)"
run="drill_$(date +%s)_$$"
SRC_DB="${run}_src" DST_DB="${run}_dst"
server="${ADMIN_URL%/*}"
work="$(mkdir -p .data && mktemp -d "$PWD/.data/restore-drill.XXXX")"
node=node_modules/.bin/node
pid=""
t0=$(date +%s)
say() { printf '== [%3ss] %s\n' "$(( $(date +%s) - t0 ))" "$*"; }

stop_stack() {
  [ -n "$pid" ] || return 0
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 80); do kill -0 -- "-$pid" 2>/dev/null || break; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || true
  pid=""
}
cleanup() {
  stop_stack
  if [ "${DRILL_KEEP:-}" != 1 ]; then
    for db in "$SRC_DB" "$DST_DB"; do psql -q "$ADMIN_URL" -c "drop database if exists $db with (force)" >/dev/null 2>&1 || true; done
    rm -rf "$work"
  else
    echo "kept: databases $SRC_DB, $DST_DB; files $work"
  fi
}
trap cleanup EXIT

start_stack() { # database data-dir log
  set -m
  DATABASE_URL="$server/$1" DATA_DIR="$2" npm start > "$3" 2>&1 &
  pid=$!
  set +m
  for _ in $(seq 1 600); do
    kill -0 "$pid" 2>/dev/null || { echo "error: the stack exited:"; tail -20 "$3"; exit 1; }
    curl -fsS -o /dev/null "http://127.0.0.1:$REST_PORT/health/ready" 2>/dev/null && return 0
    sleep 0.5
  done
  echo "error: the stack was not ready in 300 s:"; tail -20 "$3"; exit 1
}

# the drill's state file, or the folder of objects given after the mode
state() { $node --import @swc-node/register/esm-register scripts/restore-drill-state.ts "$1" "${2:-$work/state.json}"; }
if [ "${OBJECT_STORE:-local}" = s3 ] && [ -z "${RESTORE_S3_BUCKET:-}" ]; then
  echo "error: RESTORE_S3_BUCKET: with OBJECT_STORE=s3, name the empty bucket the restore fills (S3_BUCKET is the source)"; exit 1
fi

say "1. source: database $SRC_DB, the stack on ports $BASE-$REST_PORT, the seed"
psql -q "$ADMIN_URL" -c "create database $SRC_DB" >/dev/null
npm run -s build >/dev/null
start_stack "$SRC_DB" "$work/src" "$work/src.log"
DATA_DIR="$work/src" npm run -s seed -- --json > "$work/seed.out"
DATABASE_URL="$server/$SRC_DB" DATA_DIR="$work/src" state record-answers
stop_stack
DATABASE_URL="$server/$SRC_DB" DATA_DIR="$work/src" state record-counts

say "2. back up: pg_dump -Fc, the object store"
pg_dump -Fc -f "$work/platform.dump" "$server/$SRC_DB"
DATA_DIR="$work/src" state backup-objects "$work/objects-backup"
echo "   dump $(du -h "$work/platform.dump" | cut -f1)"

say "3. restore: pg_restore into $DST_DB, the objects back, ROLE=migrate, start with MIGRATE_ON_START=0"
psql -q "$ADMIN_URL" -c "create database $DST_DB" >/dev/null
pg_restore --no-owner --exit-on-error -d "$server/$DST_DB" "$work/platform.dump"
mkdir -p "$work/dst" && cp "$work/src/seed.json" "$work/dst/"
# the restored platform's own (empty) bucket
if [ "${OBJECT_STORE:-local}" = s3 ]; then export S3_BUCKET="$RESTORE_S3_BUCKET"; fi
DATA_DIR="$work/dst" state restore-objects "$work/objects-backup"
DATABASE_URL="$server/$DST_DB" DATA_DIR="$work/dst" state verify-counts
DATABASE_URL="$server/$DST_DB" DATA_DIR="$work/dst" $node --experimental-async-context-frame dist/scripts/role.js migrate
export MIGRATE_ON_START=0
start_stack "$DST_DB" "$work/dst" "$work/dst.log"

say "4. verify"
DATABASE_URL="$server/$DST_DB" DATA_DIR="$work/dst" state verify-answers
stop_stack
say "restore drill passed"
