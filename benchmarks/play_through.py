"""Play the web table through as a new player would, and list what looks wrong.

Starts ``tikki serve`` on a fresh temporary SQLite database (bots without delay) and drives
Chromium through Playwright: a whole game of each game (Myllymatti, Mattis, Mückenstich)
against an Easy and a Medium bot at 1280x800, at 1366x768 and on a phone (360x740, touch),
so that every game and every language (en, fi, de) is played on each screen; then signs up
for an account, plays a rated Myllymatti table (the Hint button must be off and say why),
opens the profile, and uploads a finished game's record at ``/replay`` and reloads its link.
Everything is done through the page: the lobby form, cards clicked (tapped on the phone),
the move buttons; never the API (except reading a record's link, as a download would).

While playing it records, before each of our moves: move buttons outside the screen, a
page wider than the screen, text cut off (an element that clips its own text), controls
overlapping each other; at the screenshot moments, English left in a Finnish or German page
(a visible text that is an English message of the page's catalogue); and always JavaScript
console errors, page errors and server 5xx answers.  Screenshots (start, each new phase,
every 15th turn, the end, and the first sight of each finding) and ``findings.md`` /
``findings.json`` go to ``--out``::

    TIKKI_CHROMIUM=/usr/bin/chromium .venv/bin/python -m benchmarks.play_through --out /tmp/verify
    ... --only mattis-1366-en --only account   # some runs; --list names them

It prints one line per run and the findings' count; the exit status is 1 when a run could
not finish (a stuck move, no end), 0 otherwise (findings are for people to judge).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = os.environ.get("TIKKI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-sync"]
PASSWORD = "violet lantern harbour"
MAX_TURNS = 600
SHOT_EVERY = 15


@dataclass(frozen=True)
class Run:
    """One whole game: which game, in which language, on which screen."""

    game: str
    lang: str
    width: int
    height: int
    phone: bool = False

    @property
    def name(self) -> str:
        """``game-screen-lang``, e.g. ``mattis-phone-de``."""
        screen = "phone" if self.phone else str(self.width)
        return f"{self.game}-{screen}-{self.lang}"


RUNS = [
    Run("myllymatti", "fi", 360, 740, phone=True),
    Run("myllymatti", "en", 1280, 800),
    Run("myllymatti", "de", 1366, 768),
    Run("mattis", "de", 360, 740, phone=True),
    Run("mattis", "fi", 1280, 800),
    Run("mattis", "en", 1366, 768),
    Run("mueckenstich", "en", 360, 740, phone=True),
    Run("mueckenstich", "de", 1280, 800),
    Run("mueckenstich", "fi", 1366, 768),
]
EXTRAS = ("account", "replay")


@dataclass
class Findings:
    """What was seen, kept once per (where, kind, key) with a count and a screenshot."""

    out: Path
    items: dict[tuple[str, str, str], dict[str, Any]] = field(default_factory=dict)

    def add(self, where: str, kind: str, key: str, detail: str, page: Page | None) -> None:
        """Note a finding; its first sighting gets a screenshot."""
        slot = (where, kind, key)
        if slot in self.items:
            self.items[slot]["count"] += 1
            return
        shot = ""
        if page is not None and not page.is_closed():
            shot = snap(page, self.out, f"finding-{len(self.items):03d}-{where}-{kind}")
        self.items[slot] = {
            "where": where,
            "kind": kind,
            "key": key,
            "detail": detail,
            "count": 1,
            "screenshot": shot,
        }

    def write(self) -> None:
        """findings.json and a readable findings.md under ``out``."""
        rows = list(self.items.values())
        (self.out / "findings.json").write_text(json.dumps(rows, indent=1, ensure_ascii=False))
        lines = ["# Play-through findings", ""]
        for row in rows:
            lines.append(
                f"- **{row['where']}** {row['kind']} ×{row['count']}: {row['detail']}"
                + (f" ([shot]({row['screenshot']}))" if row["screenshot"] else "")
            )
        (self.out / "findings.md").write_text("\n".join(lines) + "\n")


def snap(page: Page, out: Path, name: str) -> str:
    """A screenshot of what the screen shows now; returns its file name."""
    safe = re.sub(r"[^\w.-]+", "_", name)
    path = out / f"{safe}.png"
    try:
        page.screenshot(path=str(path))
    except Exception:
        return ""
    return path.name


# ---------------------------------------------------------------- server


def free_port() -> int:
    """A free TCP port on this machine."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """``tikki serve`` on a fresh database; its 5xx lines are kept in ``output``."""

    def __init__(self, db: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        cmd = [str(ROOT / ".venv/bin/tikki"), "serve", "--port", str(self.port)]
        cmd += ["--db", f"sqlite:///{db}", "--bot-delay", "0"]
        cmd += ["--analysis-iterations", "60", "--create-rate", "600", "--join-rate", "600"]
        cmd += ["--connect-rate", "6000", "--read-rate", "6000", "--hint-rate", "6000"]
        cmd += ["--waiting-per-address", "100"]
        self.log = open(db.with_suffix(".log"), "w")  # noqa: SIM115 - closed in stop()
        self.log_path = db.with_suffix(".log")
        env = {**os.environ, "NO_COLOR": "1", "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None:
                    break
                time.sleep(0.3)
        raise RuntimeError("tikki serve did not start:\n" + self.log_path.read_text())

    def stop(self) -> str:
        """Stop the server; returns its output."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()
        return self.log_path.read_text()


