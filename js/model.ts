/**
 * Reading the synced traits from the anywidget model, as one snapshot that
 * re-renders whenever any of them changes.
 */
import { useEffect, useState } from "preact/hooks";
import type { AnyModel, InMessage, PuzzleInfo, WidgetState } from "./types";

export const TRAITS = [
  "view",
  "legal",
  "log",
  "error",
  "seat",
  "pace",
  "bots",
  "human_seats",
  "highlight",
  "hint",
  "move_number",
  "puzzle",
] as const;

function asArray<T>(x: unknown): T[] {
  return Array.isArray(x) ? (x as T[]) : [];
}

function asObject<T>(x: unknown): T {
  return (x && typeof x === "object" && !Array.isArray(x) ? x : {}) as T;
}

/** The `puzzle` trait, or null when the board plays a normal game ({}) or it is malformed. */
export function readPuzzle(x: unknown): PuzzleInfo | null {
  if (!x || typeof x !== "object" || Array.isArray(x)) return null;
  const p = x as Record<string, unknown>;
  if (typeof p.name !== "string" || typeof p.status !== "string") return null;
  const state = p.state;
  return {
    name: p.name,
    goal: typeof p.goal === "string" ? p.goal : "",
    difficulty: typeof p.difficulty === "number" ? p.difficulty : 0,
    rule: typeof p.rule === "string" ? p.rule : "",
    story: typeof p.story === "string" ? p.story : "",
    status: p.status,
    state: state === "illegal" || state === "solved" || state === "failed" ? state : "playing",
    solved: p.solved === true,
    over: p.over === true,
    hints: asArray<unknown>(p.hints).filter((h): h is string => typeof h === "string"),
    hints_left: typeof p.hints_left === "number" ? p.hints_left : 0,
  };
}

/** A snapshot of the traits, with safe defaults for anything missing or malformed. */
export function readState(model: AnyModel): WidgetState {
  const view = model.get("view");
  const seat = model.get("seat");
  const pace = model.get("pace");
  const move = model.get("move_number");
  return {
    view: view && typeof view === "object" && "players" in (view as object) ? (view as WidgetState["view"]) : null,
    legal: asArray(model.get("legal")),
    log: asArray(model.get("log")),
    error: typeof model.get("error") === "string" ? (model.get("error") as string) : "",
    seat: typeof seat === "number" ? seat : null,
    pace: typeof pace === "number" ? pace : 0.6,
    bots: asObject(model.get("bots")),
    human_seats: asArray<number>(model.get("human_seats")),
    highlight: asObject(model.get("highlight")),
    hint: asObject(model.get("hint")),
    move_number: typeof move === "number" ? move : null,
    puzzle: readPuzzle(model.get("puzzle")),
  };
}

/** The traits as state; the component re-renders on every `change:<trait>`. */
export function useWidgetState(model: AnyModel): WidgetState {
  const [state, setState] = useState(() => readState(model));
  useEffect(() => {
    const update = (): void => setState(readState(model));
    for (const t of TRAITS) model.on(`change:${t}`, update);
    update();
    return () => {
      for (const t of TRAITS) model.off(`change:${t}`, update);
    };
  }, [model]);
  return state;
}

/** Custom messages from Python (`result`, `why`). */
export function useCustomMessages(model: AnyModel, onMessage: (msg: InMessage) => void): void {
  useEffect(() => {
    const handler = (msg: unknown): void => {
      if (msg && typeof msg === "object" && "kind" in msg) onMessage(msg as InMessage);
    };
    model.on("msg:custom", handler);
    return () => model.off("msg:custom", handler);
  }, [model, onMessage]);
}
