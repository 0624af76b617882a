#!/bin/sh
# Proves the suite holds on a busy machine: runs `npm test` while a CPU burner keeps every core
# busy (stress-ng when installed, else one Node busy loop per core), bounded in time.
#   scripts/test-under-load.sh                 # burner on all cores, TEST_TIME_SCALE=3
#   LOAD_WORKERS=4 LOAD_SECONDS=2400 TEST_TIME_SCALE=4 scripts/test-under-load.sh
# The burners run at normal priority, as another tenant's work would; they stop when the tests
# end or after LOAD_SECONDS, whichever comes first.
set -eu
cd "$(dirname "$0")/.."
workers="${LOAD_WORKERS:-$(nproc)}"
seconds="${LOAD_SECONDS:-3600}"
export TEST_TIME_SCALE="${TEST_TIME_SCALE:-3}"

pids=""
if command -v stress-ng >/dev/null 2>&1; then
  stress-ng --cpu "$workers" --timeout "${seconds}s" --quiet &
  pids="$!"
  echo "load: stress-ng --cpu $workers for at most ${seconds}s"
else
  i=0
  while [ "$i" -lt "$workers" ]; do
    node -e "const end = Date.now() + ${seconds} * 1000; while (Date.now() < end) {}" &
    pids="$pids $!"
    i=$((i + 1))
  done
  echo "load: $workers Node busy loops for at most ${seconds}s (install stress-ng for a steadier load)"
fi
trap 'kill $pids 2>/dev/null || true' EXIT INT TERM

start=$(date +%s)
status=0
npm test || status=$?
echo "load proof: npm test exited $status after $(( $(date +%s) - start ))s with TEST_TIME_SCALE=$TEST_TIME_SCALE and $workers burners ($(cut -d' ' -f1-3 /proc/loadavg) load average at the end)"
exit "$status"
