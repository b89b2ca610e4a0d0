#!/usr/bin/env bash
# bench.sh: verify a large archive (the packer benchmark's: a copy of the Go
# toolchain's src folder, about 11,000 files and 130 MB, packed) and compare,
# side by side, RUNS times each:
#   - step 1 (the archive hash) against sha256sum;
#   - steps 1 to 5 (hash, strict parse with every CRC, safe extraction,
#     manifest, repack) against "sha256sum -c SHA256SUMS && unzip -tq" (hash
#     plus a CRC test of every entry, without extraction or repack).
# and, for context, steps 1 to 5 against the manual path that also writes
# the files: "sha256sum -c SHA256SUMS && unzip -q && sha256sum -c MANIFEST"
# (on file systems where creating files is slow, extraction dominates both).
# It reports the medians and the ratios. Run from the repository root:
# bash internal/verify/bench.sh
set -euo pipefail
RUNS=${RUNS:-5}
SRC=${TREE:-$(go env GOROOT)/src}
command -v unzip >/dev/null || { echo "bench.sh: unzip is not installed (apt-get install unzip)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/benchpack" ./internal/archive/benchpack
go build -o "$tmp/benchverify" ./internal/verify/benchverify
cp -r "$SRC" "$tmp/src"
"$tmp/benchpack" -dir "$tmp/src" -out "$tmp/catalogkit-0.0.0-bench.zip" >/dev/null
rm -rf "$tmp/src"
cd "$tmp"
sha256sum catalogkit-0.0.0-bench.zip >SHA256SUMS
entries=$(unzip -Z1 catalogkit-0.0.0-bench.zip | wc -l)
echo "archive: $(stat -c %s catalogkit-0.0.0-bench.zip) bytes, $entries entries (from $SRC); $(nproc) CPUs; GOMAXPROCS ${GOMAXPROCS:-default}; $RUNS runs each"

TIMEFORMAT='%R'
for i in $(seq "$RUNS"); do
	{ time ./benchverify -hash-only catalogkit-0.0.0-bench.zip >ours.sum; } 2>>hash.ours
	{ time sha256sum catalogkit-0.0.0-bench.zip >tool.sum; } 2>>hash.tool
	cmp -s ours.sum tool.sum || { echo "bench.sh: FAIL: hashes differ" >&2; exit 1; }
	{ time ./benchverify -sums SHA256SUMS catalogkit-0.0.0-bench.zip >>steps.txt; } 2>>all.ours
	{ time (sha256sum -c --quiet SHA256SUMS && unzip -tq catalogkit-0.0.0-bench.zip >/dev/null); } 2>>all.tool
	rm -rf x && mkdir x
	{ time (sha256sum -c --quiet SHA256SUMS && cd x && unzip -q ../catalogkit-0.0.0-bench.zip && cd catalogkit-0.0.0-bench && sha256sum -c --quiet MANIFEST.sha256); } 2>>manual.tool
	rm -rf x
done

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
h_ours=$(median <hash.ours); h_tool=$(median <hash.tool)
a_ours=$(median <all.ours); a_tool=$(median <all.tool); m_tool=$(median <manual.tool)
printf '%-44s %10s %10s %7s\n' "median wall time (s)" "catalogkit" "tools" "ratio"
printf '%-44s %10s %10s %7s\n' "hash: step 1 vs sha256sum" "$h_ours" "$h_tool" "$(ratio "$h_ours" "$h_tool")"
printf '%-44s %10s %10s %7s\n' "steps 1-5 vs sha256sum -c + unzip -tq" "$a_ours" "$a_tool" "$(ratio "$a_ours" "$a_tool")"
printf '%-44s %10s %10s %7s\n' "steps 1-5 vs sha256sum -c + unzip + sha256sum -c" "$a_ours" "$m_tool" "$(ratio "$a_ours" "$m_tool")"
echo "per-step medians (s):"
for s in hash parse extract manifest repack; do
	printf '  %-9s %s\n' "$s" "$(grep -o "$s=[0-9.]*" steps.txt | cut -d= -f2 | median)"
done
