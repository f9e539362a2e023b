/**
 * Readable sentences for the log, the hint and the decision line.
 * Pure functions of the view and the event, so they are easy to test.
 */
import type { Action, Fence, GameEvent, Loot, Place, Tool, View } from "./types";

export const PLACE_NAMES: Record<Place, string> = {
  city: "City",
  villa: "Villa",
  ruin: "Ruin",
  museum: "Museum",
  harbor: "Harbor",
};

/** What each place does when its tokens act, in a sentence (the header's tip, the legend). */
export const PLACE_ROLES: Record<Place, string> = {
  city: "City: take 2 of the tools shown (R4).",
  villa: "Villa: steal 1 loot card shown, handing in the tools on its back (R5.1).",
  ruin: "Ruin: swap tools from your hand for new ones from the pile, at a free rate (R6.1).",
  museum: "Museum: steal 1 loot card shown, as at the Villa (R7).",
  harbor: "Harbor: sell loot to a fence that buys its kind, for its value plus the bonus (R8.1).",
};

export function playerName(view: View | null, seat: number | null | undefined): string {
  if (seat === null || seat === undefined) return "Nobody";
  return view?.players[seat]?.name ?? `Player ${seat + 1}`;
}

/** "hammer", "hammer and map", "hammer, map and map". */
export function listWords(words: readonly string[]): string {
  if (words.length === 0) return "nothing";
  if (words.length === 1) return words[0] as string;
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

/** "Rose wins", "Rose and Sid win", "You win": the end screens' headline. */
export function winnersWords(names: readonly string[]): string {
  const verb = names.length === 1 && names[0] !== "You" ? "wins" : "win";
  return `${listWords(names)} ${verb}`;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// The same grammar as the kernel's langfinger_widget/kernel/words.py: "two maps", "a hammer",
// "pliers" (a plural noun: never "a pliers").
const NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];
const PLURAL_ONLY = new Set(["pliers", "coins", "jewelry", "gold", "money"]);
const TOOL_ORDER: readonly string[] = ["lockpick", "hammer", "pliers", "welder", "map"];

/** `n` things in words: "one tool", "two maps", "12 cards". */
export function countWords(n: number, noun: string): string {
  const many = PLURAL_ONLY.has(noun) ? noun : `${noun}s`;
  return `${NUMBERS[n] ?? String(n)} ${n === 1 ? noun : many}`;
}

function some(n: number, noun: string): string {
  if (n !== 1) return countWords(n, noun);
  return PLURAL_ONLY.has(noun) ? noun : `${/^[aeiou]/.test(noun) ? "an" : "a"} ${noun}`;
}

/** Tool cards in words, grouped by type in the board's order: "a lockpick, pliers and two maps". */
export function toolWords(tools: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of tools) counts.set(t, (counts.get(t) ?? 0) + 1);
  const rank = (t: string): number => (TOOL_ORDER.includes(t) ? TOOL_ORDER.indexOf(t) : TOOL_ORDER.length);
  const order = [...counts.keys()].sort((a, b) => rank(a) - rank(b));
  return listWords(order.map((t) => some(counts.get(t) ?? 0, t)));
}

/** A loot card in words: its front when known, else its back. */
export function lootWords(loot: Loot | undefined): string {
  if (!loot) return "a loot card";
  if (loot.kind !== undefined && loot.value !== undefined) {
    return loot.kind === "money" ? `${loot.value} money` : `${some(1, loot.kind)} worth ${loot.value}`;
  }
  return `${some(1, loot.protection)} (${toolWords(loot.tools)})`;
}

export function fenceWords(fence: Fence): string {
  const parts = Object.entries(fence.buys).map(([kind, cb]) => {
    const [count, bonus] = cb as [number, number];
    return `${count > 1 ? countWords(count, kind) : kind}${bonus ? ` +${bonus}` : ""}`;
  });
  return `fence ${fence.id} (buys ${listWords(parts)})`;
}

function toolsWords(tools: unknown, count: unknown): string {
  if (Array.isArray(tools) && tools.every((t) => typeof t === "string")) {
    return toolWords(tools as string[]);
  }
  return countWords(Number(count ?? 0), "tool");
}

/** An exchange square's rate in words: "1 tool for 2". */
export function rateWords(rate: string): string {
  const [give, draw] = rate.split(">");
  return `${give} ${give === "1" ? "tool" : "tools"} for ${draw}`;
}

