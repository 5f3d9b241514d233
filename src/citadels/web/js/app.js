// The client's entry point: a small router (lobby, table, replay) and the table controller that
// keeps the state the server sends (snapshot + updates, protocol 1) and draws it.

import { api, forgetToken, storedName, storedToken, storeName, storeToken, TableSocket } from "./net.js";
import { h, icon, render } from "./dom.js";
import { setRanks } from "./cards.js";
import { loadCards, lobbyScreen } from "./lobby.js";
import { deadlineNote, nameTag, seatName, tableScreen, timeLeft, turnText } from "./table.js";
import { chime, setSoundEnabled, soundEnabled } from "./sound.js";
import { errorText, language, LANGUAGES, preferredLanguage, setLanguage, t } from "./strings.js";
import { replayScreen } from "./replay.js";
import { leaderboardScreen, meScreen, profileScreen } from "./account.js";
import { bringTurnIntoReach, fitTray, watchLayout } from "./layout.js";
import { Pacer, paceControls, paceFor, pacePicker, storePace } from "./pace.js";
import { clearNotices, noticeBox, noticesFor, noticeText, sinceSummary, speakNotices, summaryTexts } from "./notices.js";
import { keyOf, pressKey } from "./menu.js";
import { animateChange, markCalled } from "./motion.js";

const root = document.getElementById("app");
// How long a move may wait for the server's answer before the client asks for the state again.
const BUSY_RESYNC_MS = 5000;
// How long a held press keeps the table from being drawn again (tablePage, "held").
const HOLD_MS = 1500;
let teardown = () => {};
// What the current screen does when the person picks another language (null: draw it anew).
let onLanguage = null;

await setLanguage(preferredLanguage());

/** Switch the interface to ``lang`` at any time: remember it, and redraw the screen in it (a
 * table keeps its state and asks the server for its texts in the new language). */
async function changeLanguage(lang) {
  await setLanguage(lang, { remember: true });
  document.title = t("app_title");
  if (onLanguage) onLanguage(language());
  else route();
}

/** The language switch: each language named in itself. */
export function languagePicker() {
  return h(
    "label.lang-pick",
    { title: t("language") },
    h("span.sr", {}, t("language")),
    icon("globe"),
    h(
      "select",
      { "data-key": "lang", onchange: (ev) => changeLanguage(ev.target.value) },
      Object.entries(LANGUAGES).map(([code, info]) =>
        h("option", { value: code, lang: code, dir: info.dir, selected: code === language() }, info.name),
      ),
    ),
  );
}

/** Tell screen readers something new (one persistent live region, outside the redrawn page). */
function announce(text) {
  const el = document.getElementById("announcer");
  if (el && text) el.textContent = text;
  else if (el && text === "") el.textContent = "";
}

/** Go to ``path`` inside the app (no page load). */
export function navigate(path, replace = false) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  route();
}

function route() {
  teardown();
  teardown = () => {};
  onLanguage = null;
  document.title = t("app_title");
  const path = location.pathname;
  let m;
  if ((m = path.match(/^\/t\/([A-Za-z0-9-]+)\/?$/))) {
    root.dataset.screen = "table";
    teardown = tablePage(m[1].toUpperCase());
  } else if ((m = path.match(/^\/replay\/([A-Za-z0-9-]+)\/?$/))) {
    root.dataset.screen = "replay";
    teardown = replayScreen(root, m[1].toUpperCase(), { navigate, lang: language(), languagePicker }) || (() => {});
  } else if (/^\/me\/?$/.test(path)) {
    root.dataset.screen = "account";
    teardown = meScreen(root, { navigate, languagePicker });
  } else if ((m = path.match(/^\/profile\/([^/]+)\/?$/))) {
    root.dataset.screen = "account";
    let name = m[1];
    try {
      name = decodeURIComponent(name);
    } catch {
      /* a malformed escape: the name as it is (the server answers not_found) */
    }
    teardown = profileScreen(root, name, { navigate, languagePicker });
  } else if (/^\/leaderboard\/?$/.test(path)) {
    root.dataset.screen = "account";
    teardown = leaderboardScreen(root, { navigate, languagePicker });
  } else {
    root.dataset.screen = "lobby";
    teardown = lobbyScreen(root, { navigate, lang: language(), languagePicker });
  }
}

window.addEventListener("popstate", route);
document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[href^='/']");
  if (!a || ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || a.target) return;
  ev.preventDefault();
  navigate(a.getAttribute("href"));
});