# ---------------------------------------------------------------- what the page shows

CHECK_JS = r"""
([vw, vh]) => {
  const out = [];  // the screen's own size: a phone's innerWidth grows with a wide page
  const shown = el => {
    if (el.closest('[hidden]')) return false;
    const shut = el.closest('details:not([open])');
    if (shut && !el.closest('summary')) return false;
    const s = getComputedStyle(el), r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none';
  };
  const name = el => {
    let n = el.id ? '#' + el.id : el.tagName.toLowerCase();
    if (!el.id && typeof el.className === 'string' && el.className.trim())
      n += '.' + el.className.trim().split(/\s+/).slice(0, 2).join('.');
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim();
    return [n, text.replace(/\s+/g, ' ').slice(0, 50)];
  };
  const box = r => `${Math.round(r.left)},${Math.round(r.top)}..${Math.round(r.right)},${Math.round(r.bottom)}`;
  for (const el of document.querySelectorAll('#actions button, #hint-btn, #play-selected')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > vh + 0.5 || r.left < -0.5 || r.right > vw + 0.5) {
      const [n, t] = name(el);
      out.push(['button off screen', n + ' ' + t, `${n} "${t}" at ${box(r)} on ${vw}x${vh}, scrolled ${scrollY}`]);
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > vw + 1) out.push(['page wider than screen', '', `${wide}px on ${vw}px`]);
  for (const el of document.querySelectorAll('body *')) {
    if (el.closest('#hand, #log-list, svg') || !shown(el)) continue;
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.clientWidth <= 2) continue;  // visually hidden (screen readers' text)
    const s = getComputedStyle(el);
    const clipX = ['hidden', 'clip'].includes(s.overflowX) || s.textOverflow === 'ellipsis';
    const clipY = ['hidden', 'clip'].includes(s.overflowY);
    const [n, t] = name(el);
    if (clipX && el.scrollWidth > el.clientWidth + 1)
      out.push(['text cut off', n + ' ' + t, `${n} "${t}": ${el.scrollWidth}px of text in ${el.clientWidth}px`]);
    else if (clipY && el.scrollHeight > el.clientHeight + 2)
      out.push(['text cut off', n + ' ' + t, `${n} "${t}": ${el.scrollHeight}px high in ${el.clientHeight}px`]);
  }
  const ctrls = [...document.querySelectorAll('button, select, a[href], input:not([type=hidden]), h1, h2')]
    .filter(el => !el.closest('#hand, #log-list, .trick, .cards, svg') && shown(el));
  const rects = ctrls.map(el => el.getBoundingClientRect());
  for (let i = 0; i < ctrls.length; i++) for (let j = i + 1; j < ctrls.length; j++) {
    if (ctrls[i].contains(ctrls[j]) || ctrls[j].contains(ctrls[i])) continue;
    const a = rects[i], b = rects[j];
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 2 && h > 2) {
      const [n1, t1] = name(ctrls[i]), [n2, t2] = name(ctrls[j]);
      out.push(['controls overlap', `${n1} / ${n2}`, `${n1} "${t1}" ${box(a)} overlaps ${n2} "${t2}" ${box(b)}`]);
    }
  }
  return out;
}
"""  # noqa: E501 (the script's own lines)

