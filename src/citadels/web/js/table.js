// The game table: every seat's city, gold, hand size and revealed characters, the court of
// characters, your hand and characters, the legal actions, the move log and the chat.
// It only draws what the view from the server says; it never decides a rule.

import { characterCard, districtTile, cardChip, info, showCard, tooltip } from "./cards.js";
import { h, icon } from "./dom.js";
import { draftKey, keyLabel, menuGroups } from "./menu.js";
import { language, num, t } from "./strings.js";

/** Names as this language lists them ("Anna and Ben", "Анна и Бен"), each isolated. */
function nameList(names) {
  return new Intl.ListFormat(language(), { type: "conjunction" })
    .formatToParts(names)
    .map((part) => (part.type === "element" ? nameTag(part.value) : part.value));
}

/** The display name of ``seat`` at this table (a bot's in the interface's language). */
export function seatName(table, seat) {
  const entry = table && table.seats ? table.seats.find((s) => s.seat === seat) : null;
  // The level in lower case, as the server writes a bot's name in the log ("Bot 1 (medium)").
  if (entry && entry.kind === "bot" && entry.bot) return t("bot_name", { seat, level: t(`level_${entry.bot}`).toLocaleLowerCase(language()) });
  return (entry && entry.name) || t("seat_n", { n: seat + 1 });
}

/** A person's name as an isolated run of text (<bdi>), so a Latin name in a Persian sentence,
 * or a Persian name in an English one, never reorders the words around it. */
export function nameTag(name) {
  return h("bdi", {}, name);
}

/** Card ids named in an action's JSON (districts, characters, cards to give or keep). */
export function actionCards(action) {
  const ids = [];
  for (const [key, value] of Object.entries(action)) {
    if (key === "type") continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v === "string" && knownCard(v)) ids.push(v);
    }
  }
  return ids;
}

function knownCard(id) {
  const c = info(id);
  return c && c.kind && (c.rank != null || c.cost != null);
}

/** Whether ``you`` is the viewer's own seat: always at a live table; in a replay from a seat,
 * only when that seat is the one this browser played (``own``). */
export function isViewer(you) {
  return Boolean(you && !you.spectator && you.own !== false);
}

/** Whose turn it is, in words, from the view. */
export function turnText(view, table, you) {
  if (!view) return "";
  if (view.phase === "over") return t("final_scores");
  const seat = view.to_move;
  if (seat == null) return "";
  const mine = isViewer(you) && you.seat === seat;
  if (view.phase === "selection" && view.selection) {
    return mine ? t("draft") : t("draft_wait", { name: seatName(table, seat) });
  }
  const ch = view.turn && view.turn.seat === seat ? info(view.turn.character).name : "";
  if (mine) return ch ? t("your_turn_char", { character: ch }) : t("your_turn");
  return ch ? t("turn_of_char", { name: seatName(table, seat), character: ch }) : t("turn_of", { name: seatName(table, seat) });
}

function seatBadges(game, seat) {
  const { view, table } = game;
  const entry = table.seats.find((s) => s.seat === seat) || {};
  const out = [];
  if (view.crown === seat) out.push(h("span.badge.crown-badge", { title: t("crown") }, icon("crown"), h("span.sr", {}, t("has_crown"))));
  if (entry.kind === "bot") out.push(h("span.badge.bot-badge", { title: t("bot") }, icon("bot"), h("span.sr", {}, t("bot"))));
  if (entry.away) out.push(h("span.badge.away", {}, t("played_by_bot")));
  else if (entry.kind === "human" && !entry.connected) out.push(h("span.badge.away", {}, t("offline")));
  return out;
}

/** Whether ``key`` changed a moment ago (see app.js markFresh). */
function fresh(game, key) {
  return game.fresh && game.fresh[key] > Date.now();
}

