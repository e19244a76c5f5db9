/**
 * Block labels as files: one JSON file per page, the single format that `winnow label` writes,
 * `winnow label-ui` saves and `winnow train --labels` reads.
 *
 *   {
 *     "format": "winnow-block-labels", "version": 1 | 2,
 *     "id": "page id", "url": "https://…",
 *     "source": "hand" | "propagated" | "aligned" | "model",
 *     "blocks": 42,                     // block count of the page as winnow segments it
 *     "fingerprint": "16 hex digits",  // of the block texts: labels never attach to other blocks
 *     "labels": [1, 0, null, "comment", …]
 *   }
 *
 * Per block: 1 content, 0 boilerplate, null unlabelled, and from version 2 "comment": a user's
 * comment, reply or forum reply that is not the page's main post (not the comment form, counter
 * or policy around it, which are boilerplate). Version 2 also says that comments were looked for:
 * on a version-2 page every block not labelled "comment" (or null) is no user comment, so a page
 * without any is a page without comments. A version-1 file says nothing about comments; it reads
 * exactly as it always did. Writers give version 1 unless the labels hold comments or the writer
 * says it looked for them (label-ui does: its labeller has the comment key), so older readers
 * keep reading what `winnow label` writes. For the main text a comment is not content (0).
 *
 * The fingerprint is what makes stored labels safe to reuse: if the page or the segmenter
 * changes, the blocks change, and the labels are refused with a message instead of being
 * silently attached to the wrong text.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { UsageError } from "@winnow/errors";
import { type OutputRole, writeOutputFile } from "@winnow/writers";

const LABEL_FORMAT = "winnow-block-labels";
/** Version 1: 1, 0 and null; version 2 adds "comment" and says the page's comments were labelled. */
const LABEL_FORMAT_VERSIONS = [1, 2] as const;
type LabelFormatVersion = (typeof LABEL_FORMAT_VERSIONS)[number];

/** Who decided the labels; "hand" labels outrank all others where both exist. */
export type LabelSource = "hand" | "propagated" | "aligned" | "model";
const SOURCES: ReadonlySet<string> = new Set(["hand", "propagated", "aligned", "model"]);

/** 1 content, 0 boilerplate, null no label: what the main text's training reads. */
export type BlockLabel = 0 | 1 | null;

/** A user comment (version 2 files on): not main text, and what the comment head learns. */
export const COMMENT_LABEL = "comment";

/** What a file stores per block: a content label, or "comment". */
export type StoredBlockLabel = BlockLabel | typeof COMMENT_LABEL;

export interface BlockLabelFile {
  format: typeof LABEL_FORMAT;
  version: LabelFormatVersion;
  id: string;
  url: string;
  source: LabelSource;
  blocks: number;
  fingerprint: string;
  labels: StoredBlockLabel[];
}

/** A stored label as the main text reads it: a comment is not content. */
export function contentLabel(label: StoredBlockLabel): BlockLabel {
  return label === COMMENT_LABEL ? 0 : label;
}

/**
 * Per block, whether it is a user comment (1) or not (0), for a file that labels comments
 * (version 2), null where the block has no label; undefined for a version-1 file, which says
 * nothing about comments.
 */
export function commentLabels(file: BlockLabelFile): Array<0 | 1 | null> | undefined {
  if (file.version < 2) return undefined;
  return file.labels.map((l) => (l === COMMENT_LABEL ? 1 : l === null ? null : 0));
}

/** A label file (or folder of them) that cannot be read or does not fit its page (exit 2: --labels names it). */
export class LabelFileError extends UsageError {
  override readonly name: string = "LabelFileError";
}

/**
 * Identity of a page's blocks: sha256 over the block texts, each length-prefixed so that no two
 * different splits of the same text collide, first 16 hex digits.
 */
export function blockFingerprint(texts: readonly string[]): string {
  const hash = createHash("sha256");
  for (const text of texts) hash.update(`${text.length}:`).update(text);
  return hash.digest("hex").slice(0, 16);
}

export interface MakeLabelFileOptions {
  /**
   * The labeller looked for user comments on this page: the file is version 2 even without a
   * "comment" block, and says the page has none. (A "comment" label makes it version 2 anyway.)
   */
  commentsLabelled?: boolean;
}

export function makeLabelFile(
  page: { id: string; url: string; blockTexts: readonly string[] },
  labels: ArrayLike<number | string | null>,
  source: LabelSource,
  options: MakeLabelFileOptions = {},
): BlockLabelFile {
  if (labels.length !== page.blockTexts.length) {
    throw new LabelFileError(`page ${page.id}: ${labels.length} labels for ${page.blockTexts.length} blocks`);
  }
  const out: StoredBlockLabel[] = new Array(labels.length);
  let comments = options.commentsLabelled === true;
  for (let i = 0; i < labels.length; i++) {
    const v = labels[i];
    if (v === COMMENT_LABEL) comments = true;
    out[i] = v === 1 ? 1 : v === 0 ? 0 : v === COMMENT_LABEL ? COMMENT_LABEL : null;
  }
  return {
    format: LABEL_FORMAT,
    version: comments ? 2 : 1,
    id: page.id,
    url: page.url,
    source,
    blocks: page.blockTexts.length,
    fingerprint: blockFingerprint(page.blockTexts),
    labels: out,
  };
}

