// Replays: a finished game stepped through move by move, as a spectator saw it.

import { api } from "./net.js";
import { h, icon, render } from "./dom.js";
import { loadCards } from "./lobby.js";
import { setRanks } from "./cards.js";
import { tableScreen } from "./table.js";
import { errorText, t } from "./strings.js";

/** Draw the replay of table ``code`` into ``root``; answers a teardown function. */
export function replayScreen(root, code, { lang, languagePicker }) {
  const state = { frames: [], steps: 0, at: 0, playing: false, error: "", data: null, sideTab: "log" };
  let timer = null;

  async function load() {
    try {
      let from = 0;
      for (;;) {
        const data = await api("GET", `/api/tables/${code}/replay?from=${from}&count=500&lang=${encodeURIComponent(lang)}`);
        state.data = state.data || data;
        state.steps = data.steps;
        state.frames.push(...data.frames);
        if (!data.frames.length || state.frames.length > data.steps) break;
        from = state.frames.length;
      }
      state.data.result = state.data.result || null;
      await loadCards(state.data.edition, lang);
    } catch (err) {
      state.error = errorText(err);
    }
    draw();
  }

  function go(step) {
    state.at = Math.max(0, Math.min(state.frames.length - 1, step));
    draw();
  }

  function toggle() {
    state.playing = !state.playing;
    clearInterval(timer);
    if (state.playing) {
      timer = setInterval(() => {
        if (state.at >= state.frames.length - 1) {
          state.playing = false;
          clearInterval(timer);
        } else state.at += 1;
        draw();
      }, matchMedia("(prefers-reduced-motion: reduce)").matches ? 1500 : 700);
    }
    draw();
  }

  function onKey(ev) {
    if (ev.target.closest && ev.target.closest("input, textarea, select")) return;
    // The arrows follow the page: in a right-to-left language the game runs leftwards.
    const forward = document.dir === "rtl" ? "ArrowLeft" : "ArrowRight";
    const back = document.dir === "rtl" ? "ArrowRight" : "ArrowLeft";
    if (ev.key === forward) go(state.at + 1);
    else if (ev.key === back) go(state.at - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(state.frames.length - 1);
    else return;
    ev.preventDefault();
  }
  document.addEventListener("keydown", onKey);

  function draw() {
    if (state.error) {
      render(root, h("div.loading", {}, h("p.error", { role: "alert" }, state.error), h("a.btn", { href: "/" }, t("leave"))));
      return;
    }
    if (!state.frames.length) {
      render(root, h("div.loading", { role: "status" }, t("connecting")));
      return;
    }
    const frame = state.frames[state.at];
    setRanks(frame.view.characters_in_play);
    const names = state.data.names || [];
    const table = {
      code,
      status: "finished",
      edition: state.data.edition,
      players: state.data.players,
      seats: names.map((name, seat) => ({ seat, name, kind: "human", connected: true })),
    };
    const events = [];
    for (const f of state.frames.slice(0, state.at + 1)) events.push(...(f.events || []));
    const last = state.at === state.frames.length - 1;
    const game = {
      code,
      table,
      you: { seat: null, spectator: true },
      view: frame.view,
      legal: [],
      events,
      chat: [],
      result: last ? state.data.result : null,
      scores: last ? state.data.scores : null,
      scoreHeaders: state.data.score_headers || null,
      sideTab: state.sideTab,
      scoresHidden: state.scoresHidden,
      replay: true,
    };
    const bar = h(
      "nav.replay-bar",
      { "aria-label": t("replay") },
      h("button.btn.small", { type: "button", "data-key": "r-first", onclick: () => go(0), "aria-label": t("first") }, icon("first")),
      h("button.btn.small", { type: "button", "data-key": "r-prev", onclick: () => go(state.at - 1), "aria-label": t("prev") }, icon("prev")),
      h("button.btn.small.primary", { type: "button", "data-key": "r-play", onclick: toggle, "aria-label": state.playing ? t("pause") : t("play") }, icon(state.playing ? "pause" : "play")),
      h("button.btn.small", { type: "button", "data-key": "r-next", onclick: () => go(state.at + 1), "aria-label": t("next") }, icon("next")),
      h("button.btn.small", { type: "button", "data-key": "r-last", onclick: () => go(state.frames.length - 1), "aria-label": t("last") }, icon("last")),
      h("label.sr", { for: "r-slider" }, t("replay")),
      h("input", {
        type: "range",
        id: "r-slider",
        "data-key": "r-slider",
        min: 0,
        max: state.frames.length - 1,
        value: state.at,
        oninput: (ev) => go(Number(ev.target.value)),
      }),
      h("span.step", { role: "status" }, t("step_n", { n: frame.version, m: state.steps })),
    );
    render(
      root,
      h(
        "header.topbar",
        {},
        h("a.brand", { href: "/", "aria-label": t("leave") }, icon("tower"), h("span", {}, t("app_title"))),
        h("span.code-tag", { dir: "ltr" }, code),
        h("span.tag.spec", {}, t("replay")),
        h("span.round-tag", { "data-round": frame.view.round }, t("round_n", { n: frame.view.round })),
        h("span.spacer"),
        languagePicker(),
      ),
      h(
        "main.replay",
        { id: "main" },
        h("h1.sr", {}, `${t("replay")} · ${code}`),
        bar,
        tableScreen(game, {
          onAct: () => {},
          onChat: () => {},
          onChatDraft: () => {},
          onTab: (name) => {
            state.sideTab = name;
            draw();
          },
          onRematch: () => {},
          onScores: (show) => {
            state.scoresHidden = !show;
            draw();
          },
        }),
      ),
    );
    for (const list of root.querySelectorAll(".log")) list.scrollTop = list.scrollHeight;
  }

  draw();
  load();
  return () => {
    clearInterval(timer);
    document.removeEventListener("keydown", onKey);
  };
}
