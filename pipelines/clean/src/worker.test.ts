import { readRecords, transferableBuffer, type ArchiveRecord } from "@winnow/archive";
import { type BlockClassifier, loadClassifier } from "@winnow/models";
import type { DocumentBlock } from "@winnow/writers";
import { describe, expect, it } from "vitest";
import { packOutputs, packPages, unpackOutputs, unpackPages } from "./task.js";
import { cleanPagesSafely } from "./worker.js";

const html = (text: string): Uint8Array => Buffer.from(`<html><head><title>T</title></head><body><p>${text}</p></body></html>`);

const SAMPLE = new URL("../../../fixtures/sample.warc.gz", import.meta.url).pathname;

describe("packPages / unpackPages", () => {
  it("copies views of a shared buffer into a buffer of their own, leaving the original usable", () => {
    const chunk = Buffer.from("xxAAAyyBBBBzz");
    const pages = [
      { body: chunk.subarray(2, 5), charset: "utf-8" },
      { body: new Uint8Array(0), charset: "" },
      { body: chunk.subarray(7, 11), charset: "windows-1252" },
    ];
    const task = packPages(pages);
    expect(task.transfer).toHaveLength(1);
    expect(task.transfer[0].byteLength).toBe(7);
    // Transfer the packed buffer the way piscina does; the reader's chunk must stay intact.
    const moved = structuredClone(task, { transfer: task.transfer });
    expect(task.transfer[0].byteLength).toBe(0);
    expect(chunk.toString()).toBe("xxAAAyyBBBBzz");
    const out = unpackPages(moved);
    expect(out.map((p) => Buffer.from(p.body).toString())).toEqual(["AAA", "", "BBBB"]);
    expect(out.map((p) => p.headerCharset)).toEqual(["utf-8", "", "windows-1252"]);
  });

  it("moves the payloads the reader hands over in their own buffers, copying only the others", async () => {
    const records: ArchiveRecord[] = [];
    for await (const r of readRecords(SAMPLE)) records.push(r);
    const texts = records.map((r) => Buffer.from(r.body).toString("latin1"));
    const handedOver = records.filter((r) => transferableBuffer(r.body) !== null).length;
    expect(handedOver).toBeGreaterThan(records.length / 2);
    const task = packPages(records);
    // One buffer per payload handed over, plus one holding copies of the rest.
    expect(task.transfer).toHaveLength(handedOver + 1);
    expect(task.transfer.at(-1)?.byteLength).toBe(
      records.filter((r) => transferableBuffer(r.body) === null).reduce((n, r) => n + r.body.byteLength, 0),
    );
    for (const r of records) if (transferableBuffer(r.body) !== null) expect(task.transfer).toContain(r.body.buffer);
    const moved = structuredClone(task, { transfer: task.transfer });
    expect(unpackPages(moved).map((p) => Buffer.from(p.body).toString("latin1"))).toEqual(texts);
    // The payloads moved are detached here, as the pool's callers are told; the copied one is not.
    expect(records.filter((r) => r.body.byteLength === 0)).toHaveLength(handedOver);
  });
});

describe("cleanPagesSafely", () => {
  it("turns a classifier that throws into one failed output per page", async () => {
    const broken: BlockClassifier = {
      name: "broken",
      threshold: 0.5,
      score: async () => {
        throw new Error("scorer exploded");
      },
      close: async () => {},
    };
    const outputs = await cleanPagesSafely(
      [
        { body: html("one two three"), headerCharset: "" },
        { body: html("four five six"), headerCharset: "" },
      ],
      broken,
    );
    expect(outputs).toEqual([
      { ok: false, reason: "failed", detail: "scorer exploded" },
      { ok: false, reason: "failed", detail: "scorer exploded" },
    ]);
  });
});

describe("packPages", () => {
  it("carries each page's URL across to the worker", () => {
    const task = packPages([
      { body: Buffer.from("<p>a</p>"), charset: "", url: "http://a.example/" },
      { body: Buffer.from("<p>b</p>"), charset: "utf-8" },
    ]);
    expect(unpackPages(task).map((p) => p.url)).toEqual(["http://a.example/", ""]);
  });
});

describe("packOutputs / unpackOutputs", () => {
  it("brings a batch's outputs back across the thread boundary as the cleaner made them", async () => {
    const records: ArchiveRecord[] = [];
    for await (const r of readRecords(SAMPLE)) records.push(r);
    const pages = unpackPages(packPages(records));
    // A page with no text between the others: an output without blocks in the middle of the columns.
    pages.splice(3, 0, { body: html(""), headerCharset: "" });
    const classifier = await loadClassifier("mlp");
    const outputs = await cleanPagesSafely(pages, classifier, undefined, { links: true, keepComments: true });
    await classifier.close();
    const blocks = outputs.flatMap((o) => (o.ok ? o.blocks : []));
    expect(outputs[3]).toMatchObject({ ok: false, reason: "no-text" });
    expect(blocks.filter((b) => b.layout !== undefined).length).toBeGreaterThan(10);
    expect(blocks.filter((b) => b.layout === undefined).length).toBeGreaterThan(10);
    expect(blocks.some((b) => b.heading > 0)).toBe(true);
    // One shape for every block (layout present, undefined on a plain one), on either side.
    const oneShape = (bs: DocumentBlock[]) => bs.every((b) => Object.keys(b).join() === "text,heading,layout");
    expect(oneShape(blocks)).toBe(true);
    const expected = structuredClone(outputs);

    const packed = packOutputs(outputs);
    // No block object crosses: every written page's blocks are in the columns.
    expect(packed.outputs.every((o) => !o.ok || o.blocks.length === 0)).toBe(true);
    expect(packed.texts).toHaveLength(blocks.length);
    const unpacked = unpackOutputs(structuredClone(packed));
    expect(unpacked).toStrictEqual(expected);
    expect(oneShape(unpacked.flatMap((o) => (o.ok ? o.blocks : [])))).toBe(true);
  });
});