TEXTS_JS = r"""
() => {
  const texts = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const n = walk.currentNode, el = n.parentElement, t = n.textContent.trim();
    if (!t || !el || el.closest('[hidden], script, style, #chat-list')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    texts.push(t);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]'))
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v && !el.closest('[hidden]')) texts.push(v.trim());
    }
  return texts;
}
"""


class English:
    """The English messages of the page's catalogue that fi and de translate differently:
    a visible text matching one of them on a fi/de page is English left untranslated."""

    def __init__(self) -> None:
        folder = ROOT / "tikki/web/static/i18n"
        self.patterns: dict[str, list[re.Pattern[str]]] = {}
        for lang in ("fi", "de"):
            messages = json.loads((folder / f"{lang}.json").read_text())["messages"]
            found = []
            for msgid, text in messages.items():
                plain = msgid if isinstance(msgid, str) else ""
                if isinstance(text, list):
                    text = text[0] if text else ""
                if text == plain or len(re.sub(r"\{\w+\}", "", plain)) < 4:
                    continue
                if not re.search(r"[A-Za-z]{3}", re.sub(r"\{\w+\}", "", plain)):
                    continue
                source = re.escape(plain)
                source = re.sub(r"\\\{\w+\\\}", ".+?", source)
                found.append(re.compile(source + r"\Z"))
            self.patterns[lang] = found

    def left_in(self, texts: list[str], lang: str) -> list[str]:
        """The texts of ``texts`` that are English messages ``lang`` translates."""
        hits = []
        for text in set(texts):
            if any(p.match(text) for p in self.patterns.get(lang, [])):
                hits.append(text)
        return sorted(hits)


def watch(page: Page, where: str, findings: Findings) -> None:
    """Record the page's console errors, page errors and 5xx answers as findings."""

    def console(msg: Any) -> None:
        if msg.type == "error":
            findings.add(where, "console error", msg.text[:80], msg.text, None)

    def response(r: Any) -> None:
        if r.status >= 500:
            short = re.sub(r"/[\w-]{8,}", "/…", r.url)
            key = f"{r.status} {r.request.method} {short}"
            findings.add(where, "server 5xx", key, f"{r.status} {r.request.method} {r.url}", None)

    page.on("console", console)
    page.on("pageerror", lambda e: findings.add(where, "page error", str(e)[:80], str(e), None))
    page.on("response", response)


# ---------------------------------------------------------------- playing as a person


class Player:
    """One browser page that plays by clicking (desktop) or tapping (phone)."""

    def __init__(self, page: Page, run: Run | None, findings: Findings, out: Path, where: str):
        self.page, self.run, self.findings, self.out, self.where = page, run, findings, out, where
        self.touch = bool(run and run.phone)
        self.last_tap = (0.0, -99.0, -99.0)

    def board(self, key: str) -> str:
        """A ``data-`` attribute of the board."""
        return self.page.get_attribute("#board", f"data-{key}") or ""

    def tap_xy(self, x: float, y: float) -> None:
        """Tap (x, y), waiting first as a person would if the last tap was on that spot."""
        when, lx, ly = self.last_tap
        if abs(x - lx) < 40 and abs(y - ly) < 40:
            time.sleep(max(0.0, when + 0.8 - time.monotonic()))
        self.last_tap = (time.monotonic(), x, y)
        self.page.touchscreen.tap(x, y)

    def press(self, selector: str) -> None:
        """Click or tap a button (scrolled into view first, as a person would)."""
        button = self.page.locator(selector).first
        if not self.touch:
            button.click()
            return
        button.scroll_into_view_if_needed()
        b = button.bounding_box()
        assert b is not None, selector
        self.tap_xy(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)

    def card(self, card: str) -> None:
        """Click a hand card where it shows (its top-left corner), or tap its strip."""
        item = self.page.locator(f"#hand .hand-card.legal[data-card='{card}']").first
        if not self.touch:
            item.click(position={"x": 6, "y": 22})
            return
        item.scroll_into_view_if_needed()
        li = self.page.locator(f"#hand li:has(.hand-card.legal[data-card='{card}'])").first
        b = li.bounding_box()
        assert b is not None, card
        nxt = self.page.evaluate(
            """(card) => {
              const li = document.querySelector(`#hand .hand-card[data-card='${card}']`)
                .parentElement;
              const next = li.nextElementSibling;
              return next ? next.getBoundingClientRect().left : null;
            }""",
            card,
        )
        right = b["x"] + b["width"] if nxt is None else nxt
        self.tap_xy((b["x"] + right) / 2, b["y"] + b["height"] * 0.6)

    def move(self, move: str) -> bool:
        """Make ``move`` through the page; False when the page did not make it."""
        words = move.split(" ")
        cards = move.split("+") if len(words) == 1 else words[1:]
        card_move = (len(words) == 1 and move not in ("stock", "take", "pass")) or words[0] in (
            "slough",
            "discard",
        )
        seq = self.board("seq")
        if not card_move:
            self.press(f"#actions [data-move='{move}']")
        else:
            for card in cards:
                self.card(card)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.board("seq") != seq or self.board("status") == "finished":
                return True
            play = self.page.locator("#play-selected")
            if card_move and play.count() and play.get_attribute("data-move") == move:
                self.press("#play-selected")
                self.page.wait_for_function(
                    "s => document.querySelector('#board').dataset.seq !== s", arg=seq
                )
                return True
            time.sleep(0.1)
        return False

    def check(self, turn: int) -> None:
        """The layout findings of this moment."""
        screen = [self.run.width, self.run.height] if self.run else [1280, 800]
        for kind, key, detail in self.page.evaluate(CHECK_JS, screen):
            phase = self.board("phase") if self.page.locator("#board").count() else "-"
            self.findings.add(self.where, kind, key, f"{detail} (turn {turn}, {phase})", self.page)


