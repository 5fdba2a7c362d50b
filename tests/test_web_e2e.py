"""Browser end-to-end tests of the web table: lobby, table page, whole games.

A real ``tikki serve`` process (SQLite, no bot delay) and Debian's Chromium driven by
Playwright's sync API. Every game is played by clicking, as a person would: highlighted
cards, the move buttons, selected cards then *Play* for runs and sequences. Screenshots
go to ``test-artifacts/``.

Without Chromium or Playwright these tests skip with the reason; under ``CI=true`` they
fail instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

import tikki

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = os.environ.get("TIKKI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}
LABELS = ("inaccuracy", "mistake", "blunder")
MAX_TURNS = 800
"""Our own moves in one game before the test gives up (a game has a few hundred at most)."""

try:
    from playwright.sync_api import Browser, BrowserContext, Error, Page, sync_playwright

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - only without the test extras
    HAVE_PLAYWRIGHT = False


def _missing(reason: str) -> None:
    """Skip loudly, or fail under CI, when the browser tests cannot run."""
    message = f"browser tests need {reason}"
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message)


# ---------------------------------------------------------------- server and browser


class Server:
    """A ``tikki serve`` child process on a free port; ``url`` is its printed address."""

    def __init__(self, db_path: Path, port: int = 0, extra: tuple[str, ...] = ()) -> None:
        env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}
        cmd = [sys.executable, "-m", "tikki.cli", "serve", "--port", str(port)]
        cmd += ["--db", f"sqlite:///{db_path}", "--bot-delay", "0"]
        cmd.append("--allow-client-seeds")  # the games replay known deals
        cmd += ["--analysis-iterations", "30"]  # "Analyse my game" in seconds
        cmd += ["--create-rate", "600", "--join-rate", "600"]  # a module makes many tables
        # every browser of a module is one address (127.0.0.1): lift its per-address limits
        cmd += ["--connect-rate", "6000", "--read-rate", "6000", "--hint-rate", "6000"]
        cmd += ["--puzzle-rate", "6000"]  # the puzzles' module tries many, as guests
        cmd += ["--waiting-per-address", "1000", "--watchers-per-address", "1000"]
        cmd += extra
        self.proc = subprocess.Popen(
            cmd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            cwd=ROOT,
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.output: list[str] = []
        threading.Thread(target=self._pump, daemon=True).start()
        self.url = self._wait_for_url(timeout=60)

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.output.append(line)
            self.lines.put(line)

    def _wait_for_url(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            found = re.search(r"(http://\S+?)/?\s*$", line)
            if found:
                return found.group(1).rstrip("/")
        self.stop()
        raise RuntimeError("tikki serve printed no URL:\n" + "".join(self.output))

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def serving(folder: str, file: str = "web.sqlite") -> Any:
    """A module's ``server`` fixture: one :class:`Server` on a fresh SQLite ``file`` in a
    temporary ``folder``, stopped after the module (``server = serving("name")``)."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
        srv = Server(tmp_path_factory.mktemp(folder) / file)
        yield srv
        srv.stop()

    return server


server = serving("web")


class Chromium:
    """This test process's Playwright and Chromium, kept from one browser module to the
    next (each start costs a second or more).

    Closed as soon as a test that does not use :func:`browser` is about to run (the
    repository's conftest.py): while Playwright's sync API is started its event loop
    counts as running in this thread, and ``asyncio.run`` in another test would refuse.
    """

    playwright: Any = None
    browser: Browser | None = None
    users = 0
    """The module fixtures using it now (it stays open while one is)."""

    @classmethod
    def get(cls) -> Browser:
        """The running Chromium, started (with :func:`quick_tricks`) if there is none."""
        if cls.browser is not None and not cls.browser.is_connected():
            cls.close()
        if cls.browser is None:
            p = sync_playwright().start()
            try:
                b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            except Error as err:
                p.stop()
                _missing(f"a Chromium that starts ({CHROMIUM}: {err})")
            quick_tricks(b)
            cls.playwright, cls.browser = p, b
        return cls.browser

    @classmethod
    def close(cls) -> None:
        """Close Chromium and stop Playwright, unless a module fixture is using them."""
        if cls.users or cls.browser is None:
            return
        browser, cls.browser = cls.browser, None
        with contextlib.suppress(Error):
            browser.close()
        cls.playwright.stop()
        cls.playwright = None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for a module's tests (shared with the next module that uses it); the
    contexts and pages a module leaves open are closed after it."""
    if not HAVE_PLAYWRIGHT:
        _missing("the Python package playwright (pip install -e '.[test]')")
    if not Path(CHROMIUM).exists():
        _missing(
            f"Chromium at {CHROMIUM} (Debian: apt-get install chromium; or set TIKKI_CHROMIUM)"
        )
    b = Chromium.get()
    Chromium.users += 1
    try:
        yield b
    finally:
        Chromium.users -= 1
        for context in b.contexts:
            with contextlib.suppress(Error):
                context.close()


QUICK_TRICK_HOLD_MS = 0
"""The tests' trick hold (``store.js``'s ``TRICK_HOLD_MS``, 1600 ms for players): the tests
play whole games and need not wait for the pause after each finished trick.  With 0 the
page changes only when a message comes, never on a timer while it is our turn: a trick
leaving the table 150 ms into our turn moved the hand under a phone test's tap."""


