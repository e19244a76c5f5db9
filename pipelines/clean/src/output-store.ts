/**
 * Where a per-input run's outputs go: a local folder (staged beside the final name, renamed into
 * place) or an s3:// prefix (staged in a local folder, uploaded as a multipart upload, which
 * makes the object appear whole or not at all). Either way the done marker is written last.
 * Local outputs are locked while written (lock.ts); an S3 object cannot be, so it and its marker
 * are written only where nothing is (If-None-Match: *): of two twin tasks, the second to finish
 * finds the first's object and keeps it.
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputError, systemReason } from "@winnow/errors";
import { type RetryPolicy, type S3Settings, s3Exists, s3Join, s3Put, s3ReadText, s3Upload } from "@winnow/remote";
import {
  commitOutput,
  createFolderFor,
  doneMarkerInfo,
  doneMarkerPath,
  dropStaged,
  isDone,
  readDoneMarker,
  removeStaleStaged,
  stagingPathFor,
} from "@winnow/writers";
import type { Logger } from "pino";

export interface OutputStore {
  /** Whether outputs are local files (which are locked while written); s3:// objects are written only where none is. */
  readonly local: boolean;
  /** Where output `name` ends up, for messages. */
  final(name: string): string;
  isDone(name: string): Promise<boolean>;
  /** What output `name`'s done marker says ({} where it says nothing), or null where it is not done. */
  doneMarker(name: string): Promise<Record<string, unknown> | null>;
  /** A local path to write output `name` into, unique to this process. */
  stage(name: string): Promise<string>;
  /**
   * Puts a complete staged output in place, then its done marker. "twin": the output was there
   * already (on S3, uploaded by a twin task meanwhile) and is kept; its marker is written if the
   * twin has not written it yet (a twin that died between the two).
   */
  commit(staged: string, name: string, info: Readonly<Record<string, unknown>>): Promise<"written" | "twin">;
  drop(staged: string): Promise<void>;
  close(): Promise<void>;
}

export function localStore(folder: string, logger: Logger): OutputStore {
  return {
    local: true,
    final: (name) => join(folder, name),
    isDone: (name) => isDone(join(folder, name)),
    doneMarker: (name) =>
      readDoneMarker(join(folder, name)).catch((error: unknown) => {
        throw new OutputError(`cannot read the done marker: ${systemReason(error)}`, doneMarkerPath(join(folder, name)), { cause: error });
      }),
    async stage(name) {
      const output = join(folder, name);
      try {
        await createFolderFor(output);
        for (const removed of await removeStaleStaged(output))
          logger.info({ path: removed }, `removed an output a killed task left (${removed})`);
      } catch (error) {
        throw new OutputError(`cannot create the output folder: ${systemReason(error)}`, output, { cause: error });
      }
      return stagingPathFor(output);
    },
    async commit(staged, name, info) {
      const output = join(folder, name);
      await commitOutput(staged, output, info).catch((error: unknown) => {
        throw new OutputError(`cannot put the output in place: ${systemReason(error)}`, output, { cause: error });
      });
      return "written";
    },
    drop: dropStaged,
    close: async () => {},
  };
}

export async function s3Store(prefix: string, settings: S3Settings, retry: RetryPolicy): Promise<OutputStore> {
  // Staged outputs wait here for their upload; each is removed once uploaded or dropped.
  const staging = await mkdtemp(join(tmpdir(), "winnow-s3-staging-"));
  return {
    local: false,
    final: (name) => s3Join(prefix, name),
    async isDone(name) {
      const marker = doneMarkerPath(s3Join(prefix, name));
      return s3Exists(marker, settings, retry).catch((error: unknown) => {
        throw new OutputError(`cannot look for the done marker: ${(error as Error).name ?? ""} ${systemReason(error)}`.trim(), marker, {
          cause: error,
        });
      });
    },
    async doneMarker(name) {
      const marker = doneMarkerPath(s3Join(prefix, name));
      const text = await s3ReadText(marker, settings, retry).catch((error: unknown) => {
        throw new OutputError(`cannot read the done marker: ${(error as Error).name ?? ""} ${systemReason(error)}`.trim(), marker, {
          cause: error,
        });
      });
      return text === null ? null : doneMarkerInfo(text);
    },
    async stage(name) {
      const staged = stagingPathFor(join(staging, name));
      await mkdir(join(staged, ".."), { recursive: true });
      return staged;
    },
    async commit(staged, name, info) {
      const url = s3Join(prefix, name);
      try {
        const output = await s3Upload(staged, url, settings, retry, { ifAbsent: true });
        await s3Put(doneMarkerPath(url), `${JSON.stringify(info)}\n`, settings, retry, { ifAbsent: true });
        return output === "written" ? "written" : "twin";
      } catch (error) {
        throw new OutputError(`cannot upload the output: ${(error as Error).name ?? ""} ${systemReason(error)}`.trim(), url, {
          cause: error,
        });
      } finally {
        await dropStaged(staged);
      }
    },
    drop: dropStaged,
    close: () => rm(staging, { recursive: true, force: true }),
  };
}
