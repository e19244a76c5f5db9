// The built `winnow` executable run as users run it, for the CLI tests (build first: `npx tsc -b`).
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../bin/winnow.js", import.meta.url));

export interface WinnowResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `winnow args...` in `cwd` and collects its output. `feed` gets the child to write to its
 * standard input or signal it; without one, standard input is closed at once.
 */
export function runWinnow(
  args: readonly string[],
  cwd: string,
  feed?: (child: ChildProcess) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WinnowResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    if (feed) feed(child);
    else child.stdin.end();
  });
}