// The top bar is one line at every size: the brand, the round, whose turn it is, "skip to my
// turn" and the connection stay in it; below a 1280 px laptop the table code, the pace, the
// sound and the language are behind its "more" button (a disclosure: aria-expanded, Escape or
// a click elsewhere closes it). From 1280 px up the button is hidden and those controls sit in
// the bar itself.
// The panel drops below the bar without changing its height, so --topbar-h stays the bar's.
let moreOpen = false;

function setMore(open, { focusButton = false } = {}) {
  moreOpen = open;
  const btn = document.querySelector(".topbar .more-btn");
  const panel = document.getElementById("topbar-more");
  if (btn) btn.setAttribute("aria-expanded", open ? "true" : "false");
  if (panel) panel.classList.toggle("open", open);
  if (focusButton && btn) btn.focus();
}

document.addEventListener("keydown", (ev) => {
  if (ev.key === "Escape" && moreOpen) {
    const inside = document.activeElement && document.activeElement.closest && document.activeElement.closest("#topbar-more");
    setMore(false, { focusButton: Boolean(inside) });
  }
});
document.addEventListener("pointerdown", (ev) => {
  if (moreOpen && !(ev.target.closest && ev.target.closest("#topbar-more, .topbar .more-btn"))) setMore(false);
});

function topBar(game, extra = [], more = []) {
  const status = game.status;
  return h(
    "header.topbar.table-bar",
    {},
    h("a.brand", { href: "/", "aria-label": t("leave") }, icon("tower"), h("span", {}, t("app_title"))),
    extra,
    h("span.spacer"),
    status !== "open"
      ? h("span.conn." + status, { role: "status" }, status === "lost" ? t("reconnecting") : status === "connecting" ? t("connecting") : h("span.sr", {}, t("connected")))
      : null,
    h(
      "button.icon-btn.more-btn",
      {
        type: "button",
        "data-key": "more",
        "aria-expanded": moreOpen ? "true" : "false",
        "aria-controls": "topbar-more",
        "aria-label": t("more_controls"),
        title: t("more_controls"),
        onclick: () => setMore(!moreOpen),
      },
      icon("menu"),
    ),
    h(
      "div.topbar-more" + (moreOpen ? ".open" : ""),
      { id: "topbar-more" },
      h("span.code-tag", { title: t("table_code"), dir: "ltr" }, h("span.sr", {}, t("table_code"), " "), game.code),
      more,
      h(
        "button.icon-btn",
        {
          type: "button",
          "data-key": "sound",
          "aria-pressed": soundEnabled() ? "true" : "false",
          "aria-label": t("sound"),
          title: soundEnabled() ? t("sound_on") : t("sound_off"),
          onclick: () => {
            setSoundEnabled(!soundEnabled());
            game.redraw();
          },
        },
        icon(soundEnabled() ? "sound_on" : "sound_off"),
      ),
      languagePicker(),
    ),
  );
}

