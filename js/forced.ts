/**
 * When the kernel's `legal` holds nothing but Pass: why, in one line. The kernel
 * has decided that nothing else is legal; this only picks the words that fit
 * what the seat sees (an empty display, a full Ruin, no loot a fence buys).
 */
import { PLACE_NAMES } from "./format";
import type { Action, Kind, Rate, View } from "./types";
import { RATES } from "./types";

export function onlyPass(legal: readonly Action[]): boolean {
  return legal.length > 0 && legal.every((a) => a.type === "pass");
}

function ruinWhy(view: View, handSize: number): string {
  const free = RATES.filter((r: Rate) => view.ruin_rates[r] === null || view.ruin_rates[r] === undefined);
  if (free.length === 0) return "every exchange square of the Ruin is taken this round (R6.2)";
  const least = Math.min(...free.map((r) => Number(r.split(">")[0])));
  if (handSize < least) return `no free exchange square takes as few tools as your hand holds (${handSize}) (R6.1)`;
  return "no free exchange square can be paid from your hand (R6.1)";
}

function harborWhy(view: View, seat: number | null): string {
  if (view.harbor.length === 0) return "no fence is left at the Harbor (R8.1)";
  const loot = seat === null ? [] : (view.players[seat]?.loot ?? []);
  if (loot.length === 0) return "you have no loot to sell (R8.1)";
  const kinds = new Set(loot.map((l) => l.kind).filter((k): k is Kind => k !== undefined));
  const buys = new Set(view.harbor.flatMap((f) => Object.keys(f.buys)));
  if (![...kinds].some((k) => buys.has(k))) return "no fence here buys a kind of loot you hold (R8.1)";
  return "no sale here is open to you (R8.1)";
}

/** Why the seat to move can only pass, naming the ruling; "" when it has other moves. */
export function passReason(view: View, legal: readonly Action[], seat: number | null, handSize: number): string {
  if (!onlyPass(legal) || !view.decision) return "";
  const kind = view.decision.kind;
  switch (kind) {
    case "city":
      return "The City has no tools left (R4).";
    case "villa":
    case "museum":
      return view[kind].length === 0
        ? `No loot is left at the ${PLACE_NAMES[kind]} (R5.1).`
        : `You cannot pay for any loot card at the ${PLACE_NAMES[kind]}, even with your scoundrel (R5.1, R5.2).`;
    case "ruin":
      return `Nothing to exchange: ${ruinWhy(view, handSize)}.`;
    case "harbor":
      return `Nothing to sell: ${harborWhy(view, seat)}.`;
    default:
      return "";
  }
}
