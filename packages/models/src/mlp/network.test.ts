import { describe, expect, it } from "vitest";
import { MlpNetwork } from "./network.js";
import { createPrng } from "./prng.js";

/** Summed weighted loss over all rows at the current parameters. */
function loss(net: MlpNetwork, X: Float32Array, y: Uint8Array, w: Float64Array): number {
  net.zeroGrad();
  return net.accumulate(X, y, w, null, 0, y.length, true);
}

describe("MlpNetwork gradient", () => {
  // Odd hidden size and a row count that leaves a partial tile exercise the padding paths.
  for (const relu of [false, true]) {
    it(`matches finite differences (${relu ? "relu" : "tanh"}, H=3, 7 rows)`, () => {
      const rng = createPrng(5);
      const D = 5;
      const n = 7;
      const X = Float32Array.from({ length: n * D }, () => rng.nextGaussian());
      const y = Uint8Array.from({ length: n }, (_, i) => i % 2);
      const w = Float64Array.from({ length: n }, () => 0.5 + rng.next());
      const net = new MlpNetwork(D, 3, relu, new Float32Array(D).fill(0.1), new Float32Array(D).fill(1.5));
      net.initialise(rng);
      for (let i = net.offB1; i < net.params.length; i++) net.params[i] = 0.3 * rng.nextGaussian();

      // Visiting rows through `order` must give the same gradient as visiting them in place.
      net.zeroGrad();
      net.accumulate(
        X,
        y,
        w,
        Uint32Array.from({ length: n }, (_, i) => i),
        0,
        n,
        false,
      );
      const viaOrder = Float64Array.from(net.grad);
      loss(net, X, y, w);
      const analytic = Float64Array.from(net.grad);
      for (let i = 0; i < analytic.length; i++) expect(viaOrder[i]).toBeCloseTo(analytic[i], 12);

      const eps = 1e-6;
      for (let i = 0; i < net.params.length; i++) {
        const keep = net.params[i];
        net.params[i] = keep + eps;
        const up = loss(net, X, y, w);
        net.params[i] = keep - eps;
        const down = loss(net, X, y, w);
        net.params[i] = keep;
        expect(analytic[i]).toBeCloseTo((up - down) / (2 * eps), 5);
      }
    });
  }
});
