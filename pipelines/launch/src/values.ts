/**
 * Values a launcher writes into a shell script or a manifest: checked once here, so that no
 * value can add a line (a command after a newline) and every word reaches its program as given.
 */
import { UsageError } from "@winnow/errors";

/** Refuses a value holding a newline or any other control character (exit 2). */
export function checkValue(flag: string, value: string): void {
  const control = /[\u0000-\u001f\u007f]/.exec(value);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).padStart(2, "0");
    throw new UsageError(
      `a value written into the job may not hold a newline or control character (\\x${code})`,
      `${flag} ${JSON.stringify(value)}`,
    );
  }
}

/** Single quotes, for words the shell must not touch; plain words as they are. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * A word of a command line: literal text (quoted when written), or a shell expansion the script
 * itself needs ("$SLURM_CPUS_PER_TASK"), written as it is. Literal words never pass through a
 * placeholder, so a path containing any text at all stays as it is.
 */
export type Word = string | { readonly shell: string };

/** The command line as a script writes it. */
export function shellCommand(words: readonly Word[]): string {
  return words.map((w) => (typeof w === "string" ? shellQuote(w) : w.shell)).join(" ");
}

/** The words as a program receives them, with `expand` giving each shell expansion's value. */
export function literalWords(words: readonly Word[], expand: (shell: string) => string): string[] {
  return words.map((w) => (typeof w === "string" ? w : expand(w.shell)));
}

/** A URL (https://, s3://, ...) rather than a local path. */
export function isUrl(path: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(path);
}
