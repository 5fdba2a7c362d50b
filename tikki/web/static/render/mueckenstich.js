// @ts-check
// Mückenstich: set-aside, tricks with changing trump, the end-of-round choices, the sheet.
import { COLOUR_NAMES, cardChip, colourChip } from "../cards.js";
import { esc } from "../api.js";
import { _, ngettext } from "../i18n.js";
import { fact, says, trickSlot } from "./common.js";
import { winnersLine } from "./seats.js";
import { withMinus } from "../words.js";

/** @param {number} n */
const sign = (n) => withMinus(n, true);

/** A score sheet's colour mark (`×2 red`) with what it did in words as its title.
 * @param {string} mark @param {string} words @param {string} colour */
const colourMark = (mark, words, colour) => `<span title="${esc(words)}">${mark} ${colourChip(colour)}</span>`;

const NOT_PLAYS = ["discard", "trump", "double", "drop"];

/** Table memory: the history indexes [from, to) of this round's finished tricks, whose
 * cards the table no longer shows; the trick just won stays shown until the next begins.
 * (The same reading as the terminal's table_view.)
 * @param {any} view the game's view
 * @returns {[number, number]} */
export function hiddenHistory(view) {
  /** @type {import("../store.js").HistoryEntry[]} */
  const history = view.history || [];
  const n = view.hand_sizes.length;
  const trick = view.trick || [];
  const cardsInRound = /** @type {number[]} */ (view.tricks).reduce((a, b) => a + b, 0) * n + trick.length;
  const faceUp = trick.length ? trick.length : view.last_trick ? n : 0;
  /** @type {number[]} */
  const plays = [];
  let start = history.length;
  while (start > 0 && plays.length < cardsInRound) {
    start -= 1;
    const verb = history[start].move.split(" ")[0];
    if (!NOT_PLAYS.includes(verb)) plays.push(start);
  }
  const end = faceUp ? plays[faceUp - 1] : history.length;
  return [start, end];
}

const COLOURS = Object.keys(COLOUR_NAMES);

/** Number cards and mosquitoes of one pile, per colour: `{R: [numbers, mosquitoes], …}`.
 * @param {string[]} pile the won cards
 * @returns {Record<string, number[]>} */
function pileCounts(pile) {
  const out = Object.fromEntries(COLOURS.map((c) => [c, [0, 0]]));
  for (const card of pile) out[card.slice(-1)][card.startsWith("M") ? 1 : 0] += 1;
  return out;
}

/** Before `double` and `drop`: your won cards per colour and what each colour still open
 * would score you this round. The figures are the engine's (`view.scoring_choice.scores`,
 * from its own scoring), only for your own seat; onlookers see who chooses.
 * @param {any} view the game's view
 * @param {import("../renderers.js").Ctx} ctx
 * @returns {string} */
export function scoringChoices(view, ctx) {
  const choice = view.scoring_choice;
  if (view.phase !== "score" || !choice) return "";
  const legal = view.legal_moves || [];
  const names = ctx.names;
  const doubling = choice.verb === "double";
  const what = doubling
    ? says(names, choice.seat, _("{name} choose the doubled colour"), _("{name} chooses the doubled colour"))
    : view.doubled
      ? says(
          names,
          choice.seat,
          _("{name} choose the colour that scores nothing ({colour} is doubled)"),
          _("{name} chooses the colour that scores nothing ({colour} is doubled)"),
          { colour: esc(COLOUR_NAMES[view.doubled]) },
        )
      : says(
          names,
          choice.seat,
          _("{name} choose the colour that scores nothing"),
          _("{name} chooses the colour that scores nothing"),
        );
  const title = `<h3 class="trick-title">${_("Scoring: {what}", { what })}</h3>`;
  const scores = choice.scores;
  const mine = ctx.mySeat !== null && ctx.mySeat !== undefined && view.piles ? view.piles[ctx.mySeat] : null;
  if (!scores || !mine) return `<div class="scoring-choices">${title}</div>`;
  const counts = pileCounts(mine);
  const head = COLOURS.map((c) => `<th scope="col">${colourChip(c)}</th>`).join("");
  const won = COLOURS.map((c) => {
    const [nums, mosq] = counts[c];
    const bites = mosq ? ` <span class="muted">${esc(_("+{n} M", { n: mosq }))}</span>` : "";
    return `<td>${nums}${bites}</td>`;
  }).join("");
  const figures = COLOURS.map((c) => {
    if (!(c in scores)) {
      const doubled = _("{colour} is doubled", { colour: COLOUR_NAMES[c] });
      return `<td class="muted" title="${esc(doubled)}">—</td>`;
    }
    const chosen = legal.includes(`${choice.verb} ${c}`) ? " data-choice" : "";
    return `<td${chosen}>${sign(scores[c])}</td>`;
  }).join("");
  const rowName = doubling ? _("Your points if this colour is doubled") : _("Your points if this colour scores nothing");
  const withoutDrop = _("Shown without the drop, which comes after.");
  const note = doubling ? `<p class="trick-note">${esc(withoutDrop)}</p>` : "";
  const caption = _("Your won number cards per colour (M: mosquitoes) and the points each choice would give you this round");
  const youWon = _("You won");
  return (
    `<div class="scoring-choices">${title}` +
    `<table class="choice-table"><caption class="visually-hidden">${esc(caption)}</caption>` +
    `<thead><tr><th scope="col"></th>${head}</tr></thead><tbody>` +
    `<tr><th scope="row">${esc(youWon)}</th>${won}</tr>` +
    `<tr class="mine"><th scope="row">${esc(rowName)}</th>${figures}</tr></tbody></table>${note}</div>`
  );
}