def choose(legal: list[str], turn: int) -> str:
    """A plain player's move: a run or sequence when there is one, else a card (varied),
    else the first button's move (take when nothing else)."""
    multi = [m for m in legal if "+" in m]
    if multi:
        return max(multi, key=lambda m: m.count("+"))
    others = [m for m in legal if m != "take"]
    if not others:
        return legal[0]
    return others[turn % len(others)] if len(others) > 1 and turn % 3 == 0 else others[0]


def create_table(
    player: Player, base: str, game: str, lang: str, rated: bool = False, name: str = "Anna"
) -> None:
    """The lobby as a newcomer uses it: name, game, 3 players, seats (me, Easy, Medium),
    Create, then Take this seat."""
    page = player.page
    page.goto(f"{base}/?lang={lang}")
    if page.locator("#player-name").is_visible() and page.locator("#player-name").is_editable():
        page.fill("#player-name", name)
    player.press(f"label:has(input[name=game][value={game}])")
    page.select_option("#players", "3")
    if rated:
        page.locator("#rated-box").wait_for()
        player.press("label:has(#rated)")
    for seat, kind in enumerate(["open", "bot:random", "bot:heuristic"]):
        page.select_option(f"#seat-{seat}", kind)
    player.check(-1)  # the lobby's form
    player.press("#create-btn")
    page.locator("#created [data-take='0']").wait_for()
    snap(page, player.out, f"{player.where}-0-lobby-created")
    player.press("#created [data-take='0']")
    page.wait_for_url(re.compile(r"/t/[^/?]+\?seat=0"), timeout=60_000)
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)


def play_game(player: Player, english: English, lang: str) -> int:
    """Play to the end; checks before each of our moves, screenshots at the moments."""
    page, where = player.page, player.where
    phases: set[str] = set()
    turn = 0
    for turn in range(MAX_TURNS):
        page.wait_for_selector(
            "#board[data-turn=you][data-status=playing], #board[data-status=finished]",
            timeout=60_000,
        )
        if player.board("status") == "finished":
            break
        phase = player.board("phase")
        if phase not in phases or turn % SHOT_EVERY == 0:
            phases.add(phase)
            snap(page, player.out, f"{where}-{turn:03d}-{phase}")
            look_for_english(player, english, lang, f"turn {turn}, {phase}")
        player.check(turn)
        legal = json.loads(player.board("legal"))
        move = choose(legal, turn)
        if not player.move(move):
            player.findings.add(where, "stuck", move, f"{move!r} of {legal} not made", page)
            raise RuntimeError(f"{where}: the move {move!r} did not happen")
    else:
        raise RuntimeError(f"{where}: no end after {MAX_TURNS} moves")
    page.wait_for_selector("#result:not([hidden])")
    page.wait_for_timeout(300)
    snap(page, player.out, f"{where}-{turn:03d}-end")
    page.locator("#result").scroll_into_view_if_needed()
    snap(page, player.out, f"{where}-{turn:03d}-end-result")
    look_for_english(player, english, lang, "the end")
    player.check(turn)
    return turn


