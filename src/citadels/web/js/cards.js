// Card tiles: districts and characters, drawn from the card texts the server sends
// (citadels.present.card_info). Colour is never shown alone: a symbol and a word go with it.

import { h, icon } from "./dom.js";
import { num, t } from "./strings.js";
import { characterEmblem, colourEmblem } from "./emblems.js";

let CARDS = {};

/** Remember the card texts of the current table ({id: info}). */
export function setCards(cards) {
  CARDS = { ...CARDS, ...(cards || {}) };
}

let RANKS = {};

/** Ranks of the characters in play (the view lists them by rank), used only when the server
 * sent no card texts. */
export function setRanks(charactersInPlay) {
  RANKS = {};
  (charactersInPlay || []).forEach((id, i) => (RANKS[id] = i + 1));
}

/** The card info of ``id`` (a fallback built from the id when the server sent none). */
export function info(id) {
  const known = CARDS[id];
  if (known) return known;
  const name = String(id).replace(/_/g, " ").replace(/\b\w/g, (c) => c.toUpperCase());
  if (id in RANKS) return { id, name, kind: "character", rank: RANKS[id], power: "" };
  return { id, name, kind: "district", power: "" };
}

export function cardName(id) {
  return info(id).name;
}

/** CSS class of a colour, whichever vocabulary (engine colours or present's words) it uses. */
export function colourClass(colour) {
  const map = {
    yellow: "noble", noble: "noble",
    blue: "religious", religious: "religious",
    green: "trade", trade: "trade",
    red: "military", military: "military",
    purple: "unique", unique: "unique",
  };
  return colour && map[colour] ? `c-${map[colour]}` : "c-none";
}

function colourBadge(card) {
  if (!card.colour) return null;
  const symbol = card.colour_symbol ?? card.symbol ?? "";
  const word = card.colour_word ?? card.word ?? card.colour;
  return h("span.band", {}, colourEmblem(colourClass(card.colour).slice(2)), h("span.sym", { "aria-hidden": "true" }, symbol), h("span.word", { style: { "--chars": longestWord(word) } }, word));
}

function describe(card) {
  const parts = [card.name];
  if (card.kind === "character" && card.rank != null) parts.push(t("rank_n", { n: card.rank }));
  if (card.colour) parts.push(card.colour_word ?? card.word ?? card.colour);
  if (card.cost != null) parts.push(t("cost_n", { n: card.cost }));
  return parts.join(", ");
}

/** The length of the longest word of ``text`` (at least 4), for the stylesheet's fitting. */
function longestWord(text) {
  return Math.max(4, ...String(text ?? "").split(/\s+/).map((w) => [...w].length));
}

/** A card's name. The stylesheet sizes it so that its longest word fits the card on one line
 * (--chars): a name is never cut inside a word, whatever the language. */
function nameLabel(name) {
  const longest = longestWord(name);
  return h(longest > 6 ? "span.name.long" : "span.name", { style: { "--chars": longest } }, name);
}

/** The hover text of a card: its name, rank or colour and cost, power and rulings (a tap or
 * Enter opens the same in the card dialog). */
export function tooltip(id) {
  const card = typeof id === "string" ? info(id) : id;
  return [describe(card), card.power, ...(card.rulings || [])].filter(Boolean).join("\n");
}

/** A district tile (a button that opens the card's text). */
export function districtTile(id, { size = "", extra = "", beautified = false, still = false, key = "" } = {}) {
  const card = info(id);
  const cls = `card.district.${colourClass(card.colour)}${size ? "." + size : ""}${extra ? "." + extra : ""}`;
  const label = describe(card) + (card.power ? ". " + card.power : "");
  return h(
    `${still ? "div" : "button"}.${cls}`,
    still
      ? { "data-card": id }
      : { type: "button", "data-card": id, "data-key": key || null, "aria-label": label, title: tooltip(card), onclick: () => showCard(id) },
    colourBadge(card),
    nameLabel(card.name),
    card.cost != null
      ? h("span.cost", { "aria-hidden": "true" }, icon("coin"), h("b", {}, num(card.cost + (beautified ? 1 : 0))))
      : null,
    card.power && size !== "mini" ? h("span.power", { "aria-hidden": "true" }, card.power) : null,
  );
}

/** A character card; ``big`` shows its power on the card itself. */
export function characterCard(id, { big = false, status = "", owner = "", extra = "" } = {}) {
  const card = info(id);
  const classes = ["card", "character", colourClass(card.colour)];
  if (big) classes.push("big");
  if (status) classes.push(`is-${status}`);
  if (extra) classes.push(extra);
  return h(
    "span." + classes.join("."),
    { "data-card": id },
    h("span.rank", { "aria-hidden": "true" }, num(card.rank ?? "")),
    characterEmblem(id),
    nameLabel(card.name),
    colourBadge(card),
    big && card.power ? h("span.power", {}, card.power) : null,
    status === "murdered" ? h("span.marker", { title: t("murdered") }, icon("skull"), h("span.sr", {}, t("murdered"))) : null,
    status === "robbed" ? h("span.marker", { title: t("robbed") }, icon("bag"), h("span.sr", {}, t("robbed"))) : null,
    owner ? h("span.owner", {}, owner) : null,
  );
}

/** A small chip naming a card, for action buttons. */
export function cardChip(id) {
  const card = info(id);
  return h(
    `span.chip.${colourClass(card.colour)}`,
    {},
    card.colour ? h("span.sym", { "aria-hidden": "true" }, card.colour_symbol ?? card.symbol ?? "") : null,
    card.kind === "character" && card.rank != null ? h("span.rk", { "aria-hidden": "true" }, num(card.rank)) : null,
    card.cost != null ? h("span.ct", { "aria-hidden": "true" }, num(card.cost)) : null,
  );
}

let dialog = null;

/** Open the card's text in a modal dialog (tap on a phone, click or Enter anywhere). */
export function showCard(id) {
  const card = info(id);
  if (!dialog) {
    dialog = h("dialog.card-dialog", { "aria-labelledby": "card-dialog-title" });
    dialog.addEventListener("click", (ev) => {
      if (ev.target === dialog) dialog.close();
    });
    document.body.appendChild(dialog);
  }
  const tile = card.kind === "character" ? characterCard(id, { big: true }) : districtTile(id, { size: "big", still: true });
  // replaceChildren would write a null child as the text "null": only real nodes go in.
  const parts = [
    h("h2", { id: "card-dialog-title" }, card.name),
    h("div.dialog-card", {}, tile),
    h("p.meta", {}, describe(card)),
    card.power ? h("p.power-text", {}, card.power) : null,
    card.rulings && card.rulings.length ? h("ul.rulings", {}, card.rulings.map((r) => h("li", {}, r))) : null,
    h("form", { method: "dialog" }, h("button.btn", { type: "submit", autofocus: true }, t("close"))),
  ];
  dialog.replaceChildren(...parts.filter((part) => part instanceof Node));
  dialog.showModal();
}
