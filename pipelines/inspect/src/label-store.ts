/**
 * The label directory behind `winnow label-ui`: the files already there (any source) and each
 * page saved by hand, written in winnow's one label format (@winnow/labels) with source "hand".
 * A page saved here was shown with the comment key, so its file is version 2: it says which
 * blocks are user comments, and that the others are not.
 */
import { existsSync } from "node:fs";
import { type COMMENT_LABEL, makeLabelFile, readLabelDir, writeLabelFile, type BlockLabelFile } from "@winnow/labels";
import type { LabelPage } from "./label-data.js";

export class LabelStore {
  private readonly files: Map<string, BlockLabelFile>;
  /** Saves of one page run one after another, so two quick saves cannot interleave their renames. */
  private readonly writing = new Map<string, Promise<unknown>>();

  private constructor(
    readonly dir: string,
    files: Map<string, BlockLabelFile>,
  ) {
    this.files = files;
  }

  /** Reads every label file in `dir`; a missing directory is an empty store (created on first save). */
  static async open(dir: string): Promise<LabelStore> {
    return new LabelStore(dir, existsSync(dir) ? await readLabelDir(dir) : new Map());
  }

  get(id: string): BlockLabelFile | undefined {
    return this.files.get(id);
  }

  /** Writes the page's labels atomically and returns the file's path. */
  async save(page: LabelPage, labels: ReadonlyArray<0 | 1 | typeof COMMENT_LABEL>): Promise<string> {
    const file = makeLabelFile(page, labels, "hand", { commentsLabelled: true });
    const previous = this.writing.get(page.id) ?? Promise.resolve();
    const write = previous.catch(() => {}).then(() => writeLabelFile(this.dir, file));
    this.writing.set(page.id, write);
    try {
      const path = await write;
      this.files.set(page.id, file);
      return path;
    } finally {
      if (this.writing.get(page.id) === write) this.writing.delete(page.id);
    }
  }
}
