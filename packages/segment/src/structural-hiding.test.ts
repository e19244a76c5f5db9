/**
 * What a page's structure hides from readers, and the segmenter therefore leaves out of its
 * blocks (issue 35): class-hidden text, closed dialogs and modals, short <noscript> banners, CMS
 * shortcodes; and React's streamed segments, hidden in the markup but swapped in by script, which
 * it keeps. Also the link from each repeated block to its first copy.
 */
import { describe, expect, it } from "vitest";
import { Segmenter, segmentHtml } from "./index.js";
import { readFileSync } from "node:fs";
import { classHides } from "./hidden-classes.js";
import { stripShortcodes } from "./shortcodes.js";

const texts = (html: string) => segmentHtml(html).blocks.map((b) => b.text);
const page = (body: string) => `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`;

describe("streamed server rendering (React, Next.js)", () => {
  const streamed = page(
    `<main><h1>Headline</h1><!--$?--><template id="B:0"></template><div>Loading…</div><!--/$--></main>
     <script>self.__next_f.push([1,"x"])</script>
     <div hidden id="S:0"><article><p>The article itself, sent after the shell.</p><p>Its second paragraph.</p></article></div>
     <script>$RC("B:0","S:0")</script>`,
  );

  it("reads a hidden S:<n> segment as visible once a B:<n> placeholder came, where it stands", () => {
    expect(texts(streamed)).toEqual(["Headline", "Loading…", "The article itself, sent after the shell.", "Its second paragraph."]);
  });

  it("takes P:<n> placeholders ($RS) and hex ids, whatever the order of hidden and id", () => {
    const html = page(`<template id="P:a"></template><div id="S:a" hidden><p>Late part</p></div>`);
    expect(texts(html)).toEqual(["Late part"]);
  });

  it("keeps a hidden S:<n> div hidden on a page without any placeholder, and other hidden divs on a streamed page", () => {
    expect(texts(page(`<div hidden id="S:0"><p>not streamed</p></div><p>end</p>`))).toEqual(["end"]);
    expect(texts(page(`<template id="B:0"></template><div hidden id="menu"><p>closed menu</p></div><p>end</p>`))).toEqual(["end"]);
    // Hidden by style as well: the style still hides it.
    expect(texts(page(`<template id="B:0"></template><div hidden id="S:0" style="display:none"><p>x</p></div><p>end</p>`))).toEqual([
      "end",
    ]);
  });

  it("starts every page afresh: a placeholder on one page does not unhide the next page's div", () => {
    const segmenter = new Segmenter();
    segmenter.segment(page(`<template id="B:0"></template>`));
    expect(segmenter.segment(page(`<div hidden id="S:0"><p>x</p></div><p>end</p>`)).blocks.map((b) => b.text)).toEqual(["end"]);
  });
});

describe("carousel clones", () => {
  it("keeps each slide once on a page whose Owl, Slick and Swiper carousels copy their slides", () => {
    const html = readFileSync(new URL("../../../fixtures/page-structure/carousel-clones.html", import.meta.url), "utf8");
    expect(texts(html)).toEqual([
      "Harbour lights return to the old port",
      "After twelve years in storage, the harbour's cast-iron lamps are back on the quay, restored by volunteers who spent three winters stripping and repainting them.",
      "Volunteers sand the first lamp in the boat shed.",
      "The last lamp is lifted onto its base at dawn.",
      "A crowd gathers on the quay to watch the lamps come on.",
      "The harbour master switches on the first light.",
      "The lamps will be lit every evening from October to March, the council said.",
    ]);
  });

  it("knows the libraries' clone classes as whole words, and nothing that merely contains one", () => {
    for (const value of [
      "owl-item cloned",
      "slick-slide slick-cloned",
      "swiper-slide swiper-slide-duplicate",
      "bx-clone",
      "glide__slide glide__slide--clone",
      "splide__slide splide__slide--clone",
      "tns-item tns-slide-cloned",
    ])
      expect(classHides(value), value).toBe(true);
    for (const value of ["owl-item active", "cloned-repo-list", "clone-button", "swiper-slide-duplicate-active-like", "slide", ""])
      expect(classHides(value), value).toBe(false);
  });
});

