// The game review in the replay (issue 27): every seat's estimated win chance drawn as a
// curve on the replay's timeline (an SVG made here), the reviewed seat's mistakes and key
// moments marked on the curve and in the log, and what the search would have played at the
// step shown. The server computes the review (GET /api/tables/{code}/review) from what the
// seat knew; these are a search's estimates, and the panel says so.

import { api, storedToken } from "./net.js";
import { h } from "./dom.js";
import { num, t } from "./strings.js";
import { nameTag } from "./table.js";

const SVG_NS = "http://www.w3.org/2000/svg";
// The drawing's own units: the SVG scales to the panel's width (its height is fixed in CSS).
const W = 1000;
const H = 200;
const PAD = 8;
const MARKED = new Set(["inaccuracy", "mistake", "blunder"]);

/** An SVG element with its attributes (never a style attribute: the page's CSP forbids it). */
function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) el.appendChild(child);
  return el;
}

/** The review of ``seat`` at table ``code``, worded in ``lang`` (the stored token, if any,
 * lets a player review their own seat of a game being played). */
export function fetchReview(code, seat, lang) {
  return api("GET", `/api/tables/${code}/review?seat=${seat}&lang=${encodeURIComponent(lang)}`, undefined, storedToken(code) || undefined);
}

/** A chance (0 to 1) as a whole percentage in this language; "—" where none was estimated. */
export function percent(chance) {
  if (typeof chance !== "number" || !Number.isFinite(chance)) return "—";
  return new Intl.NumberFormat(document.documentElement.lang || "en", { style: "percent", maximumFractionDigits: 0 }).format(chance);
}

/** Log marks for the reviewed seat's marked decisions: event index → its decision. A
 * decision's action made the events of the replay's frame ``move + 1``; the first of them
 * that has words carries the mark. */
export function logMarks(data, frames) {
  const marks = {};
  const keys = new Set(data.review.key_moments || []);
  for (const d of data.review.decisions) {
    if (!MARKED.has(d.label)) continue;
    const frame = frames[d.move + 1];
    const first = frame && (frame.events || []).find((e) => e && e.text);
    if (first) marks[first.n] = { ...d, key: keys.has(d.move) };
  }
  return marks;
}

const x = (move, steps) => PAD + ((W - 2 * PAD) * move) / Math.max(1, steps);
const y = (chance) => PAD + (H - 2 * PAD) * (1 - Math.max(0, Math.min(1, chance)));

/** The curves on the timeline: one per seat (the reviewed one drawn over the others), its
 * marked decisions as dots (key moments ringed), the step shown as a line. Pressing the
 * drawing goes to that step. */
function curve(data, at, go) {
  const { review, steps } = data;
  const bySeat = new Map();
  for (const p of review.curve) {
    if (!bySeat.has(p.seat)) bySeat.set(p.seat, []);
    bySeat.get(p.seat).push(p);
  }
  const seats = [...bySeat.keys()].sort((a, b) => (a === review.seat) - (b === review.seat) || a - b);
  const lines = seats.map((seat) =>
    svg("polyline", {
      class: `line s${seat % 8}${seat === review.seat ? " reviewed" : ""}`,
      points: bySeat.get(seat).map((p) => `${x(p.move, steps).toFixed(1)},${y(p.chance).toFixed(1)}`).join(" "),
      fill: "none",
      "vector-effect": "non-scaling-stroke",
    }),
  );
  const keys = new Set(review.key_moments || []);
  // A dot is a line of no length with round caps: its stroke does not scale, so it stays
  // round however the drawing is stretched to the panel's width.
  const dots = review.decisions
    .filter((d) => MARKED.has(d.label))
    .flatMap((d) => {
      const at = { x1: x(d.move, steps).toFixed(1), y1: y(d.chosen.chance).toFixed(1) };
      const dot = (cls) => svg("line", { class: cls, ...at, x2: at.x1, y2: at.y1, "vector-effect": "non-scaling-stroke" });
      return keys.has(d.move) ? [dot("dot ring"), dot(`dot ${d.label} key`)] : [dot(`dot ${d.label}`)];
    });
  const half = svg("line", { class: "grid", x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5), "vector-effect": "non-scaling-stroke" });
  const now = svg("line", { class: "now", x1: x(at, steps), x2: x(at, steps), y1: 0, y2: H, "vector-effect": "non-scaling-stroke" });
  return svg(
    "svg",
    {
      class: "curve",
      viewBox: `0 0 ${W} ${H}`,
      preserveAspectRatio: "none",
      role: "img",
      "aria-label": t("review_curve"),
      onclick: (ev) => {
        const box = ev.currentTarget.getBoundingClientRect();
        let share = (ev.clientX - box.left) / Math.max(1, box.width);
        if (document.dir === "rtl") share = 1 - share;
        go(Math.round(((share * W - PAD) / (W - 2 * PAD)) * steps));
      },
    },
    half,
    lines,
    dots,
    now,
  );
}