/** The waiting room: seats, invite link, host controls. */
function waitingRoom(game) {
  const { table, you } = game;
  const link = `${location.origin}/t/${table.code}`;
  const seated = you && !you.spectator;
  const isHost = seated && you.host;
  const full = table.seats.every((s) => s.kind !== "empty");
  const levels = Object.keys(game.botLevels || { medium: 1 });
  return h(
    "main.room",
    { id: "main" },
    h(
      "section.parchment.room-card",
      { "aria-labelledby": "room-title" },
      h("h1", { id: "room-title" }, t("waiting_room")),
      h(
        "p.room-sub",
        {},
        h("span", { "data-text": "server" }, (game.editionTitles && game.editionTitles[table.edition]) || table.edition_title || table.edition),
        ` · ${t("seats_count", { n: table.players })}`,
      ),
      h(
        "div.invite",
        {},
        h("h2", {}, icon("link"), t("invite")),
        h("p", {}, t("invite_help")),
        h(
          "div.inline",
          {},
          h("label.sr", { for: "invite-link" }, t("invite")),
          h("input", { id: "invite-link", readonly: true, dir: "ltr", value: link, onfocus: (ev) => ev.target.select() }),
          h(
            "button.btn",
            {
              type: "button",
              "data-key": "copy",
              onclick: async (ev) => {
                const btn = ev.currentTarget;
                try {
                  await navigator.clipboard.writeText(link);
                } catch {
                  const input = document.getElementById("invite-link");
                  input.select();
                  document.execCommand && document.execCommand("copy");
                }
                btn.textContent = t("copied");
              },
            },
            t("copy"),
          ),
        ),
        h("p.big-code", { "aria-label": t("table_code"), dir: "ltr" }, table.code),
      ),
      h(
        "ol.seats",
        { "aria-label": t("players") },
        table.seats.map((s) => {
          const mine = seated && s.seat === you.seat;
          return h(
            "li.seat." + s.kind + (mine ? ".mine" : ""),
            {},
            h("span.avatar", { "aria-hidden": "true" }, s.kind === "bot" ? icon("bot") : s.name ? s.name.charAt(0).toUpperCase() : ""),
            h(
              "span.seat-name",
              {},
              s.kind === "empty" ? t("empty_seat") : nameTag(seatName(table, s.seat)),
              s.seat === table.host ? h("span.tag", {}, t("host")) : null,
              mine ? h("span.tag.you", {}, t("you")) : null,
              s.kind === "human" && !s.connected ? h("span.tag.off", {}, t("offline")) : null,
            ),
            s.kind === "empty" && !seated
              ? h("button.btn.primary.small", { type: "button", "data-key": `sit-${s.seat}`, onclick: () => game.join(s.seat) }, t("take_seat"))
              : null,
            isHost && s.kind === "empty"
              ? h(
                  "span.bot-give",
                  {},
                  h("label.sr", { for: `lvl-${s.seat}` }, t("bot_level")),
                  h("select", { id: `lvl-${s.seat}`, "data-key": `lvl-${s.seat}` }, levels.map((l) => h("option", { value: l, selected: l === "medium" }, t(`level_${l}`)))),
                  h(
                    "button.btn.small",
                    { type: "button", "data-key": `bot-${s.seat}`, onclick: () => game.giveBot(s.seat, document.getElementById(`lvl-${s.seat}`).value) },
                    icon("bot"),
                    t("give_bot"),
                  ),
                )
              : null,
            isHost && s.kind === "bot"
              ? h(
                  "button.btn.small.ghost",
                  { type: "button", "data-key": `unbot-${s.seat}`, "aria-label": `${t("remove_bot")}: ${seatName(table, s.seat)}`, onclick: () => game.giveBot(s.seat, null) },
                  t("remove_bot"),
                )
              : null,
          );
        }),
      ),
      !seated
        ? h(
            "div.field.sit-name",
            {},
            h("label", { for: "sit-name" }, t("your_name")),
            h("input", {
              id: "sit-name",
              "data-key": "sit-name",
              value: game.nameDraft ?? storedName(),
              maxlength: 24,
              placeholder: t("name_placeholder"),
              autocomplete: "nickname",
              oninput: (ev) => (game.nameDraft = ev.target.value),
            }),
          )
        : null,
      game.error ? h("p.error", { role: "alert" }, game.error) : null,
      isHost
        ? h(
            "div.room-actions",
            {},
            !full ? h("p.note", {}, t("need_full")) : null,
            h("button.btn.primary.big", { type: "button", "data-key": "start", disabled: !full, onclick: () => game.start() }, t("start_game")),
          )
        : h("p.note.wait", { role: "status" }, seated ? t("waiting_for_host") : t("sit_down")),
    ),
  );
}

