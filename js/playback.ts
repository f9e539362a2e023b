/**
 * Following the other players: which of the kernel's events are new, the steps
 * to show them one at a time (where each happens, what moves from where to
 * where), the banner at the end of a round, and what happened since the shown
 * seat's last move. Pure functions of the `events` trait (already redacted for
 * the seat by the kernel): nothing here can show what the seat may not see.
 */
import { PLACE_NAMES, eventSentence, listWords, playerName } from "./format";
import type { Targets } from "./intents";
import type { GameEvent, Loot, Place, Rate, Tool, View } from "./types";

/** An act of one player, one event each (a chest's cash joins its steal). */
const ACTS = new Set(["place", "take_tools", "steal", "exchange", "sell", "pass"]);
/** What happens between two rounds (R9.1-R9.3); a reshuffle may come with it (R9.2). */
const ROUND_END = new Set(["refill", "reshuffle", "start_player"]);
/** Told in a caption only: the Ruin reopening (R6.2), a reshuffle in the middle of a round. */
const NOTES = new Set(["actions_begin", "ruin_reopens", "reshuffle"]);

/** Where an act happens, for events that do not name their place. */
const PLACE_OF: Record<string, Place> = { take_tools: "city", exchange: "ruin", sell: "harbor" };

/** Something drawn flying from one board element to another (CSS selectors inside the board). */
export interface Flight {
  from: string;
  to: string;
  what: { token?: number } | { tools: (Tool | null)[] } | { loot: Loot[] };
}

export interface Step {
  kind: "act" | "round" | "info";
  seat?: number;
  text: string;
  /** What glows while the step shows (the place, square, card, the player's panel). */
  flash: Targets & { seat?: number; square?: number | null };
  flights: Flight[];
  /** For a player's act: money gained, shown rising from their panel. */
  gained?: number;
  /** For the end of a round: the new round's number. */
  round?: number;
}

const keyOf = (e: GameEvent): string => JSON.stringify(e);

/**
 * The events of `next` that `prev` did not have, when `next` continues `prev` (the
 * kernel sends a window of the latest events, so the two overlap). `null` when it does
 * not continue it (an undo, a new game, another seat's eyes): nothing to show then.
 */
export function newEvents(prev: readonly GameEvent[], next: readonly GameEvent[]): GameEvent[] | null {
  if (prev.length === 0) return null;
  const a = prev.map(keyOf);
  const b = next.map(keyOf);
  for (let k = Math.min(a.length, b.length); k >= 1; k--) {
    let same = true;
    for (let i = 0; i < k && same; i++) same = a[a.length - k + i] === b[i];
    if (same) return next.slice(k);
  }
  return null;
}

/** The seat that did this event, if it is a player's act. */
export function actor(e: GameEvent): number | undefined {
  return ACTS.has(e.type) && typeof e.seat === "number" ? e.seat : undefined;
}

export function placeOf(e: GameEvent): Place | undefined {
  return e.place ?? PLACE_OF[e.type];
}

const panel = (seat: number): string => `article.lf-player[data-seat="${seat}"]`;

function flightsOf(e: GameEvent, seat: number): Flight[] {
  const place = placeOf(e);
  switch (e.type) {
    case "place":
      return [{ from: `${panel(seat)} .lf-tokens`, to: `[data-area="${place}"] [data-square="${e.square}"]`, what: { token: seat } }];
    case "take_tools":
      return [{ from: '[data-area="city"] .lf-display', to: panel(seat), what: { tools: (e.tools as Tool[]) ?? [] } }];
    case "steal":
      return [{ from: `[data-area="${place}"] [data-slot="${e.slot}"]`, to: `${panel(seat)} .lf-player-loot`, what: { loot: [e.loot as Loot] } }];
    case "exchange": {
      const gave = (e.gave as Tool[]) ?? [];
      const drew = Array.isArray(e.drew) ? (e.drew as Tool[]) : Array.from({ length: Number(e.count ?? 0) }, () => null);
      const rate = `[data-area="ruin"] [data-rate="${e.rate}"]`;
      return [
        { from: panel(seat), to: rate, what: { tools: gave } },
        { from: '[data-area="ruin"]', to: panel(seat), what: { tools: drew } },
      ];
    }
    case "sell":
      return [{ from: `${panel(seat)} .lf-player-loot`, to: `[data-area="harbor"] [data-fence="${e.fence}"]`, what: { loot: (e.loot as Loot[]) ?? [] } }];
    default:
      return [];
  }
}