/** What the reviewed seat chose at the step shown (when a decision of theirs made it). */
function thisMove(data, at) {
  const d = data.review.decisions.find((dec) => dec.move + 1 === at);
  if (!d) return null;
  return h(
    "div.review-move",
    {},
    h("h3", {}, t("review_this_move"), " ", h(`span.label-tag.${d.label}`, {}, d.label_text)),
    h("p", {}, t("review_chosen", { action: d.chosen.text, chance: percent(d.chosen.chance) })),
    h(
      "ol.review-best",
      { "aria-label": t("review_best") },
      d.best.map((e) => h("li", {}, h("bdi", {}, e.text), " ", h("b", {}, percent(e.chance)))),
    ),
  );
}

/** The review panel of the replay: title, curves, counts, key moments, the step's decision. */
export function reviewPanel(data, { at, names, go, close, loading, error }) {
  if (loading || error) {
    return h(
      "section.review-panel",
      { "aria-label": t("review_game"), "aria-busy": loading ? "true" : null },
      error ? h("p.error", { role: "alert" }, error) : h("p.note", { role: "status" }, t("review_loading")),
      h("button.btn.small.ghost", { type: "button", "data-key": "review-close", onclick: close }, t("review_close")),
    );
  }
  const { review } = data;
  const labels = review.labels || {};
  const seats = [...new Set(review.curve.map((p) => p.seat))].sort((a, b) => a - b);
  const byMove = new Map(review.decisions.map((d) => [d.move, d]));
  return h(
    "section.review-panel",
    { "aria-labelledby": "review-title" },
    h(
      "header.review-head",
      {},
      h("h2", { id: "review-title" }, t("review_title", { name: names[review.seat] || "" })),
      h(
        "ul.review-counts",
        { "aria-label": t("review_counts") },
        ["inaccuracy", "mistake", "blunder"].map((label) => h(`li.${label}`, {}, h("span.swatch", { "aria-hidden": "true" }), `${labels[label] || label}: `, h("b", {}, num(review.counts[label] || 0)))),
      ),
      h("button.btn.small.ghost", { type: "button", "data-key": "review-close", onclick: close }, t("review_close")),
    ),
    h("div.curve-box", {}, curve(data, at, go)),
    h(
      "ul.curve-legend",
      { "aria-label": t("review_legend") },
      seats.map((seat) => h(`li.s${seat % 8}${seat === review.seat ? ".reviewed" : ""}`, {}, h("span.swatch", { "aria-hidden": "true" }), nameTag(names[seat] || "")),
      ),
    ),
    h("p.review-note", {}, t("review_note")),
    h(
      "div.review-grid",
      {},
      h(
        "div.review-keys",
        {},
        h("h3", {}, t("review_key_moments")),
        h(
          "ol",
          {},
          (review.key_moment_texts || []).map((text, i) => {
            const move = (review.key_moments || [])[i];
            const d = byMove.get(move);
            return h(
              "li",
              {},
              move === undefined
                ? text
                : h("button.link-btn", { type: "button", "data-key": `key-${move}`, "aria-current": at === move + 1 ? "step" : null, onclick: () => go(move + 1) }, d ? h(`span.label-tag.${d.label}`, {}, d.label_text) : null, " ", h("bdi", {}, text)),
            );
          }),
        ),
      ),
      thisMove(data, at),
    ),
  );
}
