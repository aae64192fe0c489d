#!/usr/bin/env bash
# Boot `npm start` with no DATABASE_URL / REDIS_URL (embedded PostgreSQL, in-process pub/sub),
# wait for GET :8080/health, run one federated GraphQL query through the gateway, stop.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .data
if curl -fsS -o /dev/null http://127.0.0.1:8080/health 2>/dev/null; then
  echo "something already answers on :8080; stop it first (this check must test its own npm start)"; exit 1
fi
# Job control gives the background job its own process group, so stopping it stops npm, the shell
# it spawned and the node process (killing npm alone would leave the node process holding the ports).
set -m
env -u DATABASE_URL -u REDIS_URL npm start > .data/smoke-start.log 2>&1 &
pid=$!
set +m
stop_all() {
  kill -TERM -- "-$pid" 2>/dev/null || true
  for _ in $(seq 1 40); do kill -0 -- "-$pid" 2>/dev/null || return 0; sleep 0.25; done
  kill -KILL -- "-$pid" 2>/dev/null || true
}
trap stop_all EXIT
start=$(date +%s.%N)
for _ in $(seq 1 240); do
  if ! kill -0 $pid 2>/dev/null; then echo "npm start exited:"; cat .data/smoke-start.log; exit 1; fi
  if curl -fsS http://127.0.0.1:8080/health >/dev/null 2>&1 && curl -fsS http://127.0.0.1:8080/health/ready >/dev/null 2>&1; then break; fi
  sleep 0.25
done
end=$(date +%s.%N)
curl -fsS http://127.0.0.1:8080/health; echo
awk -v a="$start" -v b="$end" 'BEGIN { printf "healthy after %.1f s\n", b - a }'
grep -q 'ready in' .data/smoke-start.log && sed -n '/ready in/,$p' .data/smoke-start.log | head -9
./node_modules/.bin/node --import @swc-node/register/esm-register scripts/smoke-query.ts
