/**
 * Crooks on the board: the shapes of the kernel's `crooks-view/1` view and actions
 * (docs/crooks.md), and pure helpers that read them. Nothing here decides a rule: what
 * may be clicked is what `legal` holds, and every action sent is one of `legal`'s.
 */
export const CROOKS_FORMAT = "crooks-view/1";

export type Gang = "northside" | "westside" | "outfit";
export type Special = "kingpin" | "killer" | "switch" | "accomplice" | "spy" | "pickpocket";

export interface Crook {
  id: string;
  rank: number;
  modifier: number;
  gangs: Gang[];
  special: Special | null;
}

/** One crook at a target: face down, `crook` is null unless this seat knows who it is. */
export interface Slot {
  face: "up" | "down";
  crook: Crook | null;
}

export interface CrooksPlayer {
  seat: number;
  name: string;
  cash: number;
  passed: boolean;
}

export interface Hangout {
  hangout: string;
  size: number;
  /** The cards, when this seat knows the pile exactly (C7.2). */
  cards: Crook[] | null;
}

export interface Target {
  target: number;
  /** One row a seat, in seat order. */
  rows: Slot[][];
}

export interface Turn {
  seat: number;
  hangout: string | null;
  price: number | null;
  /** The pile being recruited from: the recruiter's only. */
  pile: Crook[] | null;
  hand: Crook | null;
  target: number | null;
}

/** A seat's row of the kernel's `standings()` (the game's end): the score, what it came
 * from, and target by target and gang by gang. */
export interface Standing {
  seat: number;
  name: string;
  score: number;
  sources: { targets: number; gangs: number };
  cash: number;
  by_target: Record<string, number>;
  by_gang: Record<string, number>;
}

export type Step = "start" | "keep" | "place" | "switch" | "kill" | "spy" | "over";

export interface CrooksView {
  format: string;
  game: "crooks";
  seat: number | null;
  spectator: boolean;
  num_players: number;
  start_player: number;
  to_move: number | null;
  step: Step;
  players: CrooksPlayer[];
  hangouts: Hangout[];
  targets: Target[];
  turn: Turn | null;
  deck: Crook[];
  standings: Standing[] | null;
  winners: number[];
}

export type CrooksAction =
  | { type: "recruit"; hangout: string }
  | { type: "keep"; crook: string }
  | { type: "place"; target: number; face: "up" | "down"; effect: boolean }
  | { type: "switch"; to: number }
  | { type: "kill"; seat: number }
  | { type: "spy"; target: number }
  | { type: "spy"; hangout: string }
  | { type: "pass" };

export const GANGS: readonly Gang[] = ["northside", "westside", "outfit"];
export const GANG_NAMES: Record<Gang, string> = { northside: "Northside", westside: "Westside", outfit: "the Outfit" };
export const GANG_LETTER: Record<Gang, string> = { northside: "N", westside: "W", outfit: "O" };
export const SPECIAL_NAMES: Record<Special, string> = {
  kingpin: "Kingpin",
  killer: "Killer",
  switch: "Switch",
  accomplice: "Accomplice",
  spy: "Spy",
  pickpocket: "Pickpocket",
};

export function isCrooksView(view: unknown): view is CrooksView {
  return !!view && typeof view === "object" && (view as { format?: unknown }).format === CROOKS_FORMAT;
}

/** The legal actions of one type (the dicts as the kernel sent them). */
export function legalOf<T extends CrooksAction["type"]>(legal: readonly unknown[], type: T): Extract<CrooksAction, { type: T }>[] {
  return legal.filter((a): a is Extract<CrooksAction, { type: T }> => !!a && typeof a === "object" && (a as { type?: unknown }).type === type);
}

/** The legal placements at one target, in the kernel's order. */
export function placementsAt(legal: readonly unknown[], target: number): Extract<CrooksAction, { type: "place" }>[] {
  return legalOf(legal, "place").filter((a) => a.target === target);
}

export function sameAction(a: CrooksAction, b: CrooksAction): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i])) return false;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  return ka.every((k) => ra[k] === rb[k]);
}

