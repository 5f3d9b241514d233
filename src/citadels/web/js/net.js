// HTTP calls and the table's WebSocket (protocol 1, docs/protocol.md), with automatic
// reconnection: the seat's token is kept in localStorage per table code.

// A code typed with or without its dashes names one table: the key leaves them out.
const TOKEN_KEY = (code) => `citadels.token.${code.toUpperCase().replace(/[^A-Z0-9]/g, "")}`;
const NAME_KEY = "citadels.name";

export function storedToken(code) {
  try {
    return localStorage.getItem(TOKEN_KEY(code));
  } catch {
    return null;
  }
}

export function forgetToken(code) {
  try {
    localStorage.removeItem(TOKEN_KEY(code));
  } catch {
    /* ignore */
  }
}

export function storeToken(code, token) {
  try {
    localStorage.setItem(TOKEN_KEY(code), token);
  } catch {
    /* private mode: the seat lasts as long as the page */
  }
}

export function storedName() {
  try {
    return localStorage.getItem(NAME_KEY) || "";
  } catch {
    return "";
  }
}

export function storeName(name) {
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    /* ignore */
  }
}

/** An error answered by the server: ``code`` and a ``message`` for people. */
export class ApiError extends Error {
  constructor(code, message, status) {
    super(message || code);
    this.code = code;
    this.status = status;
  }
}

/** The signed-in account, if any (docs/accounts.md): ``{account: {name} | null, csrf}``. The
 * session itself is an HttpOnly cookie this script cannot read; the CSRF token comes from
 * ``GET /api/session`` and goes back in ``X-CSRF-Token`` with every change. */
export const session = { account: null, csrf: null, loaded: false };

/** Ask the server who is signed in here. */
export async function loadSession() {
  try {
    const got = await api("GET", "/api/session");
    session.account = got.account;
    session.csrf = got.csrf;
  } catch {
    session.account = null;
    session.csrf = null;
  }
  session.loaded = true;
  return session;
}

/** The seats this browser holds tokens for, as ``[{code, token}]`` (to give to an account). */
export function storedSeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith("citadels.token.")) out.push({ code: key.slice(15), token: localStorage.getItem(key) || "" });
    }
  } catch {
    /* no storage: no seats */
  }
  return out.slice(0, 100);
}

/** Call the HTTP API; answers the JSON body or throws an ApiError. */
export async function api(method, path, body = undefined, token = undefined) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (method !== "GET" && session.csrf) headers["X-CSRF-Token"] = session.csrf;
  let response;
  try {
    // The page's Referrer-Policy is no-referrer, under which a browser sends "Origin: null";
    // the API's own calls send their origin (the server checks it on a signed-in change).
    response = await fetch(path, { method, headers, referrerPolicy: "same-origin", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (err) {
    throw new ApiError("network", String(err && err.message ? err.message : err), 0);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(e.code || `http_${response.status}`, e.message || response.statusText, response.status);
  }
  return data;
}

/** Milliseconds between two pings of an open connection. */
const PING_EVERY = 15000;
/** Milliseconds of silence after a ping that count the connection as lost. */
const PONG_WAIT = 5000;

/**
 * One table connection. ``onMessage(msg)`` gets every server message; ``onStatus(s)`` gets
 * "connecting", "open", "lost". Reconnects with back-off until ``close()``; ``since()`` tells
 * the event count the client already holds, so the snapshot carries only the missed events.
 * A connection that hears nothing (no pong, no other message) within ``PONG_WAIT`` of a ping
 * is given up and replaced: a socket cut off by the network may never report its close.
 */
export class TableSocket {
  constructor(code, { token, lang, since, onMessage, onStatus }) {
    this.code = code;
    this.token = token || null;
    this.lang = lang || "en";
    this.since = since || (() => 0);
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.closed = false;
    this.attempt = 0;
    this.ws = null;
    this.ping = null;
    this.silence = null;
    this.queue = [];
    this.connect();
  }

  connect() {
    if (this.closed) return;
    this.onStatus(this.attempt === 0 ? "connecting" : "lost");
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.code)}`);
    this.ws = ws;
    // Each handler ignores a socket this object has given up or replaced.
    ws.addEventListener("open", () => {
      if (this.ws !== ws) return;
      ws.send(JSON.stringify({ type: "hello", protocol: 1, token: this.token, since: this.since(), lang: this.lang }));
      this.attempt = 0;
      this.onStatus("open");
      for (const msg of this.queue.splice(0)) ws.send(JSON.stringify(msg));
      this.stopPinging();
      this.ping = setInterval(() => this.sendPing(ws), PING_EVERY);
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return;
      clearTimeout(this.silence); // heard from the server: the connection lives
      this.silence = null;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      this.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.stopPinging();
      if (this.closed) return;
      // A refused token or an unknown table will not get better by retrying.
      if ([4401, 4404, 4400].includes(ev.code)) {
        this.onStatus("refused", ev.code);
        return;
      }
      this.retry();
    });
  }

  /** Ping ``ws``; unless something comes back within PONG_WAIT, it is given up. */
  sendPing(ws) {
    if (ws.readyState !== WebSocket.OPEN) return;
    ws.send(JSON.stringify({ type: "ping" }));
    if (this.silence === null) this.silence = setTimeout(() => this.giveUp(ws), PONG_WAIT);
  }

  /** Count ``ws`` as lost without waiting for its close event, and connect again. */
  giveUp(ws) {
    if (this.ws !== ws) return;
    this.stopPinging();
    this.ws = null;
    try {
      ws.close();
    } catch {
      /* already closing */
    }
    this.retry();
  }

  retry() {
    this.attempt += 1;
    this.onStatus("lost");
    const delay = Math.min(5000, 300 * 2 ** Math.min(this.attempt, 5));
    setTimeout(() => this.connect(), delay);
  }

  stopPinging() {
    clearInterval(this.ping);
    clearTimeout(this.silence);
    this.ping = null;
    this.silence = null;
  }

  /** Ask for this connection's texts in ``lang`` from now on (the server answers a snapshot
   * rendered in it); a reconnection says hello in it too. */
  setLang(lang) {
    this.lang = lang;
    this.send({ type: "lang", lang });
  }

  /** Send a message now, or as soon as the connection is open again. */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else if (msg.type !== "ping") this.queue.push(msg);
  }

  close() {
    this.closed = true;
    this.stopPinging();
    if (this.ws) this.ws.close();
  }
}
