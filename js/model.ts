/**
 * Reading the synced traits from the anywidget model, as one snapshot that
 * re-renders whenever any of them changes.
 */
import { useEffect, useState } from "preact/hooks";
import type { AnyModel, InMessage, WidgetState } from "./types";

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
] as const;

function asArray<T>(x: unknown): T[] {
  return Array.isArray(x) ? (x as T[]) : [];
}

function asObject<T>(x: unknown): T {
  return (x && typeof x === "object" && !Array.isArray(x) ? x : {}) as T;
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