/** Checks a parsed JSON value against the format; `where` names the file in messages. */
export function parseLabelFile(value: unknown, where: string): BlockLabelFile {
  const fail = (why: string): never => {
    throw new LabelFileError(`${where}: ${why}`);
  };
  if (typeof value !== "object" || value === null || Array.isArray(value)) fail("not a JSON object");
  const v = value as Record<string, unknown>;
  if (v.format !== LABEL_FORMAT) fail(`"format" must be "${LABEL_FORMAT}"`);
  if (!(LABEL_FORMAT_VERSIONS as readonly unknown[]).includes(v.version))
    fail(`unsupported version ${JSON.stringify(v.version)} (this winnow reads ${LABEL_FORMAT_VERSIONS.join(" and ")})`);
  if (typeof v.id !== "string" || v.id.length === 0) fail(`"id" must be a non-empty string`);
  if (typeof v.url !== "string") fail(`"url" must be a string`);
  if (typeof v.source !== "string" || !SOURCES.has(v.source)) fail(`"source" must be one of ${[...SOURCES].join(", ")}`);
  if (!Number.isInteger(v.blocks) || (v.blocks as number) < 0) fail(`"blocks" must be a block count`);
  if (typeof v.fingerprint !== "string" || !/^[0-9a-f]{16}$/.test(v.fingerprint)) fail(`"fingerprint" must be 16 hex digits`);
  if (!Array.isArray(v.labels)) fail(`"labels" must be an array`);
  const labels = v.labels as unknown[];
  if (labels.length !== v.blocks) fail(`${labels.length} labels for ${v.blocks as number} blocks`);
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    if (label === 0 || label === 1 || label === null) continue;
    if (label === COMMENT_LABEL && v.version !== 1) continue;
    if (label === COMMENT_LABEL) fail(`labels[${i}] is "comment", which needs "version": 2 (version 1 has 1, 0 and null only)`);
    fail(`labels[${i}] is ${JSON.stringify(label)}; expected 1, 0, null or "comment"`);
  }
  return v as unknown as BlockLabelFile;
}

/**
 * Says why stored labels do not belong to these blocks, or undefined when they do. The page was
 * changed or segmented differently since labelling if the count or the fingerprint differs.
 */
export function labelMismatch(file: BlockLabelFile, blockTexts: readonly string[]): string | undefined {
  if (file.blocks !== blockTexts.length) {
    return `labels of page ${file.id} are for ${file.blocks} blocks but the page now has ${blockTexts.length}; relabel it`;
  }
  if (file.fingerprint !== blockFingerprint(blockTexts)) {
    return `labels of page ${file.id} were made for different block texts (the page or winnow's segmenter changed); relabel it`;
  }
  return undefined;
}

/**
 * File name for a page id: ids can be URLs or paths, so every character outside [A-Za-z0-9._-]
 * becomes "_" and a short hash of the id keeps two ids that map to the same name apart.
 */
export function labelFileName(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100);
  const tag = createHash("sha256").update(id).digest("hex").slice(0, 8);
  return `${safe}.${tag}.labels.json`;
}

const LABEL_FILE_ROLE: OutputRole = { what: "label file", flag: "--labels" };

/**
 * Writes one page's labels into `dir` (created if missing) under a temporary name, then renames:
 * never half a file. A failure is an OutputError naming the file; `role` names the flag that gave `dir`.
 */
export async function writeLabelFile(dir: string, file: BlockLabelFile, role: OutputRole = LABEL_FILE_ROLE): Promise<string> {
  const path = join(dir, labelFileName(file.id));
  await writeOutputFile(path, `${JSON.stringify(file)}\n`, { ...role, stdout: false });
  return path;
}

/** Every `*.labels.json` in `dir`, by page id. Two files for one id are an error. */
export async function readLabelDir(dir: string): Promise<Map<string, BlockLabelFile>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(".labels.json")).sort();
  } catch (error) {
    throw new LabelFileError(`cannot read label directory ${dir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const files = new Map<string, BlockLabelFile>();
  for (const name of names) {
    const path = join(dir, name);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, "utf8"));
    } catch {
      throw new LabelFileError(`${path}: not valid JSON`);
    }
    const file = parseLabelFile(value, path);
    if (files.has(file.id)) throw new LabelFileError(`${path}: a second label file for page ${file.id}`);
    files.set(file.id, file);
  }
  return files;
}