function stats(game, player) {
  const view = game.view;
  return h(
    "div.stats",
    {},
    h("span.stat.gold" + (fresh(game, `gold-${player.seat}`) ? ".changed" : ""), { title: t("gold") }, icon("coin"), h("b", {}, num(player.gold)), h("span.sr", {}, " " + t("gold"))),
    h("span.stat.hand", { title: t("cards_n", { n: player.hand_size }) }, icon("cards"), h("b", {}, num(player.hand_size)), h("span.sr", {}, " " + t("cards_n", { n: player.hand_size }))),
    h(
      "span.stat.citysize" + (player.complete ? ".complete" : ""),
      { title: t("city_n", { n: player.city.length, m: view.complete_at }) },
      icon("city"),
      h("b", {}, `${num(player.city.length)}/${num(view.complete_at)}`),
      h("span.sr", {}, " " + t("city")),
    ),
  );
}

function cityRow(game, player, size, keyPrefix) {
  if (!player.city.length) return h("p.empty", {}, t("empty_city"));
  return h(
    "ul.city",
    { "aria-label": t("city") },
    player.city.map((id, i) =>
      h(
        "li" + (fresh(game, `city-${player.seat}-${i}`) ? ".built" : ""),
        {},
        districtTile(id, { size, beautified: (player.beautified || []).includes(id), key: `${keyPrefix}-city-${i}-${id}` }),
      ),
    ),
  );
}

function opponentPanel(game, player) {
  const { view, table } = game;
  const toMove = view.to_move === player.seat && view.phase !== "over";
  const name = seatName(table, player.seat);
  return h(
    "section.seat-panel" + (toMove ? ".to-move" : ""),
    { "aria-label": name, "data-seat": player.seat },
    h(
      "header",
      {},
      h("span.avatar", { "aria-hidden": "true" }, name.trim().charAt(0).toUpperCase()),
      h("h2.pname", {}, nameTag(name)),
      seatBadges(game, player.seat),
      stats(game, player),
    ),
    h(
      "div.ptable",
      {},
      player.characters.length
        ? h(
            "div.pchars",
            {},
            player.characters.map((c) =>
              h("button.court-btn", { type: "button", "aria-label": info(c).name, title: tooltip(c), "data-key": `p${player.seat}-${c}`, onclick: () => showCard(c) }, characterCard(c, { extra: "mini", status: charStatus(view, c) })),
            ),
          )
        : null,
      cityRow(game, player, "mini", `p${player.seat}`),
    ),
  );
}

function charStatus(view, id) {
  if (view.murdered === id) return "murdered";
  if (view.robbed === id) return "robbed";
  if (view.bewitched === id) return "bewitched";
  return "";
}

/** The court: every character in play with what is publicly known of it. */
function court(game) {
  const { view, table } = game;
  const known = new Set(view.known_facedown || []);
  const removed = new Set(view.faceup_removed || []);
  const current = view.turn ? view.turn.character : null;
  return h(
    "section.court",
    { "aria-label": t("the_court") },
    h("h2.sr", {}, t("the_court")),
    h(
      "ol.court-row",
      {},
      view.characters_in_play.map((id) => {
        let owner = "";
        let extra = "";
        if (removed.has(id)) {
          owner = t("removed");
          extra = "removed";
        } else if (id in (view.revealed || {})) {
          owner = seatName(table, view.revealed[id]);
          extra = "revealed";
        } else if (known.has(id)) {
          owner = t("known_facedown");
          extra = "seen";
        }
        if (id === current) extra += " current";
        const card = characterCard(id, { status: charStatus(view, id), owner, extra: ["court-card", ...extra.split(" ")].filter(Boolean).join(".") });
        return h(
          "li",
          {},
          h("button.court-btn", { type: "button", "aria-label": `${info(id).name}${owner ? " — " + owner : ""}`, title: tooltip(id), "data-key": `court-${id}`, onclick: () => showCard(id) }, card),
        );
      }),
    ),
    h(
      "div.court-meta",
      {},
      view.facedown_count ? h("span.facedown", {}, icon("facedown"), t("facedown_n", { n: view.facedown_count })) : null,
      h("span.deck", {}, icon("cards"), t("deck_n", { n: view.deck_size })),
    ),
  );
}

