#!/usr/bin/env bash
# Start the machine's Redis (127.0.0.1:6379, nothing kept on disk) when it is not answering.
set -euo pipefail
if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  exit 0
fi
if command -v redis-server >/dev/null 2>&1; then
  echo "starting Redis" >&2
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
for _ in $(seq 1 40); do
  if redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    exit 0
  fi
  sleep 0.25
done
echo "Redis at 127.0.0.1:6379 is not answering" >&2
exit 1
