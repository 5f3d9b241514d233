// The legal actions as a menu that reads like the game. The server sends them in menu order
// with their menu fields (citadels/present/menu.py: label, target, ends_turn, harms_self): the
// choices aimed at nobody, one group per target seat (the others in the order of play, the
// player's own seat last), ending the turn last. Here:
//
// - each target seat's choices sit under that seat's name; the player's own seat is folded
//   away (destroying one's own district is legal, and rarely wanted);
// - a choice that ends the turn says so on its button;
// - a choice that harms the player's own city asks first;
// - every button shows its key, and the key presses the button that shows it (in the draft the
//   number printed on the card, its rank: 2 takes the rank 2 character, whatever its place).
//   The keys run 1–9, then 0, then the letters A–Z (36 in all; a longer menu's later choices
//   are clicked). The visible choices take the first keys in the order shown, the player's
//   folded own city the keys after them: its buttons show their keys once unfolded, and a key
//   answers only a button that is in view, so no key ever plays a choice the player cannot see.

import { h } from "./dom.js";
import { groupToggled } from "./layout.js";
import { num, t } from "./strings.js";

/** The keys of a turn's menu, in the order they are given out. */
export const MENU_KEYS = [..."1234567890", ..."abcdefghijklmnopqrstuvwxyz"];

/** The key a key press names: a digit (Latin, Persian or Arabic-Indic, or the digit key by
 * its place) or a letter by its place on the keyboard (ev.code "KeyQ" is "q" under any
 * layout), else null. */
export function keyOf(ev) {
  for (const digits of ["0123456789", "۰۱۲۳۴۵۶۷۸۹", "٠١٢٣٤٥٦٧٨٩"]) {
    const n = digits.indexOf(ev.key);
    if (n >= 0 && ev.key.length === 1) return String(n);
  }
  // A layout whose digits need Shift (AZERTY) still names the digit key by its place.
  const digit = /^(?:Digit|Numpad)([0-9])$/.exec(ev.code || "");
  if (digit) return digit[1];
  const m = /^Key([A-Z])$/.exec(ev.code || "");
  return m ? m[1].toLowerCase() : null;
}

/** The key as the button shows it: digits in the page's numerals, letters in capitals. */
export function keyLabel(key) {
  return /^[0-9]$/.test(key) ? num(Number(key)) : key.toUpperCase();
}

/** The key number a draft choice answers to: the rank printed on its card. */
export function draftKey(entry, rankOf) {
  const id = entry.action.character;
  const rank = id ? rankOf(id) : null;
  return Number.isInteger(rank) && rank >= 1 && rank <= 9 ? rank : null;
}

let confirmDialog = null;

/** The decision whose own-city group the player unfolded: a redraw during that decision (a
 * chat line, a hint, the notices dismissed) keeps it unfolded. */
let unfoldedFor = null;

/** Ask before an action that harms the player's own city; ``yes`` plays it. */
export function confirmSelfHarm(label, yes) {
  if (!confirmDialog) {
    confirmDialog = h("dialog.confirm-dialog", { "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" });
    document.body.appendChild(confirmDialog);
  }
  const dialog = confirmDialog;
  const close = () => dialog.open && dialog.close();
  dialog.replaceChildren(
    h("h2", { id: "confirm-title" }, t("confirm_title")),
    h("p", { id: "confirm-text" }, t("confirm_self_harm", { action: label })),
    h(
      "div.confirm-buttons",
      {},
      h("button.btn", { type: "button", "data-key": "confirm-no", autofocus: true, onclick: close }, t("confirm_no")),
      h(
        "button.btn.danger",
        {
          type: "button",
          "data-key": "confirm-yes",
          onclick: () => {
            close();
            yes();
          },
        },
        t("confirm_yes"),
      ),
    ),
  );
  dialog.showModal();
}

/**
 * The buttons of a turn's menu (not the draft), grouped. ``button(entry, index)`` draws one
 * choice's button (table.js: chips, label, tooltip); it gets back ``{keynum, onclick}`` to use.
 * ``me`` is the player's seat, ``name(seat)`` a seat's name, ``onAct(action)`` plays;
 * ``decision`` names this decision (the game's version), to keep an unfolded group unfolded.
 */
export function menuGroups(legal, { me, name, onAct, button, decision = null }) {
  const play = (entry) => (entry.harms_self ? confirmSelfHarm(entry.label, () => onAct(entry.action)) : onAct(entry.action));
  // Keys in the order shown, the folded own city's after every other (see the top).
  const order = legal.map((entry, i) => i);
  const rank = (i) => (legal[i].target === me && legal[i].action.type !== "end_turn" ? 1 : 0);
  order.sort((a, b) => rank(a) - rank(b) || a - b);
  const keys = new Map(order.map((i, n) => [i, n < MENU_KEYS.length ? MENU_KEYS[n] : null]));
  const draw = (entry, i) => {
    const el = button(entry, i, { keynum: keys.get(i), onclick: () => play(entry) });
    if (entry.ends_turn && entry.action.type !== "end_turn") {
      const btn = el.matches("button") ? el : el.querySelector("button");
      if (btn) btn.appendChild(h("span.ends-tag", {}, t("ends_turn")));
    }
    if (entry.harms_self) {
      const btn = el.matches("button") ? el : el.querySelector("button");
      if (btn) btn.classList.add("harms-self");
    }
    return el;
  };
  const loose = [];
  const groups = new Map();
  const last = [];
  legal.forEach((entry, i) => {
    if (entry.action.type === "end_turn") last.push(draw(entry, i));
    else if (entry.target == null) loose.push(draw(entry, i));
    else {
      if (!groups.has(entry.target)) groups.set(entry.target, []);
      groups.get(entry.target).push(draw(entry, i));
    }
  });
  const out = [...loose];
  for (const [seat, buttons] of groups) {
    const id = `menu-group-${seat}`;
    if (seat === me) {
      out.push(
        h(
          "details.menu-group.own",
          {
            "data-target": seat,
            open: decision !== null && unfoldedFor === decision,
            ontoggle: (ev) => {
              const el = ev.currentTarget;
              // A group drawn unfolded again (a redraw) toggles too: only the player's own
              // opening brings it into sight.
              const again = el.open && unfoldedFor === decision && decision !== null;
              if (!again) unfoldedFor = el.open ? decision : null;
              groupToggled(el, { reveal: !again });
            },
          },
          h("summary", { "data-key": "menu-own" }, t("menu_own_city"), h("span.count", {}, ` (${num(buttons.length)})`)),
          h("div.menu-group-actions", {}, buttons),
        ),
      );
    } else {
      out.push(
        h(
          "div.menu-group",
          { role: "group", "aria-labelledby": id, "data-target": seat },
          h("h3.menu-group-title", { id }, h("bdi", {}, name(seat))),
          h("div.menu-group-actions", {}, buttons),
        ),
      );
    }
  }
  out.push(...last);
  return out;
}

/** Press the menu button that shows the key ``key`` in ``root`` (answers whether one did).
 * A button folded away shows no key and answers none until its group is unfolded. */
export function pressKey(root, key) {
  const btn = [...root.querySelectorAll(`.tray [data-keynum="${CSS.escape(String(key))}"]:not([disabled])`)].find(
    (b) => !b.closest("details:not([open])"),
  );
  if (!btn) return false;
  btn.click();
  return true;
}
