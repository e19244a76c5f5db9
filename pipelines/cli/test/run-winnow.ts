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

/**
 * What stderr says, one entry per line, as a terminal would show it: JSON log records (stderr
 * is a pipe here) become "winnow: <message>", with "warning: " and such for other levels than
 * info and error; `minLevel` leaves out records below it (50: the failure that ended the run).
 */
export function stderrMessages(stderr: string, minLevel = 0): string[] {
  const labels: Record<number, string> = { 10: "trace: ", 20: "debug: ", 40: "warning: ", 60: "fatal: " };
  const out: string[] = [];
  for (const line of stderr.split("\n")) {
    if (line === "") continue;
    if (!line.startsWith("{")) {
      out.push(line);
      continue;
    }
    const record = JSON.parse(line) as { level: number; msg: string };
    if (record.level >= minLevel) out.push(`winnow: ${labels[record.level] ?? ""}${record.msg}`);
  }
  return out;
}
