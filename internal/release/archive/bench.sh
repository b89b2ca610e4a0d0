#!/usr/bin/env bash
# bench.sh: pack a large tree (a copy of the Go toolchain's src folder, about
# 11,000 files and 130 MB) with catalogkit's packager and with Info-ZIP
# "zip -X -r -6", side by side, RUNS times each; report the medians, the
# time and size ratios, and check that GOMAXPROCS=1 and GOMAXPROCS=2 give
# identical bytes. Run from the repository root: bash internal/release/archive/bench.sh
#
# Both tools read the same directory: the extracted first archive, so both
# archives hold exactly the same files (with MANIFEST.sha256) under the same
# top folder. zip also writes directory entries; catalogkit writes none.
set -euo pipefail
RUNS=${RUNS:-5}
SRC=${TREE:-$(go env GOROOT)/src}
command -v zip >/dev/null || { echo "bench.sh: zip is not installed (apt-get install zip)" >&2; exit 1; }
command -v unzip >/dev/null || { echo "bench.sh: unzip is not installed (apt-get install unzip)" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/benchpack" ./internal/dev/benchpack
cp -r "$SRC" "$tmp/src"
# Go's src holds nested modules (cmd, testdata), which the packager leaves
# out of a release: without their go.mod files the tree packs nearly whole.
find "$tmp/src" -mindepth 2 -name go.mod -delete
"$tmp/benchpack" -dir "$tmp/src" -out "$tmp/first.zip" >/dev/null
mkdir "$tmp/x"
(cd "$tmp/x" && unzip -q "$tmp/first.zip")
top=$(ls "$tmp/x")
tree="$tmp/x/$top"
files=$(find "$tree" -type f | wc -l)
bytes=$(find "$tree" -type f -printf '%s\n' | awk '{s+=$1} END {print s}')
echo "tree: $SRC copied, $files files, $bytes bytes; $(nproc) CPUs; GOMAXPROCS ${GOMAXPROCS:-default}; $RUNS runs each"

TIMEFORMAT='%R %U %S'
for i in $(seq "$RUNS"); do
	rm -f "$tmp/ours.zip" "$tmp/zip.zip"
	{ time "$tmp/benchpack" -dir "$tree" -out "$tmp/ours.zip" >/dev/null; } 2>>"$tmp/ours.times"
	{ time (cd "$tmp/x" && zip -X -r -6 -q "$tmp/zip.zip" "$top"); } 2>>"$tmp/zip.times"
done
cmp -s "$tmp/ours.zip" "$tmp/first.zip" || { echo "bench.sh: FAIL: repacking the extracted tree changed the bytes" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
ours_real=$(awk '{print $1}' "$tmp/ours.times" | median)
zip_real=$(awk '{print $1}' "$tmp/zip.times" | median)
ours_cpu=$(awk '{print $2+$3}' "$tmp/ours.times" | median)
zip_cpu=$(awk '{print $2+$3}' "$tmp/zip.times" | median)
ours_size=$(stat -c %s "$tmp/ours.zip")
zip_size=$(stat -c %s "$tmp/zip.zip")

GOMAXPROCS=1 "$tmp/benchpack" -dir "$tree" -out "$tmp/p1.zip" >/dev/null
GOMAXPROCS=2 "$tmp/benchpack" -dir "$tree" -out "$tmp/p2.zip" >/dev/null
if cmp -s "$tmp/p1.zip" "$tmp/p2.zip" && cmp -s "$tmp/p1.zip" "$tmp/ours.zip"; then
	same="identical ($(sha256sum <"$tmp/p1.zip" | cut -c1-16)...)"
else
	same="DIFFERENT"
fi

printf '%-28s %12s %12s %8s\n' "" "catalogkit" "zip -X -r -6" "ratio"
printf '%-28s %12s %12s %8s\n' "median wall time (s)" "$ours_real" "$zip_real" "$(awk -v a="$ours_real" -v b="$zip_real" 'BEGIN {printf "%.2f", a/b}')"
printf '%-28s %12s %12s %8s\n' "median CPU time (s)" "$ours_cpu" "$zip_cpu" "$(awk -v a="$ours_cpu" -v b="$zip_cpu" 'BEGIN {printf "%.2f", a/b}')"
printf '%-28s %12s %12s %8s\n' "archive size (bytes)" "$ours_size" "$zip_size" "$(awk -v a="$ours_size" -v b="$zip_size" 'BEGIN {printf "%.4f", a/b}')"
echo "GOMAXPROCS=1 vs GOMAXPROCS=2 vs default: $same"
[ "$same" != DIFFERENT ]
