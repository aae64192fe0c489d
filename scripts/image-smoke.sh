#!/usr/bin/env bash
# Prove the built image works without a container runtime (containers cannot run on the CI machine):
# export its filesystem (podman create + podman export) to a folder, chroot into it as the image's
# user and start ROLE=all from the image's own entry point on a scratch database of the host's
# PostgreSQL and the host's Redis (through 127.0.0.1), until GET /health and /health/ready answer
# 200 and the image's HEALTHCHECK command passes inside the chroot. Then stop it (SIGTERM) and clean up.
#   DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres: a scratch database is made beside it),
#   REDIS_URL (default redis://127.0.0.1:6379), TEST_PORT_BASE (ports base+1500…base+1505; default 17000)
set -euo pipefail
cd "$(dirname "$0")/.."
IMAGE="${IMAGE:-localhost/supergraph-platform}:${IMAGE_TAG:-$(node -p 'require("./package.json").version')}"
ADMIN_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
REDIS="${REDIS_URL:-redis://127.0.0.1:6379}"
BASE=$(( ${TEST_PORT_BASE:-17000} + 1500 ))
REST_PORT=$(( BASE + 5 ))
DB="image_smoke_$$"
DB_URL="${ADMIN_URL%/*}/$DB"
work="$(mktemp -d)"
root="$work/root"
pid=""
# unshare --fork ignores SIGTERM while it waits: the signal goes to its child, the node process
stop_role() { # signal
  local child
  child="$(pgrep -P "$pid" || true)"
  kill "-$1" "${child:-$pid}" 2>/dev/null || true
}
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    stop_role TERM
    for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    stop_role KILL
  fi
  psql -q "$ADMIN_URL" -c "drop database if exists $DB with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)

ctr="$(podman create --health-cmd none "$IMAGE")"
podman export "$ctr" | tar -x -C "$(mkdir -p "$root" && echo "$root")"
podman rm "$ctr" >/dev/null 2>&1
# what the container runtime would give: devices, /proc, the host's resolver (127.0.0.1 here)
psql -q "$ADMIN_URL" -c "create database $DB" >/dev/null
user="$(podman image inspect --format '{{.Config.User}}' "$IMAGE")"
echo "== $IMAGE exported to $root ($(du -sh "$root" | cut -f1)); ROLE=all as user $user on ports $BASE-$REST_PORT"
secret() { head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n'; }
# the image's own environment (ENV of the Containerfile), then this run's
mapfile -t image_env < <(podman image inspect --format '{{range .Config.Env}}{{println .}}{{end}}' "$IMAGE" | grep .)
entry="$(podman image inspect --format '{{join .Config.Entrypoint " "}}' "$IMAGE")"
run_env=("${image_env[@]}" ROLE=all DATABASE_URL="$DB_URL" REDIS_URL="$REDIS" LOG_LEVEL=warn
  JWT_SECRET="$(secret)" INTERNAL_SECRET="$(secret)" MASTER_KEY="$(secret)" SHUTDOWN_DELAY_MS=0
  GATEWAY_PORT=$BASE PLATFORM_PORT=$((BASE + 1)) AI_PORT=$((BASE + 2)) CATALOG_PORT=$((BASE + 3))
  SEARCH_PORT=$((BASE + 4)) REST_PORT=$REST_PORT)
# a private mount namespace: the /proc and /dev mounts go away with the process
unshare --mount --fork -- sh -c '
  root="$1" user="$2"; shift 2
  mount --rbind /dev "$root/dev" && mount -t proc proc "$root/proc" && mount -t tmpfs tmpfs "$root/tmp"
  exec chroot --userspec="$user" "$root" "$@"
' sh "$root" "$user" env -i "${run_env[@]}" sh -c "cd /app && exec $entry" > "$work/out.log" 2>&1 &
pid=$!
for _ in $(seq 1 480); do
  if ! kill -0 "$pid" 2>/dev/null; then echo "error: ROLE=all exited before it was healthy:"; cat "$work/out.log"; exit 1; fi
  curl -fsS -o /dev/null "http://127.0.0.1:$REST_PORT/health/ready" 2>/dev/null && break
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$REST_PORT/health"; echo
curl -fsS -o /dev/null "http://127.0.0.1:$REST_PORT/health/ready" || { echo "error: not ready in time:"; cat "$work/out.log"; exit 1; }
ready=$(( $(date +%s) - started ))
# the image's HEALTHCHECK, run as the container would
check="$(podman image inspect --format '{{join .Config.Healthcheck.Test " "}}' "$IMAGE" | sed 's/^CMD //')"
unshare --mount --fork -- sh -c 'root="$1" user="$2"; shift 2; mount -t proc proc "$root/proc"; exec chroot --userspec="$user" "$root" "$@"' \
  sh "$root" "$user" env -i "${run_env[@]}" $check && echo "HEALTHCHECK ($check): ok"
curl -fsS "http://127.0.0.1:$BASE/graphql" -H 'content-type: application/json' -d '{"query":"{ __typename }"}'; echo
stop_role TERM
for _ in $(seq 1 80); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
wait "$pid" && code=0 || code=$?
echo "image smoke: /health answered after ${ready} s (export included); SIGTERM → exit $code"
[ "$code" = 0 ]
