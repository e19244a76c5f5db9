// The headless browser of the browser tests: $WINNOW_CHROMIUM when set, else Debian's chromium.
// Without one the browser tests skip, saying why, rather than fail.
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = process.env.WINNOW_CHROMIUM ? [process.env.WINNOW_CHROMIUM] : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

export const CHROMIUM_PATH: string | undefined = CANDIDATES.find((p) => existsSync(p));

export function noteIfSkipped(what: string): void {
  if (CHROMIUM_PATH === undefined) {
    console.warn(
      `${what}: SKIPPED, no Chromium at ${CANDIDATES.join(" or ")}; ` +
        "install it (apt-get install chromium) or point WINNOW_CHROMIUM at a Chromium executable to run them",
    );
  }
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}
