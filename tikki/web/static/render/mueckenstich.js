// Mückenstich: set-aside, tricks with changing trump, the end-of-round choices, the sheet.
import { COLOUR_NAMES, cardChip, colourChip } from "../cards.js";
import { esc } from "../api.js";
import { fact, plural, says, trickSlot } from "./common.js";

const sign = (n) => (n > 0 ? `+${n}` : String(n));

const NOT_PLAYS = ["discard", "trump", "double", "drop"];

/** Table memory: the history indexes [from, to) of this round's finished tricks, whose
 * cards the table no longer shows; the trick just won stays shown until the next begins.
 * (The same reading as the terminal's table_view.) */
export function hiddenHistory(view) {
  const history = view.history || [];
  const n = view.hand_sizes.length;
  const trick = view.trick || [];
  const cardsInRound = view.tricks.reduce((a, b) => a + b, 0) * n + trick.length;
  const faceUp = trick.length ? trick.length : view.last_trick ? n : 0;
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

/** Number cards and mosquitoes of one pile, per colour: `{R: [numbers, mosquitoes], …}`. */
function pileCounts(pile) {
  const out = Object.fromEntries(COLOURS.map((c) => [c, [0, 0]]));
  for (const card of pile) out[card.slice(-1)][card.startsWith("M") ? 1 : 0] += 1;
  return out;
}

/** Before `double` and `drop`: your won cards per colour and what each colour still open
 * would score you this round. The figures are the engine's (`view.scoring_choice.scores`,
 * from its own scoring), only for your own seat; onlookers see who chooses. */
export function scoringChoices(view, ctx) {
  const choice = view.scoring_choice;
  if (view.phase !== "score" || !choice) return "";
  const legal = view.legal_moves || [];
  const names = ctx.names;
  const doubling = choice.verb === "double";
  const chooser = says(names, choice.seat, "chooses", "choose");
  const what = doubling
    ? `${chooser} the doubled colour`
    : `${chooser} the colour that scores nothing${view.doubled ? ` (${COLOUR_NAMES[view.doubled]} is doubled)` : ""}`;
  const title = `<h3 class="trick-title">Scoring: ${what}</h3>`;
  const scores = choice.scores;
  const mine = ctx.mySeat !== null && ctx.mySeat !== undefined && view.piles ? view.piles[ctx.mySeat] : null;
  if (!scores || !mine) return `<div class="scoring-choices">${title}</div>`;
  const counts = pileCounts(mine);
  const head = COLOURS.map((c) => `<th scope="col">${colourChip(c)}</th>`).join("");
  const won = COLOURS.map((c) => {
    const [nums, mosq] = counts[c];
    return `<td>${nums}${mosq ? ` <span class="muted">+${mosq}&nbsp;M</span>` : ""}</td>`;
  }).join("");
  const figures = COLOURS.map((c) => {
    if (!(c in scores)) return `<td class="muted" title="${esc(COLOUR_NAMES[c])} is doubled">—</td>`;
    const chosen = legal.includes(`${choice.verb} ${c}`) ? " data-choice" : "";
    return `<td${chosen}>${sign(scores[c])}</td>`;
  }).join("");
  const rowName = doubling ? "If ×2" : "If ×0";
  const note = doubling ? `<p class="trick-note">Shown without the drop, which comes after.</p>` : "";
  return (
    `<div class="scoring-choices">${title}` +
    `<table class="choice-table"><caption class="visually-hidden">Your won number cards per colour (M: mosquitoes) and the points each choice would give you this round</caption>` +
    `<thead><tr><th scope="col"></th>${head}</tr></thead><tbody>` +
    `<tr><th scope="row">You won</th>${won}</tr>` +
    `<tr class="mine"><th scope="row">${rowName}</th>${figures}</tr></tbody></table>${note}</div>`
  );
}

export default {
  /** The view as the table shows it: during a round, unless the table has memory aids,
   * the cards of won tricks are face down once the next trick has begun (no last trick,
   * piles or mosquito counts) until the round is scored. */
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

  phase(view) {
    const deal = view.deals === 2 ? ` · deal ${view.deal + 1} of 2` : "";
    const phase = { discard: "setting aside", play: "playing", score: "scoring" }[view.phase];
    if (view.phase === "over") return "Match over";
    return `Round ${view.round + 1} of ${view.rounds}${deal} · ${phase ?? view.phase}`;
  },

  seatStats(view, seat) {
    return [
      ["Hand", view.hand_sizes[seat]],
      ["Tricks", view.tricks[seat]],
      ...(view.mosquitoes ? [["Mosquitoes", view.mosquitoes[seat]]] : []),
      ["Score", view.scores[seat]],
    ];
  },

  seatBadges(view, seat) {
    const out = [];
    if (view.dealer === seat && view.phase !== "over") out.push("dealer");
    if (view.phase === "over" && view.abandoned !== true) {
      const best = Math.max(...view.scores);
      if (view.scores[seat] === best) out.push("winner");
    }
    return out;
  },

  seatExtra() {
    return "";
  },

  centre(view, ctx) {
    const { names } = ctx;
    const facts = [
      fact("Trump", view.trump ? colourChip(view.trump) : `<span class="muted">none yet</span>`),
      view.led ? fact("Led", colourChip(view.led)) : "",
      view.doubled ? fact("Doubled", colourChip(view.doubled)) : "",
      view.dropped ? fact("Dropped", colourChip(view.dropped)) : "",
      view.discards && view.discards.length
        ? fact("Your cards set aside", view.discards.map(cardChip).join(""))
        : "",
    ].join("");
    const trick = view.trick || [];
    const slots = trick.length
      ? trick.map((t) => trickSlot([t.card], names[t.seat])).join("")
      : `<p class="empty-trick">${
          view.phase === "discard"
            ? "Everyone sets two cards aside before the first trick."
            : view.phase === "score"
              ? "The round is being scored."
              : view.phase === "over"
                ? "The match is over."
              : `${says(names, view.leader, "leads", "lead")}.`
        }</p>`;
    const naming = view.naming_trump ? `<p class="trick-note">${says(names, view.to_act, "names", "name")} the trump colour.</p>` : "";
    const memory = view.memory_hidden
      ? `<p class="trick-note memory-note">Won tricks stay face down until the round is scored.</p>`
      : "";
    return (
      `<div class="facts">${facts}</div>` +
      `<div class="table-row"><div class="trick-wrap"><h3 class="trick-title">Trick</h3>` +
      `<div class="trick" aria-label="Trick">${slots}</div>${naming}${memory}</div></div>` +
      scoringChoices(view, ctx)
    );
  },

  prompt(view) {
    const legal = view.legal_moves || [];
    if (view.phase === "discard") {
      const left = 2 - ((view.discard_counts[view.seat] ?? 0) % 2);
      return `Set ${left === 1 ? "one more card" : "two cards"} aside, face down, out of this round: click ${
        left === 1 ? "it" : "a card"
      }.`;
    }
    if (legal.some((m) => m.startsWith("trump "))) {
      return "You played a mosquito: name the trump colour (it holds until the next mosquito).";
    }
    if (legal.some((m) => m.startsWith("double "))) {
      return "You took the fewest tricks: choose the colour that scores double.";
    }
    if (legal.some((m) => m.startsWith("drop "))) {
      return "You took the most mosquitoes: choose the colour that scores nothing.";
    }
    if (view.led) {
      const follows = legal.every((m) => m.endsWith(view.led));
      return follows
        ? `Follow ${COLOUR_NAMES[view.led]}: play one of your ${COLOUR_NAMES[view.led]} cards.`
        : `You have no ${COLOUR_NAMES[view.led]}: play any card.`;
    }
    return "Lead the trick: play any card.";
  },

  result(view, ctx) {
    const { names } = ctx;
    if (view.abandoned) return "<p>The match was abandoned.</p>";
    const best = Math.max(...view.scores);
    const winners = view.scores.map((s, i) => [s, i]).filter(([s]) => s === best).map(([, i]) => names[i]);
    const order = view.scores
      .map((s, i) => [s, i])
      .sort((a, b) => b[0] - a[0])
      .map(([s, i]) => `<li>${esc(names[i])} <span class="score">${sign(s)}</span></li>`)
      .join("");
    return (
      `<p class="winner"><strong>${esc(winners.join(" and "))}</strong> ${
        winners.length > 1 || winners[0] === "You" ? "win" : "wins"
      } with ${plural(best, "point")}${winners.length > 1 ? ", a shared win" : ""}.</p>` +
      `<ol class="places" aria-label="Final scores">${order}</ol>`
    );
  },


  sheet(view, ctx) {
    const { names } = ctx;
    const sheet = view.sheet || [];
    const head = names.map((n) => `<th scope="col">${esc(n)}</th>`).join("");
    const rows = sheet
      .map((r) => {
        const cells = r.scores
          .map(
            (s, i) =>
              `<td title="${plural(r.tricks[i], "trick")}, ${plural(r.mosquitoes[i], "mosquito")}">${sign(s)}</td>`,
          )
          .join("");
        const marks = [
          r.doubled ? `×2 ${colourChip(r.doubled)}` : "",
          r.dropped ? `×0 ${colourChip(r.dropped)}` : "",
        ]
          .filter(Boolean)
          .join(" ");
        return `<tr><th scope="row">${r.round + 1}</th>${cells}<td class="marks">${marks || "—"}</td></tr>`;
      })
      .join("");
    const totals = view.scores.map((s) => `<td><strong>${sign(s)}</strong></td>`).join("");
    const empty = sheet.length ? "" : `<tr><td colspan="${names.length + 2}" class="muted">No round scored yet.</td></tr>`;
    return (
      `<h2>Score sheet</h2><div class="sheet-scroll"><table class="sheet">` +
      `<thead><tr><th scope="col">Round</th>${head}<th scope="col">Colours</th></tr></thead>` +
      `<tbody>${rows}${empty}</tbody>` +
      `<tfoot><tr><th scope="row">Total</th>${totals}<td></td></tr></tfoot></table></div>`
    );
  },
};
