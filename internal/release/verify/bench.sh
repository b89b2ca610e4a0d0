#!/usr/bin/env bash
# bench.sh: catalogkit verify against the standard tools, side by side, RUNS
# times each, printing medians and ratios (the README's Performance section
# quotes them). Run from the repository root: bash internal/release/verify/bench.sh
#
#   1. the archive hash (the hash step's HashFile) against sha256sum, on a
#      1 GiB file;
#   2. verify --no-exec, every step but the tests (hash, strict parse with
#      every CRC, safe extraction, manifest against the files on disk,
#      byte-identical repack), against
#      "sha256sum -c SHA256SUMS && unzip -tq", and, for the extraction's
#      share, against "sha256sum -c && unzip -q && sha256sum -c MANIFEST":
#      on this repository's release and on a packed copy of Go's src tree;
#      and on the release, --no-exec with --rebuild of a clone against
#      without;
#   3. the whole verify, the re-run of the tests included, with catalogkit's
#      build cache warm, against a warm "go test -count=1 ./catalog/...
#      ./conformance/... ./records/..." in this checkout; sandboxed (the
#      default, where bubblewrap runs) against --sandbox off; and once cold
#      (--cold-cache), for the record.
# Set SKIP_GOSRC=1 to leave out the Go src tree (the slowest part).
set -euo pipefail
RUNS=${RUNS:-5}
SRC=${TREE:-$(go env GOROOT)/src}
command -v unzip >/dev/null || { echo "bench.sh: unzip is not installed (apt-get install unzip)" >&2; exit 1; }
repo=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/catalogkit" ./cmd/catalogkit
go build -o "$tmp/benchpack" ./internal/dev/benchpack
go build -o "$tmp/benchverify" ./internal/dev/benchverify
echo "$(nproc) CPUs; GOMAXPROCS ${GOMAXPROCS:-default}; load average $(cut -d' ' -f1-3 /proc/loadavg); $RUNS runs each"

median() { sort -n | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else printf "%.3f\n", (a[NR/2]+a[NR/2+1])/2}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
row() { printf '%-52s %10s %10s %7s\n' "$1" "$2" "$3" "$(ratio "$2" "$3")"; }
TIMEFORMAT='%R'

# 1. The hash on 1 GiB (a sparse file: both read it from the page cache).
truncate -s 1G "$tmp/1g.bin"
for i in $(seq "$RUNS"); do
	{ time "$tmp/benchverify" -hash-only "$tmp/1g.bin" >"$tmp/ours.sum"; } 2>>"$tmp/hash.ours"
	{ time sha256sum "$tmp/1g.bin" >"$tmp/tool.sum"; } 2>>"$tmp/hash.tool"
	cmp -s "$tmp/ours.sum" "$tmp/tool.sum" || { echo "bench.sh: FAIL: hashes differ" >&2; exit 1; }
done
rm "$tmp/1g.bin"

# noexec NAME DIR ZIP VERIFY...: VERIFY (with --no-exec) on DIR/ZIP against the tools.
noexec() {
	local name=$1 dir=$2 zip=$3
	shift 3
	for i in $(seq "$RUNS"); do
		(cd "$dir" && { time "$@" >>"$tmp/$name.steps"; } 2>>"$tmp/$name.ours")
		(cd "$dir" && { time (sha256sum -c --quiet SHA256SUMS && unzip -tq "$zip" >/dev/null); } 2>>"$tmp/$name.tool")
		rm -rf "$tmp/x" && mkdir "$tmp/x"
		(cd "$dir" && { time (sha256sum -c --quiet SHA256SUMS && cd "$tmp/x" && unzip -q "$dir/$zip" && cd */ && sha256sum -c --quiet MANIFEST.sha256); } 2>>"$tmp/$name.manual")
		rm -rf "$tmp/x"
	done
}

# 2a. This repository's release.
git archive HEAD | (mkdir "$tmp/src" && tar -x -C "$tmp/src")
"$tmp/catalogkit" pack --dir "$tmp/src" --out "$tmp/rel" >/dev/null
rel=$(cd "$tmp/rel" && ls catalogkit-*.zip)
noexec release "$tmp/rel" "$rel" "$tmp/catalogkit" verify --sums SHA256SUMS --no-exec "$rel"

# 2c. What --rebuild adds to --no-exec on the release: a clean clone of
# HEAD packed again and compared, side by side with the same verify without it.
git clone -q "$repo" "$tmp/clone"
for i in $(seq "$RUNS"); do
	(cd "$tmp/rel" && { time "$tmp/catalogkit" verify --sums SHA256SUMS --no-exec "$rel" >/dev/null; } 2>>"$tmp/rebuild.without")
	(cd "$tmp/rel" && { time "$tmp/catalogkit" verify --sums SHA256SUMS --rebuild "$tmp/clone" --no-exec "$rel" >/dev/null; } 2>>"$tmp/rebuild.with")
done

