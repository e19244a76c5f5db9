/**
 * The generator training draws from: @winnow/random's mulberry32 (32-bit state, fast, good
 * enough for weight init and shuffling; Math.random cannot be seeded and training must be
 * bit-reproducible), with the integer and normal draws training needs on top.
 */
import { mulberry32 } from "@winnow/random";

export interface Prng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, bound) for 0 < bound <= 2^32. */
  nextInt(bound: number): number;
  /** Standard normal deviate (Box–Muller; one of the pair is discarded for simplicity). */
  nextGaussian(): number;
}

export function createPrng(seed: number): Prng {
  const next = mulberry32(seed);
  return {
    next,
    // Floor of a scaled float has negligible bias at the sizes we shuffle (< 2^24).
    nextInt: (bound) => Math.floor(next() * bound),
    nextGaussian: () => {
      // 1 - u keeps the log argument in (0, 1].
      const u = 1 - next();
      const v = next();
      return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}

/** In-place Fisher–Yates shuffle driven by `rng`. */
export function shuffleInPlace(a: Uint32Array, rng: Prng): void {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.nextInt(i + 1);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