export function isLegalCrooks(legal: readonly unknown[], action: CrooksAction): boolean {
  return legal.some((a) => !!a && typeof a === "object" && sameAction(a as CrooksAction, action));
}

/** A crook in words: "7 (+2) Westside, Switch". */
export function crookWords(c: Crook): string {
  const mod = c.modifier ? ` (${c.modifier > 0 ? "+" : "−"}${Math.abs(c.modifier)})` : "";
  const gangs = c.gangs.map((g) => GANG_NAMES[g]).join(" and ");
  const special = c.special ? SPECIAL_NAMES[c.special] : "";
  return [`${c.rank}${mod}`, gangs, special].filter((x) => x).join(", ");
}

/** A placement's button text, as a BGA player reads it. */
export function placementWords(a: Extract<CrooksAction, { type: "place" }>, hand: Crook | null): string {
  if (a.face === "down") return "Face down ($1)";
  if (a.effect && hand?.special) return `Face up, use the ${SPECIAL_NAMES[hand.special]}`;
  if (hand?.special && hand.special !== "kingpin") return "Face up, without the special";
  return "Face up (free)";
}

/** An action in words, for a hint: "recruit at hangout A". */
export function actionWords(view: CrooksView, a: CrooksAction): string {
  switch (a.type) {
    case "recruit":
      return `recruit at hangout ${a.hangout}`;
    case "keep":
      return `keep ${crookById(view, a.crook)}`;
    case "place":
      return `place at the ${a.target}, face ${a.face}${a.effect ? ", using its special" : ""}`;
    case "switch":
      return `switch your crooks to the ${a.to}`;
    case "kill":
      return `kill ${seatName(view, a.seat) === "You" ? "your own" : `${seatName(view, a.seat)}'s`} crooks`;
    case "spy":
      return "hangout" in a ? `spy on hangout ${a.hangout}` : `spy on the ${a.target}`;
    case "pass":
      return "pass";
  }
}

function seatName(view: CrooksView, seat: unknown): string {
  if (typeof seat !== "number") return "Someone";
  if (seat === view.seat) return "You";
  return view.players[seat]?.name ?? `Player ${seat + 1}`;
}

function crookById(view: CrooksView, id: unknown): string {
  if (typeof id !== "string") return "a crook";
  const c = view.deck.find((d) => d.id === id);
  return c ? crookWords(c) : id;
}

/** One event of `log(seat)` in words, or null for one with nothing to say. */
export function describeEvent(view: CrooksView, e: Record<string, unknown>): string | null {
  const who = seatName(view, e.seat);
  switch (e.type) {
    case "deal":
      return `The deal: ${view.num_players} players, $${String(e.cash)} each.`;
    case "recruit":
      return `${who} recruited at ${String(e.hangout)} for $${String(e.price)}.`;
    case "keep":
      if (e.to_box === true) return `${who} kept a crook that could go nowhere: it went to the box.`;
      return e.crook ? `${who} kept ${crookById(view, e.crook)}.` : `${who} kept a crook.`;
    case "place": {
      const what = e.crook ? crookById(view, e.crook) : "a crook";
      return `${who} sent ${what} face ${String(e.face)} to the ${String(e.target)}${e.effect ? ", using its special" : ""}.`;
    }
    case "pickpocket":
      return `${who} picked $${String(e.gain)} from the bank.`;
    case "switch":
      return `${who} switched crooks to the ${String(e.to)}.`;
    case "kill": {
      const victim = e.victim;
      const whose =
        victim === e.seat ? (who === "You" ? "your own crooks" : "their own crooks") : victim === view.seat ? "your crooks" : `${seatName(view, victim)}'s crooks`;
      const count = typeof e.count === "number" ? ` (${e.count})` : "";
      return `${who} sent ${whose}${count} at the ${String(e.target)} back to the box.`;
    }
    case "spy":
      return e.hangout !== undefined && e.hangout !== null
        ? `${who} spied on hangout ${String(e.hangout)}.`
        : `${who} spied on the ${String(e.target)}.`;
    case "pass":
      return `${who} passed.`;
    case "reveal":
      return "Everyone has passed: every crook turns face up.";
    case "over":
      return "The game is over.";
    default:
      return null;
  }
}
