/**
 * The pages a person labels in `winnow label-ui`, from any of the inputs winnow knows: a WCXB
 * directory or a {url, html, text} JSONL file (as eval and train read them), or HTML files and
 * WARC/ARC archives, given as files or directories.
 *
 * Page ids are what the label files are keyed by, so they must stay stable between runs: the
 * LabelledPage id for WCXB and JSONL, the path relative to the given directory for HTML files,
 * and the WARC-Record-ID (else the URL) for archive records.
 */
import { existsSync, statSync } from "node:fs";
import { relative } from "node:path";
import { decodeHtmlPieces, expandInputs, readRecords, type ArchiveRecord } from "@winnow/archive";
import { LabelledDataError, loadLabelledPages } from "@winnow/evaluation";
import { segmentHtml, type SegmentedDocument } from "@winnow/segment";

export interface LabelPage {
  id: string;
  url: string;
  title: string;
  doc: SegmentedDocument;
  blockTexts: string[];
}

export interface LoadLabelPagesOptions {
  /** Keep only the first N pages overall. */
  limit?: number;
}

export async function loadLabelPages(paths: readonly string[], options: LoadLabelPagesOptions = {}): Promise<LabelPage[]> {
  const pages: LabelPage[] = [];
  const ids = new Set<string>();
  const add = (page: Omit<LabelPage, "blockTexts">): boolean => {
    // Pages without text have nothing to label.
    if (page.doc.blocks.length === 0) return true;
    let id = page.id;
    for (let n = 2; ids.has(id); n++) id = `${page.id}#${n}`;
    ids.add(id);
    pages.push({ ...page, id, blockTexts: page.doc.blocks.map((b) => b.text) });
    return options.limit === undefined || pages.length < options.limit;
  };
  for (const path of paths) {
    if (!existsSync(path)) throw new LabelledDataError("data not found", path);
    const left = options.limit === undefined ? undefined : options.limit - pages.length;
    const more = isLabelledData(path) ? await addLabelledPages(path, left, add) : await addArchivePages(path, add);
    if (!more) break;
  }
  if (pages.length === 0) throw new LabelledDataError("no pages with text to label", paths.join(", "));
  return pages;
}

/** A WCXB directory (it has metadata.json) or a JSONL file. */
function isLabelledData(path: string): boolean {
  return statSync(path).isDirectory() ? existsSync(`${path}/metadata.json`) : /\.jsonl$/i.test(path);
}

type AddPage = (page: Omit<LabelPage, "blockTexts">) => boolean;

/** `limit`: pages still wanted, so that a large WCXB directory is not read whole for a few. */
async function addLabelledPages(path: string, limit: number | undefined, add: AddPage): Promise<boolean> {
  for (const page of await loadLabelledPages(path, { limit })) {
    if (!add({ id: page.id, url: page.url, title: page.doc.title, doc: page.doc })) return false;
  }
  return true;
}

async function addArchivePages(path: string, add: AddPage): Promise<boolean> {
  const files = await expandInputs([path]);
  const isDirectory = statSync(path).isDirectory();
  for (const file of files) {
    for await (const record of readRecords(file)) {
      let doc: SegmentedDocument;
      try {
        doc = segmentHtml(decodeHtmlPieces(record.body, record.charset).pieces);
      } catch {
        continue; // undecodable: nothing a person could label
      }
      const id = pageId(record, isDirectory ? relative(path, file) : file);
      if (!add({ id, url: record.url, title: doc.title, doc })) return false;
    }
  }
  return true;
}

/** HTML files (HTTP status 0) by path; archive records by WARC-Record-ID, else URL. */
function pageId(record: ArchiveRecord, filePath: string): string {
  if (record.httpStatus === 0) return filePath;
  if (record.recordId !== "" && !record.recordId.startsWith("<arc:")) return record.recordId;
  return record.url !== "" ? record.url : `${filePath}@${record.offset}`;
}
