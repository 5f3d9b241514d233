// The pace of the table: the server sends every move (a bot's too) as soon as it is played,
// and a round of bots lands in half a second. The pacer shows the other players' moves one by
// one, a readable delay apart, and shows the player's own moves (and snapshots) at once.
//
// The clock is injectable: a test installs ``window.citadelsClock`` ({setTimeout, clearTimeout})
// before the page loads and fires the pacer's timers itself, so nothing depends on wall time.

import { h, icon } from "./dom.js";
import { num, t } from "./strings.js";

const KEY = "citadels.pace";
const TABLE_KEY = (code) => `${KEY}.${String(code).toUpperCase().replace(/[^A-Z0-9]/g, "")}`;
/** The delays a person can choose between moves, in milliseconds (0: at once). */
export const PACES = [0, 500, 1000, 2000];
export const DEFAULT_PACE = 1000;

function read(key) {
  try {
    const raw = localStorage.getItem(key);
    const v = Number(raw);
    if (raw !== null && raw !== "" && Number.isInteger(v) && v >= 0 && v <= 10000) return v;
  } catch {
    /* private mode */
  }
  return null;
}

/** The delay this browser chose in general (localStorage ``citadels.pace``), else one second. */
export function storedPace() {
  return read(KEY) ?? DEFAULT_PACE;
}

/**
 * The delay at table ``code``: the one this browser chose at this table, else the host's
 * default for it (``table.pace``, set at creation), else this browser's general choice, else
 * one second. A browser overrides the host only at the table where it chose.
 */
export function paceFor(code, table) {
  const own = code ? read(TABLE_KEY(code)) : null;
  if (own !== null) return own;
  const host = table && Number.isInteger(table.pace) ? table.pace : null;
  return host ?? storedPace();
}

/** Remember ``ms`` as this browser's choice at table ``code`` and in general. */
export function storePace(ms, code = null) {
  try {
    localStorage.setItem(KEY, String(ms));
    if (code) localStorage.setItem(TABLE_KEY(code), String(ms));
  } catch {
    /* the choice lasts as long as the page */
  }
}

/** Whether the person asked for less motion (the pace stays; animations are off). */
export function reducedMotion() {
  return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
}

/** The clock the pacer waits on: a test's (window.citadelsClock) or the browser's timers. */
export function clock() {
  const injected = globalThis.citadelsClock;
  if (injected && typeof injected.setTimeout === "function") return injected;
  return { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id) };
}

/**
 * Messages shown one at a time. ``show(msg)`` draws one; ``delay()`` is the wait after a move
 * before the next one is shown. The first move after a quiet moment is shown at once.
 */
export class Pacer {
  constructor({ show, delay, onChange = () => {} }) {
    this.show = show;
    this.delay = delay;
    this.onChange = onChange;
    this.queue = [];
    this.timer = null;
  }

  /** How many moves are waiting to be shown. */
  get waiting() {
    return this.queue.length;
  }

  /** A move of another player: shown now if the table is quiet, else after the ones before. */
  push(msg) {
    const ms = this.delay();
    if (ms <= 0 && !this.queue.length) {
      this.show(msg);
      return;
    }
    this.queue.push(msg);
    if (this.timer === null) this._next();
    else this.onChange();
  }

  /** Show at once whatever waits (a snapshot, the player's own move, "skip to my turn"). */
  flush() {
    this._stop();
    const waiting = this.queue.splice(0);
    for (const msg of waiting) this.show(msg, { skipped: true });
    if (waiting.length) this.onChange();
  }

  /** Forget the queue without showing it (leaving the table). */
  stop() {
    this._stop();
    this.queue = [];
  }

  _stop() {
    if (this.timer !== null) clock().clearTimeout(this.timer);
    this.timer = null;
  }

  _next() {
    this.timer = null;
    const msg = this.queue.shift();
    if (!msg) {
      this.onChange();
      return;
    }
    this.show(msg);
    const ms = this.delay();
    // Even the last move waits its delay: a move arriving meanwhile is shown after it.
    this.timer = clock().setTimeout(() => this._next(), ms);
    this.onChange();
  }
}

/** The pace select for the top bar (behind its "more" button on a phone): the delay between
 * other players' moves. */
export function pacePicker({ pace, onPace }) {
  const label = (ms) => (ms === 0 ? t("pace_instant") : t("pace_seconds", { s: ms / 1000 }));
  return h(
    "label.pace-pick",
    { title: t("pace") },
    h("span.sr", {}, t("pace")),
    icon("hourglass"),
    h(
      "select",
      { "data-key": "pace", onchange: (ev) => onPace(Number(ev.target.value)) },
      // A host's pace outside the list is offered too, so the control shows what is used.
      (PACES.includes(pace) ? PACES : [...PACES, pace].sort((a, b) => a - b)).map((ms) => h("option", { value: ms, selected: ms === pace }, label(ms))),
    ),
  );
}

/** "Skip to my turn" for the top bar, while moves are waiting (in sight at every size: on a
 * phone its words are said, not shown, beside its icon and count). */
export function paceControls({ waiting, version, onSkip }) {
  return h(
    "span.pace",
    { "data-waiting": waiting, "data-shown-version": version },
    waiting
      ? h(
          "button.btn.small.skip-moves",
          { type: "button", "data-key": "skip-moves", title: t("skip_to_turn"), onclick: onSkip },
          icon("last"),
          h("span.skip-word", {}, t("skip_to_turn")),
          h("span.pace-count", {}, ` (${num(waiting)})`),
        )
      : null,
  );
}
