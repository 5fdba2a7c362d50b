// @ts-check
// Table chat: quick phrases go to the server as ids and are shown in this
// reader's language; free text (when the table's creator allows it) is shown as text only
// (textContent: a message is never parsed as HTML). A person can be muted on this device
// (localStorage `tikki.mute.<table>`). Reading is a long poll of GET /api/tables/{id}/chat;
// players read their own channel during the game, spectators theirs and the players'.
import { _, N_ } from "./i18n.js";
import { loadToken, storage } from "./api.js";

/**
 * @typedef {object} ChatMessage One message (GET /api/tables/{id}/chat).
 * @property {number} seq
 * @property {"players" | "spectators"} channel
 * @property {string} sender who sent it (muting goes by it)
 * @property {string} name the sender's name
 * @property {string | null} [phrase] a quick phrase's id
 * @property {string | null} [text] free text
 */

/**
 * @typedef {object} ChatInfo What the chat's answer says about this reader.
 * @property {boolean} free_text the table allows free text
 * @property {boolean} host this reader may switch free text on and off
 * @property {"players" | "spectators"} channel where this reader writes
 * @property {boolean} people a person sits (or may sit) at the table: no chat where only bots play
 * @property {string[]} [unseen] the seated people a block keeps from this chat, either way
 */

/** The quick phrases by id, in English (the msgids). @type {Record<string, string>} */
export const PHRASES = {
  gg: N_("Good game"),
  wp: N_("Well played"),
  thanks: N_("Thanks"),
  oops: N_("Oops"),
  hurry: N_("Hurry up, please"),
};

const TEXT_MAX = 200;

/** The text a message shows: a phrase in this reader's language, or the sent text.
 * @param {ChatMessage} m
 * @returns {string} */
export const shown = (m) => (m.phrase ? _(PHRASES[m.phrase] ?? m.phrase) : String(m.text ?? ""));

/** The senders muted at a table on this device.
 * @param {string} id the table's
 * @returns {Set<string>} */
export function loadMuted(id) {
  try {
    return new Set(JSON.parse(storage()?.getItem(`tikki.mute.${id}`) ?? "[]"));
  } catch {
    return new Set();
  }
}

/**
 * @param {string} id
 * @param {Set<string>} muted
 */
function saveMuted(id, muted) {
  storage()?.setItem(`tikki.mute.${id}`, JSON.stringify([...muted]));
}

/** The chat of the table page: its panel, its poll and its form. */
class TableChat {
  // the panel's parts, set up by build()
  channel = document.createElement("p");
  unseen = document.createElement("p");
  log = document.createElement("ol");
  form = document.createElement("form");
  input = document.createElement("input");
  toggle = document.createElement("label");
  toggleBox = document.createElement("input");
  error = document.createElement("p");

  /**
   * @param {HTMLElement} host the panel
   * @param {string} id the table's
   */
  constructor(host, id) {
    this.host = host;
    this.id = id;
    this.token = loadToken(id);
    this.after = 0;
    /** @type {ChatMessage[]} */
    this.messages = [];
    this.muted = loadMuted(id);
    /** @type {string | null} the sender this reader is */
    this.you = null;
    /** @type {ChatInfo} */
    this.info = { free_text: true, host: false, channel: "spectators", people: true };
    /** @type {AbortController | null} */
    this.abort = null;
    this.loaded = false;
    this.stopped = false;
    /** @type {string | null} a token the server refused (it reads as a spectator) */
    this.refused = null;
    this.build();
  }

  headers() {
    const h = { "Accept-Language": document.documentElement.lang || "en" };
    return this.token ? { ...h, Authorization: `Bearer ${this.token}` } : h;
  }

