// Layout decisions the stylesheet cannot take alone.
//
// The top bar sticks to the top of the window and keeps to one line, but its height still
// changes (whose turn it is may take two short lines, fonts arrive late): its real height is
// kept in the CSS variable --topbar-h, which every box that sticks under it (the notices, the
// side panel) and the page's scroll padding follow.
//
// The actions tray sticks to the bottom of the window (in thumb's reach on a phone, always in
// sight on a laptop) only while it leaves the table in sight: a tray taller than a share of
// the window, or one that leaves no room to see the court of characters whole between the top
// bar (and the notices box under it) and itself, would hide the hand and the court under it, and a sticky box taller than the
// window could never be scrolled to its top. Then it is "unstuck" and sits at the end of the
// page, reached by the page's own scroll. The tray is fitted again whenever it or the top bar
// changes size (a folded group opened, a phone turned, a window resized, the fonts arrived).

/** Share of the window's height a sticky tray may cover. */
const MAX_SHARE = 0.45;
/** Room kept between the court and a sticky tray, in px. */
const GAP = 8;

const px = (n) => `${Math.ceil(n)}px`;

/** The top bar's real height, in px (0 without one), written to --topbar-h. */
function fitTopBar() {
  const bar = document.querySelector(".topbar");
  const height = bar ? bar.getBoundingClientRect().height : 0;
  const style = document.documentElement.style;
  if (style.getPropertyValue("--topbar-h") !== px(height)) style.setProperty("--topbar-h", px(height));
  return height;
}

/** Stick or unstick the tray of ``root`` (an element or the document) for the current window
 * and contents; keep --topbar-h and --tray-h (the stuck tray's height, else 0) up to date. */
export function fitTray(root = document) {
  const top = fitTopBar();
  const tray = root && root.querySelector(".table-screen > .tray");
  const style = document.documentElement.style;
  if (!tray) {
    style.setProperty("--tray-h", "0px");
    return;
  }
  tray.classList.remove("unstuck");
  const height = tray.getBoundingClientRect().height;
  const court = tray.closest(".table-screen").querySelector(".board .court");
  // The notices box sticks under the top bar: the court must fit between it and the tray.
  const notices = root.querySelector(".notices");
  const below = notices ? notices.getBoundingClientRect().height : 0;
  const room = window.innerHeight - top - below - height - GAP;
  const stuck = height <= window.innerHeight * MAX_SHARE && (!court || court.getBoundingClientRect().height <= room);
  tray.classList.toggle("unstuck", !stuck);
  const trayH = stuck ? px(height) : "0px";
  if (style.getPropertyValue("--tray-h") !== trayH) style.setProperty("--tray-h", trayH);
}

let watched = null;
let observer = null;
let pending = false;

/** Refit on the next frame (a ResizeObserver's callback must not change sizes itself). */
function refitSoon() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    if (watched && document.contains(watched)) fitTray(watched);
  });
}

/** Refit the tray of ``root`` whenever the window, the top bar or the tray changes size; call
 * after each draw (the observed boxes are the newly drawn ones). */
export function watchLayout(root) {
  if (watched !== root) {
    watched = root;
    window.addEventListener("resize", refitSoon);
  }
  if (typeof ResizeObserver !== "function") return;
  if (!observer) observer = new ResizeObserver(refitSoon);
  observer.disconnect();
  for (const el of root.querySelectorAll(".topbar, .table-screen > .tray")) observer.observe(el);
}

/** A folded group of the tray (``details``) opened or closed by the player: fit the tray to
 * its new height now, and bring an opened group's choices into sight (a tray that grew may
 * have come unstuck and moved to the end of the page). */
export function groupToggled(details, { reveal = true } = {}) {
  const screen = details.closest(".table-screen");
  if (!screen || !document.contains(screen)) return;
  fitTray(screen.parentElement || document);
  if (reveal && details.open) details.scrollIntoView({ block: "nearest", behavior: "instant" });
}