def look_for_english(player: Player, english: English, lang: str, when: str) -> None:
    """English messages left on a fi/de page."""
    if lang == "en":
        return
    for text in english.left_in(player.page.evaluate(TEXTS_JS), lang):
        player.findings.add(
            player.where, "English on a " + lang + " page", text, f"{text!r} ({when})", player.page
        )


def new_context(browser: Browser, run: Run) -> BrowserContext:
    """A browser context for ``run``'s screen and language."""
    locale = {"en": "en-GB", "fi": "fi-FI", "de": "de-DE"}[run.lang]
    viewport = {"width": run.width, "height": run.height}
    if run.phone:
        return browser.new_context(viewport=viewport, locale=locale, has_touch=True, is_mobile=True)  # type: ignore[arg-type]
    return browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]


def play_run(browser: Browser, base: str, run: Run, findings: Findings, out: Path) -> str:
    """One whole game of ``run``; returns a line for the summary."""
    english = English()
    context = new_context(browser, run)
    page = context.new_page()
    watch(page, run.name, findings)
    player = Player(page, run, findings, out, run.name)
    started = time.monotonic()
    create_table(player, base, run.game, run.lang)
    turns = play_game(player, english, run.lang)
    result = page.inner_text("#result").replace("\n", " ")[:120]
    context.close()
    return f"{run.name}: {turns} moves of ours in {time.monotonic() - started:.0f} s; {result}"


# ---------------------------------------------------------------- account and replay


def account_run(browser: Browser, base: str, findings: Findings, out: Path) -> str:
    """Sign up, create a rated table, see Hint off with its reason, finish, open the profile."""
    run = Run("myllymatti", "de", 1280, 800)
    context = new_context(browser, run)
    page = context.new_page()
    where = "account-de"
    watch(page, where, findings)
    player = Player(page, run, findings, out, where)
    page.goto(f"{base}/account?lang=de")
    page.locator("#register-form").wait_for()
    snap(page, out, f"{where}-0-page")
    page.fill("#register-name", "Veera")
    page.fill("#register-password", PASSWORD)
    page.locator("#register-form button[type=submit]").click()
    page.locator("#me-link", has_text="Veera").wait_for()
    snap(page, out, f"{where}-1-signed-in")
    create_table(player, base, "myllymatti", "de", rated=True, name="Veera")
    page.wait_for_selector("#board[data-turn=you], #board[data-status=finished]")
    hint = page.locator("#hint-btn")
    why = (hint.get_attribute("title") or "") + " | " + page.inner_text("#hint-text")
    if hint.is_visible() and not hint.is_disabled():
        findings.add(where, "hint at a rated table", "enabled", f"Hint is on: {why}", page)
    elif not re.search(r"[Bb]ewertet|gewertet", why):
        findings.add(
            where, "hint reason", "missing", f"Hint off without a German reason: {why!r}", page
        )
    snap(page, out, f"{where}-2-rated-table")
    turns = play_game(player, English(), "de")
    player.press("a.brand")  # to the lobby, whose account link is one's name: the profile
    page.locator("#account-link", has_text="Veera").wait_for()
    player.check(-2)
    player.press("#account-link")
    page.wait_for_load_state("load")
    page.wait_for_timeout(1500)
    snap(page, out, f"{where}-3-profile")
    page.screenshot(path=str(out / f"{where}-3-profile-full.png"), full_page=True)
    look_for_english(player, English(), "de", "profile")
    player.check(-3)
    text = page.inner_text("body")
    context.close()
    return (
        f"{where}: rated game of {turns} moves; hint: {why.strip()[:80]}; profile {len(text)} chars"
    )


