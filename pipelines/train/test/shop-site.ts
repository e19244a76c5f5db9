// A one-host site built around real article text, for the per-host model tests here and in the CLI.
import { fileURLToPath } from "node:url";
import { type LabelledPage, loadLabelledPages } from "@winnow/evaluation";
import { segmentHtml } from "@winnow/segment";

const SAMPLE = fileURLToPath(new URL("../../../fixtures/wcxb-sample", import.meta.url));
const SITE = "https://www.shop.example";

/** Quick training settings: these tests check the machinery, not the figures. */
export const QUICK = { epochs: 6, hiddenSize: 8, learningRate: 0.01, ensemble: 1 };

export type SitePage = LabelledPage & { html: string };

/**
 * A site whose template is long and link-free (a wordy "about us" box and footer), so markup
 * rules and a general model keep it, around real article text taken from the WCXB sample.
 */
function sitePage(article: string, n: number): string {
  const about =
    "Our shop has sold hand made goods since 1982 and every item you see here was made in our workshop by the people who run it, which is why we take returns for a full year without asking why.";
  const footer =
    "Shop Example Limited is registered in a small town, all prices include tax, delivery is free on orders above fifty pounds and we reply to every message within two working days.";
  const paragraphs = article
    .split(/\n+/)
    .filter((p) => p.trim().length > 0)
    .map((p) => `<p>${p}</p>`)
    .join("");
  return `<html><head><title>Item ${n}</title></head><body><div class="side"><p>${about}</p></div><div class="main">${paragraphs}</div><div class="bottom"><p>${footer}</p></div></body></html>`;
}

/** The WCXB sample's pages, and the shop site's pages made from those with enough gold text. */
export async function shopSite(): Promise<{ wcxb: LabelledPage[]; site: SitePage[] }> {
  const wcxb = await loadLabelledPages(SAMPLE);
  const site = wcxb
    .filter((p) => p.gold.length > 200)
    .map((p, n): SitePage => {
      const html = sitePage(p.gold, n);
      return { ...p, id: `site-${n}`, url: `${SITE}/item/${n}`, domain: "shop.example", doc: segmentHtml(html), gold: p.gold, html };
    });
  return { wcxb, site };
}
