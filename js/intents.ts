/**
 * Pure functions that turn the kernel's `legal` list into clickable choices
 * and compose the exact action to send.
 *
 * The front end decides no rule: an element is enabled only when some legal
 * action could still be completed from it, and an action is sent only when it
 * equals (as multisets where DESIGN.md says so) one of the legal actions.
 */
import type { Action, Loot, Place, Rate, Tool } from "./types";
import { TOOLS } from "./types";

type Of<T extends Action["type"]> = Extract<Action, { type: T }>;

function ofType<T extends Action["type"]>(legal: Action[], type: T): Of<T>[] {
  return legal.filter((a): a is Of<T> => a.type === type);
}

/** Tools sorted in the board's tool order (lockpick, hammer, pliers, welder, map). */
export function toolOrder(tools: readonly Tool[]): Tool[] {
  return [...tools].sort((a, b) => TOOLS.indexOf(a) - TOOLS.indexOf(b));
}

function counts<T extends string>(items: readonly T[]): Map<T, number> {
  const m = new Map<T, number>();
  for (const it of items) m.set(it, (m.get(it) ?? 0) + 1);
  return m;
}

/** Is every item of `part` in `whole`, counting repeats? */
export function isSubMultiset<T extends string>(part: readonly T[], whole: readonly T[]): boolean {
  const w = counts(whole);
  for (const [k, n] of counts(part)) if ((w.get(k) ?? 0) < n) return false;
  return true;
}

export function sameMultiset<T extends string>(a: readonly T[], b: readonly T[]): boolean {
  return a.length === b.length && isSubMultiset(a, b);
}

/** Two actions are the same move (multisets compared as multisets). */
export function actionEquals(a: Action, b: Action): boolean {
  if (a.type !== b.type) return false;
  switch (a.type) {
    case "place":
      return a.place === (b as Of<"place">).place;
    case "take_tools":
      return sameMultiset(a.tools, (b as Of<"take_tools">).tools);
    case "steal": {
      const o = b as Of<"steal">;
      return a.slot === o.slot && a.scoundrel === o.scoundrel && sameMultiset(a.pay, o.pay);
    }
    case "exchange": {
      const o = b as Of<"exchange">;
      return a.rate === o.rate && sameMultiset(a.give, o.give);
    }
    case "sell": {
      const o = b as Of<"sell">;
      return a.fence === o.fence && sameMultiset(a.loot, o.loot);
    }
    case "pass":
      return true;
  }
}

export function isLegal(legal: Action[], action: Action): boolean {
  return legal.some((a) => actionEquals(a, action));
}

export function canPass(legal: Action[]): boolean {
  return legal.some((a) => a.type === "pass");
}

// ---- placing tokens -------------------------------------------------------

export function placeablePlaces(legal: Action[]): Set<Place> {
  return new Set(ofType(legal, "place").map((a) => a.place));
}

// ---- City: take tools -------------------------------------------------------

/** The tools picked so far, from the City slot indexes selected. */
export function pickedTools(city: readonly Tool[], selected: readonly number[]): Tool[] {
  return selected.map((i) => city[i]).filter((t): t is Tool => t !== undefined);
}

/**
 * May the City slot `slot` be clicked? A selected slot may always be
 * clicked again (to put it back); an unselected one only if some legal
 * take_tools still contains the picks plus this tool.
 */
export function citySlotEnabled(
  legal: Action[],
  city: readonly Tool[],
  selected: readonly number[],
  slot: number,
): boolean {
  if (selected.includes(slot)) return true;
  const tool = city[slot];
  if (tool === undefined) return false;
  const wanted = [...pickedTools(city, selected), tool];
  return ofType(legal, "take_tools").some((a) => isSubMultiset(wanted, a.tools));
}

/** The legal take_tools equal to the picks, or null when not (yet) complete. */
export function cityAction(
  legal: Action[],
  city: readonly Tool[],
  selected: readonly number[],
): Of<"take_tools"> | null {
  const picked = pickedTools(city, selected);
  if (picked.length === 0) return null;
  return ofType(legal, "take_tools").find((a) => sameMultiset(a.tools, picked)) ?? null;
}

// ---- Villa and Museum: steal ----------------------------------------------

export function stealableSlots(legal: Action[]): Set<number> {
  return new Set(ofType(legal, "steal").map((a) => a.slot));
}

export interface StealChoice {
  /** The action that would be sent. */
  action: Of<"steal">;
  /** Both a variant with and one without the scoundrel are legal. */
  canToggle: boolean;
}

/**
 * The payment for a loot card, pre-filled from the legal actions. The
 * scoundrel is used when asked for (and legal), or when it is the only way;
 * otherwise the card is paid with tool cards alone and the scoundrel offered.
 */
