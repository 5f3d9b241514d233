// What happened to you, told where you look: a notice box over the table and a screen-reader
// live region (#notice-live in index.html), for the moves aimed at the player — murdered,
// robbed, bewitched, a district destroyed or taken, cards taken or exchanged, the crown
// passing — and, when the player's turn comes, a short "since your last move" summary.
//
// Notices are kept as data ({kind, by, character, district, …}) and worded at every draw, so a
// language switch words them anew. The events come from the server's updates (their fields are
// the engine's, language-neutral: see citadels/engine/events.py).

import { h } from "./dom.js";
import { cardName } from "./cards.js";
import { language, t } from "./strings.js";

/** The characters ``seat`` holds in ``view`` (its own view names them). */
function heldBy(view, seat) {
  const p = view && view.players ? view.players.find((q) => q.seat === seat) : null;
  return new Set(p && p.characters ? p.characters : []);
}

/**
 * The notices for ``me`` among ``events`` (one update's), read with ``view`` (the view after
 * them). Answers a list of notice records; empty for a spectator.
 */
export function noticesFor(events, view, me) {
  if (me == null) return [];
  const mine = heldBy(view, me);
  const out = [];
  for (const ev of events || []) {
    const by = ev.seat;
    switch (ev.kind) {
      case "murder":
        if (mine.has(ev.character)) out.push({ kind: "murdered", by, character: ev.character });
        break;
      case "rob":
        if (mine.has(ev.character)) out.push({ kind: "rob", by, character: ev.character });
        break;
      case "robbed":
        if (by === me) out.push({ kind: "robbed", by: ev.thief, n: ev.gold || 0 });
        break;
      case "bewitch":
        if (mine.has(ev.character)) out.push({ kind: "bewitched", by, character: ev.character });
        break;
      case "destroy":
      case "armory":
        if (ev.target === me && by !== me) out.push({ kind: "destroyed", by, district: ev.district });
        break;
      case "seize":
        if (ev.target === me) out.push({ kind: "seized", by, district: ev.district });
        break;
      case "confiscate":
        if (ev.builder === me) out.push({ kind: "confiscated", by, district: ev.district });
        break;
      case "exchange_district":
        if (ev.target === me) out.push({ kind: "exchanged_district", by, give: ev.give, take: ev.take });
        break;
      case "exchange_hands":
        if (ev.with === me) out.push({ kind: "exchanged_hands", by, n: ev.gave || 0 });
        break;
      case "take_card":
      case "seer_take":
        if (ev.from === me) out.push({ kind: "card_taken", by, district: ev.district || null });
        break;
      case "take_from_richest":
        if (ev.from === me) out.push({ kind: "gold_taken", by, n: ev.gold || 1 });
        break;
      case "spy":
        if (ev.target === me) out.push({ kind: "spied", by, n: ev.gold || 0 });
        break;
      case "look_at_hand":
        if (ev.target === me) out.push({ kind: "hand_seen", by });
        break;
      case "crown":
        if (by === me && ev.from !== me) out.push({ kind: "crown_to_you", by: ev.from });
        else if (ev.from === me && by !== me && by != null) out.push({ kind: "crown_from_you", by });
        break;
      default:
        break;
    }
  }
  return out;
}

/** A notice in the interface's language; ``name(seat)`` names a seat. */
export function noticeText(n, name) {
  const who = n.by != null ? name(n.by) : "";
  const character = n.character ? cardName(n.character) : "";
  const district = n.district ? cardName(n.district) : "";
  switch (n.kind) {
    case "murdered":
      return t("notice_murdered", { name: who, character });
    case "rob":
      return t("notice_rob", { name: who, character });
    case "robbed":
      return t("notice_robbed", { name: who, n: n.n });
    case "bewitched":
      return t("notice_bewitched", { name: who, character });
    case "destroyed":
      return t("notice_destroyed", { name: who, district });
    case "seized":
      return t("notice_seized", { name: who, district });
    case "confiscated":
      return t("notice_confiscated", { name: who, district });
    case "exchanged_district":
      return t("notice_exchanged_district", { name: who, give: cardName(n.give), take: cardName(n.take) });
    case "exchanged_hands":
      return t("notice_exchanged_hands", { name: who, n: n.n });
    case "card_taken":
      return district ? t("notice_card_taken", { name: who, district }) : t("notice_a_card_taken", { name: who });
    case "gold_taken":
      return t("notice_robbed", { name: who, n: n.n });
    case "spied":
      return t("notice_spied", { name: who, n: n.n });
    case "hand_seen":
      return t("notice_hand_seen", { name: who });
    case "crown_to_you":
      return who ? t("notice_crown_to_you", { name: who }) : t("notice_crown_yours");
    case "crown_from_you":
      return t("notice_crown_from_you", { name: who });
    default:
      return "";
  }
}

