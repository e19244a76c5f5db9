// Renders the report from its JSON data element. Every piece of page text goes through
// textContent (or an attribute value), never innerHTML, so page text cannot become markup.
(() => {
  var data = JSON.parse(document.getElementById("winnow-data").textContent);
  var docs = data.documents;
  var list = document.getElementById("document-list");
  var main = document.getElementById("document");
  var find = document.getElementById("find");
  var current = -1;
  var filter = "all";

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function plural(n, noun) {
    return `${n} ${noun}${n === 1 ? "" : "s"}`;
  }

  function summary() {
    var skipped = Object.keys(data.skipped).map((k) => `${data.skipped[k]} ${k}`);
    document.getElementById("run").textContent =
      plural(docs.length, "document") +
      (data.sample ? ` (a random sample of ${data.sample.size} of ${data.sample.of} HTML records, seed ${data.sample.seed})` : "") +
      " from " +
      plural(data.inputFiles, "input file") +
      " · model " +
      data.model.split("/").pop() +
      " (keeps blocks scoring ≥ " +
      data.threshold +
      ")" +
      (skipped.length ? ` · skipped: ${skipped.join(", ")}` : "") +
      " · " +
      data.generated;
    if (data.limited) {
      var note = document.getElementById("limited");
      note.textContent =
        "Limited: this report shows only the first " +
        plural(data.limit, "document") +
        "; the inputs hold more (raise --limit to see them).";
      note.hidden = false;
    }
  }

  function buildList() {
    docs.forEach((d, i) => {
      var item = el("li");
      var link = el("a", "doc-link");
      link.href = `#doc-${i}`;
      link.dataset.index = String(i);
      link.appendChild(el("span", "doc-title", d.title || d.url || d.id));
      link.appendChild(el("span", "doc-counts", `${d.blocksKept}/${d.blocksTotal}`));
      link.title = d.url;
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  function applyFind() {
    var q = find.value.toLowerCase();
    Array.prototype.forEach.call(list.children, (item, i) => {
      var d = docs[i];
      item.hidden = q !== "" && `${d.title} ${d.url}`.toLowerCase().indexOf(q) < 0;
    });
  }

  var FEATURE_NAMES = [
    ["words", "words"],
    ["linkDensity", "link density"],
    ["links", "links"],
    ["container", "container"],
    ["tagPath", "tag path"],
    ["classIds", "class/id words"],
    ["markupChars", "markup chars before"],
    ["textChars", "text chars"],
  ];

  function featureList(f) {
    var dl = el("dl", "features");
    FEATURE_NAMES.forEach((pair) => {
      dl.appendChild(el("dt", "", pair[1]));
      dl.appendChild(el("dd", "", f[pair[0]] === "" ? "–" : f[pair[0]]));
    });
    return dl;
  }

  function blockNode(b, i) {
    var node = el("section", `block ${b.kept ? "kept" : "dropped"}`);
    node.dataset.kept = String(b.kept);
    node.dataset.index = String(i);
    var head = el("div", "block-head");
    head.appendChild(el("span", "verdict", b.kept ? "content" : "boilerplate"));
    head.appendChild(el("span", "score", b.score.toFixed(3)));
    head.appendChild(
      el(
        "span",
        "where",
        (b.heading && b.features.container !== `h${b.heading}` ? `h${b.heading} · ` : "") +
          b.features.container +
          " · " +
          plural(b.features.words, "word") +
          " · links " +
          Math.round(b.features.linkDensity * 100) +
          "%",
      ),
    );
    var more = el("button", "more", "features");
    more.type = "button";
    more.setAttribute("aria-expanded", "false");
    head.appendChild(more);
    node.appendChild(head);
    node.appendChild(el(b.heading ? "h3" : "p", "text", b.text));
    var features = featureList(b.features);
    features.hidden = true;
    node.appendChild(features);
    node.title = `score ${b.score} · ${b.features.tagPath}${b.features.classIds ? ` · ${b.features.classIds}` : ""}`;
    return node;
  }

  function show(i) {
    if (i < 0 || i >= docs.length) return;
    current = i;
    var d = docs[i];
    Array.prototype.forEach.call(list.querySelectorAll("a.doc-link"), (a) => {
      a.classList.toggle("current", a.dataset.index === String(i));
    });
    main.textContent = "";
    var head = el("header", "doc-head");
    head.appendChild(el("h2", "", d.title || "(no title)"));
    var url = el("p", "url", d.url);
    head.appendChild(url);
    head.appendChild(el("p", "meta", `${d.id} · ${d.source} · ${d.charset}`));
    var keptWords = 0,
      totalWords = 0;
    d.blocks.forEach((b) => {
      totalWords += b.features.words;
      if (b.kept) keptWords += b.features.words;
    });
    head.appendChild(
      el(
        "p",
        "counts",
        "kept " +
          d.blocksKept +
          " of " +
          plural(d.blocksTotal, "block") +
          " (" +
          keptWords +
          " of " +
          plural(totalWords, "word") +
          "); dropped " +
          (d.blocksTotal - d.blocksKept),
      ),
    );
    var filters = el("div", "filters");
    [
      ["all", "all blocks"],
      ["kept", "content only"],
      ["dropped", "boilerplate only"],
    ].forEach((f) => {
      var button = el("button", f[0] === filter ? "on" : "", f[1]);
      button.type = "button";
      button.dataset.filter = f[0];
      filters.appendChild(button);
    });
    head.appendChild(filters);
    main.appendChild(head);
    var blocks = el("div", `blocks filter-${filter}`);
    d.blocks.forEach((b, k) => {
      blocks.appendChild(blockNode(b, k));
    });
    main.appendChild(blocks);
    main.scrollTop = 0;
  }

  function fromHash() {
    var m = /^#doc-(\d+)$/.exec(location.hash);
    show(m ? Number(m[1]) : 0);
  }

  main.addEventListener("click", (event) => {
    var more = event.target.closest("button.more");
    if (more) {
      var features = more.closest(".block").querySelector("dl.features");
      features.hidden = !features.hidden;
      more.setAttribute("aria-expanded", String(!features.hidden));
      return;
    }
    var button = event.target.closest("button[data-filter]");
    if (!button) return;
    filter = button.dataset.filter;
    show(current);
  });
  find.addEventListener("input", applyFind);
  window.addEventListener("hashchange", fromHash);
  // n / p: next and previous document, skipping those hidden by the filter box.
  document.addEventListener("keydown", (event) => {
    if (event.target === find || event.ctrlKey || event.metaKey || event.altKey) return;
    var step = event.key === "n" ? 1 : event.key === "p" ? -1 : 0;
    if (!step) return;
    for (var i = current + step; i >= 0 && i < docs.length; i += step) {
      if (!list.children[i].hidden) {
        location.hash = `#doc-${i}`;
        return;
      }
    }
  });

  summary();
  buildList();
  if (docs.length === 0) main.textContent = "No documents with text in the inputs.";
  else fromHash();
})();