function myPanel(game, me) {
  const { view, table, you } = game;
  const name = seatName(table, you.seat);
  // "You" only on the viewer's own seat; a replay from another seat names that seat.
  const own = isViewer(you);
  return h(
    "section.my-panel" + (view.to_move === you.seat && view.phase !== "over" ? ".to-move" : "") + (own ? "" : ".other-seat"),
    { "aria-label": own ? t("you") + ": " + name : name },
    h(
      "header",
      {},
      h("span.avatar" + (own ? ".me" : ""), { "aria-hidden": "true" }, name.trim().charAt(0).toUpperCase()),
      h("h2.pname", {}, nameTag(name), own ? h("span.you-tag", {}, t("you")) : null),
      seatBadges(game, you.seat),
      stats(game, me),
    ),
    h(
      "div.my-grid",
      {},
      h(
        "div.my-chars",
        {},
        h("h3", {}, own ? t("your_characters") : t("seat_characters")),
        me.characters.length
          ? h("div.row", {}, me.characters.map((c) => h("button.court-btn", { type: "button", "aria-label": info(c).name, title: tooltip(c), "data-key": `mine-${c}`, onclick: () => showCard(c) }, characterCard(c, { status: charStatus(view, c) }))))
          : h("p.empty", {}, "—"),
      ),
      h("div.my-city", {}, h("h3", {}, t("city")), cityRow(game, me, "small", "me")),
      h(
        "div.my-hand",
        {},
        h("h3", {}, own ? t("hand") : t("seat_hand"), " ", h("span.count", {}, `(${num((me.hand || []).length)})`)),
        (me.hand || []).length
          ? h("ul.hand", { "aria-label": own ? t("hand") : t("seat_hand") }, me.hand.map((id, i) => h("li", { style: { "--i": i } }, districtTile(id, { size: "small", key: `hand-${i}-${id}`, extra: buildable(game, id) ? "buildable" : "" }))))
          : h("p.empty", {}, t("empty_hand")),
      ),
    ),
  );
}

function buildable(game, id) {
  return (game.legal || []).some((l) => l.action.type === "build" && l.action.district === id);
}