# 2b. Go's src tree, packed.
if [ -z "${SKIP_GOSRC:-}" ]; then
	cp -r "$SRC" "$tmp/gosrc"
	# Go's src holds nested modules (cmd, testdata), which the packager leaves
	# out of a release: without their go.mod files the tree packs nearly whole.
	find "$tmp/gosrc" -mindepth 2 -name go.mod -delete
	mkdir "$tmp/go"
	"$tmp/benchpack" -dir "$tmp/gosrc" -out "$tmp/go/catalogkit-0.0.0-bench.zip" >/dev/null
	rm -rf "$tmp/gosrc"
	(cd "$tmp/go" && sha256sum catalogkit-0.0.0-bench.zip >SHA256SUMS)
	noexec gosrc "$tmp/go" catalogkit-0.0.0-bench.zip "$tmp/benchverify" -sums SHA256SUMS catalogkit-0.0.0-bench.zip
fi

# 3. The whole verify against go test in this checkout, both warm. The
# hash is given as --sha256, an identity, so that the tests step runs (an unsigned
# --sums alone does not run the archive's code); each run must say so.
pkgs="./catalog/... ./conformance/... ./records/..."
sum=$(cut -d' ' -f1 "$tmp/rel/SHA256SUMS")
(cd "$repo" && go test -count=1 $pkgs >/dev/null)
(cd "$tmp/rel" && "$tmp/catalogkit" verify --sha256 "$sum" "$rel" >/dev/null)
for i in $(seq "$RUNS"); do
	(cd "$repo" && { time go test -count=1 $pkgs >/dev/null; } 2>>"$tmp/whole.tool")
	(cd "$tmp/rel" && { time "$tmp/catalogkit" verify --sha256 "$sum" "$rel" >"$tmp/whole.txt"; } 2>>"$tmp/whole.ours")
	grep -Eq '^[0-9]+ tests +passed' "$tmp/whole.txt" || { echo "bench.sh: FAIL: the whole verify did not run the tests:" >&2; cat "$tmp/whole.txt" >&2; exit 1; }
	grep -q '^6 tests    passed  sandboxed by bubblewrap' "$tmp/whole.txt" || echo "bench.sh: note: the whole verify ran unsandboxed: $(grep -o 'not sandboxed: [^;]*' "$tmp/whole.txt")" >&2
	(cd "$tmp/rel" && { time "$tmp/catalogkit" verify --sandbox off --sha256 "$sum" "$rel" >"$tmp/whole.txt"; } 2>>"$tmp/whole.off")
	grep -q '^6 tests    passed  not sandboxed (--sandbox off)' "$tmp/whole.txt" || { echo "bench.sh: FAIL: verify --sandbox off did not run the tests unsandboxed:" >&2; cat "$tmp/whole.txt" >&2; exit 1; }
done
(cd "$tmp/rel" && { time "$tmp/catalogkit" verify --cold-cache --sha256 "$sum" "$rel" >"$tmp/whole.txt"; } 2>"$tmp/cold.ours")
grep -Eq '^[0-9]+ tests +passed' "$tmp/whole.txt" || { echo "bench.sh: FAIL: the cold verify did not run the tests" >&2; exit 1; }

echo
printf '%-52s %10s %10s %7s\n' "median wall time (s)" "catalogkit" "tools" "ratio"
row "hash of 1 GiB vs sha256sum" "$(median <"$tmp/hash.ours")" "$(median <"$tmp/hash.tool")"
for name in release gosrc; do
	[ -f "$tmp/$name.ours" ] || continue
	row "$name: --no-exec vs sha256sum -c + unzip -tq" "$(median <"$tmp/$name.ours")" "$(median <"$tmp/$name.tool")"
	row "$name: --no-exec vs sha256sum -c, unzip, sha256sum -c" "$(median <"$tmp/$name.ours")" "$(median <"$tmp/$name.manual")"
done
row "release: --no-exec with --rebuild vs without" "$(median <"$tmp/rebuild.with")" "$(median <"$tmp/rebuild.without")"
row "whole verify (warm cache) vs go test -count=1 (warm)" "$(median <"$tmp/whole.ours")" "$(median <"$tmp/whole.tool")"
row "whole verify --sandbox off vs go test (warm)" "$(median <"$tmp/whole.off")" "$(median <"$tmp/whole.tool")"
row "whole verify sandboxed vs --sandbox off" "$(median <"$tmp/whole.ours")" "$(median <"$tmp/whole.off")"
row "whole verify --cold-cache (once) vs go test (warm)" "$(cat "$tmp/cold.ours")" "$(median <"$tmp/whole.tool")"
if [ -f "$tmp/gosrc.steps" ]; then
	echo "gosrc per-step medians (s):"
	for s in hash parse extract manifest repack; do
		printf '  %-9s %s\n' "$s" "$(grep -o "$s=[0-9.]*" "$tmp/gosrc.steps" | cut -d= -f2 | median)"
	done
fi
