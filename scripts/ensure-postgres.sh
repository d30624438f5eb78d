#!/usr/bin/env bash
# Start the machine's PostgreSQL cluster when it is not answering, then wait until it does.
set -euo pipefail
dsn="${1:-postgresql://postgres@127.0.0.1:5432/test}"
if pg_isready -q -d "$dsn" 2>/dev/null; then
  exit 0
fi
if command -v pg_ctlcluster >/dev/null 2>&1; then
  version="$(ls /etc/postgresql | sort -V | tail -n 1)"
  echo "starting PostgreSQL $version" >&2
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
fi
for _ in $(seq 1 60); do
  if pg_isready -q -d "$dsn" 2>/dev/null; then
    exit 0
  fi
  sleep 0.5
done
echo "PostgreSQL at $dsn is not answering" >&2
exit 1