/** One log event as a sentence; unknown event types still read sensibly. */
export function eventSentence(view: View | null, ev: GameEvent): string {
  const who = playerName(view, ev.seat);
  const at = ev.place ? ` at the ${PLACE_NAMES[ev.place]}` : "";
  const sq = typeof ev.square === "number" ? ` (square ${ev.square + 1})` : "";
  switch (ev.type) {
    case "deal":
      return `${who} is dealt ${toolsWords(ev.tools, ev.count)}.`;
    case "place":
      return `${who} places a token${at}${sq}.`;
    case "actions_begin":
      return `All tokens are placed: the actions of round ${ev.round ?? ""} begin.`;
    case "take_tools":
      return `${who} takes ${toolsWords(ev.tools, undefined)} from the City.`;
    case "steal": {
      const paid = Array.isArray(ev.paid) ? toolWords(ev.paid as string[]) : "tools";
      const sc = ev.scoundrel ? " and the scoundrel" : "";
      return `${who} steals ${lootWords(ev.loot as Loot)}${at}, paying ${paid}${sc}.`;
    }
    case "cash":
      return `${who} opens the chest at once: +${ev.gained} money (now ${ev.money}).`;
    case "exchange": {
      const drew = toolsWords(ev.drew, ev.count);
      return `${who} exchanges ${toolsWords(ev.gave, undefined)} at the Ruin (${rateWords(String(ev.rate))}) and draws ${drew}.`;
    }
    case "sell": {
      const loot = Array.isArray(ev.loot) ? listWords((ev.loot as Loot[]).map(lootWords)) : "loot";
      return `${who} sells ${loot} to fence ${ev.fence}: +${ev.gained} money (now ${ev.money}).`;
    }
    case "pass":
      return ev.only === true ? `${who} passes${at}${sq}: nothing else was possible.` : `${who} passes${at}${sq}.`;
    case "ruin_reopens":
      return "The Ruin's exchange squares reopen.";
    case "reshuffle":
      return `The ${ev.pile} discard is shuffled into a new draw pile (${ev.size} cards).`;
    case "refill": {
      const cards = Array.isArray(ev.cards) ? ev.cards.length : 0;
      return `The ${ev.place ? PLACE_NAMES[ev.place] : "display"} is refilled with ${countWords(cards, "card")}.`;
    }
    case "start_player":
      return `Round ${ev.round}: ${who} is the start player.`;
    case "game_over": {
      const winners = Array.isArray(ev.winners) ? (ev.winners as number[]).map((s) => playerName(view, s)) : [];
      return `Game over: ${listWords(winners)} ${winners.length === 1 ? "wins" : "win"}.`;
    }
    default:
      return `${who}: ${ev.type}.`;
  }
}

/** An action in words, for the hint and the composer. */
export function actionWords(view: View | null, action: Action): string {
  const place = view?.decision?.place;
  switch (action.type) {
    case "place":
      return `place a token at the ${PLACE_NAMES[action.place]}`;
    case "take_tools":
      return `take ${toolWords(action.tools)}`;
    case "steal": {
      const loot = place === "villa" || place === "museum" ? view?.[place][action.slot] : undefined;
      const sc = action.scoundrel ? " and the scoundrel" : "";
      return `steal ${lootWords(loot)} (card ${action.slot + 1}) paying ${toolWords(action.pay)}${sc}`;
    }
    case "exchange":
      return `exchange ${toolWords(action.give)} at the Ruin (${rateWords(action.rate)})`;
    case "sell":
      return `sell ${listWords(action.loot.map((id) => lootName(view, id)))} to fence ${action.fence}`;
    case "pass":
      return "pass";
  }
}

function lootName(view: View | null, id: string): string {
  for (const p of view?.players ?? []) {
    const l = p.loot.find((x) => x.id === id);
    if (l) return lootWords(l);
  }
  return id;
}

/** What is being decided, in words ("Hans: place a token"). */
export function decisionWords(view: View): string {
  const d = view.decision;
  if (!d) return view.is_over ? "The game is over." : "The round is over.";
  const who = playerName(view, d.seat);
  const sq = d.square !== null ? ` (square ${d.square + 1})` : "";
  switch (d.kind) {
    case "place":
      return `${who} places a token.`;
    case "city":
      return `${who} takes tools at the City${sq}.`;
    case "villa":
    case "museum":
      return `${who} may steal loot at the ${PLACE_NAMES[d.kind]}${sq}.`;
    case "ruin":
      return `${who} may exchange tools at the Ruin${sq}.`;
    case "harbor":
      return `${who} may sell loot at the Harbor${sq}.`;
  }
}

/**
 * Where the money marker stands on the 0–20 track. The printed track wraps after 20
 * (R10.1); the board stops at 20 instead and shows the total, which is what counts.
 */
export function moneyTrack(money: number): { pos: number; beyond: boolean } {
  return { pos: Math.min(Math.max(0, money), 20), beyond: money > 20 };
}

export function toolCounts(tools: readonly Tool[]): [Tool, number][] {
  const m = new Map<Tool, number>();
  for (const t of tools) m.set(t, (m.get(t) ?? 0) + 1);
  return [...m.entries()];
}