describe("modals named by their component", () => {
  it("leaves out a modal whose class word ends in -modal, --modal or _modal unless it is open", () => {
    const html = readFileSync(new URL("../../../fixtures/page-structure/named-modals.html", import.meta.url), "utf8");
    expect(texts(html)).toEqual([
      "Council approves the new ferry timetable",
      "From May the first crossing leaves at six, an hour earlier than now, and the last returns at eleven on Fridays and Saturdays.",
      "Choose a route",
      "Get the timetable by email",
      "Sign up to get the printed timetable.",
      "The old timetable stays in force until the end of April.",
    ]);
  });

  it("reads the modal word at a class word's end only", () => {
    for (const value of ["mol-ads-cmp--modal", "select-menu-modal", "newsletter_modal", "search-input__modal"])
      expect(classHides(value), value).toBe(true);
    for (const value of ["modal-trigger", "modal-dialog", "newsletter-modal is-open", "cookie-modal show", "modalities", "nomodal"])
      expect(classHides(value), value).toBe(false);
  });
});

describe("text hidden by class", () => {
  it("drops utility classes that hide, closed modals and off-canvas panels, and form messages", () => {
    const html = page(`<p>visible</p>
      <span class="sr-only">Opens in a new window</span><div class="visually-hidden">skip</div>
      <div class="screen-reader-text">Skip to content</div><div class="d-none">d-none</div><div class="hidden">hidden</div>
      <div class="hide">hide</div><div class="invisible">invisible</div>
      <div class="modal fade" role="dialog"><p>Sign up now</p></div><div class="offcanvas offcanvas-end"><p>Menu panel</p></div>
      <div class="w-form-done">Thank you! Your submission has been received!</div>
      <div class="w-form-fail">Oops! Something went wrong.</div><p>end</p>`);
    expect(texts(html)).toEqual(["visible", "end"]);
  });

  it("keeps responsive variants and hiding words next to a desktop display word", () => {
    const html = page(`<div class="hidden-xs">wide screens</div><div class="hidden-sm hidden-md">also shown</div>
      <div class="hidden md:block">desktop</div><div class="d-none d-lg-flex">bootstrap desktop</div>
      <div class="modal show">open modal</div><div class="modal-body">modal body class alone</div><p class="hidden-title">title</p>`);
    expect(texts(html)).toEqual([
      "wide screens",
      "also shown",
      "desktop",
      "bootstrap desktop",
      "open modal",
      "modal body class alone",
      "title",
    ]);
  });

  it("does not hide a whole page by class: scripts show a body hidden until they load", () => {
    const html = `<html class="hidden"><body class="hidden"><main class="d-none"><p>the page</p></main></body></html>`;
    expect(texts(html)).toEqual(["the page"]);
  });

  it("drops closed <dialog>s and aria-modal dialogs, keeps open ones", () => {
    const html = page(`<dialog><p>closed</p></dialog><dialog open><p>open dialog</p></dialog>
      <div role="dialog" aria-modal="true"><p>cookie wall</p></div><p>end</p>`);
    expect(texts(html)).toEqual(["open dialog", "end"]);
  });

  it("classHides reads whole words only", () => {
    expect(classHides("btn hidden")).toBe(true);
    expect(classHides("hidden-xs col-md-4")).toBe(false);
    expect(classHides("unhidden")).toBe(false);
    expect(classHides("modal")).toBe(true);
    expect(classHides("modal in")).toBe(false);
    expect(classHides("sr-only focus:not-sr-only")).toBe(true);
  });
});

