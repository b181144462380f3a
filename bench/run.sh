#!/usr/bin/env bash
# Benchmarks of the C frontend: executions/s of the persistent worker vs one process per
# execution on the "small program" (bench/small.c: 3 threads, a few lock operations each),
# with the per-execution breakdown, then the QPOR Table 1 families at small sizes.
# Usage: bench/run.sh [SECONDS per run, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-5}
cargo build --release -q
u=./target/release/unfold
echo "== bench/small.c (3 threads, 2 lock operations each), ${secs}s per mode"
for iso in persistent fork; do
  echo "-- isolation: $iso"
  $u check bench/small.c --isolation "$iso" --breakdown --timeout "$secs" |
    sed -n '/^statistics:/,$p'
done
echo
echo "== QPOR Table 1 families (small parameters, ${secs}s limit each)"
printf '%-40s %8s %10s %10s %8s %10s\n' program verdict executions exec/s maxconf peakMiB
run() {
  local name="$1"; shift
  local j
  j=$($u check "$@" --json --timeout "$secs" || true)
  python3 - "$name" "$j" <<'PY'
import json, sys
name, j = sys.argv[1], json.loads(sys.argv[2])
print(f"{name:<40} {j['verdict']:>8} {j['executions']:>10} {j['executions']/max(j['elapsed_s'],1e-9):>10.0f} "
      f"{j['maximal_configurations']:>8} {j['peak_rss_bytes']/2**20:>10.1f}")
PY
}
run "pi THREADS=3"              bench/pi.c -D THREADS=3
run "pi THREADS=4"              bench/pi.c -D THREADS=4
run "mpat K=1"                  bench/mpat.c -D K=1
run "mpat K=2"                  bench/mpat.c -D K=2
run "mpc P=1 C=1 ITEMS=1"       bench/mpc.c -D PRODUCERS=1 -D CONSUMERS=1 -D ITEMS=1
run "mpc P=2 C=2 ITEMS=1"       bench/mpc.c -D PRODUCERS=2 -D CONSUMERS=2 -D ITEMS=1
run "disp JOBS=1 WORKERS=1"     bench/disp.c -D JOBS=1 -D WORKERS=1
run "disp JOBS=2 WORKERS=2"     bench/disp.c -D JOBS=2 -D WORKERS=2
run "poke THREADS=2 ROUNDS=1"   bench/poke.c -D THREADS=2 -D ROUNDS=1 -D POKES=1
run "poke THREADS=3 ROUNDS=2"   bench/poke.c -D THREADS=3 -D ROUNDS=2