/** The legal actions: character cards in the draft, buttons otherwise. */
function actionsPanel(game, onAct, onHint) {
  const { view, legal, you } = game;
  const busy = game.busy;
  if (you.spectator) {
    return h("section.tray.spectator", { "aria-label": t("actions") }, h("p.tray-note", {}, icon("eye"), t("spectating")));
  }
  if (!legal || !legal.length) {
    return h(
      "section.tray.idle",
      { "aria-label": t("actions"), id: "actions", tabindex: "-1" },
      h("p.tray-note", {}, view.phase === "over" ? t("final_scores") : turnText(view, game.table, you)),
    );
  }
  const draft = legal.every((l) => l.action.type === "pick" || l.action.type === "put_aside");
  // menu.js groups the choices and numbers the keys; this draws one choice's button.
  const button = (l, i, { keynum, onclick }) => {
    const cards = actionCards(l.action);
    const tipId = `tip-${i}`;
    const power = cards.map((c) => info(c).power).filter(Boolean).join(" ");
    const attrs = {
      type: "button",
      "data-index": i,
      "data-key": `act-${i}-${JSON.stringify(l.action)}`,
      "data-action": l.action.type,
      "data-keynum": keynum,
      "aria-keyshortcuts": keynum ? String(keynum).toUpperCase() : null,
      disabled: busy,
      "aria-describedby": power && !draft ? tipId : null,
      onclick,
    };
    if (draft && l.action.character) {
      return h(
        "button.action.draft-pick",
        attrs,
        characterCard(l.action.character, { big: true, extra: "wide" }),
        h("span.action-label", {}, l.label),
      );
    }
    return h(
      "span.action-wrap",
      {},
      h(
        "button.action.btn" + (l.action.type === "end_turn" ? ".end" : ""),
        attrs,
        keynum ? h("kbd.key-hint", { "aria-hidden": "true" }, keyLabel(String(keynum))) : null,
        cards.slice(0, 2).map((c) => cardChip(c)),
        h("span.action-label", {}, l.label),
      ),
      power ? h("span.tip", { role: "tooltip", id: tipId }, power) : null,
    );
  };
  const buttons = draft
    ? legal.map((l, i) => button(l, i, { keynum: draftKey(l, (id) => info(id).rank), onclick: () => onAct(l.action) }))
    : menuGroups(legal, { me: you.seat, name: (seat) => seatName(game.table, seat), onAct, button, decision: game.version ?? null });
  const canHint = game.table && game.table.hints_allowed && onHint;
  return h(
    "section.tray" + (draft ? ".drafting" : "") + ".live" + (game.turnBegan && Date.now() - game.turnBegan < 500 ? ".arrive" : ""),
    { "aria-label": t("actions"), id: "actions", tabindex: "-1" },
    h(
      "div.tray-head",
      {},
      h("h2.tray-title", {}, icon("crown"), draft ? (legal[0].action.type === "put_aside" ? t("draft_put_aside") : t("draft")) : turnText(view, game.table, you)),
      canHint
        ? h("button.btn.small.hint-btn", { type: "button", "data-key": "hint", disabled: busy || Boolean(game.hint && game.hint.pending && game.hint.version === game.version), "aria-controls": "hint-box", onclick: onHint }, t("hint"))
        : null,
    ),
    canHint ? hintBox(game) : null,
    h("div.tray-actions" + (draft ? ".draft-row" : ""), {}, buttons),
  );
}

/** The hint's answer for this decision: the best few actions with their estimated chances. */
function hintBox(game) {
  const hint = game.hint && game.hint.version === game.version ? game.hint : null;
  if (!hint) return h("div.hint-box", { id: "hint-box", role: "status", hidden: true });
  if (hint.pending) return h("div.hint-box", { id: "hint-box", role: "status" }, t("hint_thinking"));
  const fmt = new Intl.NumberFormat(language(), { style: "percent", maximumFractionDigits: 0 });
  return h(
    "div.hint-box",
    { id: "hint-box", role: "status" },
    h("h3", {}, t("hint_title")),
    h(
      "ol",
      {},
      hint.best.map((e) => h("li", {}, h("bdi", {}, e.label), " ", h("b", {}, typeof e.chance === "number" ? fmt.format(e.chance) : "—"))),
    ),
    h("p.note", {}, t("review_note")),
  );
}

/** The time left before ``deadline`` (epoch ms): seconds under a minute and a half (a live
 * table's timer), else minutes, hours and days (a turn-based table's). */
export function timeLeft(deadline) {
  const secs = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  if (secs <= 90) return t("seconds_n", { n: secs });
  const mins = Math.ceil(secs / 60);
  if (mins < 60) return t("minutes_n", { n: mins });
  const hours = Math.floor(mins / 60);
  if (hours < 24) return [t("hours_n", { n: hours }), mins % 60 ? t("minutes_n", { n: mins % 60 }) : null].filter(Boolean).join(" ");
  return [t("days_n", { n: Math.floor(hours / 24) }), hours % 24 ? t("hours_n", { n: hours % 24 }) : null].filter(Boolean).join(" ");
}

/** The time left before the stand-in bot plays (a live table with a timer) or the turn runs
 * out (a turn-based table). */
export function deadlineNote(game) {
  if (!game.deadline) return null;
  const left = timeLeft(game.deadline);
  return h("span.deadline", { title: t("time_left", { time: left }) }, icon("hourglass"), h("span.secs", {}, left));
}