/** When your turn begins, scroll the page so that what the turn needs is in sight: on a
 * narrow screen (a phone) your hand just above the actions, both in reach of a thumb; on a
 * wider one, the court of characters whole above a sticky tray (it may start half under it)
 * and as much of your hand under it as the window leaves room for; a tray too tall to stick
 * has its first choice brought into sight as well, by the least scroll, or, where the court
 * and that choice cannot both be in sight, its top under the top bar. */
export function bringTurnIntoReach(root, { onlyIfHidden = false } = {}) {
  const active = document.activeElement;
  if (active && active.closest && active.closest("input, textarea, select, dialog")) return;
  const tray = root.querySelector(".table-screen > .tray");
  const bar = document.querySelector(".topbar");
  const barBottom = bar ? bar.getBoundingClientRect().bottom : 0;
  if (!tray) return;
  if (!window.matchMedia("(max-width: 47.9rem)").matches) {
    // Later in the turn the player may have scrolled to the hand: move only if the first
    // choice is out of sight (under the top bar or past the window), and only to it.
    if (onlyIfHidden) {
      const first = root.querySelector(".tray .action");
      const box = first && first.getBoundingClientRect();
      if (box && (box.top < barBottom || box.bottom > window.innerHeight)) first.scrollIntoView({ block: "nearest", behavior: "instant" });
      return;
    }
    const court = root.querySelector(".board .court");
    if (!court) return;
    const notices = root.querySelector(".notices");
    const top = barBottom + (notices ? notices.getBoundingClientRect().height : 0) + GAP;
    const bottom = (tray.classList.contains("unstuck") ? window.innerHeight : tray.getBoundingClientRect().top) - GAP;
    const box = court.getBoundingClientRect();
    // The least scroll that shows the court whole between the frame's boxes, if it fits.
    let by = 0;
    if (box.top < top) by = box.top - top;
    else if (box.bottom > bottom) by = Math.min(box.bottom - bottom, box.top - top);
    // The player's hand too, above the tray, as long as the court stays whole: which
    // character to pick and what to build depend on it.
    const hand = root.querySelector(".my-hand .hand");
    if (hand) {
      const below = hand.getBoundingClientRect().bottom - by - bottom;
      if (below > 0) by += Math.min(below, Math.max(0, box.top - by - top));
    }
    // A tray too tall to stick (a Warlord's long menu) sits at the end of the page. If its
    // first choice would then be below the window, scroll on by the least that shows it, as
    // long as the court stays whole; when the court and the first choice cannot both be in
    // sight, the turn's choices come first: the tray's top just under the top bar and the
    // notices (the court is a scroll up).
    const first = tray.classList.contains("unstuck") && [...tray.querySelectorAll(".action")].find((el) => el.getClientRects().length);
    const over = first ? first.getBoundingClientRect().bottom - by - (window.innerHeight - GAP) : 0;
    if (over > 0) by = box.top - by - over >= top ? by + over : tray.getBoundingClientRect().top - top;
    if (Math.abs(by) > 4) window.scrollBy({ top: by, behavior: "instant" });
    return;
  }
  if (onlyIfHidden) {
    // A later decision of the same turn: move only if its first choice is out of sight.
    const first = root.querySelector(".tray .action");
    const box = first && first.getBoundingClientRect();
    if (!box || (box.top >= barBottom && box.bottom <= window.innerHeight)) return;
  }
  const hand = root.querySelector(".my-panel .my-hand");
  if (!hand) return;
  let by;
  if (tray.classList.contains("unstuck")) {
    // A tall tray (the draft's cards): its top just under the top bar (and the notices box
    // that sticks under it), the first choices in sight.
    const notices = root.querySelector(".notices");
    const under = barBottom + (notices ? notices.getBoundingClientRect().height + 6 : 0);
    by = tray.getBoundingClientRect().top - under - 8;
  } else {
    by = hand.getBoundingClientRect().bottom - (window.innerHeight - tray.getBoundingClientRect().height);
  }
  if (Math.abs(by) > 8) window.scrollBy({ top: by, behavior: "instant" });
}
