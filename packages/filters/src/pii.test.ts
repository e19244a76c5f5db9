import { describe, expect, it } from "vitest";
import { EMAIL_REPLACEMENT, IPV4_REPLACEMENT, IPV6_REPLACEMENT, isPublicIp, maskPii } from "./index.js";

/** A contact page's text, the way a cleaned page reads. */
const CONTACT = [
  "Contact us",
  "Write to Jane.Doe+news@Example-Mail.co.uk or to support@winnow.dev, and we answer within a day.",
  "Our mirror runs at http://93.184.216.34:8080/files/ and at https://[2606:4700:4700::1111]/files/.",
  "Inside the office, the printer is at 192.168.1.20 and the router at 10.0.0.1; loopback is 127.0.0.1 and ::1.",
  "Documentation examples such as 203.0.113.9 and 2001:db8::42 stay as they are, as does fe80::1.",
  "Version 1.2.3.4.5 of the tool, released at 12:30:45, uses std::vector and dead::beef.",
  "mailto:press@acme.example.org?subject=Hello",
].join("\n");

describe("PII masking", () => {
  it("masks e-mail addresses, inside links too, with the fixed replacement", () => {
    const masked = maskPii(CONTACT);
    expect(masked.text).not.toMatch(/Jane\.Doe|support@winnow|press@acme/);
    expect(masked.text).toContain(`Write to ${EMAIL_REPLACEMENT} or to ${EMAIL_REPLACEMENT}, and`);
    expect(masked.text).toContain(`mailto:${EMAIL_REPLACEMENT}?subject=Hello`);
    expect(masked.counts.emails).toBe(3);
  });

  it("masks public IPv4 and IPv6 addresses, inside URLs too, and leaves private, loopback and documentation ones", () => {
    const masked = maskPii(CONTACT);
    expect(masked.text).toContain(`http://${IPV4_REPLACEMENT}:8080/files/`);
    expect(masked.text).toContain(`https://[${IPV6_REPLACEMENT}]/files/`);
    for (const kept of [
      "192.168.1.20",
      "10.0.0.1",
      "127.0.0.1",
      "::1.",
      "203.0.113.9",
      "2001:db8::42",
      "fe80::1",
      "1.2.3.4.5",
      "12:30:45",
      "std::vector",
      "dead::beef",
    ]) {
      expect(masked.text, kept).toContain(kept);
    }
    expect(masked.counts.ips).toBe(2);
  });

  it("judges addresses as Python's is_global does for these blocks", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:80b::200e", "::ffff:8.8.8.8"])
      expect(isPublicIp(ip), ip).toBe(true);
    for (const ip of [
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.0.1",
      "100.64.0.1",
      "169.254.1.1",
      "127.0.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "255.255.255.255",
    ]) {
      expect(isPublicIp(ip), ip).toBe(false);
    }
    for (const ip of ["::1", "::", "fe80::1", "fd00::1", "2001:db8::1", "ff02::1", "::ffff:10.0.0.1"])
      expect(isPublicIp(ip), ip).toBe(false);
    // 172.32.0.0 is just past the private block.
    expect(isPublicIp("172.32.0.1")).toBe(true);
  });

  it("is idempotent: the replacements are in reserved ranges", () => {
    const once = maskPii(CONTACT).text;
    const twice = maskPii(once);
    expect(twice.text).toBe(once);
    // The replacement e-mail is an address too, so it is found (and replaced by itself).
    expect(twice.counts.ips).toBe(0);
  });

  it("maps offsets of the original text to the masked one", () => {
    const text = "See a@b.com and 8.8.8.8 here";
    const masked = maskPii(text);
    expect(masked.text).toBe(`See ${EMAIL_REPLACEMENT} and ${IPV4_REPLACEMENT} here`);
    expect(masked.text.slice(masked.mapOffset(text.indexOf("here")))).toBe("here");
    expect(masked.mapOffset(4)).toBe(4);
    expect(masked.mapOffset(text.indexOf(" and"))).toBe(masked.text.indexOf(" and"));
    expect(maskPii("nothing to mask").mapOffset(3)).toBe(3);
  });
});
