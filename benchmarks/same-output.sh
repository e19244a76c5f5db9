#!/usr/bin/env bash
# Do two builds write the same corpus? `winnow clean` of each build over the same inputs, the
# given flags, and the JSONL compared byte for byte (a speed change must not move a byte; see
# docs/speed.md). Inputs: the labelled sets as WARCs (benchmarks/make-warc.js DIR OUT).
#
#   benchmarks/same-output.sh OTHER_CHECKOUT "INPUT..." [winnow clean flags...]
#   e.g. benchmarks/same-output.sh ../winnow-old "benchmarks/data/*.warc.gz" --workers 0
#
# EXCEPT="date author" compares every document's other fields exactly and counts the documents
# whose named fields changed (for a change meant to move those fields and nothing else).
set -euo pipefail
other=$1 inputs=$2
shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
for input in $inputs; do
  name=$(basename "$input")
  for side in other here; do
    build=$here
    [ "$side" = other ] && build=$other
    node "$build/pipelines/cli/bin/winnow.js" clean "$input" -o "$out/$side-$name.jsonl" "$@" >/dev/null 2>"$out/$side.log" || {
      echo "$name: the $side build failed: $(tail -3 "$out/$side.log")"
      status=1
    }
  done
  if [ -n "${EXCEPT:-}" ]; then
    # Line by line: the documents in the same order, equal once the named fields are set aside.
    node -e '
      const fs = require("fs");
      const [a, b, name, ...except] = process.argv.slice(1);
      const read = (f) => fs.readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
      const [x, y] = [read(a), read(b)];
      const rest = (d) => JSON.stringify(Object.fromEntries(Object.entries(d).filter(([k]) => !except.includes(k))));
      const moved = Object.fromEntries(except.map((k) => [k, 0]));
      let other = x.length === y.length ? 0 : Math.max(x.length, y.length);
      x.forEach((d, i) => {
        if (i >= y.length) return;
        if (rest(d) !== rest(y[i])) other++;
        for (const k of except) if (JSON.stringify(d[k]) !== JSON.stringify(y[i][k])) moved[k]++;
      });
      const verdict = other === 0 ? `identical but for ${except.join(", ")}` : `DIFFERENT in other fields on ${other} documents`;
      console.log(`${name}: ${verdict} (${y.length} documents; changed: ${except.map((k) => `${k} on ${moved[k]}`).join(", ")})`);
      process.exit(other === 0 ? 0 : 1);
    ' "$out/other-$name.jsonl" "$out/here-$name.jsonl" "$name" $EXCEPT || status=1
  elif cmp -s "$out/other-$name.jsonl" "$out/here-$name.jsonl"; then
    echo "$name: identical ($(wc -l <"$out/here-$name.jsonl") documents)"
  else
    echo "$name: DIFFERENT: $(cmp "$out/other-$name.jsonl" "$out/here-$name.jsonl" | head -1)"
    status=1
  fi
done
exit $status