  build() {
    const h = document.createElement("h2");
    h.textContent = _("Chat");
    this.channel.className = "muted chat-channel";
    this.unseen.className = "chat-unseen";
    this.unseen.id = "chat-unseen";
    this.log.className = "chat-log";
    this.log.setAttribute("aria-live", "polite");
    this.log.setAttribute("aria-label", _("Chat messages"));
    const phrases = document.createElement("div");
    phrases.className = "chat-phrases";
    for (const [pid, text] of Object.entries(PHRASES)) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "secondary small";
      b.dataset.phrase = pid;
      b.textContent = _(text);
      b.addEventListener("click", () => this.send({ phrase: pid }));
      phrases.append(b);
    }
    this.form.className = "chat-form";
    this.input.id = "chat-text";
    this.input.maxLength = TEXT_MAX;
    this.input.autocomplete = "off";
    this.input.setAttribute("aria-label", _("Message"));
    this.input.placeholder = _("Message");
    const send = document.createElement("button");
    send.type = "submit";
    send.className = "small";
    send.textContent = _("Send");
    this.form.append(this.input, send);
    this.form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const text = this.input.value.trim();
      if (text) this.send({ text }).then((ok) => ok && (this.input.value = ""));
    });
    this.toggle.className = "check chat-toggle";
    this.toggleBox.type = "checkbox";
    this.toggleBox.id = "chat-free-text";
    const toggleText = document.createElement("span");
    toggleText.textContent = _("Allow free text");
    this.toggle.append(this.toggleBox, " ", toggleText);
    this.toggleBox.addEventListener("change", () => this.setFreeText(this.toggleBox.checked));
    this.error.className = "chat-error";
    this.error.setAttribute("role", "status");
    this.host.replaceChildren(h, this.channel, this.unseen, this.log, phrases, this.form, this.toggle, this.error);
    this.host.hidden = false; // hidden again if the chat answers that only bots play here
  }

  /** Send a phrase or text; true if the server took it.
   * @param {{phrase: string} | {text: string}} body
   * @returns {Promise<boolean>} */
  async send(body) {
    const r = await fetch(`/api/tables/${encodeURIComponent(this.id)}/chat`, {
      method: "POST",
      headers: { ...this.headers(), "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    if (r.ok) {
      this.error.textContent = "";
      return true;
    }
    const answer = await r.json().catch(() => ({}));
    this.error.textContent = answer?.detail?.message ?? _("The message was not sent.");
    return false;
  }

  /** @param {boolean} on */
  async setFreeText(on) {
    const r = await fetch(`/api/tables/${encodeURIComponent(this.id)}/chat/settings`, {
      method: "POST",
      headers: { ...this.headers(), "Content-Type": "application/json" },
      body: JSON.stringify({ free_text: on }),
    });
    if (!r.ok) this.error.textContent = (await r.json().catch(() => ({})))?.detail?.message ?? "";
    this.restart();
  }

  /**
   * @param {string} sender
   * @param {boolean} on
   */
  mute(sender, on) {
    if (on) this.muted.add(sender);
    else this.muted.delete(sender);
    saveMuted(this.id, this.muted);
    this.render();
  }

  render() {
    const { free_text: free, host, channel, people } = this.info;
    this.host.hidden = !people;
    this.channel.textContent =
      channel === "players" ? _("You are writing to the players.") : _("You are writing to the spectators.");
    const unseen = this.info.unseen ?? [];
    this.unseen.hidden = unseen.length === 0;
    this.unseen.textContent = unseen.length
      ? _("{names} and you do not see each other's messages: a block stands between you.", { names: unseen.join(", ") })
      : "";
    this.form.hidden = !free;
    this.toggle.hidden = !host;
    this.toggleBox.checked = free;
    const items = [];
    for (const m of this.messages) {
      const li = document.createElement("li");
      li.className = `chat-message chat-${m.channel}`;
      li.dataset.sender = m.sender;
      const who = document.createElement("strong");
      who.textContent = m.channel === "spectators" ? _("{name} (spectator)", { name: m.name }) : m.name;
      const text = document.createElement("span");
      text.className = "chat-text";
      const muted = this.muted.has(m.sender);
      text.textContent = muted ? _("(muted)") : shown(m);
      li.append(who, ": ", text);
      if (m.sender !== this.you) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "link chat-mute";
        b.textContent = muted ? _("Unmute") : _("Mute");
        b.setAttribute("aria-label", muted ? _("Unmute {name}", { name: m.name }) : _("Mute {name}", { name: m.name }));
        b.addEventListener("click", () => this.mute(m.sender, !muted));
        li.append(" ", b);
      }
      items.push(li);
    }
    this.log.replaceChildren(...items);
    this.log.scrollTop = this.log.scrollHeight;
  }

  restart() {
    this.abort?.abort();
  }

  /** Read new messages forever (a long poll; after an error, again in 3 s). */
  async poll() {
    for (;;) {
      if (this.stopped) return;
      const conn = document.getElementById("conn")?.dataset.state;
      if (document.getElementById("board")?.hidden || (conn && conn !== "online")) {
        // not at the table yet (the join page), or the server is away (the table's own
        // connection says when it is back): nothing to read now
        await new Promise((ok) => setTimeout(ok, 1000));
        continue;
      }
      const kept = loadToken(this.id);
      const token = kept === this.refused ? null : kept; // a revoked token reads as a spectator
      if (token !== this.token) {
        this.token = token;
        this.after = 0;
        this.messages = [];
        this.loaded = false;
      }
      this.abort = new AbortController();
      const wait = this.loaded;
      const url = `/api/tables/${encodeURIComponent(this.id)}/chat?after=${this.after}&wait=${wait}`;
      try {
        const r = await fetch(url, { headers: this.headers(), signal: this.abort.signal });
        if (r.status === 404) this.stopped = true;
        if (r.status === 403 && this.token) this.refused = this.token;
        if (!r.ok) throw new Error(String(r.status));
        const answer = await r.json();
        this.info = answer;
        this.you = answer.you;
        this.messages.push(...answer.messages);
        this.messages = this.messages.slice(-200);
        this.after = Math.max(this.after, answer.seq);
        this.loaded = true;
        this.render();
      } catch (err) {
        if (/** @type {Error | null} */ (err)?.name !== "AbortError") await new Promise((ok) => setTimeout(ok, 3000));
      }
    }
  }
}

/** Start the chat on a table page (`/t/{id}`), in the `#chat` panel. */
export function startChat() {
  const host = document.getElementById("chat");
  const match = location.pathname.match(/^\/t\/([^/]+)/);
  if (!host || !match) return null;
  const chat = new TableChat(host, decodeURIComponent(match[1]));
  // a seat taken on this page (a new token) restarts the poll on the players' channel
  setInterval(() => {
    const kept = loadToken(chat.id);
    if (kept !== chat.token && kept !== chat.refused) chat.restart();
  }, 1000);
  chat.poll();
  return chat;
}

startChat();