/** Which notices are bad news (drawn in red): the rest are news (the crown, a look). */
function harmful(kind) {
  return !["crown_to_you", "crown_from_you", "hand_seen"].includes(kind);
}

/**
 * What the other seats did since ``before`` (the view after the player's last move), from the
 * ``events`` logged since: per seat, the gold won or lost and the districts built. Data only.
 */
export function sinceSummary(before, after, events, me) {
  if (!before || !after) return [];
  const lines = [];
  for (const p of after.players) {
    if (p.seat === me) continue;
    const old = before.players.find((q) => q.seat === p.seat);
    if (!old) continue;
    const built = (events || []).filter((e) => e && e.kind === "build" && e.seat === p.seat).map((e) => e.district);
    const gold = p.gold - old.gold;
    if (gold || built.length) lines.push({ seat: p.seat, gold, built });
  }
  return lines;
}

function summaryLine(line, name) {
  const parts = [];
  if (line.gold > 0) parts.push(t("since_gold_up", { n: line.gold }));
  if (line.gold < 0) parts.push(t("since_gold_down", { n: -line.gold }));
  if (line.built.length) {
    const names = new Intl.ListFormat(language(), { type: "conjunction" }).format(line.built.map(cardName));
    parts.push(t("since_built", { districts: names }));
  }
  return t("since_line", { name: name(line.seat), what: parts.join(t("list_sep")) });
}

/** The summary's lines as text (for the live region). */
export function summaryTexts(lines, name) {
  return lines.map((line) => summaryLine(line, name));
}

/**
 * The notice box: the notices of ``game.notices`` and, on the player's turn, the summary of
 * ``game.since``. ``name(seat)`` names a seat; ``onDismiss`` hides the box.
 */
export function noticeBox(game, name, onDismiss) {
  // The newest few: the box stays short (the live region said each one as it came).
  const notices = (game.notices || []).slice(-4);
  const summary = game.myTurn ? game.since || [] : [];
  if (!notices.length && !summary.length) return null;
  return h(
    "section.notices",
    { "aria-labelledby": "notices-title", "data-count": notices.length },
    h("h2.notices-title", { id: "notices-title" }, game.myTurn ? t("since_title") : t("notices_title")),
    notices.length
      ? h(
          "ul.notice-list",
          {},
          notices.map((n) => h("li.notice.k-" + n.kind + (harmful(n.kind) ? ".harm" : ""), { "data-kind": n.kind }, noticeText(n, name))),
        )
      : null,
    summary.length ? h("ul.since-list", {}, summary.map((line) => h("li", { "data-seat": line.seat }, summaryLine(line, name)))) : null,
    h("button.btn.small.ghost.notice-close", { type: "button", "data-key": "notices-close", onclick: onDismiss }, t("dismiss")),
  );
}

/** The live region for notices: each new batch is written as new paragraphs (so a repeated
 * notice is heard again); ``clearNotices`` empties it (a language switch, leaving the table). */
export function speakNotices(texts) {
  const el = document.getElementById("notice-live");
  if (!el || !texts.length) return;
  el.replaceChildren(...texts.filter(Boolean).map((text) => h("p", {}, text)));
}

export function clearNotices() {
  const el = document.getElementById("notice-live");
  if (el) el.replaceChildren();
}