def replay_run(browser: Browser, base: str, findings: Findings, out: Path) -> str:
    """Play a short game, take its record (as the result's link downloads it), upload it
    at /replay, step on, reload the page and open the link in a fresh browser."""
    run = Run("mattis", "fi", 1280, 800)
    where = "replay-fi"
    context = new_context(browser, run)
    page = context.new_page()
    watch(page, where, findings)
    player = Player(page, run, findings, out, where)
    create_table(player, base, "myllymatti", "fi")
    play_game(player, English(), "fi")
    href = page.get_attribute("#record-link", "href")
    assert href, "no record link"
    with page.expect_download() as download:
        page.locator("#record-link").click()  # the link downloads (its download attribute)
    path = download.value.path()
    data = Path(path).read_bytes() if path else page.request.get(base + href).body()
    page.goto(f"{base}/replay?lang=fi")
    page.wait_for_selector("#upload:not([hidden])")
    page.set_input_files(
        "#record-file",
        files=[{"name": "peli.json", "mimeType": "application/json", "buffer": data}],
    )
    page.wait_for_selector("#board[data-at='0']")
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    page.wait_for_function("location.hash.startsWith('#record=')")
    snap(page, out, f"{where}-1-uploaded")
    player.check(-1)
    link = page.url
    page.reload()
    try:
        page.wait_for_selector("#board[data-at='5']", timeout=15_000)
    except Exception:
        findings.add(
            where,
            "shared link",
            "reload",
            f"reloaded link does not open: {page.inner_text('body')[:200]}",
            page,
        )
    snap(page, out, f"{where}-2-reloaded")
    fresh = browser.new_context(viewport={"width": 1366, "height": 768}, locale="de-DE")
    other = fresh.new_page()
    watch(other, where + "-fresh", findings)
    other.goto(re.sub(r"lang=\w+&?", "", link))  # the link as shared, in the reader's language
    try:
        other.wait_for_selector("#board[data-at='5']", timeout=15_000)
    except Exception:
        findings.add(
            where,
            "shared link",
            "fresh",
            f"link in a fresh browser: {other.inner_text('body')[:200]}",
            other,
        )
    snap(other, out, f"{where}-3-fresh-de")
    look_for_english(Player(other, run, findings, out, where + "-fresh"), English(), "de", "replay")
    fresh.close()
    context.close()
    return f"{where}: record of {len(data)} bytes uploaded, link {len(link)} chars"


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    """Run the play-through; see the module's docstring."""
    names = [r.name for r in RUNS] + list(EXTRAS)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out", type=Path, required=True, help="folder for screenshots and findings"
    )
    parser.add_argument(
        "--only", action="append", choices=names, help="run only these (repeatable)"
    )
    parser.add_argument("--list", action="store_true", help="print the runs' names and stop")
    parser.add_argument(
        "--trick-hold", type=int, default=0, help="ms a finished trick stays (players: 1600)"
    )
    args = parser.parse_args(argv)
    if args.list:
        print("\n".join(names))
        return 0
    chosen = args.only or names
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    findings = Findings(out)
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "play.sqlite")
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                for name in chosen:
                    failed += one(browser, server.url, name, findings, out, args.trick_hold)
                browser.close()
        finally:
            log = server.stop()
            (out / "server.log").write_text(log)
            for line in log.splitlines():
                if re.search(r'" 5\d\d |Traceback|ERROR', line):
                    findings.add("server", "server log", line[:80], line, None)
            findings.write()
    print(f"{len(findings.items)} findings in {out / 'findings.md'}")
    return 1 if failed else 0


def one(browser: Browser, base: str, name: str, findings: Findings, out: Path, hold: int) -> int:
    """Run one named play-through; returns 1 when it could not finish."""
    browser_hold(browser, hold)
    started = time.monotonic()
    try:
        if name == "account":
            line = account_run(browser, base, findings, out)
        elif name == "replay":
            line = replay_run(browser, base, findings, out)
        else:
            line = play_run(browser, base, next(r for r in RUNS if r.name == name), findings, out)
    except Exception as err:
        findings.add(name, "run failed", type(err).__name__, traceback.format_exc()[-600:], None)
        print(f"{name}: FAILED after {time.monotonic() - started:.0f} s: {err}", flush=True)
        return 1
    print(line, flush=True)
    return 0


def browser_hold(browser: Browser, ms: int) -> None:
    """Contexts made from now on hold a finished trick ``ms`` ms (the page's test hook)."""
    if getattr(browser, "_tikki_hold", None) is not None:
        return
    make = browser.new_context

    def new_context(**kwargs: Any) -> BrowserContext:
        context = make(**kwargs)
        context.add_init_script(f"globalThis.TIKKI_TRICK_HOLD_MS = {int(ms)};")
        return context

    setattr(browser, "new_context", new_context)  # noqa: B010
    setattr(browser, "_tikki_hold", ms)  # noqa: B010


if __name__ == "__main__":
    sys.exit(main())
