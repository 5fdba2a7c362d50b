"""Records: a whole game replayed move by move and verified (:func:`replay`), and an
outcome in words (:func:`outcome_words`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from tikki.core.game import RECORD_FORMAT, RULES_REVISIONS, State
from tikki.core.registry import load
from tikki.errors import IllegalMove, RulesError
from tikki.i18n import _ as _t
from tikki.i18n import ngettext


def replay(
    record: Mapping[str, Any], on_move: Callable[[int, str, State], None] | None = None
) -> State:
    """Rebuild a game from its record, verifying every move; return the final state.

    A malformed or tampered record raises :class:`RulesError` naming the first bad field
    or move.  ``on_move(index, move, state)`` is called after each verified move.
    """
    if not isinstance(record, Mapping):
        raise RulesError(_t("a record is a JSON object"))
    if "history" in record and "moves" not in record:
        raise RulesError(_t("this is one seat's record (no seed, no deck): it cannot be replayed"))
    if "format" not in record:
        raise RulesError(
            _t(
                "this is not a tikki game record: it has no 'format' (a record tikki writes "
                'has "format": {supported})',
                supported=RECORD_FORMAT,
            )
        )
    fmt = record.get("format")
    if fmt != RECORD_FORMAT:
        raise RulesError(
            _t(
                "record format {fmt!r} is not supported (this tikki reads {supported})",
                fmt=fmt,
                supported=RECORD_FORMAT,
            )
        )
    if "rules" not in record:
        raise RulesError(_t("record has no 'rules' (the rulings revision it was played under)"))
    if record["rules"] not in RULES_REVISIONS:
        raise RulesError(
            _t(
                "record was played under rules {rules!r}; this tikki replays {revisions}",
                rules=record["rules"],
                revisions=", ".join(repr(r) for r in RULES_REVISIONS),
            )
        )
    for key in ("game", "players", "options", "seed", "moves"):
        if key not in record:
            raise RulesError(_t("record has no {key!r}", key=key))
    options = record["options"]
    if not isinstance(options, Mapping):
        raise RulesError(_t("record 'options' must be an object"))
    if "rules" in options:
        raise RulesError(_t("record 'options' holds 'rules': the revision is the record's own key"))
    game = load(record["game"], record["players"], rules=record["rules"], **options)
    state = game.new_state(seed=record["seed"], deck=record.get("deck"))
    moves = record["moves"]
    if not isinstance(moves, list):
        raise RulesError(_t("record 'moves' must be a list of move texts"))
    for i, move in enumerate(moves):
        seat = state.current_player
        if not isinstance(move, str):
            raise RulesError(
                _t(
                    "record move {number} is {what}, not a move text",
                    number=i + 1,
                    what=_json_kind(move),
                )
            )
        if state.is_over:
            raise RulesError(
                ngettext(
                    "record move {number} ({move}) comes after the end of the game: the "
                    "record has {n} move too many",
                    "record move {number} ({move}) comes after the end of the game: the "
                    "record has {n} moves too many",
                    len(moves) - i,
                    number=i + 1,
                    move=move,
                )
            )
        try:
            state.play(move)
        except IllegalMove as err:
            raise RulesError(
                _t(
                    "record move {number}, {move} by seat {seat}, is illegal: {err}",
                    number=i + 1,
                    move=move,
                    seat=seat,
                    err=err,
                )
            ) from None
        if on_move is not None:
            on_move(i, move, state)
    expected = record.get("outcome")
    if expected is not None and expected != state.outcome:
        claimed, actual = outcome_words(expected), outcome_words(state.outcome)
        if claimed == actual:
            raise RulesError(
                _t(
                    "the record's outcome is not the replayed game's ({outcome}): its "
                    "figures were changed",
                    outcome=actual,
                )
            )
        raise RulesError(
            _t(
                "the record's outcome ({expected}) is not the replayed game's ({outcome})",
                expected=claimed,
                outcome=actual,
            )
        )
    return state


def _json_kind(value: Any) -> str:
    """What a JSON value is, in words: ``null``, ``a number``, ``a list``, ``an object``."""
    if value is None:
        return _t("null (empty)")
    if isinstance(value, bool):
        return _t("true or false")
    if isinstance(value, int | float):
        return _t("a number ({value})", value=value)
    if isinstance(value, list):
        return _t("a list")
    return _t("an object")


def outcome_words(outcome: Any) -> str:
    """A game's outcome in words: ``seat 2 loses``, ``scores 9, 6, 5``, ``abandoned``."""
    if not isinstance(outcome, Mapping):
        return _t("no outcome") if outcome is None else _t("not an outcome")
    if outcome.get("abandoned"):
        return _t("abandoned")
    if isinstance(outcome.get("scores"), list):
        return _t("scores {scores}", scores=", ".join(str(s) for s in outcome["scores"]))
    if isinstance(outcome.get("loser"), int):
        return _t("seat {seat} loses", seat=outcome["loser"])
    return _t("not an outcome")
