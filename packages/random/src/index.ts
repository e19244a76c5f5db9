/**
 * mulberry32: a 32-bit seeded generator, small, fast and well mixed, for what winnow draws at
 * random (weight init and shuffles in training, the folds of cross-validation, label sampling,
 * planted duplicates). Math.random cannot be seeded, and runs and tests must give the same
 * draws for the same seed on every machine; nothing here needs cryptographic strength.
 */

/** A function giving uniform floats in [0, 1), from `seed` (taken as an unsigned 32-bit integer). */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