export function stealChoice(
  legal: Action[],
  slot: number,
  useScoundrel: boolean | null,
): StealChoice | null {
  const variants = ofType(legal, "steal").filter((a) => a.slot === slot);
  if (variants.length === 0) return null;
  const without = variants.find((a) => !a.scoundrel);
  const withS = variants.find((a) => a.scoundrel);
  const canToggle = without !== undefined && withS !== undefined;
  let action: Of<"steal">;
  if (useScoundrel === true) action = withS ?? (without as Of<"steal">);
  else if (useScoundrel === false) action = without ?? (withS as Of<"steal">);
  else action = without ?? (withS as Of<"steal">);
  return { action: { ...action, pay: toolOrder(action.pay) }, canToggle };
}

/** The action to ask `why` about when an unaffordable card is clicked. */
export function whySteal(slot: number, loot: Loot): Of<"steal"> {
  return { type: "steal", slot, pay: toolOrder(loot.tools), scoundrel: false };
}

// ---- Ruin: exchange ---------------------------------------------------------

/** How many tools a Ruin square takes ("2>3" takes 2, gives 3). */
export function rateGives(rate: Rate): number {
  return Number(rate.split(">")[0]);
}

export function rateDraws(rate: Rate): number {
  return Number(rate.split(">")[1]);
}

export function openRates(legal: Action[]): Set<Rate> {
  return new Set(ofType(legal, "exchange").map((a) => a.rate));
}

/** The hand as single cards in tool order, so each card can be picked. */
export function handCards(hand: Partial<Record<Tool, number>> | null): Tool[] {
  if (!hand) return [];
  const out: Tool[] = [];
  for (const t of TOOLS) for (let i = 0; i < (hand[t] ?? 0); i++) out.push(t);
  return out;
}

export function giveCardEnabled(
  legal: Action[],
  rate: Rate | null,
  cards: readonly Tool[],
  selected: readonly number[],
  index: number,
): boolean {
  if (rate === null) return false;
  if (selected.includes(index)) return true;
  const tool = cards[index];
  if (tool === undefined) return false;
  const wanted = [...pickedTools(cards, selected), tool];
  return ofType(legal, "exchange").some((a) => a.rate === rate && isSubMultiset(wanted, a.give));
}

export function exchangeAction(
  legal: Action[],
  rate: Rate | null,
  cards: readonly Tool[],
  selected: readonly number[],
): Of<"exchange"> | null {
  if (rate === null) return null;
  const give = pickedTools(cards, selected);
  return ofType(legal, "exchange").find((a) => a.rate === rate && sameMultiset(a.give, give)) ?? null;
}

/** The action to ask `why` about for a Ruin square: give the first cards of the hand. */
export function whyExchange(rate: Rate, cards: readonly Tool[], selected: readonly number[]): Of<"exchange"> {
  const give = selected.length > 0 ? pickedTools(cards, selected) : cards.slice(0, rateGives(rate));
  return { type: "exchange", rate, give: toolOrder(give) };
}

// ---- Harbor: sell -----------------------------------------------------------

export function sellableFences(legal: Action[]): Set<string> {
  return new Set(ofType(legal, "sell").map((a) => a.fence));
}

export function sellLootEnabled(
  legal: Action[],
  fence: string | null,
  chosen: readonly string[],
  id: string,
): boolean {
  if (fence === null) return false;
  if (chosen.includes(id)) return true;
  const wanted = [...chosen, id];
  return ofType(legal, "sell").some((a) => a.fence === fence && isSubMultiset(wanted, a.loot));
}

export function sellAction(legal: Action[], fence: string | null, chosen: readonly string[]): Of<"sell"> | null {
  if (fence === null || chosen.length === 0) return null;
  return ofType(legal, "sell").find((a) => a.fence === fence && sameMultiset(a.loot, chosen)) ?? null;
}

// ---- where an action shows on the board (hints, last move) -----------------

export interface Targets {
  place?: Place;
  tools?: Tool[];
  slot?: number;
  rate?: Rate;
  fence?: string;
  loot?: string[];
  pass?: boolean;
}

/**
 * The board elements an action touches. `place` is the place being resolved
 * for actions that do not name it (steal at the Villa or the Museum).
 */
export function actionTargets(action: Action | undefined, place: Place | null): Targets {
  if (!action) return {};
  switch (action.type) {
    case "place":
      return { place: action.place };
    case "take_tools":
      return { place: "city", tools: action.tools };
    case "steal":
      return { place: place ?? undefined, slot: action.slot };
    case "exchange":
      return { place: "ruin", rate: action.rate, tools: action.give };
    case "sell":
      return { place: "harbor", fence: action.fence, loot: action.loot };
    case "pass":
      return { place: place ?? undefined, pass: true };
  }
}
