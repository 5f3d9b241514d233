// Layout decisions the stylesheet cannot take alone. The actions tray sticks to the bottom of
// the window (in thumb's reach on a phone, always in sight on a laptop) only while it leaves
// most of the window to the table: a tray taller than that would hide the hand and the court
// under it, and a sticky box taller than the window could never be scrolled to its top. Then
// it is "unstuck" and sits at the end of the page, reached by the page's own scroll.

/** Share of the window's height a sticky tray may cover. */
const MAX_SHARE = 0.45;

/** Stick or unstick the tray of ``root`` for the current window and contents. */
export function fitTray(root) {
  const tray = root.querySelector(".table-screen > .tray");
  if (!tray) return;
  tray.classList.remove("unstuck");
  if (tray.getBoundingClientRect().height > window.innerHeight * MAX_SHARE) tray.classList.add("unstuck");
}

let watched = null;

/** Refit the tray of ``root`` whenever the window changes size (a phone turned, a window
 * resized); one listener, whatever the number of calls. */
export function watchLayout(root) {
  if (watched === root) return;
  watched = root;
  window.addEventListener("resize", () => fitTray(root));
}

/** When your turn begins on a narrow screen (a phone), scroll the page so that your hand sits
 * just above the actions: both are in reach of a thumb. Wider screens show them already. */
export function bringTurnIntoReach(root, { onlyIfHidden = false } = {}) {
  if (!window.matchMedia("(max-width: 47.9rem)").matches) return;
  if (onlyIfHidden) {
    // A later decision of the same turn: move only if its first choice is out of sight.
    const first = root.querySelector(".tray .action");
    const box = first && first.getBoundingClientRect();
    if (!box || (box.top >= 0 && box.bottom <= window.innerHeight)) return;
  }
  const active = document.activeElement;
  if (active && active.closest && active.closest("input, textarea, select, dialog")) return;
  const hand = root.querySelector(".my-panel .my-hand");
  const tray = root.querySelector(".table-screen > .tray");
  if (!hand || !tray) return;
  let by;
  if (tray.classList.contains("unstuck")) {
    // A tall tray (the draft's cards): its top just under the top bar, the first choices in sight.
    const bar = document.querySelector(".topbar");
    by = tray.getBoundingClientRect().top - (bar ? bar.getBoundingClientRect().bottom : 0) - 8;
  } else {
    by = hand.getBoundingClientRect().bottom - (window.innerHeight - tray.getBoundingClientRect().height);
  }
  if (Math.abs(by) > 8) window.scrollBy({ top: by, behavior: "instant" });
}
