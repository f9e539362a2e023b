/**
 * From the picks so far to an action: `currentAction` is the legal action the
 * picks complete (or null); `draftAction` is what the picks would send, legal
 * or not, so that the kernel can be asked why it is not.
 */
import { cityAction, exchangeAction, pickedTools, sellAction, stealChoice } from "../intents";
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
