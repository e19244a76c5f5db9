// The host a record belongs to: what per-host models, site templates and domain folds group by.

/** A host name as winnow groups by it: trimmed, lowercased, without a leading "www.". */
export function normaliseHost(name: string): string {
  const host = name.trim().toLowerCase();
  return host.startsWith("www.") ? host.slice(4) : host;
}

/** The normalised host of an http(s) URL; "" for anything else (no URL, file:, not a URL). */
export function hostOf(url: string | undefined): string {
  if (!url?.includes("://")) return "";
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? normaliseHost(parsed.hostname) : "";
  } catch {
    return "";
  }
}
