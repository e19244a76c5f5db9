// The weak-page rule through a whole clean run with the shipped model (issue 35): on a shop's
// category page the model keeps the description with little confidence and scores the product
// grid under the threshold; the rule keeps the grid, as the page's gold does. Without the rule
// the output is the description alone (548 characters). The compiled module is imported (run
// `npx tsc -b` first), as in run.test.ts.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean } from "../dist/run.js";

const FIXTURE = fileURLToPath(new URL("../../../fixtures/weak-page/", import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-weak-page-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("winnow clean on a weak page (a category listing)", () => {
  it("keeps the product grid the gold keeps, besides the description, and not the page's chrome", async () => {
    const html = join(dir, "4468.html");
    writeFileSync(html, gunzipSync(readFileSync(join(FIXTURE, "html", "4468.html.gz"))));
    const output = join(dir, "out.jsonl");
    await runClean({ inputs: [html], output, model: "mlp", workers: 0 });
    const docs = readFileSync(output, "utf8")
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { text: string });
    expect(docs).toHaveLength(1);
    const text = docs[0].text;
    const gold = (
      JSON.parse(readFileSync(join(FIXTURE, "ground-truth", "4468.json"), "utf8")) as { ground_truth: { main_content: string } }
    ).ground_truth.main_content;
    // The description, which the model keeps either way.
    expect(text).toContain("The ergonomic mesh office chairs in this category include designs with mesh backs");
    // The grid's product names, each a line of the gold: most of them are in the text.
    const products = gold.split("\n").filter((line) => /(Chair|Task|Tasker|Tilter)$/.test(line.trim()));
    expect(products.length).toBeGreaterThanOrEqual(12);
    const found = products.filter((name) => text.includes(name.trim()));
    expect(found.length / products.length).toBeGreaterThanOrEqual(0.9);
    expect(text).toContain("Dauphin Magnum Heavy Duty Ergonomic Tilter");
    expect(text).toContain("$1,626.00 $1,095.00");
    // Not the page's footer of contact and policy links, which the gold leaves out too.
    expect(gold).not.toContain("Privacy Policy");
    expect(text).not.toContain("Privacy Policy");
  });
});
