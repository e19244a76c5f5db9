/**
 * A typed array reused from page to page: the feature sets compute their per-page arrays inside
 * one synchronous extract() and drop them at its end, so one buffer per use serves every page, in
 * place of fresh zeroed arrays (and their garbage) for each.
 */
type Numbers = Float64Array | Float32Array | Int32Array | Uint8Array;

export class Reused<T extends Numbers> {
  private buffer: T;

  constructor(private readonly make: (length: number) => T) {
    this.buffer = make(256);
  }

  /** `length` zeros: a view of the buffer, valid until the next call. */
  zeros(length: number): T {
    if (this.buffer.length < length) this.buffer = this.make(Math.max(length, 2 * this.buffer.length));
    const view = this.buffer.subarray(0, length) as T;
    view.fill(0);
    return view;
  }
}

export const float64s = (): Reused<Float64Array> => new Reused((n) => new Float64Array(n));
export const float32s = (): Reused<Float32Array> => new Reused((n) => new Float32Array(n));
export const int32s = (): Reused<Int32Array> => new Reused((n) => new Int32Array(n));
export const uint8s = (): Reused<Uint8Array> => new Reused((n) => new Uint8Array(n));