describe("<noscript>", () => {
  it("drops a short noscript banner, inline or in blocks, and keeps the text around it", () => {
    expect(texts(page(`<p>Before <noscript>Please enable JavaScript.</noscript>after</p>`))).toEqual(["Before after"]);
    expect(
      texts(page(`<p>one</p><noscript><div><p>You need to enable JavaScript to run this app.</p></div></noscript><p>two</p>`)),
    ).toEqual(["one", "two"]);
    // Text before the noscript in the same block stays whole; the noscript's own blocks go.
    expect(texts(page(`<div>lead <noscript><p>Enable JavaScript</p><p>for comments</p></noscript></div><p>end</p>`))).toEqual([
      "lead",
      "end",
    ]);
  });

  it("joins the text after a dropped banner with one space, whatever spacing stood around it", () => {
    // The block remembers whether its text ended in a space; dropping the banner restores that
    // too, so a following node that starts with a space adds none.
    expect(texts(page(`<p>Before <noscript>Enable JavaScript</noscript> after</p>`))).toEqual(["Before after"]);
    expect(texts(page(`<p>Before<noscript> Enable JavaScript </noscript> after</p>`))).toEqual(["Before after"]);
    expect(texts(page(`<p>Before <noscript>Enable JavaScript </noscript>after</p>`))).toEqual(["Before after"]);
    expect(texts(page(`<p>Before<br> <noscript>x</noscript> <br>after</p>`))).toEqual(["Before after"]);
  });

  it("keeps the subtree index in step with the blocks after dropping one", () => {
    const doc = segmentHtml(page(`<section><p>a</p><noscript><p>short</p></noscript><p>b</p></section>`), { subtrees: true });
    expect(doc.blocks.map((b) => b.text)).toEqual(["a", "b"]);
    expect(doc.subtrees?.blockSubtrees.length).toBe(2);
    expect(doc.blocks.map((b) => b.index)).toEqual([0, 1]);
  });
});

describe("CMS shortcodes", () => {
  it("removes shortcode tags from the text and keeps the text between them", () => {
    const html = page(
      `<p>[vc_row el_class=&quot;top&quot;][vc_column width="1/2"]Text in a column[/vc_column][/vc_row]</p><p>[et_pb_section][/et_pb_section]</p>
       <p>[caption id="attachment_1" align="alignnone"]A photo caption[/caption]</p><p>A footnote [1] and [edit] stay.</p>`,
    );
    expect(texts(html)).toEqual(["Text in a column", "A photo caption", "A footnote [1] and [edit] stay."]);
  });

  it("gives no link ranges to a block it cut shortcodes from, rather than ranges in the wrong place", () => {
    const doc = segmentHtml(
      page(`<p>[vc_column_text]Read <a href="/x">the report</a>[/vc_column_text]</p><p>See <a href="/y">this</a></p>`),
      {
        inline: true,
      },
    );
    expect(doc.blocks.map((b) => b.text)).toEqual(["Read the report", "See this"]);
    expect(doc.blocks[0].layout?.inline).toBeUndefined();
    expect(doc.blocks[1].layout?.inline).toEqual([{ start: 4, end: 8, kind: "link", href: "/y" }]);
  });

  it("stripShortcodes leaves text without shortcodes as it is", () => {
    const text = "Prices [in euros] are [sic] high";
    expect(stripShortcodes(text)).toBe(text);
    expect(stripShortcodes("[fusion_text]Hello[/fusion_text] world")).toBe("Hello world");
  });
});

describe("repeated blocks", () => {
  it("links each later copy of a text of five words or more to its first copy, wherever it stands", () => {
    const item = "<li><p>View full job description and save it</p></li>";
    const doc = segmentHtml(
      page(`<div class="mobile"><p>The same teaser text, twice on the page.</p></div><p>Short repeat</p>
        <section class="desktop"><p>The same teaser TEXT, twice on the page.</p></section><p>Short repeat</p>
        <aside><p>The same teaser text, twice on the page.</p></aside><ul>${item}${item}</ul>`),
    );
    expect(doc.blocks.map((b) => b.repeatOf)).toEqual([-1, -1, 0, -1, 0, -1, 5]);
  });
});
