"""The browser client's table connection (``js/net.js``) against a server that stops answering
(issue 23, item 3): a socket that hears nothing within 5 s of a ping is given up and replaced,
even if it never reports its close (a network that drops packets; a server that closed it
while the client could not read). The page's clock is Playwright's, so no test waits.

The WebSocket is a stand-in that opens, keeps what it is sent and (if told) answers pings.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

pytestmark = pytest.mark.xdist_group("browser-net")

START = 1_700_000_000_000  # the page's clock, in epoch milliseconds

FAKE_SOCKET = """
window.__sockets = [];
class FakeSocket extends EventTarget {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSED = 3;
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.closedByClient = false;
    window.__sockets.push(this);
    setTimeout(() => { this.readyState = 1; this.dispatchEvent(new Event("open")); }, 10);
  }
  send(data) {
    const msg = JSON.parse(data);
    this.sent.push(msg);
    if (msg.type === "ping" && window.__answerPings) {
      setTimeout(() => this.dispatchEvent(
        new MessageEvent("message", { data: '{"type":"pong"}' })), 50);
    }
  }
  close() { this.readyState = 3; this.closedByClient = true; }  // never fires "close"
}
window.WebSocket = FakeSocket;
"""

OPEN_SOCKET = """async (answer) => {
  window.__answerPings = answer;
  window.__statuses = [];
  const { TableSocket } = await import("/static/js/net.js");
  window.__table = new TableSocket("ABCDEF", {
    token: "t", since: () => 0, onMessage: () => {}, onStatus: (s) => window.__statuses.push(s),
  });
}"""

SOCKETS = """() => window.__sockets.map(
  s => ({sent: s.sent.map(m => m.type), closed: s.closedByClient}))"""


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    context = browser.new_context(base_url=server)
    p = context.new_page()
    p.clock.install(time=START)
    p.add_init_script(FAKE_SOCKET)
    p.goto("/healthz")  # any page of the server's origin; it runs none of the client's code
    # An installed clock still flows with real time; from here only run_for moves it.
    p.clock.pause_at(START + 60_000)
    try:
        yield p
    finally:
        context.close()


def test_a_socket_that_hears_nothing_after_a_ping_is_replaced(page: Any) -> None:
    page.evaluate(OPEN_SOCKET, False)
    page.clock.run_for(100)
    assert page.evaluate(SOCKETS) == [{"sent": ["hello"], "closed": False}]
    page.clock.run_for(15_000 + 4_800)  # a ping at 15 s, silence since
    assert page.evaluate(SOCKETS) == [{"sent": ["hello", "ping"], "closed": False}]
    page.clock.run_for(400)  # 5 s after the ping: given up
    assert page.evaluate(SOCKETS)[0]["closed"] is True
    assert page.evaluate("window.__statuses").count("lost") == 1
    page.clock.run_for(1_000)  # the back-off of a first retry, then a new socket says hello
    sockets = page.evaluate(SOCKETS)
    assert len(sockets) == 2 and sockets[1] == {"sent": ["hello"], "closed": False}
    assert page.evaluate("window.__statuses")[-1] == "open"


def test_a_socket_that_answers_its_pings_is_kept(page: Any) -> None:
    page.evaluate(OPEN_SOCKET, True)
    page.clock.run_for(61_000)
    assert page.evaluate(SOCKETS) == [{"sent": ["hello"] + ["ping"] * 4, "closed": False}]
    assert page.evaluate("window.__statuses") == ["connecting", "open"]
