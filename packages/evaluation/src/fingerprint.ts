import { createHash } from "node:crypto";

/**
 * Short identity of a training set: first 16 hex chars of sha256 over the sorted ids and `extra`
 * (e.g. feature-set or hyper-parameter names). Serialised as JSON so that no choice of ids or
 * extra can collide by concatenation ("a","bc" vs "ab","c"). Sorting is by UTF-16 code units,
 * not locale, so the value is the same on every machine; duplicate ids are kept.
 */
export function fingerprint(ids: readonly string[], extra: string): string {
  const sorted = [...ids].sort();
  return createHash("sha256")
    .update(JSON.stringify([sorted, extra]))
    .digest("hex")
    .slice(0, 16);
}