/** Chat text as text nodes, with table links (/t/CODE, e.g. a rematch) made clickable. */
function linkify(text) {
  return String(text)
    .split(/(\/t\/(?:[A-Za-z0-9]{4}-){3}[A-Za-z0-9]{4}|\/t\/[A-Za-z0-9]{6})\b/)
    .map((part, i) => (i % 2 ? h("a", { href: part }, part) : part));
}

/** The hints used at the table (a table with friends) and the turns whose timer ran out (a
 * turn-based table) as log lines, by the index of the event each follows. */
function hintLines(uses, timeouts, name) {
  const out = {};
  const add = (key, text) => (out[key] = out[key] || []).push(text);
  for (const u of uses || []) add(u.event_count - 1, u.kind === "review" ? t("review_used", { name: name(u.seat) }) : t("hint_used", { name: name(u.seat) }));
  for (const u of timeouts || []) add(u.event_count - 1, u.rule === "skip" ? t("timed_out_skip", { name: name(u.seat) }) : t("timed_out_stand_in", { name: name(u.seat) }));
  return out;
}

/** One log entry, with the review's mark when a reviewed decision made it (review.js). */
function logItem(e, mark) {
  const cls = "li.ev.k-" + e.kind + (e.kind === "round" ? ".round" : "") + (mark ? `.marked.${mark.label}${mark.key ? ".key" : ""}` : "");
  if (!mark) return h(cls, {}, e.text);
  return h(cls, { "data-move": mark.move }, h(`span.label-tag.${mark.label}`, {}, mark.label_text), " ", e.text, mark.key ? h("span.sr", {}, ` (${t("review_key")})`) : null);
}

/** The side panel: the move log and the chat, as tabs. */
function sidePanel(game, handlers) {
  const tab = game.sideTab || "log";
  const logItems = (game.events || []).filter((e) => e && e.text);
  const canChat = !game.you.spectator || (game.table && game.table.spectator_chat);
  const hints = hintLines(game.hintUses, game.timeouts, (seat) => seatName(game.table, seat));
  const marks = game.marks || {};
  const items = [];
  for (const key of Object.keys(hints)) if (Number(key) < 0) items.push(...hints[key].map((text) => h("li.ev.hint-used", {}, text)));
  for (const e of logItems.slice(-150)) {
    items.push(logItem(e, marks[e.n]));
    for (const text of hints[e.n] || []) items.push(h("li.ev.hint-used", {}, text));
  }
  const logList = h("ol.log", { "aria-label": t("log"), tabindex: "0" }, items);
  const chatList = h(
    "ol.chat",
    { "aria-label": t("chat"), tabindex: "0" },
    (game.chat || []).map((m) => h("li", {}, h("b", {}, nameTag(m.name || t("spectator_badge")), ": "), h("bdi", {}, linkify(m.text)))),
  );
  const form = canChat
    ? h(
        "form.chat-form",
        {
          onsubmit: (ev) => {
            ev.preventDefault();
            const input = ev.target.querySelector("input");
            const text = input.value.trim();
            if (text) handlers.onChat(text);
            input.value = "";
          },
        },
        h("label.sr", { for: "chat-input" }, t("say")),
        h("input", { id: "chat-input", "data-key": "chat-input", maxlength: 300, autocomplete: "off", placeholder: t("say"), value: game.chatDraft || "", oninput: (ev) => handlers.onChatDraft(ev.target.value) }),
        h("button.btn.small", { type: "submit", "data-key": "chat-send" }, t("send")),
      )
    : h("p.note", {}, t("chat_readonly"));
  return h(
    "aside.side",
    { "aria-label": `${t("log")} / ${t("chat")}` },
    h(
      "div.tabs",
      { role: "tablist" },
      ["log", "chat"].map((name) =>
        h(
          "button.tab",
          {
            type: "button",
            role: "tab",
            id: `tab-${name}`,
            "data-key": `tab-${name}`,
            "aria-selected": tab === name ? "true" : "false",
            "aria-controls": `panel-${name}`,
            onclick: () => handlers.onTab(name),
          },
          t(name),
          name === "chat" && game.unreadChat ? h("span.dot", { "aria-hidden": "true" }) : null,
        ),
      ),
    ),
    h("div.tabpanel", { id: "panel-log", role: "tabpanel", "aria-labelledby": "tab-log", hidden: tab !== "log" }, logList),
    h("div.tabpanel", { id: "panel-chat", role: "tabpanel", "aria-labelledby": "tab-chat", hidden: tab !== "chat" }, chatList, form),
  );
}

