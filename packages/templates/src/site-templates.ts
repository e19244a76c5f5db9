/**
 * Which subtrees are a host's template, deboiler-style: the pages of one host, sorted by URL,
 * are compared each with the next (O(n) comparisons after the sort), and a subtree fingerprint
 * shared by a compared pair is boilerplate. URL neighbours are usually of one kind (two articles,
 * two product pages), so what they share is the frame around their content. A pair that shares
 * nearly everything is a duplicate page (a print view, a tracking-parameter copy): comparing it
 * would mark its content as template, so it is skipped.
 *
 * Only fingerprints are kept, never pages: a few hundred numbers per page.
 */
import { forEachShared, intersectionSize } from "./fingerprints.js";
import { hostOf } from "@winnow/archive/pages";

export interface SiteTemplateOptions {
  /** A fingerprint is template when at least this many compared pairs share it (default 1). */
  minSharedPairs?: number;
  /** A pair whose intersection over union is above this is a near duplicate, not compared (default 0.9). */
  nearDuplicateIoU?: number;
}

export const DEFAULT_MIN_SHARED_PAIRS = 1;
export const DEFAULT_NEAR_DUPLICATE_IOU = 0.9;

/** What fitting found for one host. */
export interface HostTemplate {
  host: string;
  pages: number;
  /** Neighbouring pairs compared, and those skipped as near duplicates. */
  pairsCompared: number;
  nearDuplicates: number;
  /** The template fingerprints, sorted. */
  fingerprints: Float64Array;
}

interface HostPages {
  urls: string[];
  fingerprints: Float64Array[];
}

/** Collects pages' fingerprints by host (pass one), then finds each host's template. */
export class SiteTemplateFitter {
  private readonly hosts = new Map<string, HostPages>();
  private readonly minSharedPairs: number;
  private readonly nearDuplicateIoU: number;
  private pageCount = 0;
  private fingerprintCount = 0;

  constructor(options: SiteTemplateOptions = {}) {
    this.minSharedPairs = options.minSharedPairs ?? DEFAULT_MIN_SHARED_PAIRS;
    this.nearDuplicateIoU = options.nearDuplicateIoU ?? DEFAULT_NEAR_DUPLICATE_IOU;
    if (!Number.isInteger(this.minSharedPairs) || this.minSharedPairs < 1) {
      throw new RangeError(`minSharedPairs must be an integer >= 1, got ${this.minSharedPairs}`);
    }
    if (!(this.nearDuplicateIoU > 0 && this.nearDuplicateIoU <= 1)) {
      throw new RangeError(`nearDuplicateIoU must be in (0, 1], got ${this.nearDuplicateIoU}`);
    }
  }

  /** Pages added, and fingerprints held for them. */
  get pages(): number {
    return this.pageCount;
  }

  get fingerprints(): number {
    return this.fingerprintCount;
  }

  /** One page's fingerprints (from pageFingerprints). Pages without a host are not kept. */
  add(url: string, fingerprints: Float64Array): void {
    const host = hostOf(url);
    if (host === "") return;
    let entry = this.hosts.get(host);
    if (entry === undefined) this.hosts.set(host, (entry = { urls: [], fingerprints: [] }));
    entry.urls.push(url);
    entry.fingerprints.push(fingerprints);
    this.pageCount++;
    this.fingerprintCount += fingerprints.length;
  }

  /** Each host with two or more pages, and its template. Hosts with none shared are left out. */
  fit(): SiteTemplates {
    const templates = new Map<string, HostTemplate>();
    for (const [host, pages] of this.hosts) {
      if (pages.urls.length < 2) continue;
      const found = fitHost(host, pages, this.minSharedPairs, this.nearDuplicateIoU);
      if (found.fingerprints.length > 0 || found.nearDuplicates > 0) templates.set(host, found);
    }
    return new SiteTemplates(templates);
  }
}

function fitHost(host: string, pages: HostPages, minSharedPairs: number, nearDuplicateIoU: number): HostTemplate {
  const order = pages.urls
    .map((_, i) => i)
    .sort((a, b) => (pages.urls[a] < pages.urls[b] ? -1 : pages.urls[a] > pages.urls[b] ? 1 : a - b));
  const sharedBy = new Map<number, number>();
  const count = (fingerprint: number): void => {
    sharedBy.set(fingerprint, (sharedBy.get(fingerprint) ?? 0) + 1);
  };
  let pairsCompared = 0,
    nearDuplicates = 0;
  for (let k = 1; k < order.length; k++) {
    const a = pages.fingerprints[order[k - 1]],
      b = pages.fingerprints[order[k]];
    const shared = intersectionSize(a, b);
    const union = a.length + b.length - shared;
    if (union > 0 && shared / union > nearDuplicateIoU) {
      nearDuplicates++;
      continue;
    }
    pairsCompared++;
    forEachShared(a, b, count);
  }
  const kept: number[] = [];
  for (const [fingerprint, pairs] of sharedBy) if (pairs >= minSharedPairs) kept.push(fingerprint);
  return { host, pages: order.length, pairsCompared, nearDuplicates, fingerprints: Float64Array.from(kept).sort() };
}

const NONE = new Float64Array(0);

/** The fitted templates of every host, looked up by page URL. */
export class SiteTemplates {
  constructor(private readonly byHost: ReadonlyMap<string, HostTemplate>) {}

  /** The template fingerprints (sorted) for a page's host; empty when the host has none. */
  forUrl(url: string): Float64Array {
    return this.byHost.get(hostOf(url))?.fingerprints ?? NONE;
  }

  forHost(host: string): Float64Array {
    return this.byHost.get(host)?.fingerprints ?? NONE;
  }

  hosts(): IterableIterator<HostTemplate> {
    return this.byHost.values();
  }

  get size(): number {
    return this.byHost.size;
  }
}