def hold_tricks(target: BrowserContext | Page, ms: int) -> None:
    """Pages of ``target`` loaded from now on hold each finished trick ``ms`` ms."""
    target.add_init_script(f"globalThis.TIKKI_TRICK_HOLD_MS = {int(ms)};")


def quick_tricks(browser: Browser) -> None:
    """Every context and page this browser makes from now on holds tricks
    :data:`QUICK_TRICK_HOLD_MS` ms; a test that watches the hold sets it back with
    :func:`hold_tricks`."""
    make_context, make_page = browser.new_context, browser.new_page

    def new_context(**kwargs: Any) -> BrowserContext:
        context = make_context(**kwargs)
        hold_tricks(context, QUICK_TRICK_HOLD_MS)
        return context

    def new_page(**kwargs: Any) -> Page:
        page = make_page(**kwargs)
        hold_tricks(page, QUICK_TRICK_HOLD_MS)
        return page

    setattr(browser, "new_context", new_context)  # noqa: B010 (a bound method replaced)
    setattr(browser, "new_page", new_page)  # noqa: B010


class Watch:
    """Console errors, page errors and failed requests seen by a page."""

    def __init__(self, page: Page) -> None:
        self.problems: list[str] = []
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: (
                self.problems.append(f"console {m.type}: {m.text}")
                if m.type == "error" and "WebSocket connection" not in m.text
                else None
            ),
        )
        page.on(
            "response",
            lambda r: (
                self.problems.append(f"{r.status} {r.url}")
                if r.status >= 400 and "/static/" in r.url
                else None
            ),
        )

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------- playing by clicking


def board(page: Page, key: str) -> str:
    value = page.get_attribute("#board", f"data-{key}")
    assert value is not None
    return value


def board_data(page: Page) -> dict[str, str]:
    """Every ``data-*`` attribute of ``#board`` (status, phase, seq, legal, ...), read at
    one moment in one round trip."""
    data: dict[str, str] = page.evaluate("() => ({...document.querySelector('#board').dataset})")
    return data


def wait_turn_or_end(page: Page) -> None:
    page.wait_for_selector(
        "#board[data-turn=you][data-status=playing], #board[data-status=finished]",
        timeout=30_000,
    )


def click_card(page: Page, card: str) -> None:
    """Click a highlighted hand card on its top-left corner (the part left visible when
    the hand overlaps)."""
    page.locator(f"#hand .hand-card.legal[data-card='{card}']").first.click(
        position={"x": 6, "y": 22}
    )


def choose(legal: list[str]) -> str:
    """The test player's move: the longest run or sequence, else the first move that is
    not ``take`` (a shedding game ends sooner), else ``take``."""
    multi = [m for m in legal if "+" in m]
    if multi:
        return max(multi, key=lambda m: (m.count("+"), -legal.index(m)))
    return next((m for m in legal if m != "take"), legal[0])


def click_move(page: Page, move: str, legal: list[str], keyboard: bool = False) -> None:
    """Make ``move`` through the page: a card click, selected cards then Play, or a button
    (with ``keyboard``, a single card is focused and played with Enter instead)."""
    words = move.split(" ")
    cards = move.split("+") if len(words) == 1 else words[1:]
    is_card_move = (len(words) == 1 and move not in ("stock", "take", "pass")) or words[0] in (
        "slough",
        "discard",
    )
    if is_card_move and keyboard and len(cards) == 1:
        page.locator(f"#hand .hand-card.legal[data-card='{cards[0]}']").first.focus()
        page.keyboard.press("Enter")
        if page.locator("#play-selected[data-move]").count():
            page.locator("#play-selected").focus()
            page.keyboard.press("Enter")
    elif is_card_move:
        for card in cards:
            click_card(page, card)
        in_run = any(card in m.split("+") for m in legal if "+" in m for card in cards)
        selected = page.locator("#hand .hand-card.selected").count() > 0
        if "+" in move or in_run or selected:  # a phase of sequences selects every card
            play = page.locator("#play-selected")
            assert play.get_attribute("data-move") == move, play.inner_text()
            play.click()
    else:
        page.locator(f"#actions [data-move='{move}']").click()


