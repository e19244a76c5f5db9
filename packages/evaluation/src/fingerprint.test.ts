import { describe, expect, it } from "vitest";
import { fingerprint } from "./fingerprint.js";

describe("fingerprint", () => {
  it("is 16 hex chars of sha256 over JSON [sorted ids, extra]", () => {
    // Python: hashlib.sha256(json.dumps([["a","b","c"],"feat-v1"], separators=(",",":")).encode())
    expect(fingerprint(["c", "a", "b"], "feat-v1")).toBe("8f1ffcd658638012");
  });

  it("ignores id order but not extra", () => {
    expect(fingerprint(["0002", "0001"], "x")).toBe(fingerprint(["0001", "0002"], "x"));
    expect(fingerprint(["0001"], "x")).not.toBe(fingerprint(["0001"], "y"));
  });

  it("does not collide by concatenation", () => {
    expect(fingerprint(["a", "bc"], "")).not.toBe(fingerprint(["ab", "c"], ""));
    expect(fingerprint(["a"], "b")).not.toBe(fingerprint(["a", "b"], ""));
  });
});
