/**
 * Union-find over documents numbered 0..n-1, where every set's root is its smallest number: the
 * document a cluster keeps is its root, the first in the stable order the numbering follows.
 * Path halving keeps finds near constant; an Int32Array keeps a billion documents in 4 GB.
 */
export class UnionFind {
  readonly #parent: Int32Array;

  constructor(n: number) {
    this.#parent = new Int32Array(n);
    for (let i = 0; i < n; i++) this.#parent[i] = i;
  }

  get size(): number {
    return this.#parent.length;
  }

  find(x: number): number {
    const p = this.#parent;
    while (p[x] !== x) {
      p[x] = p[p[x]];
      x = p[x];
    }
    return x;
  }

  /** Joins the sets of a and b under the smaller root; returns that root. */
  union(a: number, b: number): number {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return ra;
    if (ra < rb) {
      this.#parent[rb] = ra;
      return ra;
    }
    this.#parent[ra] = rb;
    return rb;
  }
}
