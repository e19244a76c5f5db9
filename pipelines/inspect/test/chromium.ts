// The headless browser of the browser tests: $WINNOW_CHROMIUM when set, else Debian's chromium.
// Without one the browser tests skip, saying why, on a developer's machine; under CI=true they
// run and fail, naming what is missing (.ci/run installs Chromium and exports WINNOW_CHROMIUM).
import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

const CANDIDATES = process.env.WINNOW_CHROMIUM ? [process.env.WINNOW_CHROMIUM] : ["/usr/bin/chromium", "/usr/bin/chromium-browser"];

export const CHROMIUM_PATH: string | undefined = CANDIDATES.find((p) => existsSync(p));

const MISSING = `no Chromium at ${CANDIDATES.join(" or ")}`;

/** Whether the browser tests skip: only where Chromium is missing and this is not CI. */
export const SKIP_BROWSER_TESTS: boolean = CHROMIUM_PATH === undefined && process.env.CI !== "true";

export function noteIfSkipped(what: string): void {
  if (SKIP_BROWSER_TESTS) {
    console.warn(
      `${what}: SKIPPED, ${MISSING}; ` +
        "install it (apt-get install chromium) or point WINNOW_CHROMIUM at a Chromium executable to run them",
    );
  }
}

export function launchChromium(): Promise<Browser> {
  if (CHROMIUM_PATH === undefined) {
    throw new Error(`CI=true and ${MISSING}: the browser tests cannot skip in CI (apt-get install chromium)`);
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}