export default {
  /** The view as the table shows it: during a round, unless the table has memory aids,
   * the cards of won tricks are face down once the next trick has begun (no last trick,
   * piles or mosquito counts) until the round is scored.
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {any} */
  tableView(view, ctx) {
    if (ctx.memoryAids || view.phase === "score" || view.phase === "over") return view;
    const trick = view.trick || [];
    return {
      ...view,
      piles: null,
      mosquitoes: null,
      last_trick: trick.length ? null : view.last_trick,
      memory_hidden: hiddenHistory(view),
    };
  },

  /**
   * @param {any} view the game's view
   * @returns {string}
   */
  phase(view) {
    const deal = view.deals === 2 ? ` · ${_("deal {number} of 2", { number: view.deal + 1 })}` : "";
    const phase = /** @type {Record<string, string>} */ ({ discard: _("setting aside"), play: _("playing"), score: _("scoring") })[view.phase];
    if (view.phase === "over") return _("Match over");
    const round = _("Round {number} of {rounds}", { number: view.round + 1, rounds: view.rounds });
    return `${round}${deal} · ${phase ?? view.phase}`;
  },

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {[string, string | number][]}
   */
  seatStats(view, seat) {
    return [
      [_("Hand"), view.hand_sizes[seat]],
      [_("Tricks"), view.tricks[seat]],
      .../** @type {[string, number][]} */ (view.mosquitoes ? [[_("Mosquitoes"), view.mosquitoes[seat]]] : []),
      [_("Score"), withMinus(view.scores[seat])],
    ];
  },

  /**
   * @param {any} view the game's view
   * @param {number} seat
   * @returns {string[]}
   */
  seatBadges(view, seat) {
    /** @type {string[]} */
    const out = [];
    if (view.dealer === seat && view.phase !== "over") out.push("dealer");
    if (view.phase === "over" && view.abandoned !== true) {
      const best = Math.max(...view.scores);
      if (view.scores[seat] === best) out.push("winner");
    }
    return out;
  },

  /** @returns {string} */
  seatExtra() {
    return "";
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  centre(view, ctx) {
    const { names } = ctx;
    const facts = [
      fact(_("Trump"), view.trump ? colourChip(view.trump) : `<span class="muted">${esc(_("none yet"))}</span>`),
      view.led ? fact(_("Led"), colourChip(view.led)) : "",
      view.doubled ? fact(_("Doubled"), colourChip(view.doubled)) : "",
      view.dropped ? fact(_("Dropped"), colourChip(view.dropped)) : "",
      view.discards && view.discards.length
        ? fact(_("Your cards set aside"), view.discards.map(cardChip).join(""))
        : "",
    ].join("");
    /** @type {{seat: number, card: string}[]} */
    const trick = view.trick || [];
    const slots = trick.length
      ? trick.map((t) => trickSlot([t.card], names[t.seat])).join("")
      : `<p class="empty-trick">${
          view.phase === "discard"
            ? esc(_("Everyone sets two cards aside before the first trick."))
            : view.phase === "score"
              ? esc(_("The round is being scored."))
              : view.phase === "over"
                ? esc(_("The match is over."))
              : says(names, view.leader, _("{name} lead."), _("{name} leads."))
        }</p>`;
    const naming = view.naming_trump
      ? `<p class="trick-note">${says(names, view.to_act, _("{name} name the trump colour."), _("{name} names the trump colour."))}</p>`
      : "";
    const memory = view.memory_hidden
      ? `<p class="trick-note memory-note">${esc(_("Won tricks stay face down until the round is scored."))}</p>`
      : "";
    return (
      `<div class="facts">${facts}</div>` +
      `<div class="table-row"><div class="trick-wrap"><h3 class="trick-title">${esc(_("Trick"))}</h3>` +
      `<div class="trick" aria-label="${esc(_("Trick"))}">${slots}</div>${naming}${memory}</div></div>` +
      scoringChoices(view, ctx)
    );
  },

  /**
   * @param {any} view the game's view
   * @returns {string}
   */
  prompt(view) {
    /** @type {string[]} */
    const legal = view.legal_moves || [];
    if (view.phase === "discard") {
      const left = 2 - ((view.discard_counts[view.seat] ?? 0) % 2);
      return esc(
        left === 1
          ? _("Set one more card aside, face down, out of this round: click it.")
          : _("Set two cards aside, face down, out of this round: click a card."),
      );
    }
    if (legal.some((m) => m.startsWith("trump "))) {
      return esc(_("You played a mosquito: name the trump colour (it holds until the next mosquito)."));
    }
    if (legal.some((m) => m.startsWith("double "))) {
      return esc(_("You took the fewest tricks: choose the colour that scores double."));
    }
    if (legal.some((m) => m.startsWith("drop "))) {
      return esc(_("You took the most mosquitoes: choose the colour that scores nothing."));
    }
    if (view.led) {
      const follows = legal.every((m) => m.endsWith(view.led));
      const colour = COLOUR_NAMES[view.led];
      return esc(
        follows
          ? _("Follow {colour}: play one of your {colour} cards.", { colour })
          : _("You have no {colour}: play any card.", { colour }),
      );
    }
    return esc(_("Lead the trick: play any card."));
  },

  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  result(view, ctx) {
    const { names } = ctx;
    if (view.abandoned) return `<p>${esc(_("The match was abandoned."))}</p>`;
    const best = Math.max(...view.scores);
    const winners = /** @type {number[]} */ (view.scores).map((s, i) => [s, i]).filter(([s]) => s === best).map(([, i]) => i);
    const order = /** @type {number[]} */ (view.scores)
      .map((s, i) => [s, i])
      .sort((a, b) => b[0] - a[0])
      .map(([s, i]) => `<li>${esc(names[i])} <span class="score">${sign(s)}</span></li>`)
      .join("");
    const line = esc(winnersLine(names, winners, best));
    return `<p class="winner">${line}</p><ol class="places" aria-label="${esc(_("Final scores"))}">${order}</ol>`;
  },


  /**
   * @param {any} view the game's view
   * @param {import("../renderers.js").Ctx} ctx
   * @returns {string}
   */
  sheet(view, ctx) {
    const { names } = ctx;
    /** @type {{round: number, tricks: number[], mosquitoes: number[], doubled: string | null, dropped: string | null, scores: number[]}[]} */
    const sheet = view.sheet || [];
    const head = names.map((n) => `<th scope="col">${esc(n)}</th>`).join("");
    const rows = sheet
      .map((r) => {
        const cells = r.scores
          .map(
            (s, i) =>
              `<td title="${esc(
                `${ngettext("{n} trick", "{n} tricks", r.tricks[i])}, ${ngettext("{n} mosquito", "{n} mosquitoes", r.mosquitoes[i])}`,
              )}">${sign(s)}</td>`,
          )
          .join("");
        const marks = [
          r.doubled ? colourMark("×2", _("{colour} is doubled", { colour: COLOUR_NAMES[r.doubled] }), r.doubled) : "",
          r.dropped ? colourMark("×0", _("{colour} scores nothing", { colour: COLOUR_NAMES[r.dropped] }), r.dropped) : "",
        ]
          .filter(Boolean)
          .join(" ");
        return `<tr><th scope="row">${r.round + 1}</th>${cells}<td class="marks">${marks || "—"}</td></tr>`;
      })
      .join("");
    const totals = /** @type {number[]} */ (view.scores).map((s) => `<td><strong>${sign(s)}</strong></td>`).join("");
    const empty = sheet.length
      ? ""
      : `<tr><td colspan="${names.length + 2}" class="muted">${esc(_("No round scored yet."))}</td></tr>`;
    return (
      `<h2>${esc(_("Score sheet"))}</h2><div class="sheet-scroll"><table class="sheet">` +
      `<thead><tr><th scope="col">${esc(_("Round"))}</th>${head}<th scope="col">${esc(_("Colours"))}</th></tr></thead>` +
      `<tbody>${rows}${empty}</tbody>` +
      `<tfoot><tr><th scope="row">${esc(_("Total"))}</th>${totals}<td></td></tr></tfoot></table></div>`
    );
  },
};