/** Turn the score tables' column titles upright where the table is wider than its box (the
 * numbers are narrow, the titles are not), and back when there is room. */
export function fitScoreTables() {
  for (const wrap of document.querySelectorAll(".scores .table-wrap")) {
    const table = wrap.querySelector(".score-table");
    if (!table) continue;
    table.classList.remove("upright");
    if (wrap.scrollWidth > wrap.clientWidth + 1) table.classList.add("upright");
  }
}
let fitting = false;

/** Final scores with the breakdown and the tie-break. */
export function scoresPanel(game, handlers) {
  const rows = game.scores || [];
  const result = game.result || {};
  const parts = [
    ["districts", "city"],
    ["colours", "colours"],
    ["first_complete", "first"],
    ["complete", "complete"],
    ["bonus", "bonus"],
  ];
  // The server's column titles (score_headers) name the ScoreLine fields from "name" on.
  const fields = ["name", "score", "city", "colours", "first", "complete", "bonus", "rank", "winner", "tiebreak", "gold"];
  const headers = {};
  (game.scoreHeaders || []).forEach((title, i) => (headers[fields[i]] = title));
  const value = (row, [key, alt]) => {
    if (row.breakdown && typeof row.breakdown === "object" && key in row.breakdown) return row.breakdown[key];
    if (alt in row) return row[alt];
    if (key in row) return row[key];
    const r = (result.seats || []).find((s) => s.seat === row.seat);
    return r && r.breakdown ? r.breakdown[key] : "";
  };
  const tie = rows.some((r) => r.tiebreak);
  // Measured once the panel is in the page (before it is painted), and again on a resize.
  queueMicrotask(fitScoreTables);
  requestAnimationFrame(fitScoreTables);
  if (!fitting) {
    fitting = true;
    window.addEventListener("resize", fitScoreTables);
  }
  const winners = result.winners || rows.filter((r) => r.winner || r.rank === 1).map((r) => r.seat);
  return h(
    "section.scores",
    { "aria-labelledby": "scores-title", role: "dialog", "aria-modal": "false" },
    h("h2", { id: "scores-title" }, icon("crown"), t("final_scores")),
    h(
      "p.winner-line",
      {},
      (winners.length > 1 ? t("winners") : t("winner")) + ": ",
      h("strong", {}, nameList(winners.map((s) => seatName(game.table, s)))),
    ),
    h(
      "div.table-wrap",
      {},
      h(
        "table.score-table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th.rank-col.part", { scope: "col" }, h("span", {}, headers.rank || t("rank"))),
            h("th", { scope: "col" }, headers.name || t("player")),
            // The score stands beside the name, so a narrow screen shows it before its parts.
            h("th", { scope: "col" }, headers.score || t("total")),
            // The parts' titles turn upright on a phone (css: .part), so the table fits its width.
            parts.map(([key, alt]) => h("th.part", { scope: "col", title: t(`legend_${key}`) }, h("span", {}, headers[alt] || t(`score_${key}`)))),
            tie ? h("th.part.tie-col", { scope: "col" }, h("span", {}, headers.tiebreak || t("tiebreak"))) : null,
          ),
        ),
        h(
          "tbody",
          {},
          rows.map((row) =>
            h(
              "tr" + (winners.includes(row.seat) ? ".win" : ""),
              {},
              h("td.rank-col", {}, num(row.rank ?? "")),
              // How a tie was broken also sits under the name, shown there when the table has
              // no room for its own column (.upright).
              h(
                "th",
                { scope: "row" },
                nameTag(row.name || seatName(game.table, row.seat)),
                tie && row.tiebreak ? h("small.tie-note", {}, `${headers.tiebreak || t("tiebreak")}: ${row.tiebreak}`) : null,
              ),
              h("td.total", {}, h("strong", {}, num(row.score))),
              parts.map((p) => h("td", {}, num(value(row, p)))),
              tie ? h("td.tie-col", {}, row.tiebreak || "") : null,
            ),
          ),
        ),
      ),
    ),
    // What each column counts, under the same names as the columns' titles.
    h(
      "dl.score-legend",
      { "aria-label": t("score_legend") },
      parts.map(([key, alt]) => h("div", {}, h("dt", {}, headers[alt] || t(`score_${key}`)), h("dd", {}, t(`legend_${key}`)))),
    ),
    h(
      "div.score-buttons",
      {},
      game.replay ? null : h("button.btn.primary", { type: "button", "data-key": "rematch", onclick: handlers.onRematch }, t("rematch")),
      game.replay ? null : h("a.btn", { href: `/replay/${game.code}`, "data-key": "replay-link" }, t("watch_replay")),
      game.replay
        ? handlers.onReview
          ? h("button.btn", { type: "button", "data-key": "review-game", onclick: handlers.onReview }, t("review_game"))
          : null
        : h("a.btn", { href: `/replay/${game.code}?review=1`, "data-key": "review-game" }, t("review_game")),
      h("a.btn", { href: "/", "data-key": "lobby-link" }, t("new_table")),
      h("button.btn.ghost", { type: "button", "data-key": "scores-close", onclick: () => handlers.onScores(false) }, t("back_to_table")),
    ),
  );
}

