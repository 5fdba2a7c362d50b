// @ts-check
// Generated from tikki/sentences.py by `make catalogs`: edit the sentences there.
// The browser log's sentences by event kind and variant, in English; i18n.js's `_()`
// and `ngettext()` translate them (their translations are in the tikki domain's .po
// files, msgctxt "browser", and reach /static/i18n/LANG.json through make catalogs).

/** Marks a text for the catalog. @param {string} text */
const N_ = (text) => text;

/** Marks a text with a count for the catalog: singular and plural.
 * @param {string} one @param {string} many @returns {[string, string]} */
const Nn_ = (one, many) => [one, many];

export const SENTENCES = {
  "tie.word": N_("Tie"),
  "phase.play": N_("The tricks begin"),
  "phase.other": N_("Phase {phase} begins"),
  "over": N_("Game over."),
  "trick.you": N_("{name} win the trick: {cards}."),
  "trick": N_("{name} wins the trick: {cards}."),
  "trick.empty.you": N_("{name} win the trick."),
  "trick.empty": N_("{name} wins the trick."),
  "void_tie.kina": N_("The kina cannot go on: the trick is void, each takes back his cards ({cards})."),
  "void_tie": N_("Phase 1 ends mid-trick: the cards go back to who played them ({cards})."),
  "falls": N_("The trick falls: {cards} leave the game."),
  "take.you": N_("{name} pick up {cards}."),
  "take": N_("{name} picks up {cards}."),
  "draw.you": N_("{name} draw {cards}."),
  "draw": N_("{name} draws {cards}."),
  "draw.count.you": Nn_("{name} draw a card.", "{name} draw {n} cards."),
  "draw.count": Nn_("{name} draws a card.", "{name} draws {n} cards."),
  "deal.you": N_("{name} are dealt {cards}."),
  "deal": N_("{name} is dealt {cards}."),
  "deal.count.you": Nn_("{name} are dealt a card.", "{name} are dealt {n} cards."),
  "deal.count": Nn_("{name} is dealt a card.", "{name} is dealt {n} cards."),
  "last_card.you": N_("{name} draw the last stock card and show it: {card}."),
  "last_card": N_("{name} draws the last stock card and shows it: {card}."),
  "last_card.unseen.you": N_("{name} set the last stock card aside, face down: it decides the trump."),
  "last_card.unseen": N_("{name} sets the last stock card aside, face down: it decides the trump."),
  "phase.shed": N_("Phase 2 begins: every hand is shown"),
  "phase.discard": N_("Discarding: each player sets two cards aside"),
  "phase.score": N_("Scoring: the round's tricks are counted"),
  "phase.led": N_("{phase}; {leader}."),
  "phase.end": N_("{phase}."),
  "trump.card": N_("Trump is {colour} ({card})."),
  "trump": N_("Trump is {colour}."),
  "dreck": Nn_("The dreck: {n} card dealt to the short hands ({seats})", "The dreck: {n} cards dealt to the short hands ({seats})"),
  "dreck.yours": N_("{dreck}; you get {cards}."),
  "dreck.end": N_("{dreck}."),
  "out.you": N_("{name} are out ({place})."),
  "out": N_("{name} is out ({place})."),
  "round": N_("Round {number} scored: {scores}."),
};
