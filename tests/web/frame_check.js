// The browser tests' check of the table's frame (tests/web/test_layout.py, test_tray.py): the
// sticky top bar at the top, the sticky "what happened" box under it and the sticky actions
// tray at the bottom leave the table itself in sight. Run in the page at a player's decision;
// answers a list of problems (none: the frame hides nothing) and the boxes it measured.
//
// - No part of the table (main) starts under the top bar, and the notices box never goes
//   under it, wherever the page is scrolled.
// - The tray is never taller than the window less the top bar: every one of its choices is in
//   sight at once, none under the top bar.
// - The court of characters, every choice, the hand's cards and the notices box can each be
//   brought wholly into sight by the page's own scroll, with nothing of the frame (the top bar,
//   the notices box, the tray) over any part of it.
() => {
  const problems = [];
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const startY = window.scrollY;
  const round = (r) => `${Math.round(r.top)}..${Math.round(r.bottom)}`;
  const label = (el) => {
    const cls = typeof el.className === "string" && el.className ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.getAttribute("aria-label") || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls} "${text}"`;
  };
  const shown = (el) => el && el.checkVisibility() && el.getBoundingClientRect().height > 0;
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const bar = document.querySelector(".topbar");
  const notices = () => document.querySelector(".notices");
  const tray = () => document.querySelector(".table-screen > .tray");
  const frame = () => [bar, notices(), tray()].filter(shown);
  const scrollTo = (y) => window.scrollTo(0, Math.max(0, y));
  const maxY = () => document.scrollingElement.scrollHeight - vh;
  const measured = {};

  if (!bar) return { problems: ["no top bar"], measured };
  // The top bar and the notices box at the top of the page, half way and at its end.
  for (const y of [0, maxY() / 2, maxY()]) {
    scrollTo(y);
    const b = bar.getBoundingClientRect();
    const main = document.querySelector("main");
    if (y === 0 && main && main.getBoundingClientRect().top < b.bottom - 1) {
      problems.push(`the table starts under the top bar (${round(main.getBoundingClientRect())} under ${round(b)})`);
    }
    const n = notices();
    if (shown(n) && n.getBoundingClientRect().top < b.bottom - 1) {
      problems.push(`the notices box goes under the top bar at scroll ${Math.round(y)} (${round(n.getBoundingClientRect())} under ${round(b)})`);
    }
  }
  // Beside the side panel (wide screens) the notices box covers none of it.
  const side = document.querySelector(".table-screen > .side");
  const n = notices();
  if (shown(side) && getComputedStyle(side).position === "sticky" && shown(n) && meets(side.getBoundingClientRect(), n.getBoundingClientRect())) {
    problems.push(`the notices box covers the side panel (${round(n.getBoundingClientRect())})`);
  }
  scrollTo(startY);
  measured.topbar = Math.round(bar.getBoundingClientRect().height);
  const t = tray();
  if (shown(t)) {
    measured.tray = Math.round(t.getBoundingClientRect().height);
    measured.trayPosition = getComputedStyle(t).position;
    const room = vh - bar.getBoundingClientRect().height;
    if (measured.trayPosition === "sticky" && t.getBoundingClientRect().height > room + 1) {
      problems.push(`the sticky tray (${measured.tray}px) is taller than the window less the top bar (${Math.round(room)}px)`);
    }
  }

  // Can ``el`` be seen whole, with no part of the frame over it? Tried with its top just under
  // the top bar, just under the notices box, and with its bottom just over the tray.
  const wholly = (el) => {
    const outside = frame().filter((f) => !f.contains(el));
    const clear = () => {
      const r = el.getBoundingClientRect();
      if (r.top < -1 || r.bottom > vh + 1 || r.left < -1 || r.right > vw + 1) return false;
      return outside.every((f) => !meets(r, f.getBoundingClientRect()));
    };
    const inTray = t && t.contains(el);
    const tries = [
      () => bar.getBoundingClientRect().bottom + 2 - el.getBoundingClientRect().top,
      () => (shown(notices()) ? notices().getBoundingClientRect().bottom + 2 - el.getBoundingClientRect().top : null),
      () => (shown(t) && !inTray ? t.getBoundingClientRect().top - 2 - el.getBoundingClientRect().bottom : null),
      () => vh - 2 - el.getBoundingClientRect().bottom,
    ];
    for (const by of tries) {
      scrollTo(startY);
      if (clear()) return true;
      const d = by();
      if (d === null) continue;
      scrollTo(window.scrollY - d);
      if (clear()) return true;
      // A sticky box moves with the scroll: measure again from where it now is.
      const d2 = by();
      if (d2 !== null && Math.abs(d2) > 1) {
        scrollTo(window.scrollY - d2);
        if (clear()) return true;
      }
    }
    return false;
  };
  const wanted = [
    ...document.querySelectorAll(".board .court"),
    ...document.querySelectorAll(".tray .action"),
    ...document.querySelectorAll(".my-hand .hand .card"),
  ].filter(shown);
  for (const el of wanted) {
    if (!wholly(el)) {
      const r = el.getBoundingClientRect();
      const f = frame().map((x) => `${x.className.split(" ")[0]} ${round(x.getBoundingClientRect())}`).join(", ");
      problems.push(`${label(el)} (${Math.round(r.height)}px) cannot be seen whole: the frame covers it (${f})`);
    }
  }
  const court = document.querySelector(".board .court");
  if (court) measured.court = Math.round(court.getBoundingClientRect().height);
  scrollTo(startY);
  return { problems: [...new Set(problems)], measured };
};
