/**
 * PII masking (`winnow clean --pii`): e-mail addresses and public IP addresses (IPv4 and IPv6) in a
 * document's text are replaced by fixed strings, as datatrove's PIIFormatter does for FineWeb.
 * Private, loopback, link-local, documentation and other special-purpose addresses are left as
 * they are (they point at no one); datatrove keeps them too (Python's ip_address().is_global).
 *
 * The replacements are one fixed string per kind, from the ranges reserved for examples, so that
 * a masked text never names a real mailbox or host and masking it again changes nothing:
 * `email@example.com` (RFC 2606 reserves example.com; datatrove's first replacement), `192.0.2.1`
 * (RFC 5737's TEST-NET-1) and `2001:db8::1` (RFC 3849's documentation prefix). datatrove instead
 * cycles through six addresses that were unused when its list was made, and whose turn depends on
 * the order documents are handled; one string each keeps a run's output the same whatever the
 * worker threads' order.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";

export const EMAIL_REPLACEMENT = "email@example.com";
export const IPV4_REPLACEMENT = "192.0.2.1";
export const IPV6_REPLACEMENT = "2001:db8::1";

/**
 * An address: a local part of the characters RFC 5322 allows unquoted (dot-separated), "@", and a
 * domain of dot-separated labels ending in a label of letters (a top-level domain). Case does not
 * matter. Not preceded by a local-part character, so a match starts where the address does.
 */
const EMAIL =
  /(?<![A-Za-z0-9!#$%&'*+/=?^_`{|}~.-])[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}(?![A-Za-z0-9-])/g;

/** Four dotted numbers of 0-255, not inside a longer run of digits and dots ("1.2.3.4.5") nor after a colon (an IPv6 address's tail). */
const IPV4 =
  /(?<![0-9.:])(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(?![0-9]|\.[0-9])/g;

/** A run of hex digits, colons and dots with two colons or more: a candidate, checked by isIPv6. */
const IPV6_CANDIDATE =
  /(?<![0-9A-Za-z:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]{1,4})?(?![0-9A-Za-z:]|\.[0-9])/g;

/** Special-purpose IPv4 blocks (IANA's registry, RFC 6890), and multicast: not one person's address. */
const SPECIAL_V4: ReadonlyArray<[string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private (RFC 1918)
  ["100.64.0.0", 10], // carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and the broadcast address
];

/** Special-purpose IPv6 blocks (IANA's registry, RFC 6890). */
const SPECIAL_V6: ReadonlyArray<[string, number]> = [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["64:ff9b:1::", 48], // local-use IPv4/IPv6 translation
  ["100::", 64], // discard-only
  ["2001::", 23], // IETF protocol assignments
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
];

// One list per family: a BlockList also matches IPv4 addresses against IPv4-mapped IPv6 rules.
const SPECIAL_V4_LIST = new BlockList();
for (const [net, prefix] of SPECIAL_V4) SPECIAL_V4_LIST.addSubnet(net, prefix, "ipv4");
const SPECIAL_V6_LIST = new BlockList();
for (const [net, prefix] of SPECIAL_V6) SPECIAL_V6_LIST.addSubnet(net, prefix, "ipv6");

/** Whether an address (valid, of either family) is public: in none of the special-purpose blocks. */
export function isPublicIp(address: string): boolean {
  if (isIPv4(address)) return !SPECIAL_V4_LIST.check(address, "ipv4");
  if (!isIPv6(address)) return false;
  // An IPv4-mapped address (::ffff:a.b.c.d) is judged as the IPv4 address it holds.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped !== null) return isPublicIp(mapped[1]);
  return !SPECIAL_V6_LIST.check(address, "ipv6");
}

/** What was masked in a text. */
export interface PiiCounts {
  emails: number;
  ips: number;
}

/** A replacement made: `length` characters at `at` (in the text before any replacement) became `text`. */
interface Edit {
  at: number;
  length: number;
  text: string;
}

/** A text with its PII masked, what was masked, and a map from offsets before to offsets after. */
export interface MaskedText {
  text: string;
  counts: PiiCounts;
  /** The offset in the masked text of offset `i` of the original (a masked span's end maps to its replacement's end). */
  mapOffset(i: number): number;
}

/** The e-mail and public IP addresses of `text`, as non-overlapping edits in order. */
function findPii(text: string): Edit[] {
  const edits: Edit[] = [];
  // Cheap guards first: most texts hold no "@", and no IP without a digit followed by "." or ":".
  if (text.includes("@")) {
    for (const m of text.matchAll(EMAIL)) edits.push({ at: m.index, length: m[0].length, text: EMAIL_REPLACEMENT });
  }
  const inEmail = (at: number) => edits.some((e) => at >= e.at && at < e.at + e.length);
  if (/[0-9]\./.test(text)) {
    for (const m of text.matchAll(IPV4)) {
      if (!inEmail(m.index) && isPublicIp(m[0])) edits.push({ at: m.index, length: m[0].length, text: IPV4_REPLACEMENT });
    }
  }
  if (text.includes(":")) {
    for (const m of text.matchAll(IPV6_CANDIDATE)) {
      const candidate = m[0];
      // A digit keeps words like "dead::beef" and C++'s "a::b" out; isIPv6 checks the rest.
      if (/[0-9]/.test(candidate) && isIPv6(candidate) && !inEmail(m.index) && isPublicIp(candidate)) {
        edits.push({ at: m.index, length: candidate.length, text: IPV6_REPLACEMENT });
      }
    }
  }
  return edits.sort((a, b) => a.at - b.at);
}

/** Masks the e-mail and public IP addresses of `text`. */
export function maskPii(text: string): MaskedText {
  const edits = findPii(text);
  if (edits.length === 0) return { text, counts: { emails: 0, ips: 0 }, mapOffset: (i) => i };
  let out = "";
  let from = 0;
  let emails = 0;
  for (const e of edits) {
    out += text.slice(from, e.at) + e.text;
    from = e.at + e.length;
    if (e.text === EMAIL_REPLACEMENT) emails++;
  }
  out += text.slice(from);
  return {
    text: out,
    counts: { emails, ips: edits.length - emails },
    mapOffset(i: number): number {
      let shift = 0;
      for (const e of edits) {
        if (i <= e.at) break;
        if (i < e.at + e.length) return e.at + shift + e.text.length;
        shift += e.text.length - e.length;
      }
      return i + shift;
    },
  };
}
