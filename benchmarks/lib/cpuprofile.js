/**
 * Reads a V8 .cpuprofile (node --cpu-prof) and ranks functions by self time, and by inclusive
 * ("total") time, aggregated over every call site of the same function.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";

/** Short name for a profile's script URL: repo-relative, node_modules folded to the package. */
function where(url, root) {
  if (!url) return "";
  let path = url.startsWith("file://") ? decodeURIComponent(url.slice(7)) : url;
  const nm = path.lastIndexOf("/node_modules/");
  if (nm >= 0) return path.slice(nm + 1);
  if (root && path.startsWith(root)) path = relative(root, path);
  return path;
}

/**
 * `stacks`: named matchers whose time stageTimes sums (below), returned as `stackMs`.
 * @returns {{ totalMs: number, rows: Array<{ name: string, where: string, selfMs: number, totalMs: number, selfShare: number, totalShare: number }>, stackMs?: Record<string, number> }}
 */
export function summarizeProfile(file, { root, stacks } = {}) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map();
  for (const node of profile.nodes) byId.set(node.id, node);
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfUs = new Map();
  let totalUs = 0;
  // timeDeltas[i] is the time before sample i; attributing it to sample i is V8's own convention.
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = Math.max(0, profile.timeDeltas[i] ?? 0);
    selfUs.set(profile.samples[i], (selfUs.get(profile.samples[i]) ?? 0) + dt);
    totalUs += dt;
  }

  const keyOf = (node) => {
    const f = node.callFrame;
    const name = f.functionName || (f.url ? "(anonymous)" : f.functionName);
    return `${name || "(anonymous)"}\t${where(f.url, root)}:${f.lineNumber + 1}`;
  };
  const self = new Map();
  const total = new Map();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    const key = keyOf(node);
    self.set(key, (self.get(key) ?? 0) + us);
    // Inclusive time: every distinct function on the stack gets the sample once (recursion counted once).
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const k = keyOf(byId.get(at));
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  // With `stacks`: each matcher's time, from the samples it accepts (stageTimes).
  const stackMs = stacks === undefined ? undefined : stageTimes(byId, parent, selfUs, stacks, root);
  const rows = [...total.keys()].map((key) => {
    const [name, loc] = key.split("\t");
    const s = self.get(key) ?? 0;
    const t = total.get(key) ?? 0;
    return { name, where: loc === ":0" ? "" : loc, selfMs: s / 1000, totalMs: t / 1000, selfShare: s / totalUs, totalShare: t / totalUs };
  });
  return { totalMs: totalUs / 1000, rows, stackMs };
}

/**
 * Milliseconds of the samples each matcher accepts: `within` a sample whose stack holds a frame
 * it accepts (a stage's inclusive time, counted once however deep the stage recurses),
 * `innermost` a sample whose running function it accepts (self time). A frame is { name, where }
 * as in the rows. Also `unmatched`: the busy samples (not idle) that no matcher marked `top`
 * accepts, the time no top-level stage accounts for, and `unmatchedBy`: that time by the running
 * function ("name where"), so that the next stage to name can be read off.
 */
function stageTimes(byId, parent, selfUs, stacks, root) {
  const frameOf = new Map();
  const frame = (node) => {
    let f = frameOf.get(node.id);
    if (f === undefined) {
      const c = node.callFrame;
      f = { name: c.functionName || "(anonymous)", where: c.url ? `${where(c.url, root)}:${c.lineNumber + 1}` : "" };
      frameOf.set(node.id, f);
    }
    return f;
  };
  const ms = Object.fromEntries([...Object.keys(stacks), "unmatched"].map((k) => [k, 0]));
  const unmatchedBy = new Map();
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (node.callFrame.functionName === "(idle)") continue;
    let inTop = false;
    for (const [name, m] of Object.entries(stacks)) {
      let hit = m.innermost?.(frame(node)) === true;
      for (let at = id; !hit && m.within !== undefined && at !== undefined; at = parent.get(at)) hit = m.within(frame(byId.get(at)));
      if (!hit) continue;
      ms[name] += us / 1000;
      if (m.top) inTop = true;
    }
    if (inTop) continue;
    ms.unmatched += us / 1000;
    const f = frame(node);
    const key = f.where === "" ? f.name : `${f.name} ${f.where}`;
    unmatchedBy.set(key, (unmatchedBy.get(key) ?? 0) + us / 1000);
  }
  ms.unmatchedBy = unmatchedBy;
  return ms;
}

export function topBySelf(summary, n = 15) {
  return [...summary.rows].sort((a, b) => b.selfMs - a.selfMs).slice(0, n);
}

export function topByTotal(summary, n = 15, skip = /^\((root|program|idle|garbage collector)\)$/) {
  return [...summary.rows]
    .filter((r) => !skip.test(r.name))
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, n);
}