def play_game(page: Page, name: str, mid: str, hint_at: int = 3, keys_at: int = 1) -> int:
    """Play to the end by clicking; screenshots at the start, when ``mid`` (a JS test)
    first holds, and at the end. Returns how many moves we made."""
    page.wait_for_selector("#board[data-status=playing]", timeout=30_000)
    labels = page.locator("#hand [data-card]").evaluate_all("els => els.map(e => e.ariaLabel)")
    assert labels and all(re.fullmatch(r"[a-z0-9]+ (of )?[a-z0-9]+", x or "") for x in labels), (
        labels
    )
    shot(page, f"{name}-start")
    mid_done = False
    turns = 0
    for turns in range(MAX_TURNS):
        wait_turn_or_end(page)
        data = board_data(page)
        if data["status"] == "finished":
            break
        if not mid_done and page.evaluate(mid):
            shot(page, f"{name}-mid")
            mid_done = True
        seq = data["seq"]
        legal = json.loads(data["legal"])
        assert legal, "our turn with no legal moves"
        move = choose(legal)
        if turns == hint_at:
            page.click("#hint-btn")
            page.wait_for_selector("#hint-text:has-text('Suggestion')")
            hinted = page.locator(".hinted").count()
            assert hinted >= 1, "the hinted move is not highlighted"
        click_move(page, move, legal, keyboard=turns == keys_at)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
        assert not page.locator("#notice.error:not([hidden])").count(), page.inner_text("#notice")
    else:
        pytest.fail(f"{name}: no end after {MAX_TURNS} of our moves")
    page.wait_for_selector("#result:not([hidden])")
    shot(page, f"{name}-end")
    return turns


def create_in_lobby(
    page: Page,
    base: str,
    game: str,
    seats: list[str],
    seed: int,
    options: dict[str, Any] | None = None,
) -> str:
    """Fill the lobby form (name, game, 3 players, options, seats, seed), create the
    table and take seat 1 (our open seat); return the table id."""
    page.goto(base + "/")
    page.fill("#player-name", "Anna")
    page.check(f"input[name=game][value={game}]")
    page.select_option("#players", "3")
    for key, value in (options or {}).items():
        page.click("#options-box summary")
        if isinstance(value, bool):
            page.set_checked(f"#opt-{key}", value)
        else:
            page.select_option(f"#opt-{key}", str(value))
    for i, kind in enumerate(seats):
        page.select_option(f"#seat-{i}", kind)
    page.click("summary:has-text('Seed')")
    page.fill("#seed", str(seed))
    page.click("#create-btn")
    invite = page.locator("#invite-0")
    invite.wait_for()
    url = invite.input_value()
    found = re.search(r"/t/([^/?]+)\?seat=0#invite=[\w-]{20,}$", url)
    assert found, url
    assert page.locator("[data-copy='invite-0']").is_visible()
    take_first_seat(page)
    return found.group(1)


def take_first_seat(page: Page) -> None:
    """Click "Take this seat" for seat 1 of the table just created in the lobby and wait
    for its table page.  On failure say why: the lobby's notice, the API answers that
    were not 2xx and where the page is (a bare URL timeout says nothing)."""
    refused: list[str] = []

    def note(response: Any) -> None:
        if "/api/" in response.url and response.status >= 400:
            refused.append(f"{response.request.method} {response.url} -> {response.status}")

    page.on("response", note)
    page.click("#created [data-take='0']")
    seated = re.compile(r"/t/[^/?]+\?seat=0$")
    deadline = time.monotonic() + 90
    while not seated.search(page.url):
        notice = page.locator(".field-error")  # an error beside the button (or the name)
        if notice.count():
            pytest.fail(f"the seat was not taken: {notice.first.inner_text()!r}; {refused}")
        if time.monotonic() > deadline:
            pytest.fail(f"no table page after 90 s: at {page.url}; {refused}")
        page.wait_for_timeout(100)
    page.remove_listener("response", note)
    page.wait_for_load_state("load")


def check_record(page: Page, base: str, table_id: str) -> dict[str, Any]:
    """The result's record link works and the record replays to a finished game."""
    link = page.locator("#record-link")
    href = link.get_attribute("href")
    assert href == f"/api/tables/{table_id}/record"
    response = page.request.get(base + href)
    assert response.ok, response.status
    record: dict[str, Any] = response.json()
    state = tikki.replay(record)
    assert state.is_over
    table = page.request.get(f"{base}/api/tables/{table_id}").json()
    assert table["status"] == "finished"
    assert state.outcome == table["outcome"]
    return record


