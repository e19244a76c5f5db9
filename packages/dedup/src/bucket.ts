/**
 * Turning one LSH bucket (documents that share a band key) into candidate pairs that are checked:
 * documents are taken in their stable order; each is compared with the bucket's representatives
 * (the earlier members that matched no earlier representative) and paired with the first whose
 * estimated Jaccard reaches `minSimilarity`, or becomes a representative itself. At most
 * MAX_REPRESENTATIVES are kept, so a huge bucket costs linear time, not quadratic.
 *
 * With `minSimilarity` 0 every member pairs with the bucket's first, as plain LSH does.
 */
import { estimateJaccard } from "./minhash.js";

export const MAX_REPRESENTATIVES = 32;

/**
 * Calls `pair(rep, member)` for each member that is a near duplicate of an earlier member, in the
 * members' order. `signatureOf` is asked once per member, in order.
 */
export function pairBucket<T>(
  members: readonly T[],
  signatureOf: (member: T) => Uint32Array,
  minSimilarity: number,
  pair: (kept: T, duplicate: T, similarity: number) => void,
): void {
  if (members.length < 2) return;
  if (minSimilarity <= 0) {
    for (let i = 1; i < members.length; i++) pair(members[0], members[i], Number.NaN);
    return;
  }
  const reps: Array<{ member: T; sig: Uint32Array }> = [];
  for (const member of members) {
    const sig = signatureOf(member);
    let matched = false;
    for (const rep of reps) {
      const j = estimateJaccard(rep.sig, sig);
      if (j >= minSimilarity) {
        pair(rep.member, member, j);
        matched = true;
        break;
      }
    }
    if (!matched && reps.length < MAX_REPRESENTATIVES) reps.push({ member, sig });
  }
}
