// Light motion after a move is drawn: coins fly to the purse that gains them (from the one that
// lost them, or from the bank), a card flies from a player's hand to the district just built,
// the crown passes from its old holder to the new one. Web Animations on a throw-away element
// over the page (no style attribute in markup: positions are set from script). Nothing moves
// when the person prefers reduced motion. It also marks the character being called.

import { icon } from "./dom.js";
import { reducedMotion } from "./pace.js";

const DURATION = 650;

function seatBox(root, seat, me) {
  return seat === me ? root.querySelector(".my-panel") : root.querySelector(`.seat-panel[data-seat="${seat}"]`);
}

function rect(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

/** Fly an icon from one element's place to another's. */
function fly(name, from, to, delay = 0) {
  const a = rect(from);
  const b = rect(to);
  if (!a || !b || typeof document.body.animate !== "function") return;
  const el = icon(name, "flyer");
  const x0 = a.left + a.width / 2;
  const y0 = a.top + a.height / 2;
  el.style.setProperty("position", "fixed");
  el.style.setProperty("top", `${y0 - 12}px`);
  el.style.setProperty("left", `${x0 - 12}px`);
  document.body.appendChild(el);
  const dx = b.left + b.width / 2 - x0;
  const dy = b.top + b.height / 2 - y0;
  const anim = el.animate(
    [
      { transform: "translate(0, 0) scale(0.8)", opacity: 0 },
      { transform: `translate(${dx * 0.5}px, ${dy * 0.5 - 40}px) scale(1.25)`, opacity: 1, offset: 0.5 },
      { transform: `translate(${dx}px, ${dy}px) scale(1)`, opacity: 0.9 },
    ],
    { duration: DURATION, delay, easing: "cubic-bezier(0.3, 0.7, 0.4, 1)", fill: "backwards" },
  );
  anim.onfinish = () => el.remove();
  anim.oncancel = () => el.remove();
}

/** Mark the character being called in the court (aria-current, and the CSS highlight). */
export function markCalled(root) {
  for (const btn of root.querySelectorAll(".court-btn[aria-current]")) btn.removeAttribute("aria-current");
  const card = root.querySelector(".court .court-card.current");
  const btn = card && card.closest(".court-btn");
  if (btn) btn.setAttribute("aria-current", "true");
}

/** Animate what changed from ``before`` to ``after`` (two views), once the page shows ``after``. */
export function animateChange(root, before, after, me) {
  if (!before || !after || reducedMotion()) return;
  const bank = root.querySelector(".court-meta .deck") || root.querySelector(".court");
  const gains = [];
  const losses = [];
  for (const p of after.players) {
    const old = before.players.find((q) => q.seat === p.seat);
    if (!old) continue;
    const box = seatBox(root, p.seat, me);
    if (!box) continue;
    if (p.gold > old.gold) gains.push({ seat: p.seat, box, n: p.gold - old.gold });
    if (p.gold < old.gold) losses.push({ seat: p.seat, box, n: old.gold - p.gold });
    // A new district: a card leaves the builder's hand for the city.
    if (p.city.length > old.city.length) {
      const tiles = box.querySelectorAll(".city li");
      const target = tiles[tiles.length - 1];
      fly("cards", box.querySelector(".stat.hand"), target);
    }
  }
  for (const g of gains) {
    // Gold taken from another seat comes from that purse; otherwise from the bank.
    const payer = losses.find((l) => l.n === g.n) || losses[0];
    const from = payer ? payer.box.querySelector(".stat.gold") : bank;
    const coins = Math.min(g.n, 4);
    for (let i = 0; i < coins; i++) fly("coin", from, g.box.querySelector(".stat.gold"), i * 90);
  }
  for (const l of losses) {
    if (gains.length) continue;
    fly("coin", l.box.querySelector(".stat.gold"), bank);
  }
  if (before.crown !== after.crown && after.crown != null) {
    const from = before.crown != null ? seatBox(root, before.crown, me) : bank;
    const to = seatBox(root, after.crown, me);
    fly("crown", from && (from.querySelector(".crown-badge") || from.querySelector("header")), to && (to.querySelector(".crown-badge") || to));
  }
}