/** The page of one table: connect, keep the state, draw the room or the game. */
function tablePage(code) {
  const game = {
    code,
    status: "connecting",
    table: null,
    you: null,
    view: null,
    legal: [],
    events: [],
    eventCount: 0,
    chat: [],
    result: null,
    scores: null,
    deadline: null,
    version: 0,
    busy: false,
    sideTab: "log",
    unreadChat: false,
    error: "",
    botLevels: null,
    nameDraft: null,
    wasMyTurn: false,
    cardsFor: null,
    fresh: {},
    // The pace of other players' moves (pace.js: this browser's choice at this table, else
    // the host's), what happened to you (notices.js).
    skipping: false,
    notices: [],
    since: [],
    sinceView: null,
    sinceN: 0,
    myTurn: false,
    // The hints used at this table (a table with friends), and this seat's last hint.
    hintUses: [],
    hint: null,
    // The turns whose timer ran out (a turn-based table), shown in the log.
    timeouts: [],
  };
  let socket = null;
  let actId = 0;
  let tick = null;

  const token = () => storedToken(code);

  function connect() {
    if (socket) socket.close();
    socket = new TableSocket(code, {
      token: token(),
      lang: language(),
      since: () => game.eventCount,
      onMessage,
      onStatus: (s, closeCode) => {
        game.status = s;
        if (s === "refused") {
          if (closeCode === 4404) game.error = t("table_not_found");
          else if (closeCode === 4401) {
            // A token this table does not know: forget it and watch instead.
            try {
              forgetToken(code);
            } catch {
              /* ignore */
            }
            connect();
            return;
          }
        }
        draw();
      },
    });
  }

  // What just changed (a district built, gold gained or lost), for a short highlight.
  function markFresh(before, after) {
    if (!before || !after) return;
    const until = Date.now() + 900;
    for (const p of after.players) {
      const old = before.players.find((q) => q.seat === p.seat);
      if (!old) continue;
      for (let i = old.city.length; i < p.city.length; i++) game.fresh[`city-${p.seat}-${i}`] = until;
      if (old.gold !== p.gold) game.fresh[`gold-${p.seat}`] = until;
    }
  }

  function accept(msg) {
    if ("table" in msg && msg.table) game.table = msg.table;
    if ("view" in msg && msg.type === "update") markFresh(game.view, msg.view);
    if ("view" in msg) game.view = msg.view;
    if (game.view) setRanks(game.view.characters_in_play);
    if ("legal" in msg) game.legal = msg.legal || [];
    if ("version" in msg) game.version = msg.version;
    if ("deadline" in msg) game.deadline = msg.deadline;
    if (msg.result) game.result = msg.result;
    if (msg.scores) game.scores = msg.scores;
    if (msg.score_headers) game.scoreHeaders = msg.score_headers;
    for (const ev of msg.events || []) game.events[ev.n] = ev;
    // An update's count was taken when it arrived (the pacer may show it later).
    if ("event_count" in msg && msg.type !== "update") game.eventCount = msg.event_count;
  }

  const mySeat = () => (game.you && !game.you.spectator ? game.you.seat : null);
  let moved = null;

  /** Show one update: the state after it, what it did to you, the summary when your turn comes. */
  function showUpdate(msg) {
    const before = game.view;
    const me = mySeat();
    accept(msg);
    announce((msg.events || []).map((e) => e.text).filter(Boolean).slice(-3).join(" "));
    if (me != null && msg.by === me) {
      // Your own move: what you were told before it is read.
      clearNotices();
      game.notices = [];
      game.since = [];
      game.sinceView = game.view;
      game.sinceN = msg.event_count;
    }
    const name = (seat) => seatName(game.table, seat);
    const fresh = noticesFor(msg.events, game.view, me);
    // What this move did to you, then (when your turn comes with it) the summary: said at once.
    const said = fresh.map((n) => noticeText(n, name));
    if (fresh.length) game.notices = [...game.notices, ...fresh].slice(-8);
    const mine = game.legal && game.legal.length > 0;
    if (mine && !game.myTurn) {
      game.skipping = false;
      game.since = sinceSummary(game.sinceView, game.view, game.events.slice(game.sinceN), me);
      if (game.since.length) said.push(t("since_title"), ...summaryTexts(game.since, name));
    }
    speakNotices(said);
    game.myTurn = mine;
    moved = before;
    draw();
  }

  const pacer = new Pacer({
    show: (msg) => showUpdate(msg),
    delay: () => (game.skipping ? 0 : paceFor(code, game.table)),
    onChange: () => {
      if (!pacer.waiting && mySeat() == null) game.skipping = false;
      draw();
    },
  });
  game.pacer = pacer;

  async function ensureCards() {
    if (game.table && game.cardsFor !== game.table.edition) {
      game.cardsFor = game.table.edition;
      await loadCards(game.table.edition, language());
      draw();
    }
  }

  function onMessage(msg) {
    switch (msg.type) {
      case "snapshot":
        game.you = msg.you;
        // Whatever still waits to be shown is older than this snapshot.
        pacer.flush();
        // A snapshot redraws the page (a reconnection's banner may have moved the tray): a
        // decision already shown comes back into sight if it is now hidden.
        game.reachedVersion = null;
        if (msg.events && msg.events.length && msg.events[0].n === 0) game.events = [];
        accept(msg);
        game.chat = msg.chat || [];
        game.hintUses = msg.hints_used || [];
        game.timeouts = msg.timeouts || [];
        game.busy = false;
        game.myTurn = game.legal.length > 0;
        if (!game.sinceView) {
          game.sinceView = game.view;
          game.sinceN = game.eventCount;
        }
        ensureCards();
        break;
      case "update": {
        const first = msg.event_count - (msg.events || []).length;
        if (first !== game.eventCount) {
          socket.send({ type: "sync", since: game.eventCount });
          return;
        }
        game.eventCount = msg.event_count;
        // Any new state settles a pending click: it was this action, or it is now stale.
        game.busy = false;
        // Your own move (and what waited before it) is shown at once; the others' at the pace.
        if (msg.ack || (mySeat() != null && msg.by === mySeat())) {
          pacer.flush();
          showUpdate(msg);
        } else pacer.push(msg);
        return;
      }
      case "hint":
        // Only the answer for the decision still on the table is shown.
        if (msg.version === game.version) game.hint = { version: msg.version, best: msg.best || [] };
        break;
      case "hint_used":
        if (!game.hintUses.some((u) => u.id === msg.id)) game.hintUses = [...game.hintUses, msg];
        break;
      case "timed_out":
        if (!game.timeouts.some((u) => u.id === msg.id)) game.timeouts = [...game.timeouts, msg];
        break;
      case "game_over":
        game.result = msg.result;
        game.scores = msg.scores;
        if (msg.score_headers) game.scoreHeaders = msg.score_headers;
        break;
      case "table":
        game.table = msg.table;
        // A deadline set between two updates (a mover who reconnects) comes with the table.
        if ("deadline" in msg) game.deadline = msg.deadline;
        if (game.you && !game.you.spectator && msg.table.host === game.you.seat) game.you.host = true;
        ensureCards();
        break;
      case "chat":
        if (game.awaitChat && msg.text === game.awaitChat.text) game.awaitChat.resolve();
        game.chat = [...game.chat.slice(-99), msg];
        announce(`${msg.name || t("spectator_badge")}: ${msg.text}`);
        if (game.sideTab !== "chat") game.unreadChat = true;
        break;
      case "error":
        game.busy = false;
        if (game.hint && game.hint.pending && String(msg.ref || "").startsWith("h")) game.hint = null;
        game.error = errorText(msg);
        if (msg.code === "stale_version" || msg.code === "not_your_turn") socket.send({ type: "sync", since: game.eventCount });
        clearTimeout(game.errorTimer);
        game.errorTimer = setTimeout(() => {
          game.error = "";
          draw();
        }, 6000);
        break;
      default:
        return;
    }
    draw();
  }

  function act(action) {
    if (game.busy) return;
    game.busy = true;
    actId += 1;
    socket.send({ type: "act", action, version: game.version, id: `a${actId}` });
    // The answer can be lost with a connection that drops at that very moment: rather than
    // leave the buttons disabled for ever, ask for the state again (a snapshot settles it).
    clearTimeout(game.busyTimer);
    game.busyTimer = setTimeout(() => {
      if (game.busy) socket.send({ type: "sync", since: game.eventCount });
    }, BUSY_RESYNC_MS);
    draw();
  }

  async function join(seat) {
    const name = (game.nameDraft ?? storedName()).trim();
    if (!name) {
      game.error = t("name_required");
      draw();
      const input = document.getElementById("sit-name");
      if (input) input.focus();
      return;
    }
    storeName(name);
    try {
      const res = await api("POST", `/api/tables/${code}/join`, { name, seat });
      storeToken(code, res.token);
      game.table = res.table;
      game.error = "";
      connect();
    } catch (err) {
      game.error = errorText(err);
      draw();
    }
  }

  async function hostCall(path, body) {
    try {
      const res = await api("POST", path, body, token());
      game.table = res.table || res;
      game.error = "";
    } catch (err) {
      game.error = errorText(err);
    }
    draw();
  }

  async function rematch() {
    const tb = game.table;
    const bots = {};
    for (const s of tb.seats) if (s.kind === "bot" && s.seat !== 0) bots[String(s.seat)] = s.bot || "medium";
    const mine = game.you && !game.you.spectator ? seatName(tb, game.you.seat) : storedName();
    try {
      const res = await api("POST", "/api/tables", {
        name: mine || t("player"),
        edition: tb.edition,
        players: tb.players,
        ...(tb.options || {}),
        bots,
        timer: tb.timer,
        public: tb.public,
        spectator_chat: tb.spectator_chat,
        hints: Boolean(tb.hints),
      });
      storeToken(res.code, res.token);
      if (socket && game.you && !game.you.spectator) {
        // Tell the others where the new table is, and leave once the server has passed it on.
        const text = `/t/${res.code}`;
        await new Promise((resolve) => {
          game.awaitChat = { text, resolve };
          socket.send({ type: "chat", text });
          setTimeout(resolve, 3000);
        });
        game.awaitChat = null;
      }
      navigate(`/t/${res.code}`);
    } catch (err) {
      game.error = errorText(err);
      draw();
    }
  }

  function askHint() {
    if (game.hint && game.hint.pending && game.hint.version === game.version) return;
    actId += 1;
    game.hint = { version: game.version, pending: true };
    socket.send({ type: "hint", version: game.version, id: `h${actId}` });
    draw();
  }

  game.join = join;
  game.giveBot = (seat, level) => hostCall(`/api/tables/${code}/seats/${seat}/bot`, { level });
  game.start = () => hostCall(`/api/tables/${code}/start`, {});
  game.redraw = () => draw();

  const handlers = {
    onAct: act,
    onHint: askHint,
    onChat: (text) => {
      game.chatDraft = "";
      socket.send({ type: "chat", text });
    },
    onChatDraft: (text) => (game.chatDraft = text),
    onTab: (name) => {
      game.sideTab = name;
      if (name === "chat") game.unreadChat = false;
      draw();
    },
    onRematch: rematch,
    onScores: (show) => {
      game.scoresHidden = !show;
      draw();
    },
  };

  function signalTurn() {
    const mine = game.legal && game.legal.length > 0;
    // Which of the player's turns this is (the draft, or a character's turn): one may follow
    // another with no decision-free draw between them (the last pick, then the first call).
    const v = game.view || {};
    const turnKey = mine ? `${v.phase}:${v.round}:${(v.turn && v.turn.character) || ""}` : null;
    const freshTurn = mine && game.wasMyTurn && turnKey !== game.turnKey;
    if (mine) game.turnKey = turnKey;
    document.title = mine ? t("your_turn_title") : `${t("app_title")} · ${code}`;
    if (mine && !game.wasMyTurn) {
      chime();
      announce(turnText(game.view, game.table, game.you));
      // Keyboard players land on their first action, unless they are busy elsewhere (chat).
      requestAnimationFrame(() => {
        bringTurnIntoReach(root);
        const active = document.activeElement;
        const idle = !active || active === document.body || !document.body.contains(active) || active.closest(".tray");
        const first = root.querySelector(".tray .action:not([disabled])");
        if (idle && first) first.focus({ preventScroll: true });
      });
    } else if (mine && game.reachedVersion !== game.version) {
      // A new decision in the same turn: on a phone its choices come back into sight.
      requestAnimationFrame(() => bringTurnIntoReach(root, { onlyIfHidden: !freshTurn }));
    }
    if (mine) game.reachedVersion = game.version;
    game.wasMyTurn = mine;
  }

  // A redraw replaces the page's elements. One made between the press and the release of a
  // button would leave the release on a new element, and the browser would send the click to
  // no button: the move would be lost. While a button is held, draws wait; the release draws
  // once, after its click (a press held longer than HOLD_MS stops holding them).
  const held = { down: false, owed: false, timer: 0 };
  function release() {
    if (!held.down) return;
    held.down = false;
    clearTimeout(held.timer);
    if (held.owed) {
      held.owed = false;
      setTimeout(draw, 0);
    }
  }
  function press(ev) {
    if (ev.button !== 0) return;
    held.down = true;
    clearTimeout(held.timer);
    held.timer = setTimeout(release, HOLD_MS);
  }
  document.addEventListener("pointerdown", press, true);
  document.addEventListener("pointerup", release, true);
  document.addEventListener("pointercancel", release, true);

  function draw() {
    if (held.down) {
      held.owed = true;
      return;
    }
    if (!game.table) {
      render(
        root,
        h("div.loading", { role: "status" }, languagePicker(), game.error ? h("p.error", {}, game.error, " ", h("a", { href: "/" }, t("leave"))) : t("connecting")),
      );
      return;
    }
    const extra = [];
    if (game.view && game.view.phase !== "over") {
      extra.push(h("span.round-tag", { "data-round": game.view.round }, t("round_n", { n: game.view.round })));
      extra.push(h("span.turn-tag", {}, turnText(game.view, game.table, game.you)));
      extra.push(deadlineNote(game));
    }
    if (game.you && game.you.spectator && game.table.status !== "open") extra.push(h("span.tag.spec", {}, icon("eye"), t("spectator_badge")));
    const more = [];
    if (game.view && game.view.phase !== "over") {
      extra.push(
        paceControls({
          waiting: pacer.waiting,
          version: game.version,
          onSkip: () => {
            game.skipping = true;
            pacer.flush();
          },
        }),
      );
      more.push(
        pacePicker({
          pace: paceFor(code, game.table),
          onPace: (ms) => {
            storePace(ms, code);
            draw();
          },
        }),
      );
    }
    if (game.legal && game.legal.length && !game.wasMyTurn) game.turnBegan = Date.now();
    const body =
      game.table.status === "open" || !game.view || !game.you
        ? waitingRoom(game)
        : h(
            "main",
            { id: "main" },
            h("h1.sr", {}, `${t("app_title")} · ${code}`),
            noticeBox(game, (seat) => seatName(game.table, seat), () => {
              clearNotices();
              game.notices = [];
              game.since = [];
              draw();
            }),
            tableScreen(game, handlers),
          );
    const playing = !(game.table.status === "open" || !game.view || !game.you);
    render(
      root,
      topBar(game, playing ? [h("a.skip", { href: "#actions" }, t("skip_to_actions")), ...extra] : extra, more),
      game.error && game.table.status !== "open" ? h("div.toast", { role: "alert" }, game.error) : null,
      body,
    );
    // What this page holds, for a person debugging (and the browser tests' reports).
    root.dataset.version = String(game.version);
    root.dataset.events = String(game.eventCount);
    fitTray(root);
    watchLayout(root);
    signalTurn();
    if (playing) {
      markCalled(root);
      if (moved) animateChange(root, moved, game.view, mySeat());
    }
    moved = null;
    // Keep the newest move in sight.
    for (const list of root.querySelectorAll(".log, .chat")) list.scrollTop = list.scrollHeight;
  }

  // The edition titles and bot levels, in the interface's language.
  async function loadInfo() {
    try {
      const info = await api("GET", `/api/info?lang=${encodeURIComponent(language())}`);
      game.botLevels = info.bot_levels;
      game.editionTitles = Object.fromEntries(info.editions.map((e) => [e.id, e.title]));
    } catch {
      /* the defaults do */
    }
  }

  // Another language: the server renders this connection's texts anew (a snapshot answers),
  // the card texts are fetched again, and the page is drawn in it; the game state stays.
  onLanguage = async (lang) => {
    // What the live regions said was in the old language: empty them (the notices box words
    // its notices anew at the next draw).
    clearNotices();
    announce("");
    if (socket) socket.setLang(lang);
    game.cardsFor = null;
    if (game.error) game.error = "";
    draw();
    await loadInfo();
    await ensureCards();
    draw();
  };

  async function start() {
    await loadInfo();
    try {
      game.table = await api("GET", `/api/tables/${code}`);
    } catch (err) {
      game.error = err.status === 404 ? t("table_not_found") : errorText(err);
      draw();
      return;
    }
    if (game.table.status === "finished" && !token()) {
      navigate(`/replay/${code}`, true);
      return;
    }
    draw();
    connect();
    ensureCards();
  }
  // The keys a menu's buttons show play them (menu.js: 1–9, 0, then A–Z; in the draft the
  // cards' ranks), announced to screen readers as shortcuts.
  function onKey(ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target.closest && ev.target.closest("input, textarea, select, dialog")) return;
    const key = keyOf(ev);
    if (key === null || !game.legal || !game.legal.length) return;
    if (pressKey(root, key)) ev.preventDefault();
  }
  document.addEventListener("keydown", onKey);
  start();
  tick = setInterval(() => {
    const el = root.querySelector(".deadline .secs");
    if (el && game.deadline) el.textContent = timeLeft(game.deadline);
  }, 1000);

  return () => {
    clearInterval(tick);
    clearTimeout(held.timer);
    document.removeEventListener("pointerdown", press, true);
    document.removeEventListener("pointerup", release, true);
    document.removeEventListener("pointercancel", release, true);
    pacer.stop();
    clearNotices();
    document.removeEventListener("keydown", onKey);
    if (socket) socket.close();
  };
}

route();
