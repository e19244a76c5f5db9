import { describe, expect, it } from "vitest";
import { hostOf, normaliseHost } from "./host.js";

describe("hostOf", () => {
  it("takes the lowercased host without www., and nothing from non-web URLs", () => {
    expect(hostOf("https://WWW.Shop.Example/a?b")).toBe("shop.example");
    expect(hostOf("http://news.example:8080/x")).toBe("news.example");
    expect(hostOf("file:///tmp/a.html")).toBe("");
    expect(hostOf("ftp://files.example/a")).toBe("");
    expect(hostOf("")).toBe("");
    expect(hostOf(undefined)).toBe("");
    expect(hostOf("not a url")).toBe("");
  });

  it("normalises a bare domain the same way", () => {
    expect(normaliseHost("  WWW.Example.ORG ")).toBe("example.org");
    expect(normaliseHost("wwwx.example")).toBe("wwwx.example");
  });
});
