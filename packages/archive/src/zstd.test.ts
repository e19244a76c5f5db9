// .warc.zst as the IIPC profile writes it: one zstd frame per record, with or without a
// dictionary in a leading skippable frame (raw or itself compressed). Each must read as the
// plain WARC does, with the stored offset of each record's frame; damage is reported, not thrown.
import { Compressor, compress } from "zstd-napi";
import { describe, expect, it } from "vitest";
import { collect, pageNumbers, sampleRecords, tempFile } from "../test/helpers.js";

const { records, ids } = sampleRecords(40);

/** Each record its own frame, compressed with `dictionary` when given; the frames' offsets. */
function zstdEach(dictionary?: Buffer): { frames: Buffer[]; offsets: number[] } {
  const compressor = new Compressor();
  if (dictionary !== undefined) compressor.loadDictionary(dictionary);
  const frames = records.map((r) => compressor.compress(r));
  const offsets: number[] = [];
  let at = 0;
  for (const f of frames) {
    offsets.push(at);
    at += f.length;
  }
  return { frames, offsets };
}

function skippableFrame(payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32LE(0x184d2a5d, 0);
  head.writeUInt32LE(payload.length, 4);
  return Buffer.concat([head, payload]);
}

describe(".warc.zst", () => {
  it("reads per-record frames without a dictionary, with each record's frame offset", async () => {
    const { frames, offsets } = zstdEach();
    const got = await collect(tempFile("plain.warc.zst", Buffer.concat(frames)));
    expect(got.records.map((r) => r.recordId)).toEqual(ids);
    expect(pageNumbers(got)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    // Responses are the odd records (a request before each).
    expect(got.records.map((r) => r.offset)).toEqual(offsets.filter((_, i) => i % 2 === 1));
  });

  it("reads frames compressed with a dictionary given in a skippable frame, raw or compressed", async () => {
    // A raw-content dictionary: what the records share.
    const dictionary = Buffer.from(
      records
        .slice(0, 4)
        .map((r) => r.toString("latin1"))
        .join(""),
      "latin1",
    );
    const { frames, offsets } = zstdEach(dictionary);
    for (const stored of [dictionary, compress(dictionary)]) {
      const dictFrame = skippableFrame(stored);
      const got = await collect(tempFile("dict.warc.zst", Buffer.concat([dictFrame, ...frames])));
      expect(got.skips.filter((s) => s.reason !== "not-response")).toEqual([]);
      expect(got.records.map((r) => r.recordId)).toEqual(ids);
      expect(got.records.map((r) => r.offset)).toEqual(offsets.filter((_, i) => i % 2 === 1).map((o) => o + dictFrame.length));
    }
    // Without the dictionary frame the same frames cannot be decoded: reported, not thrown.
    const missing = await collect(tempFile("nodict.warc.zst", Buffer.concat(frames)));
    expect(missing.records).toEqual([]);
    expect(missing.skips.some((s) => s.reason === "corrupt" && /zstd/.test(s.detail))).toBe(true);
  });

  it("a file cut inside a frame: the records before it are read, the cut is reported", async () => {
    const { frames } = zstdEach();
    const file = Buffer.concat(frames);
    const cut = file.subarray(0, file.length - Math.floor(frames[frames.length - 1].length / 2));
    const got = await collect(tempFile("cut.warc.zst", cut));
    expect(got.records.map((r) => r.recordId)).toEqual(ids.slice(0, -1));
    expect(got.skips.some((s) => s.reason === "truncated")).toBe(true);
  });
});