function actStep(view: View | null, e: GameEvent, cash: GameEvent | undefined): Step {
  const seat = e.seat as number;
  const text = [eventSentence(view, e), cash ? eventSentence(view, cash) : ""].filter(Boolean).join(" ");
  const gained = Number((cash ?? e).gained ?? 0);
  return {
    kind: "act",
    seat,
    text,
    flash: {
      seat,
      place: placeOf(e),
      square: typeof e.square === "number" ? e.square : null,
      rate: e.type === "exchange" ? (e.rate as Rate) : undefined,
      fence: e.type === "sell" ? (e.fence as string) : undefined,
      pass: e.type === "pass" || undefined,
    },
    flights: flightsOf(e, seat),
    gained: gained > 0 ? gained : undefined,
  };
}

/** The end of a round in words: what reopens and refills, and who starts next (R6.2, R9). */
export function roundEndWords(view: View | null, events: readonly GameEvent[]): string {
  const start = events.find((e) => e.type === "start_player");
  const refilled = events.filter((e) => e.type === "refill" && Array.isArray(e.cards) && e.cards.length > 0);
  const places = refilled.map((e) => PLACE_NAMES[e.place as Place]).filter(Boolean);
  const reshuffled = events.filter((e) => e.type === "reshuffle").map((e) => `${e.pile}`);
  const parts: string[] = [];
  const round = typeof start?.round === "number" ? start.round - 1 : null;
  parts.push(round ? `Round ${round} is over.` : "The round is over.");
  if (places.length) parts.push(`${listWords(places)} ${places.length === 1 ? "is" : "are"} refilled (R9.1).`);
  if (reshuffled.length) parts.push(`The ${listWords(reshuffled)} discard${reshuffled.length === 1 ? " is" : "s are"} shuffled into a new draw pile (R9.2).`);
  if (start) parts.push(`${playerName(view, start.seat)} is the start player now (R9.3).`);
  return parts.join(" ");
}

/**
 * New events as steps to show one at a time. `skip(seat)` says whose acts need no
 * showing (the person who just made them); `game_over` is the end screen's.
 */
export function stepsOf(view: View | null, events: readonly GameEvent[], skip: (seat: number) => boolean): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < events.length; i++) {
    const e = events[i] as GameEvent;
    const seat = actor(e);
    if (seat !== undefined) {
      const next = events[i + 1];
      const cash = e.type === "steal" && next?.type === "cash" && next.seat === seat ? next : undefined;
      if (cash) i++;
      if (!skip(seat)) steps.push(actStep(view, e, cash));
    } else if (ROUND_END.has(e.type)) {
      let j = i;
      while (j + 1 < events.length && ROUND_END.has((events[j + 1] as GameEvent).type)) j++;
      const group = events.slice(i, j + 1);
      i = j;
      const start = group.find((g) => g.type === "start_player");
      const refills = group.filter((g) => g.type === "refill").map((g) => g.place as Place);
      if (!start) {
        // The deal before round 1 (refills with no new start player), or a lone reshuffle.
        for (const g of group) if (g.type === "reshuffle") steps.push({ kind: "info", text: eventSentence(view, g), flash: {}, flights: [] });
        continue;
      }
      steps.push({
        kind: "round",
        text: roundEndWords(view, group),
        flash: { seat: typeof start?.seat === "number" ? start.seat : undefined, place: refills[0] },
        flights: [],
        round: typeof start?.round === "number" ? start.round : undefined,
      });
    } else if (NOTES.has(e.type)) {
      steps.push({ kind: "info", text: eventSentence(view, e), flash: e.type === "ruin_reopens" ? { place: "ruin" } : {}, flights: [] });
    }
  }
  return steps;
}

/** A short line for one act, for the "since your last move" list. */
export interface Recap {
  seat?: number;
  text: string;
  round?: boolean;
}

/** A pass the kernel marks as the only legal move: the board played it, not the person. */
export function automatic(e: GameEvent): boolean {
  return e.type === "pass" && e.only === true;
}

/**
 * What happened since `seat` last chose a move (on the open board, since any of `humans`
 * did): the others' acts, the ends of rounds, and the seat's own passes that the board
 * played by itself, oldest first. A last move at the Ruin is listed too, for what it drew.
 * Empty when `seat` chose last and drew nothing.
 */
export function sinceLastMove(view: View | null, events: readonly GameEvent[], mine: (seat: number) => boolean): Recap[] {
  let from = 0;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i] as GameEvent;
    const s = actor(e);
    if (s !== undefined && mine(s) && !automatic(e)) {
      from = e.type === "exchange" ? i : i + 1;
      break;
    }
  }
  return stepsOf(view, events.slice(from), () => false)
    .filter((s) => s.kind !== "info")
    .map((s) => (s.kind === "round" ? { text: s.text, round: true } : { seat: s.seat, text: s.text }));
}

/** How long one step shows, in ms: the table's pace, never too short to see. */
export function stepMs(pace: number, queued: number): number {
  if (pace <= 0) return 0;
  const ms = Math.min(Math.max(pace * 1000, 300), 4000);
  return queued > 3 ? Math.max(ms / 2, 200) : ms; // a long queue (fast bots, a round's end) catches up
}
