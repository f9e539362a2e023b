/**
 * From the picks so far to an action: `currentAction` is the legal action the
 * picks complete (or null); `draftAction` is what the picks would send, legal
 * or not, so that the kernel can be asked why it is not.
 */
import { cityAction, exchangeAction, isSubMultiset, pickedTools, sameMultiset, sellAction, stealChoice } from "../intents";
import type { Action, Tool, View } from "../types";
import type { Selection } from "./ui";

export function currentAction(view: View, legal: Action[], sel: Selection, hand: readonly Tool[]): Action | null {
  switch (view.decision?.kind) {
    case "city":
      return cityAction(legal, view.city, sel.city);
    case "villa":
    case "museum":
      return sel.slot === null ? null : (stealChoice(legal, sel.slot, sel.scoundrel)?.action ?? null);
    case "ruin":
      return exchangeAction(legal, sel.rate, hand, sel.give);
    case "harbor":
      return sellAction(legal, sel.fence, sel.loot);
    default:
      return null;
  }
}

export function draftAction(view: View, sel: Selection, hand: readonly Tool[]): Action | null {
  switch (view.decision?.kind) {
    case "city": {
      const tools = pickedTools(view.city, sel.city);
      return tools.length ? { type: "take_tools", tools } : null;
    }
    case "ruin":
      return sel.rate ? { type: "exchange", rate: sel.rate, give: pickedTools(hand, sel.give) } : null;
    case "harbor":
      return sel.fence ? { type: "sell", fence: sel.fence, loot: [...sel.loot] } : null;
    default:
      return null;
  }
}

export function hasSelection(sel: Selection): boolean {
  return sel.city.length > 0 || sel.slot !== null || sel.rate !== null || sel.fence !== null;
}

/**
 * The one legal action the picks so far can still become, or null (none yet, or several).
 * A click that leaves a single way to go on completes it: a card with one way to pay, a
 * fence that buys only one of your cards (issue 28: one click where one choice fits). What
 * is taken from the City is the player's to pick, tool by tool: the click that picks the
 * last tool needed sends it, never a click that leaves the board to add one (issue 40).
 */
export function onlyCompletion(view: View, legal: Action[], sel: Selection, hand: readonly Tool[]): Action | null {
  let fits: Action[] = [];
  switch (view.decision?.kind) {
    case "city": {
      const picked = pickedTools(view.city, sel.city);
      if (picked.length === 0) return null;
      fits = legal.filter((a) => a.type === "take_tools" && isSubMultiset(picked, a.tools));
      if (fits.length === 1 && !sameMultiset(picked, (fits[0] as Extract<Action, { type: "take_tools" }>).tools)) return null;
      break;
    }
    case "villa":
    case "museum":
      if (sel.slot === null) return null;
      fits = legal.filter((a) => a.type === "steal" && a.slot === sel.slot && (sel.scoundrel === null || a.scoundrel === sel.scoundrel));
      break;
    case "ruin": {
      if (sel.rate === null) return null;
      const give = pickedTools(hand, sel.give);
      fits = legal.filter((a) => a.type === "exchange" && a.rate === sel.rate && isSubMultiset(give, a.give));
      break;
    }
    case "harbor":
      if (sel.fence === null) return null;
      fits = legal.filter((a) => a.type === "sell" && a.fence === sel.fence && isSubMultiset(sel.loot, a.loot));
      break;
    default:
      return null;
  }
  return fits.length === 1 ? (fits[0] as Action) : null;
}
