// The labelling page's client: fetches pages from the label-ui API, shows their blocks with the
// labels to correct, and saves them. Page text only ever goes through textContent.
(() => {
  var list = document.getElementById("page-list");
  var main = document.getElementById("page");
  var status = document.getElementById("status");
  var pages = [];
  var page = null; // the page shown: the API's detail plus our working labels
  var labels = [];
  var cursor = 0;
  var anchor = 0; // one end of the selection; the cursor is the other
  var dirty = false;
  var saving = null;
  var COMMENT = "comment"; // a user comment, reply or forum reply (the label files' "comment")

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = String(text);
    return node;
  }

  function setStatus(text, kind) {
    status.textContent = text;
    status.className = kind || "";
  }

  function api(path, init) {
    return fetch(path, init).then((response) =>
      response.json().then((body) => {
        if (!response.ok) throw new Error(body?.error ? body.error : `HTTP ${response.status}`);
        return body;
      }),
    );
  }

  function pageIndex(id) {
    for (var i = 0; i < pages.length; i++) if (pages[i].id === id) return i;
    return -1;
  }

  function buildList() {
    list.textContent = "";
    pages.forEach((p, _i) => {
      var item = el("li");
      var link = el("a", `page-link${page && page.id === p.id ? " current" : ""}`);
      link.href = `#${encodeURIComponent(p.id)}`;
      link.appendChild(el("span", "page-title", p.title || p.url || p.id));
      link.appendChild(el("span", `page-state${p.saved ? " saved" : ""}`, p.saved ? p.saved : `${p.blocks} blocks`));
      link.title = p.id;
      item.appendChild(link);
      list.appendChild(item);
    });
  }

  function selection() {
    return [Math.min(anchor, cursor), Math.max(anchor, cursor)];
  }

  function render() {
    var blocks = main.querySelectorAll(".block");
    var sel = selection();
    var content = 0;
    var comments = 0;
    for (var i = 0; i < blocks.length; i++) {
      var node = blocks[i];
      var label = labels[i];
      if (label === 1) content++;
      if (label === COMMENT) comments++;
      node.classList.toggle("content", label === 1);
      node.classList.toggle("boilerplate", label === 0);
      node.classList.toggle("comment", label === COMMENT);
      node.classList.toggle("changed", label !== page.blocks[i].kept);
      node.classList.toggle("cursor", i === cursor);
      node.classList.toggle("selected", i >= sel[0] && i <= sel[1]);
      node.dataset.label = String(label);
      node.querySelector(".label").textContent = label === COMMENT ? "comment" : label ? "content" : "boilerplate";
    }
    document.getElementById("counts").textContent =
      `${content} of ${labels.length} blocks labelled content · ${comments} comment${comments === 1 ? "" : "s"}${dirty ? " · unsaved changes" : ""}`;
  }

  function showPage(detail) {
    page = detail;
    labels = detail.labels.slice();
    cursor = 0;
    anchor = 0;
    dirty = false;
    main.textContent = "";
    var head = el("header", "page-head");
    head.appendChild(el("h2", "", detail.title || "(no title)"));
    head.appendChild(el("p", "url", detail.url));
    head.appendChild(
      el("p", "meta", `id ${detail.id} · labels shown: ${detail.from === "model" ? "the model's pre-labels" : `saved (${detail.from})`}`),
    );
    if (detail.note) head.appendChild(el("p", "note", detail.note));
    head.appendChild(el("p", "counts", ""));
    head.lastChild.id = "counts";
    main.appendChild(head);
    var container = el("div", "blocks");
    detail.blocks.forEach((b, i) => {
      var node = el("section", "block");
      node.dataset.index = String(i);
      var top = el("div", "block-head");
      top.appendChild(el("span", "label", ""));
      top.appendChild(el("span", "score", `model ${b.score.toFixed(3)}`));
      top.appendChild(
        el(
          "span",
          "where",
          (b.heading && b.features.container !== `h${b.heading}` ? `h${b.heading} · ` : "") +
            b.features.container +
            " · " +
            b.features.words +
            " words · links " +
            Math.round(b.features.linkDensity * 100) +
            "%",
        ),
      );
      node.appendChild(top);
      node.appendChild(el(b.heading ? "h3" : "p", "text", b.text));
      node.title = b.features.tagPath + (b.features.classIds ? ` · ${b.features.classIds}` : "");
      container.appendChild(node);
    });
    main.appendChild(container);
    buildList();
    render();
    setStatus(detail.from === "model" ? "not saved yet" : "saved", detail.from === "model" ? "" : "ok");
    main.scrollTop = 0;
  }

  function load(id) {
    setStatus("loading…");
    return api(`/api/page?id=${encodeURIComponent(id)}`).then(showPage, (error) => {
      setStatus(error.message, "error");
    });
  }

  function save() {
    if (!page) return Promise.resolve();
    if (saving) return saving;
    var id = page.id;
    var sent = labels.slice();
    setStatus("saving…");
    saving = api(`/api/labels?id=${encodeURIComponent(id)}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ fingerprint: page.fingerprint, labels: sent }),
    }).then(
      () => {
        saving = null;
        var p = pages[pageIndex(id)];
        if (p) p.saved = "hand";
        if (page && page.id === id) {
          page.from = "hand";
          // Changes made while the request was out stay unsaved.
          dirty = labels.some((l, i) => l !== sent[i]);
          render();
        }
        buildList();
        setStatus(dirty ? "unsaved changes" : "saved", dirty ? "" : "ok");
      },
      (error) => {
        saving = null;
        setStatus(`not saved: ${error.message}`, "error");
        throw error;
      },
    );
    return saving;
  }

  function go(id) {
    var next = () => {
      location.hash = `#${encodeURIComponent(id)}`;
    };
    if (dirty) save().then(next, () => {});
    else next();
  }

  /** Content becomes boilerplate; boilerplate and a comment become content. */
  function toggled(label) {
    return label === 1 ? 0 : 1;
  }

  function setLabels(fn) {
    var sel = selection();
    for (var i = sel[0]; i <= sel[1]; i++) labels[i] = fn(labels[i]);
    dirty = true;
    setStatus("unsaved changes");
    render();
  }

  function moveCursor(to, extend) {
    if (!page || labels.length === 0) return;
    cursor = Math.max(0, Math.min(labels.length - 1, to));
    if (!extend) anchor = cursor;
    render();
    var node = main.querySelectorAll(".block")[cursor];
    if (node?.scrollIntoView) node.scrollIntoView({ block: "nearest" });
  }

  main.addEventListener("click", (event) => {
    var node = event.target.closest(".block");
    if (!node) return;
    var i = Number(node.dataset.index);
    if (event.shiftKey) {
      cursor = i; // select the run from the anchor to here; c, b, m or space then label it
      render();
      return;
    }
    cursor = anchor = i;
    setLabels(toggled);
  });
  // Shift-click would otherwise select the page's text as well.
  main.addEventListener("mousedown", (event) => {
    if (event.shiftKey) event.preventDefault();
  });

  document.getElementById("mark-content").addEventListener("click", () => {
    setLabels(() => 1);
  });
  document.getElementById("mark-boilerplate").addEventListener("click", () => {
    setLabels(() => 0);
  });
  document.getElementById("mark-comment").addEventListener("click", () => {
    setLabels(() => COMMENT);
  });
  document.getElementById("toggle").addEventListener("click", () => {
    setLabels(toggled);
  });
  document.getElementById("save").addEventListener("click", () => {
    save().catch(() => {});
  });

  document.addEventListener("keydown", (event) => {
    if (!page || event.ctrlKey || event.metaKey || event.altKey) return;
    var key = event.key;
    var handled = true;
    if (key === "j" || key === "J" || key === "ArrowDown") moveCursor(cursor + 1, event.shiftKey);
    else if (key === "k" || key === "K" || key === "ArrowUp") moveCursor(cursor - 1, event.shiftKey);
    else if (key === "c") setLabels(() => 1);
    else if (key === "b") setLabels(() => 0);
    else if (key === "m") setLabels(() => COMMENT);
    else if (key === " ") setLabels(toggled);
    else if (key === "s") save().catch(() => {});
    else if (key === "n" || key === "p") {
      var i = pageIndex(page.id) + (key === "n" ? 1 : -1);
      if (i >= 0 && i < pages.length) go(pages[i].id);
    } else handled = false;
    if (handled) event.preventDefault();
  });

  list.addEventListener("click", (event) => {
    var link = event.target.closest("a.page-link");
    if (!link || !dirty) return;
    event.preventDefault(); // save first, then follow the link
    go(decodeURIComponent(link.hash.slice(1)));
  });

  window.addEventListener("hashchange", () => {
    var id = decodeURIComponent(location.hash.slice(1));
    if (page && id === page.id) return;
    if (dirty)
      save().then(
        () => {
          load(id);
        },
        () => {},
      );
    else load(id);
  });
  window.addEventListener("beforeunload", (event) => {
    if (dirty) event.preventDefault();
  });

  api("/api/pages").then(
    (body) => {
      pages = body.pages;
      document.getElementById("model").textContent = `${pages.length} pages · pre-labels from ${body.model} · saving to ${body.labelsDir}`;
      buildList();
      var id = decodeURIComponent(location.hash.slice(1));
      load(pageIndex(id) >= 0 ? id : pages[0].id);
    },
    (error) => {
      setStatus(error.message, "error");
    },
  );
})();
