// @ts-check
// The table page's WebSocket (docs/protocol.md): the hello with the seat token, a ping
// every 25 s, reconnects with a growing delay, and a fresh try when the page comes back or
// the network returns. The hello asks for history deltas: each state carries only the
// history entries this socket was not sent yet, and the connection hands on each state
// with its whole history (store.js's wholeHistory), kept per socket. What the messages
// mean is store.js's business; drawing is table.js's.
import { _ } from "./i18n.js";
import { wholeHistory } from "./store.js";

/** The close codes the server ends a connection with for good (no reconnect). */
export const CLOSED_FOR_GOOD = { badToken: 4403, unknownTable: 4404 };
/** The close code of a watcher's socket that saw nothing happen for a while: the page
 * connects again when its person comes back (touch, key, focus, the page shown again). */
export const IDLE = 4408;

/**
 * @typedef {object} ConnectionHooks
 * @property {() => string | null} token the seat token to say hello with (none: watch)
 * @property {(message: object) => void} onMessage a message from the server
 * @property {(state: "connecting" | "online" | "offline", text: string) => void} onStatus
 * @property {(code: number) => boolean} onClose the socket closed; true: reconnect later
 */

export class Connection {
  /**
   * @param {string} url the WebSocket's address
   * @param {ConnectionHooks} hooks
   */
  constructor(url, hooks) {
    this.url = url;
    this.hooks = hooks;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.retries = 0;
    this.retryTimer = undefined;
    this.pingTimer = undefined;
    /** Closed as an idle watcher: connect again on the person's next action. */
    this.idle = false;
  }

  /** Whether a socket is open or opening. */
  get active() {
    return this.ws !== null;
  }

  /** Open a new socket (closing the old one without reconnecting). */
  connect() {
    clearTimeout(this.retryTimer);
    this.idle = false;
    if (this.ws) {
      this.ws.onclose = null;
      this.ws.close();
    }
    const ws = new WebSocket(this.url);
    this.ws = ws;
    /** The whole history of this socket's last state (a fresh socket starts with none).
     * @type {import("./store.js").HistoryEntry[]} */
    let history = [];
    this.hooks.onStatus("connecting", _("connecting…"));
    ws.onopen = () => {
      // The first message says who we are; the token never goes into a URL.
      const token = this.hooks.token();
      const hello = token ? { type: "hello", token } : { type: "hello" };
      ws.send(JSON.stringify({ ...hello, history: "delta" }));
      this.retries = 0;
      this.hooks.onStatus("online", _("connected"));
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (m && m.type === "state") {
        m = wholeHistory(history, m);
        history = m.view.history || [];
      }
      this.hooks.onMessage(m);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pingTimer);
      if (this.ws !== ws) return;
      this.ws = null;
      if (ev.code === IDLE) {
        this.idle = true;
        this.hooks.onStatus("offline", _("paused while nothing happens: tap to watch again"));
        return;
      }
      if (this.hooks.onClose(ev.code)) this.reconnectLater();
    };
  }

  /** Try again after a delay that doubles with each failure (at most 10 s). */
  reconnectLater() {
    const delay = Math.min(10000, 500 * 2 ** this.retries) + Math.floor(Math.random() * 250);
    this.retries += 1;
    this.hooks.onStatus("offline", _("reconnecting in {n} s…", { n: Math.ceil(delay / 1000) }));
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  /** Send a message if the socket is open; false if it is not.
   * @param {object} obj
   * @returns {boolean} */
  send(obj) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(obj));
      return true;
    }
    return false;
  }

  /** Reconnect at once when the page becomes visible or the network returns, if `wanted()`
   * and no socket is open; after an idle close, also at the person's next touch, key or
   * focus.
   * @param {() => boolean} wanted */
  reviveWhen(wanted) {
    const revive = () => {
      if (!this.ws && wanted()) {
        this.retries = 0;
        this.connect();
      }
    };
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") revive();
    });
    window.addEventListener("online", revive);
    const back = () => {
      if (this.idle) revive();
    };
    for (const what of ["pointerdown", "keydown", "focus"]) {
      window.addEventListener(what, back, { passive: true });
    }
  }
}
