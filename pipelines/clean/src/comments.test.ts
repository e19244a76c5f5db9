// User comments through a whole clean run with the shipped model (issue 34): a threaded comment
// list goes to `comments`, never to `text`; the form, the policy and a "12 comments" counter go to
// neither; a page without comments gets an empty field; a discussion page keeps its thread.
// The compiled module is imported (run `npx tsc -b` first), as in run.test.ts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runClean } from "../dist/run.js";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/", import.meta.url));
const page = (name: string) => join(FIXTURES, "comments", name);

interface Doc {
  url?: string;
  text: string;
  comments?: string;
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "winnow-comments-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Cleans the inputs into JSONL and reads it back line by line with JSON.parse alone. */
async function clean(inputs: string[], name: string, comments: boolean): Promise<Doc[]> {
  const output = join(dir, `${name}.jsonl`);
  await runClean({ inputs, output, model: "mlp", workers: 0, comments });
  return readFileSync(output, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Doc);
}

const ARTICLE = "Old apple trees that have gone unpruned for a decade";
const COMMENT_BODIES = [
  "We inherited a neglected Bramley with the house",
  "That is lovely to hear, Tobias.",
  "Would you paint the larger cuts with a wound sealant",
];
/** The comment section's chrome: the form's title, notes, labels and button, the policy, the counters. */
const CHROME = [
  "Leave a Reply",
  "Your email address will not be published",
  "Required fields are marked",
  "Name *",
  "Email *",
  "Website",
  "Post Comment",
  "Comments are moderated",
  "12 comments",
  "thoughts on",
  "Reply",
];

describe("comments in a clean run with the shipped model", () => {
  it("puts a WordPress comment thread in comments, its form and counter in neither, and keeps the article", async () => {
    const [doc] = await clean([page("wordpress-thread.html")], "thread", true);
    expect(doc.text).toContain(ARTICLE);
    for (const body of COMMENT_BODIES) {
      expect(doc.comments).toContain(body);
      expect(doc.text).not.toContain(body);
    }
    // The "X says:" line belongs to its comment.
    expect(doc.comments).toContain("Tobias Wren says:");
    const commentLines = (doc.comments ?? "").split("\n\n");
    for (const chrome of CHROME) {
      expect(doc.text).not.toContain(chrome);
      for (const line of commentLines) expect(line.startsWith(chrome)).toBe(false);
    }
  });

  it("keeps the thread out of the main text without --comments too, and writes no comments field", async () => {
    const [doc] = await clean([page("wordpress-thread.html")], "thread-default", false);
    expect(doc.text).toContain(ARTICLE);
    for (const body of COMMENT_BODIES) expect(doc.text).not.toContain(body);
    expect(doc).not.toHaveProperty("comments");
  });

  it("gives a page with only a comment form, a policy and a '12 comments' counter an empty field and a clean text", async () => {
    const [doc] = await clean([page("counter-and-form.html")], "form", true);
    expect(doc.text).toContain(ARTICLE);
    expect(doc.comments).toBe("");
    for (const chrome of CHROME) expect(doc.text).not.toContain(chrome);
  });

  it("gives a page without comments an empty field", async () => {
    const [doc] = await clean([page("no-comments.html")], "none", true);
    expect(doc.text).toContain(ARTICLE);
    expect(doc.comments).toBe("");
  });

  it("leaves a discussion page's thread in its main text (lobste.rs in the sample archive)", async () => {
    const docs = await clean([join(FIXTURES, "sample.warc.gz")], "sample", true);
    const lobsters = docs.find((d) => d.url?.startsWith("https://lobste.rs/"));
    expect(lobsters?.text).toContain("Very interested and curious about the ergonomic ref counting");
    expect(lobsters?.comments ?? "").not.toContain("ergonomic ref counting");
  });

  // Issue 34's held-out pages: the 2008 markup that neither the head nor the class words caught.
  it("puts a run of signed comments after an article in comments, the head's say or not, and keeps the article", async () => {
    const [doc] = await clean([page("signed-comments.html")], "signed", true);
    expect(doc.text).toContain("The harbour ferry will run only four crossings");
    expect(doc.text).toContain("A public meeting has been called");
    for (const line of ["Four crossings is not a service", "Posted by: Tam, Portsoy", "Go to the meeting on Thursday"]) {
      expect(doc.comments).toContain(line);
      expect(doc.text).not.toContain(line);
    }
  });

  it("keeps a blog post's own 'Posted by' byline and last paragraph in the text, its signed comments out", async () => {
    const [doc] = await clean([page("signed-byline.html")], "byline", true);
    expect(doc.text).toContain("The first loaf was dense and flat");
    expect(doc.comments).not.toContain("The first loaf");
    expect(doc.comments).not.toContain("Posted by Nell");
    expect(doc.comments).toContain("Rye is the secret");
    expect(doc.text).not.toContain("Rye is the secret");
  });

  it("takes a 'comments-body' thread and an 'articolocommentotesto' one out of the text", async () => {
    const [body, word] = await clean([page("comments-body-class.html"), page("comment-word-class.html")], "classes", true);
    expect(body.text).toContain("The county library closes on Sundays");
    expect(body.comments).toContain("We drive forty minutes");
    expect(body.text).not.toContain("We drive forty minutes");
    expect(word.text).toContain("Castello went top of the league");
    expect(word.comments).toContain("What a finish");
    expect(word.text).not.toContain("What a finish");
  });

  it("leaves a forum's replies in its main text when its opening post is in forum markup", async () => {
    const [doc] = await clean([page("forum-thread.html")], "forum", true);
    expect(doc.text).toContain("I have been turning small brass parts");
    expect(doc.text).toContain("Check the bed near the chuck");
    expect(doc.comments ?? "").not.toContain("Check the bed near the chuck");
  });
});
