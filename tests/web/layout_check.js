// The browser tests' geometry check (tests/web/test_layout.py), run in the page at each of the
// player's decisions. Answers a list of problems, each a short sentence; none means the table
// shows everything a player needs at this size.
// With {table: false} (the final scores over the table) only text and words are checked.
({ table = true } = {}) => {
  const problems = [];
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const scroller = document.scrollingElement;
  const label = (el) => {
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.getAttribute("aria-label") || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `${el.tagName.toLowerCase()}${cls} "${text}"`;
  };
  const hidden = (el) => {
    if (el.checkVisibility && !el.checkVisibility()) return true;
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (e.hidden || e.classList.contains("sr")) return true;
      const cs = getComputedStyle(e);
      if (cs.display === "none" || cs.visibility === "hidden") return true;
    }
    return false;
  };

  // 1. The page itself scrolls, never sideways.
  if (scroller.scrollWidth > vw + 1) problems.push(`the page scrolls sideways: ${scroller.scrollWidth}px in a ${vw}px window`);

  // 2. Every action, hand card, court card and city card: no ancestor clips it or scrolls it
  //    inside itself, and once the page is scrolled to it, it is the thing under its centre.
  //    A choice folded away in a closed group (the player's own city) is not needed until the
  //    player unfolds it (test_layout.py then checks it unfolded): a closed <details> hides its
  //    content with content-visibility, so its buttons still report a box, where nothing of
  //    them is drawn.
  const folded = (el) => Boolean(el.closest("details:not([open])")) && !el.closest("summary");
  const needed = !table ? [] : [
    ...[...document.querySelectorAll(".tray .action")].filter((el) => !folded(el)),
    ...document.querySelectorAll(".my-hand .hand .card"),
    ...document.querySelectorAll(".court .court-btn"),
    ...document.querySelectorAll(".seat-panel .city .card"),
  ];
  const startY = window.scrollY;
  for (const el of needed) {
    if (hidden(el)) {
      problems.push(`${label(el)} is hidden`);
      continue;
    }
    let box = el.getBoundingClientRect();
    if (box.width < 4 || box.height < 4) {
      problems.push(`${label(el)} has no size (${box.width}×${box.height})`);
      continue;
    }
    let fixed = false;
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement) {
      const cs = getComputedStyle(a);
      if (cs.position === "fixed" || cs.position === "sticky") fixed = true;
      const clipsX = cs.overflowX !== "visible";
      const clipsY = cs.overflowY !== "visible";
      if (!clipsX && !clipsY) continue;
      const r = a.getBoundingClientRect();
      const scrollsX = clipsX && a.scrollWidth > a.clientWidth + 1;
      const scrollsY = clipsY && a.scrollHeight > a.clientHeight + 1;
      if ((scrollsX || scrollsY) && (cs.overflowX !== "hidden" || cs.overflowY !== "hidden")) {
        // An inner scroll box is allowed only if the element lies wholly inside its view.
        if (box.left < r.left - 1 || box.right > r.right + 1 || box.top < r.top - 1 || box.bottom > r.bottom + 1) {
          problems.push(`${label(el)} is hidden in the inner scroll box ${label(a)}`);
          break;
        }
      }
      if ((clipsX && (box.left < r.left - 1 || box.right > r.right + 1)) || (clipsY && (box.top < r.top - 1 || box.bottom > r.bottom + 1))) {
        problems.push(`${label(el)} is clipped by ${label(a)} (overflow ${cs.overflowX}/${cs.overflowY})`);
        break;
      }
    }
    if (!fixed) {
      window.scrollTo(0, window.scrollY + box.top + box.height / 2 - vh / 2);
      box = el.getBoundingClientRect();
    }
    if (box.left < -1 || box.right > vw + 1 || box.top < -1 || box.bottom > vh + 1) {
      problems.push(`${label(el)} cannot be brought into the window (${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}×${Math.round(box.height)})`);
      continue;
    }
    const x = Math.min(vw - 1, Math.max(0, box.left + box.width / 2));
    const y = Math.min(vh - 1, Math.max(0, box.top + Math.min(box.height / 2, 12)));
    const hit = document.elementFromPoint(x, y);
    if (!hit || !(el === hit || el.contains(hit))) problems.push(`${label(el)} is covered by ${hit ? label(hit) : "nothing"}`);
  }
  window.scrollTo(0, startY);

  // 3. No text is clipped or cut inside a word.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.nodeValue;
    if (!text.trim()) continue;
    const el = node.parentElement;
    if (!el || hidden(el) || el.closest("option, select, script, .log, .chat, .scores-overlay ~ *")) continue;
    // The nearest block box that holds the text.
    let block = el;
    while (block && getComputedStyle(block).display.startsWith("inline") && block.parentElement) block = block.parentElement;
    if (block && !seen.has(block)) {
      seen.add(block);
      const cs = getComputedStyle(block);
      if (cs.overflowX !== "visible" || cs.textOverflow === "ellipsis") {
        if (block.scrollWidth > block.clientWidth + 1) problems.push(`text clipped: ${label(block)} (${block.scrollWidth} > ${block.clientWidth})`);
      }
    }
    // A word on two lines with no hyphen at the break.
    const re = /[^\s\u2068\u2069\u00ad-]{2,}/gu;
    let m;
    while ((m = re.exec(text))) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (tops.size > 1) {
        // Where does the second line start? A soft hyphen or a hyphen before it is a hyphenated break.
        problems.push(`a word is cut across lines: "${m[0]}" in ${label(el)}`);
      }
    }
  }

  // 4. Nothing says null, undefined or NaN.
  const words = /\b(null|undefined|NaN)\b/;
  const body = document.body.innerText;
  const found = body.match(words);
  if (found) problems.push(`the page shows "${found[0]}": …${body.slice(Math.max(0, found.index - 40), found.index + 20).replace(/\s+/g, " ")}…`);
  for (const el of document.querySelectorAll("[aria-label], [title], [placeholder]")) {
    for (const attr of ["aria-label", "title", "placeholder"]) {
      const v = el.getAttribute(attr);
      if (v && words.test(v)) problems.push(`${attr} says "${v}" on ${label(el)}`);
    }
  }
  return [...new Set(problems)];
};
