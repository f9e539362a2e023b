/**
 * The shared state of one rendered board: the snapshot of the traits, what
 * the player has picked so far, and the handlers the board elements call.
 */
import { createContext } from "preact";
import { useContext, useRef } from "preact/hooks";
import type { Targets } from "../intents";
import type { Prefs } from "../prefs";
import type { Action, Place, Rate, Tool, View, WidgetState } from "../types";

/** What has been picked towards an action that needs more than one click. */
export interface Selection {
  city: number[];
  slot: number | null;
  scoundrel: boolean | null;
  rate: Rate | null;
  give: number[];
  fence: string | null;
  loot: string[];
}

export const EMPTY_SELECTION: Selection = {
  city: [],
  slot: null,
  scoundrel: null,
  rate: null,
  give: [],
  fence: null,
  loot: [],
};

export interface Controls {
  clickPlace(place: Place): void;
  clickCityTool(index: number): void;
  clickSlot(place: Place, slot: number): void;
  toggleScoundrel(): void;
  clickRate(rate: Rate): void;
  clickHandCard(index: number): void;
  clickFence(id: string): void;
  clickOwnLoot(id: string): void;
  confirm(): void;
  cancel(): void;
  pass(): void;
  why(action: Action): void;
}

export interface Ui {
  state: WidgetState;
  view: View;
  /** The legal actions that this screen may act on (empty behind a privacy screen). */
  legal: Action[];
  /** The seat whose hand and loot fronts are shown in "your" area. */
  mySeat: number | null;
  /** The hand of `mySeat` as single cards in tool order. */
  handCards: Tool[];
  sel: Selection;
  ctl: Controls;
  hint: Targets;
  flash: Targets & { seat?: number; square?: number | null; key: number };
  pending: boolean;
  /** Hot-seat: the human seat the board waits for; until then nothing private is drawn. */
  privacy: number | null;
  /** The player's own settings (prefs.ts). */
  prefs: Prefs;
}

export const UiContext = createContext<Ui | null>(null);

export function useUi(): Ui {
  const ui = useContext(UiContext);
  if (!ui) throw new Error("board component rendered outside UiContext");
  return ui;
}

/** Mark the first `n` occurrences (count-aware) of tools picked out by targets. */
export function markTools(tools: readonly Tool[], wanted: readonly Tool[] | undefined): boolean[] {
  const left = [...(wanted ?? [])];
  return tools.map((t) => {
    const i = left.indexOf(t);
    if (i < 0) return false;
    left.splice(i, 1);
    return true;
  });
}

/**
 * A number that changes whenever the position shown changes for any reason: a move, Undo,
 * a new game, a bot, another seat. Picks and pending moves belong to one such number, so
 * coming back to a position that looks the same (Undo, then the same move again) never
 * brings back picks made before. The kernel sends a trait only when its value changed,
 * so a new `view` or `legal` object means a new position.
 */
export function usePositionId(parts: readonly unknown[]): number {
  const last = useRef<{ parts: readonly unknown[]; id: number }>({ parts, id: 0 });
  if (parts.length !== last.current.parts.length || parts.some((p, i) => p !== last.current.parts[i])) {
    last.current = { parts, id: last.current.id + 1 };
  }
  return last.current.id;
}
