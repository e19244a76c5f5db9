/**
 * URLs as they may be shown: in a log line, an error message, a document's `source`, a rejects
 * line, a manifest, a done marker or a summary. An input's URL can carry a secret (a password
 * in its userinfo, a presigned URL's signature or token), and an output travels further than
 * the credentials that made it; only the opener ever sees the URL as given.
 */

/** What a secret is replaced by. */
export const REDACTED = "REDACTED";

/**
 * Query parameters whose value is a secret, compared case-insensitively: AWS Signature V4 and
 * V2 presigned URLs, Google Cloud Storage's signed URLs, Azure SAS tokens, and the names that
 * OAuth and plain APIs put tokens and keys under.
 */
export const SECRET_QUERY_PARAMETERS: readonly string[] = [
  "x-amz-signature",
  "x-amz-credential",
  "x-amz-security-token",
  "awsaccesskeyid",
  "signature",
  "x-goog-signature",
  "x-goog-credential",
  "googleaccessid",
  "sig",
  "token",
  "access_token",
  "id_token",
  "refresh_token",
  "auth",
  "key",
  "api_key",
  "apikey",
  "password",
  "secret",
  "client_secret",
];

const SECRET_NAMES = new Set(SECRET_QUERY_PARAMETERS);

/** scheme://userinfo@ : everything up to the last "@" before the path is userinfo. */
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)@/i;

/**
 * `url` with its userinfo (user and password) and the values of secret query parameters
 * replaced by REDACTED; anything else (a local path, "-") comes back as it is. Works on the
 * text, so a URL the WHATWG parser would refuse is redacted too, and nothing else in it is
 * re-encoded.
 */
export function redactUrl(url: string): string {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) return url;
  let out = url.replace(USERINFO, `$1${REDACTED}@`);
  const query = out.indexOf("?");
  if (query < 0) return out;
  const hash = out.indexOf("#", query);
  const end = hash < 0 ? out.length : hash;
  const params = out
    .slice(query + 1, end)
    .split("&")
    .map((param) => {
      const eq = param.indexOf("=");
      const rawName = eq < 0 ? param : param.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replaceAll("+", " "));
      } catch {
        // A name that is not valid percent-encoding is compared as it is.
      }
      return eq >= 0 && SECRET_NAMES.has(name.toLowerCase()) ? `${rawName}=${REDACTED}` : param;
    });
  out = `${out.slice(0, query + 1)}${params.join("&")}${out.slice(end)}`;
  return out;
}

/**
 * A URL inside free text: a scheme, "://", and everything up to white space, a closing mark or
 * a backslash (so a URL quoted in a JSON string stops before its escaped quote), less the
 * punctuation of the sentence around it ("a, b; c.").
 */
const URL_IN_TEXT = /[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()[\]{}`\\]*[^\s"'<>()[\]{}`\\.,;:!?]/gi;

/** `text` with every URL in it redacted (an error message, a log line). */
export function redactUrlsIn(text: string): string {
  return text.includes("://") ? text.replace(URL_IN_TEXT, (url) => redactUrl(url)) : text;
}
