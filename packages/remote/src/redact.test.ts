import { describe, expect, it } from "vitest";
import { REDACTED, redactUrl, redactUrlsIn } from "./redact.js";

describe("redactUrl", () => {
  it("hides the userinfo, user and password alike", () => {
    expect(redactUrl("https://alice:s3cr%40t@example.org/a.warc.gz")).toBe(`https://${REDACTED}@example.org/a.warc.gz`);
    expect(redactUrl("http://token@example.org:8080/x")).toBe(`http://${REDACTED}@example.org:8080/x`);
    // An "@" left unencoded in a password: everything up to the host's "@" goes.
    expect(redactUrl("http://u:p@ss@host/x?y=1")).toBe(`http://${REDACTED}@host/x?y=1`);
  });

  it("hides the values of secret query parameters, whatever their case, and keeps the others", () => {
    const presigned =
      "https://b.s3.amazonaws.com/k.warc.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20260101%2Fus-east-1%2Fs3%2Faws4_request" +
      "&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=FQoGZXIvYXdzEXAMPLE&X-Amz-SignedHeaders=host&x-amz-signature=abc123def";
    expect(redactUrl(presigned)).toBe(
      `https://b.s3.amazonaws.com/k.warc.gz?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${REDACTED}` +
        `&X-Amz-Date=20260101T000000Z&X-Amz-Expires=3600&X-Amz-Security-Token=${REDACTED}&X-Amz-SignedHeaders=host&x-amz-signature=${REDACTED}`,
    );
    expect(redactUrl("https://h/p?page=2&SIG=zz&Token=tt&api_key=kk#frag")).toBe(
      `https://h/p?page=2&SIG=${REDACTED}&Token=${REDACTED}&api_key=${REDACTED}#frag`,
    );
    expect(redactUrl("https://h/p?access%5Ftoken=zz")).toBe(`https://h/p?access%5Ftoken=${REDACTED}`);
  });

  it("leaves what has no secret as it is: local paths, standard input, s3:// keys, plain URLs", () => {
    for (const plain of ["-", "/data/a.warc.gz", "s3://bucket/crawl/a.warc.gz", "https://data.commoncrawl.org/a.warc.gz?x=1&key"]) {
      expect(redactUrl(plain)).toBe(plain);
    }
  });
});

describe("redactUrlsIn", () => {
  it("keeps a JSON line JSON: a quoted URL stops at its escaped quote", () => {
    const line = JSON.stringify({ msg: 'cannot open "https://u:p@h/a?token=T"', input: "s3://b/k?X-Amz-Signature=S" });
    const redacted = redactUrlsIn(line);
    expect(JSON.parse(redacted)).toEqual({
      msg: `cannot open "https://${REDACTED}@h/a?token=${REDACTED}"`,
      input: `s3://b/k?X-Amz-Signature=${REDACTED}`,
    });
  });

  it("redacts every URL inside a message and nothing else", () => {
    const message = "cannot open input: HTTP 403 (https://u:pw@h/a?sig=S) and (http://h/b?token=T, /tmp/x)";
    expect(redactUrlsIn(message)).toBe(
      `cannot open input: HTTP 403 (https://${REDACTED}@h/a?sig=${REDACTED}) and (http://h/b?token=${REDACTED}, /tmp/x)`,
    );
  });
});