# ---------------------------------------------------------------- the three games


def test_myllymatti_whole_game(server: Server, browser: Browser) -> None:
    """Myllymatti with runs on (the option set in the lobby): duels, then shedding with
    runs picked by selecting cards; one Easy and one Medium bot."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create_in_lobby(
        page, server.url, "myllymatti", ["open", "bot:random", "bot:heuristic"], 11, {"runs": True}
    )
    page.wait_for_selector("#board[data-status=playing]")
    # Reloading the page reconnects to the seat with the stored token and resynchronises.
    wait_turn_or_end(page)
    seq = board(page, "seq")
    cards = [c.get_attribute("data-card") for c in page.locator("#hand [data-card]").all()]
    assert len(cards) == 3
    page.reload()
    page.wait_for_selector(f"#board[data-seq='{seq}']")
    assert not page.locator("#join:not([hidden])").count()
    assert [c.get_attribute("data-card") for c in page.locator("#hand [data-card]").all()] == cards
    turns = play_game(
        page, "myllymatti", "document.querySelector('#board').dataset.phase === 'shed'"
    )
    assert turns > 5
    result = page.inner_text("#result")
    assert "myllymatti" in result or "abandoned" in result
    record = check_record(page, server.url, table_id)
    assert record["options"]["runs"] is True
    assert any("+" in m for m in record["moves"]), "no run was played"
    analyse_my_game(page)
    page.reload()  # the analysis is kept: reopening the table shows it at once
    page.locator(".analysis-summary").wait_for(timeout=5_000)
    assert page.locator("#analyse").count() == 0
    watch.check()
    context.close()


def analyse_my_game(page: Page) -> None:
    """ "Analyse my game": progress, then the summary, the chart and the marked log, while
    the page stays responsive."""
    page.click("#analyse")
    page.wait_for_selector("#analysis-status:has-text('Judging'), .analysis-summary")
    assert page.evaluate("1 + 1") == 2  # the page answers while the server works
    page.wait_for_selector(".analysis-summary", timeout=120_000)
    summary = page.inner_text(".analysis-summary")
    assert re.search(r"Accuracy \d+% over \d+ decisions?", summary), summary
    assert page.locator("svg.analysis-chart circle").count() >= 1
    marks = ", ".join(f"svg.analysis-chart circle.{label}" for label in LABELS)
    labelled = page.locator(marks).count()
    assert page.locator("#log-list .verdict").count() == labelled
    # the chart marks every labelled move and nothing else (the other points are invisible
    # link targets), one sentence says how a label is decided, and each marked move names
    # the better move and by how much
    assert page.locator("svg.analysis-chart circle.dot").count() == labelled
    invisible = page.locator("svg.analysis-chart circle.hit").first
    if invisible.count():
        assert invisible.evaluate("c => getComputedStyle(c).fill") in (
            "transparent",
            "rgba(0, 0, 0, 0)",
        )
    rule = page.inner_text(".analysis-rule")
    assert "labelled when" in rule and "sampling error" in rule, rule
    for badge in page.locator("#log-list .verdict").all_inner_texts():
        assert "better by" in badge and "±" in badge, badge
    # moves read as in the log (9♦, not the move text 9D), in the summary and the marks
    shown = page.inner_text("#analysis-body") + " ".join(
        page.locator("#log-list .verdict").all_inner_texts()
    )
    raw = re.findall(r"\b(?:[2-9]|10|[JQKA])[CDHS]\b", shown)
    assert not raw, f"raw move texts in the analysis: {raw}"
    shot(page, "analysis-end")


def test_mattis_whole_game_on_a_phone(server: Server, browser: Browser) -> None:
    """Mattis played on a phone-sized screen: slough laps, sequences, the dreck; against
    a Learned bot (the lobby offers it for 3 players, its model's count, not for 4)."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    watch = Watch(page)
    check_learned_offer(page, server.url)
    table_id = create_in_lobby(page, server.url, "mattis", ["open", "bot:learned", "bot:random"], 5)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the table page is {width}px wide on a phone"
    turns = play_game(
        page, "mattis-phone", "document.querySelector('#board').dataset.phase === 'shed'"
    )
    assert turns > 5
    assert "Aino (Learned)" in page.inner_text("#log-list"), "the Learned bot's moves"
    assert "loser" in page.inner_text("#result") or "abandoned" in page.inner_text("#result")
    check_record(page, server.url, table_id)
    watch.check()
    context.close()


def check_learned_offer(page: Page, base: str) -> None:
    """The lobby offers the Learned level for Mattis with 3 players (its shipped model's
    count) and says what it is, and not for 4 players, where a seat set to Learned falls
    back to Medium, nor in the research variant (a smaller deck)."""
    page.goto(base + "/")
    page.check("input[name=game][value=mattis]")
    page.select_option("#players", "3")
    learned = "#seat-1 option[value='bot:learned']"
    assert page.locator(learned).inner_text() == "Bot · Learned"
    assert page.locator("#learned-help").is_visible()
    page.select_option("#seat-1", "bot:learned")
    page.select_option("#players", "4")
    assert page.locator(learned).count() == 0
    assert page.input_value("#seat-1") == "bot:heuristic"
    page.select_option("#players", "3")
    assert page.locator(learned).count() == 1
    page.select_option("#variant", "mini")
    assert page.locator(learned).count() == 0


def test_mueckenstich_whole_game(server: Server, browser: Browser) -> None:
    """Mückenstich for 3: set-aside, trump naming, double and drop, the score sheet."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create_in_lobby(
        page, server.url, "mueckenstich", ["open", "bot:heuristic", "bot:random"], 3
    )
    turns = play_game(
        page,
        "mueckenstich",
        "document.querySelectorAll('#sheet tbody th').length > 0",
    )
    assert turns > 20
    assert page.locator("#sheet tbody th").count() == 3, "three rounds on the score sheet"
    assert "win" in page.inner_text("#result")
    record = check_record(page, server.url, table_id)
    assert any(m.startswith("trump ") for m in record["moves"])
    watch.check()
    context.close()


# ---------------------------------------------------------------- reconnecting


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_reconnects_after_a_server_restart(browser: Browser, tmp_path: Path) -> None:
    """The server goes away mid-game: the page says so, retries with backoff, and when the
    server is back (same database, same port) it resynchronises and play goes on."""
    db = tmp_path / "restart.sqlite"
    port = _free_port()
    srv = Server(db, port)
    context = browser.new_context(viewport=DESKTOP)
    try:
        page = context.new_page()
        watch = Watch(page)
        create_in_lobby(page, srv.url, "myllymatti", ["open", "bot:random", "bot:random"], 21)
        for _ in range(2):
            wait_turn_or_end(page)
            seq = board(page, "seq")
            legal = json.loads(board(page, "legal"))
            click_move(page, choose(legal), legal)
            page.wait_for_function(
                "s => document.querySelector('#board').dataset.seq !== s", arg=seq
            )
        wait_turn_or_end(page)
        seq = board(page, "seq")
        cards = [c.get_attribute("data-card") for c in page.locator("#hand [data-card]").all()]
        srv.stop()
        # offline and saying it tries again; under load the first retry may already be
        # under way ("connecting…") when read, so wait for an offline spell that says so
        page.wait_for_function(
            """() => { const c = document.querySelector('#conn');
                return c.dataset.state === 'offline' && c.innerText.includes('reconnecting'); }""",
            timeout=15_000,
        )
        srv = Server(db, port)
        page.wait_for_selector("#conn[data-state=online]", timeout=30_000)
        page.wait_for_selector(f"#board[data-seq='{seq}'][data-turn=you]")
        after = [c.get_attribute("data-card") for c in page.locator("#hand [data-card]").all()]
        assert after == cards
        legal = json.loads(board(page, "legal"))
        click_move(page, choose(legal), legal)
        page.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
        watch.check()
    finally:
        context.close()
        srv.stop()


# ---------------------------------------------------------------- joining by invite link


def test_invite_link_join_and_watch(server: Server, browser: Browser) -> None:
    """Two people: the creator takes seat 1 in the lobby and waits (the page shows the
    invite link); a friend opens the link in another browser, gives a name on the table
    page and joins; the game starts for both; a third browser watches."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    page.goto(server.url + "/")
    page.fill("#player-name", "Anna")
    page.check("input[name=game][value=myllymatti]")
    page.select_option("#players", "3")
    page.select_option("#seat-1", "open")
    page.select_option("#seat-2", "bot:random")
    page.click("#create-btn")
    page.locator("#invite-1").wait_for()
    invite = page.locator("#invite-1").input_value()
    page.click("#created [data-take='0']")
    page.wait_for_selector("#board[data-status=waiting]")
    assert page.locator("#status input").first.input_value() == invite
    shot(page, "invite-waiting")

    # Without the link's secret (its #invite= fragment) nobody else can take seat 2.
    eve_context = browser.new_context(viewport=DESKTOP)
    eve = eve_context.new_page()
    eve.goto(invite.split("#")[0])
    eve.wait_for_selector("#join:has-text('needs its invite link')")
    assert eve.locator("#join-form button[type=submit]").count() == 0
    eve_context.close()

    friend_context = browser.new_context(viewport=DESKTOP)
    friend = friend_context.new_page()
    friend_watch = Watch(friend)
    assert "#invite=" in invite
    friend.goto(invite)
    friend.fill("#join-name", "Bertil")
    friend.click("#join-form button[type=submit]")
    friend.wait_for_selector("#board[data-status=playing]")
    page.wait_for_selector("#board[data-status=playing]")
    assert "Bertil" in page.inner_text("#seats")
    assert "Anna" in friend.inner_text("#seats")
    # The lobby lists the table as being played, not as open.
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.select_option("#table-filter", "playing")
    lobby.wait_for_selector(".table-item:has-text('Bertil')")

    # A spectator sees the public view: no hand, no moves.
    spectator_context = browser.new_context(viewport=PHONE)
    spectator = spectator_context.new_page()
    spectator.goto(invite.split("?")[0])
    spectator.click("#watch-btn")
    spectator.wait_for_selector("#board[data-status=playing]")
    assert spectator.locator("#you").is_hidden()
    assert board(spectator, "legal") == "[]"
    watch.check()
    friend_watch.check()
    for c in (context, friend_context, spectator_context):
        c.close()


# ---------------------------------------------------------------- the log: events, not diffs


def _log_lines(page: Page) -> list[str]:
    lines: list[str] = page.locator("#log-list li").evaluate_all(
        "els => els.map(e => e.innerText.trim())"
    )
    return lines


def test_log_after_a_reload_equals_the_log_before(server: Server, browser: Browser) -> None:
    """The log's "what happened" lines (trick won, phase 2, out, …) come from the
    engine's events in the view, so a reload rebuilds exactly the same log; and a finished
    table opened from the lobby shows its whole log.  The page asks for history deltas
    (docs/protocol.md): the log built from them is the one a fresh socket's whole history
    builds."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
    create_in_lobby(page, server.url, "myllymatti", ["open", "bot:random", "bot:random"], 4)
    for _ in range(12):
        wait_turn_or_end(page)
        if board(page, "status") == "finished":
            break
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        click_move(page, choose(legal), legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
    wait_turn_or_end(page)
    seq = board(page, "seq")
    before = _log_lines(page)
    states = [m for m in map(json.loads, frames) if m.get("type") == "state"]
    assert states[0]["history_from"] == 0 and len(states) > 12
    assert max(m["history_from"] for m in states) > 12, "the page asked for no deltas"
    events = page.locator("#log-list li.event").all_inner_texts()
    assert any("wins the" in line for line in events), events
    assert any(line.startswith("You draw ") for line in events), "own draws show the card"
    page.reload()
    page.wait_for_selector(f"#board[data-seq='{seq}']")
    assert _log_lines(page) == before
    watch.check()

    # A finished all-bot table, opened from the lobby's finished list, shows its whole log.
    seats = [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "mattis", "players": 3, "seats": seats, "seed": 2}
    answer = page.request.post(server.url + "/api/tables", data=body)
    assert answer.ok, answer.text()
    table_id = answer.json()["table"]["id"]
    for _ in range(300):
        status = page.request.get(f"{server.url}/api/tables/{table_id}").json()["status"]
        if status == "finished":
            break
        page.wait_for_timeout(100)
    assert status == "finished"
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.select_option("#table-filter", "finished")
    lobby.locator(f"a[href$='{table_id}']:has-text('See the result')").click()
    if lobby.locator("#watch-btn").is_visible():
        lobby.click("#watch-btn")
    lobby.wait_for_selector("#board[data-status=finished]")
    record = tikki.replay(page.request.get(f"{server.url}/api/tables/{table_id}/record").json())
    history = record.view(None)["history"]
    log = _log_lines(lobby)
    tricks = sum(e["type"] == "trick" for h in history for e in h.get("events", []))
    assert len([line for line in log if "wins the trick" in line]) == tricks > 0
    assert any(line.startswith("Phase 2 begins") for line in log)
    assert log[-1] == "Game over."


# ---------------------------------------------------------------- another device


def test_continue_on_another_device(server: Server, browser: Browser) -> None:
    """The table page shows a link that moves the seat to another browser; its token sits
    in the URL's fragment, so no request line (HTTP or WebSocket) ever carries it."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    watch = Watch(page)
    table_id = create_in_lobby(
        page, server.url, "myllymatti", ["open", "bot:random", "bot:random"], 31
    )
    wait_turn_or_end(page)
    page.click("#device summary")
    link = page.locator("#device-link").input_value()
    token = page.evaluate("id => localStorage.getItem('tikki.token.' + id)", table_id)
    assert token and link.endswith(f"#token={token}") and "?" not in link
    cards = [c.get_attribute("data-card") for c in page.locator("#hand [data-card]").all()]
    seq = board(page, "seq")

    other = browser.new_context(viewport=PHONE)
    phone = other.new_page()
    phone_watch = Watch(phone)
    sent: list[str] = []
    phone.on("request", lambda r: sent.append(r.url))
    phone.on("websocket", lambda ws: sent.append(ws.url))
    phone.goto(link)
    phone.wait_for_selector(f"#board[data-seq='{seq}'][data-turn=you]")
    assert [c.get_attribute("data-card") for c in phone.locator("#hand [data-card]").all()] == cards
    assert "#token" not in phone.url and phone.locator("#join").is_hidden()
    legal = json.loads(board(phone, "legal"))
    click_move(phone, choose(legal), legal)
    phone.wait_for_function("s => document.querySelector('#board').dataset.seq !== s", arg=seq)
    assert sent and not [url for url in sent if token in url], sent
    phone_watch.check()
    watch.check()
    other.close()
    context.close()


# ---------------------------------------------------------------- the pure JS logic


def test_js_move_logic(server: Server, browser: Browser) -> None:
    """moves.js and cards.js in the browser: selections to legal moves, names, sorting."""
    page = browser.new_page()
    page.goto(server.url + "/")
    out = page.evaluate(
        """async () => {
          const m = await import('/static/moves.js');
          const c = await import('/static/cards.js');
          const legal = ['5H', '6H', '7H', '5H+6H', '5H+6H+7H', '6H+7H', 'take'];
          return {
            run: m.moveForSelection(['7H', '5H', '6H'], legal),
            pair: m.moveForSelection(['6H', '5H'], legal),
            single: m.moveForSelection(['6H'], legal),
            none: m.moveForSelection(['5H', '7H'], legal),
            ext: [...m.extensions(['5H'], legal)].sort(),
            extNone: [...m.extensions(['7H', '5H', '6H'], legal)],
            buttons: m.classify(legal).buttons,
            slough: m.moveForSelection(['TC'], ['pass', 'slough TC']),
            discard: m.classify(['discard 10R', 'discard MK']).single.get('MK'),
            parsed: m.parseMove('trump G'),
            names: ['7H', 'TS', 'AD', '10R', 'MK', '1G', '12B'].map(c.cardName),
            sorted: c.sortCards(['AD', '2S', '7H', 'KC', '3S', 'MR', '12R', '1K']),
            svg: c.cardSVG('MG').startsWith('<svg'),
            log: m.describe({seat: 1, move: 'discard ?'}, false, 'Anna'),
            stock: m.describe({seat: 1, move: 'stock', card: 'KS'}, true, 'You'),
          };
        }"""
    )
    assert out["run"] == "5H+6H+7H"
    assert out["pair"] == "5H+6H"
    assert out["single"] == "6H"
    assert out["none"] is None
    assert out["ext"] == ["6H", "7H"]
    assert out["extNone"] == []
    assert out["buttons"] == ["take"]
    assert out["slough"] == "slough TC"
    assert out["discard"] == "discard MK"
    assert out["parsed"] == {"verb": "trump", "arg": "G", "cards": []}
    assert out["names"] == [
        "7 of hearts",
        "10 of spades",
        "ace of diamonds",
        "red 10",
        "black mosquito",
        "green 1",
        "blue 12",
    ]
    assert out["sorted"] == ["2S", "3S", "7H", "KC", "AD", "12R", "MR", "1K"]
    assert out["svg"] is True
    assert out["log"] == "Anna sets a card aside"
    assert "turn" in out["stock"] and "K♠" in out["stock"]
    page.close()


def test_completing_card_of_a_trick_stays_visible(server: Server, browser: Browser) -> None:
    """Myllymatti phase 1 against two instant bots: after each card we play, that card is
    still on the table (in the trick, or in the just-finished trick with its winner), and
    at least one of our plays completed a trick. The last trick can be reviewed."""
    context = browser.new_context(viewport=DESKTOP)
    hold_tricks(context, 1600)  # the players' hold: this test watches it
    page = context.new_page()
    watch = Watch(page)
    create_in_lobby(page, server.url, "myllymatti", ["open", "bot:random", "bot:random"], 11)
    completed = 0
    for _ in range(MAX_TURNS):
        wait_turn_or_end(page)
        if board(page, "status") == "finished" or board(page, "phase") != "collect":
            break
        seq = board(page, "seq")
        legal = json.loads(board(page, "legal"))
        move = next((m for m in legal if m != "stock"), legal[0])
        label = None
        if move != "stock":
            button = page.locator(f"#hand .hand-card.legal[data-card='{move}']").first
            label = button.get_attribute("aria-label")
        click_move(page, move, legal)
        page.wait_for_function(
            "s => document.querySelector('#board').dataset.seq !== s", arg=seq, timeout=30_000
        )
        if label is None:
            continue
        shown = page.locator(f"#centre .card[aria-label='{label}']")
        assert shown.count() >= 1 and shown.first.is_visible(), (
            f"{label} vanished from the table: " + page.inner_html("#centre")
        )
        done = page.locator(f"#centre .trick-done .card[aria-label='{label}']")
        if done.count():
            completed += 1
            assert "won" in page.inner_text("#centre .trick-done") or "void" in page.inner_text(
                "#centre .trick-done"
            )
    assert completed >= 1, "none of our plays completed a trick"
    page.click("#last-trick-review summary")
    assert page.locator("#last-trick-review .card").count() >= 2
    watch.check()
    context.close()


def _scoring_views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Engine views at a Mückenstich scoring with both a double and a drop to choose:
    the doubler's view, the dropper's view after ``double G``, and the public view."""
    import random

    game = tikki.load("mueckenstich", players=3)
    for seed in range(200):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while state.phase != "score" and not state.is_over:
            state.play(rng.choice(state.legal_moves()))
        choice = state.view(None)["scoring_choice"]
        if choice is None or choice["verb"] != "double":
            continue
        doubling = state.view(choice["seat"])
        public = state.view(None)
        state.play("double G")
        if state.phase == "score":
            return doubling, state.view(state.current_player), public
    pytest.fail("no seed gives a double and then a drop")


def test_mueckenstich_scoring_choices(server: Server, browser: Browser) -> None:
    """Before double and drop the table shows your won cards per colour and what each
    choice would score you: the engine's figures (the view's ``scoring_choice``), which
    the page shows and no longer computes; onlookers see only who chooses."""
    doubling, dropping, public = _scoring_views()
    page = browser.new_page()
    page.goto(server.url + "/")
    out = page.evaluate(
        """async ([doubling, dropping, pub]) => {
          const r = await import('/static/render/mueckenstich.js');
          const names = ['Ann', 'Bea', 'Cai'];
          const box = document.createElement('div');
          const rows = (view) => {
            names[view.seat] = 'You';
            box.innerHTML = r.scoringChoices(view, {names, mySeat: view.seat});
            names[view.seat] = ['Ann', 'Bea', 'Cai'][view.seat];
            return {title: box.querySelector('h3').textContent,
                    heads: [...box.querySelectorAll('tbody th')].map((th) => th.textContent),
                    rows: [...box.querySelectorAll('tbody tr')]
                      .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
                    chosen: [...box.querySelectorAll('td[data-choice]')].length};
          };
          const shown = {doubling: rows(doubling), dropping: rows(dropping)};
          box.innerHTML = r.scoringChoices(pub, {names, mySeat: null});
          return {...shown, publicTables: box.querySelectorAll('table').length,
                  publicTitle: box.textContent, copy: 'pileScore' in r,
                  played: r.scoringChoices({...doubling, phase: 'play'}, {names, mySeat: 0})};
        }""",
        [doubling, dropping, public],
    )

    def sign(x: int) -> str:
        """A shown score: a plus for a gain, the true minus sign (U+2212) for a loss."""
        return f"+{x}" if x > 0 else str(x).replace("-", "\u2212")

    for view, key in ((doubling, "doubling"), (dropping, "dropping")):
        scores = view["scoring_choice"]["scores"]
        won, figures = out[key]["rows"]
        assert figures == [sign(scores[c]) if c in scores else "—" for c in "RBGK"], out[key]
        pile = view["piles"][view["seat"]]
        numbers = [sum(1 for x in pile if x[-1] == c and x[0] != "M") for c in "RBGK"]
        assert [int(cell.split()[0]) for cell in won] == numbers
        assert out[key]["chosen"] == len(view["legal_moves"]) > 0
    assert out["doubling"]["heads"] == ["You won", "Your points if this colour is doubled"]
    assert out["dropping"]["heads"] == ["You won", "Your points if this colour scores nothing"]
    assert "You choose the doubled colour" in out["doubling"]["title"]
    assert "scores nothing (green is doubled)" in out["dropping"]["title"]
    assert out["publicTables"] == 0 and "chooses the doubled colour" in out["publicTitle"]
    assert out["copy"] is False, "the page must not compute scores itself"
    assert out["played"] == ""
    page.close()
