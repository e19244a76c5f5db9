/** Random access to the MinHash signatures of pass 1, one positioned read per signature. */
import { closeSync, openSync, readSync } from "node:fs";
import { paths } from "./plan.js";

export class SignatureReader {
  readonly #state: string;
  readonly #hashes: number;
  readonly #fds = new Map<number, number>();

  constructor(state: string, hashes: number) {
    this.#state = state;
    this.#hashes = hashes;
  }

  read(shard: number, row: number): Uint32Array {
    let fd = this.#fds.get(shard);
    if (fd === undefined) {
      fd = openSync(paths.sigFile(this.#state, shard, "minhash"), "r");
      this.#fds.set(shard, fd);
    }
    const bytes = 4 * this.#hashes;
    const buf = Buffer.allocUnsafe(bytes);
    let got = 0;
    while (got < bytes) {
      const n = readSync(fd, buf, got, bytes - got, row * bytes + got);
      if (n === 0) throw new Error(`signature file of input ${shard} ends before row ${row}`);
      got += n;
    }
    return new Uint32Array(buf.buffer, buf.byteOffset, this.#hashes);
  }

  close(): void {
    for (const fd of this.#fds.values()) closeSync(fd);
    this.#fds.clear();
  }
}
