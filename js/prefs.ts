/**
 * The player's own settings for the board, kept in the browser (localStorage), never
 * sent to the kernel: they change how the board asks, not what may be played.
 */
import { useCallback, useState } from "preact/hooks";

export interface Prefs {
  /** When Pass is the only legal move, pass by itself after a visible moment. */
  autoPass: boolean;
  /** Ask for Confirm even when a click leaves one way to complete the move. */
  confirmMoves: boolean;
  /** Draw the others' moves flying across the board (off: highlights only). */
  motion: boolean;
}

export const DEFAULT_PREFS: Prefs = { autoPass: true, confirmMoves: false, motion: true };

const KEY = "langfinger.board.prefs";

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null; // a sandboxed frame may refuse storage: the defaults then hold
  }
}

export function loadPrefs(): Prefs {
  try {
    const raw = storage()?.getItem(KEY);
    const saved = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const out: Prefs = { ...DEFAULT_PREFS };
    for (const k of Object.keys(DEFAULT_PREFS) as (keyof Prefs)[]) {
      if (typeof saved[k] === "boolean") out[k] = saved[k] as boolean;
    }
    return out;
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

export function savePrefs(p: Prefs): void {
  try {
    storage()?.setItem(KEY, JSON.stringify(p));
  } catch {
    // full or refused: the setting lasts for this page only
  }
}

export function usePrefs(): [Prefs, (change: Partial<Prefs>) => void] {
  const [prefs, setPrefs] = useState<Prefs>(loadPrefs);
  const change = useCallback((c: Partial<Prefs>) => {
    setPrefs((old) => {
      const next = { ...old, ...c };
      savePrefs(next);
      return next;
    });
  }, []);
  return [prefs, change];
}

/** The reader asked the system for less motion (`prefers-reduced-motion`). */
export function prefersReducedMotion(): boolean {
  try {
    return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  } catch {
    return false;
  }
}
