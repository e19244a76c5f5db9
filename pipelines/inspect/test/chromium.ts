// The headless browser of the browser tests: Debian's chromium, or WINNOW_CHROMIUM. Without one
// the browser tests skip, saying why, rather than fail.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_PATH: string | undefined = [process.env.WINNOW_CHROMIUM, "/usr/bin/chromium", "/usr/bin/chromium-browser"].find(
  (p): p is string => p !== undefined && p !== "" && existsSync(p),
);

export function noteIfSkipped(what: string): void {
  if (CHROMIUM_PATH === undefined) {
    console.warn(
      `${what}: skipped, no Chromium found (looked at $WINNOW_CHROMIUM, /usr/bin/chromium, /usr/bin/chromium-browser); ` +
        "install it (apt-get install chromium) or set WINNOW_CHROMIUM to run them",
    );
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}