/** The whole table screen for ``game`` (see app.js for its fields). */
export function tableScreen(game, handlers) {
  const { view, you } = game;
  const players = view.players;
  const me = you.spectator ? null : players.find((p) => p.seat === you.seat);
  // Opponents in turn order after you, so the table reads like sitting round it.
  const start = me ? me.seat : 0;
  const others = players
    .filter((p) => !me || p.seat !== me.seat)
    .sort((a, b) => ((a.seat - start + players.length) % players.length) - ((b.seat - start + players.length) % players.length));
  const over = view.phase === "over";
  return h(
    "div.table-screen" + (you.spectator ? ".spectating" : "") + (over ? ".over" : ""),
    {},
    h(
      "div.board",
      {},
      h("div.opponents", { style: { "--n": others.length } }, others.map((p) => opponentPanel(game, p))),
      court(game),
    ),
    me ? myPanel(game, me) : null,
    sidePanel(game, handlers),
    over
      ? h(
          "section.tray.over",
          { "aria-label": t("final_scores"), id: "actions", tabindex: "-1" },
          h("button.btn.primary", { type: "button", "data-key": "scores-open", onclick: () => handlers.onScores(true) }, icon("crown"), t("final_scores")),
          game.replay ? null : h("button.btn", { type: "button", "data-key": "rematch-tray", onclick: handlers.onRematch }, t("rematch")),
        )
      : actionsPanel(game, handlers.onAct, handlers.onHint),
    over && game.scores && !game.scoresHidden ? h("div.scores-overlay", {}, scoresPanel(game, handlers)) : null,
    game.turnBegan && Date.now() - game.turnBegan < 300 && !over
      ? h("div.turn-banner", { "aria-hidden": "true" }, icon("crown"), t("your_turn"))
      : null,
  );
}
