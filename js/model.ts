/**
 * Reading the synced traits from the anywidget model, as one snapshot that
 * re-renders whenever any of them changes.
 */
import { useEffect, useState } from "preact/hooks";
import { readScrubber, readTimeline } from "./replay";
import type { AnyModel, Figures, InMessage, OnlineInfo, PuzzleInfo, Setup, UndoStatus, WidgetState } from "./types";

export const TRAITS = [
  "view",
  "legal",
  "events",
  "error",
  "seat",
  "pace",
  "bots",
  "human_seats",
  "highlight",
  "hint",
  "move_number",
  "version",
  "undo_status",
  "setup",
  "puzzle",
  "scrubber",
  "timeline",
  "figures",
  "online",
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
    told: asArray<unknown>(p.told).filter((t): t is string => typeof t === "string"),
    status: p.status,
    state: state === "illegal" || state === "solved" || state === "failed" ? state : "playing",
    solved: p.solved === true,
    over: p.over === true,
    hints: asArray<unknown>(p.hints).filter((h): h is string => typeof h === "string"),
    hints_left: typeof p.hints_left === "number" ? p.hints_left : 0,
  };
}

/** The `undo_status` trait; when absent or malformed, Undo stays pressable (the kernel decides). */
export function readUndoStatus(x: unknown): UndoStatus {
  const u = asObject<Record<string, unknown>>(x);
  return { allowed: u.allowed !== false, reason: typeof u.reason === "string" ? u.reason : "" };
}

/** The `setup` trait, or undefined when it is missing or malformed. */
export function readSetup(x: unknown): Setup | undefined {
  const s = asObject<Record<string, unknown>>(x);
  if (typeof s.players !== "number") return undefined;
  return {
    players: s.players,
    seat: typeof s.seat === "number" ? s.seat : null,
    bots: asObject<Record<string, string>>(s.bots),
    variant: typeof s.variant === "string" ? s.variant : "standard",
    levels: asArray<unknown>(s.levels).filter((l): l is string => typeof l === "string"),
    level_notes: asObject<Record<string, string>>(s.level_notes),
    allow_new_game: s.allow_new_game !== false,
    allow_online: s.allow_online === true,
    step_done: typeof s.step_done === "string" ? s.step_done : "",
  };
}

/** The `online` trait, or null when the board plays here (an empty or malformed trait). */
export function readOnline(x: unknown): OnlineInfo | null {
  const o = asObject<Record<string, unknown>>(x);
  if (typeof o.table !== "string" || typeof o.connection !== "string") return null;
  const text = (v: unknown): string => (typeof v === "string" ? v : "");
  return {
    connection: o.connection,
    server: text(o.server),
    table: o.table,
    status: text(o.status),
    seat: typeof o.seat === "number" ? o.seat : null,
    invites: Object.fromEntries(Object.entries(asObject<Record<string, unknown>>(o.invites)).filter((e): e is [string, string] => typeof e[1] === "string")),
    watch: text(o.watch),
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
    events: asArray(model.get("events")),
    error: typeof model.get("error") === "string" ? (model.get("error") as string) : "",
    seat: typeof seat === "number" ? seat : null,
    pace: typeof pace === "number" ? pace : 0.6,
    bots: asObject(model.get("bots")),
    human_seats: asArray<number>(model.get("human_seats")),
    highlight: asObject(model.get("highlight")),
    hint: asObject(model.get("hint")),
    move_number: typeof move === "number" ? move : null,
    version: typeof model.get("version") === "number" ? (model.get("version") as number) : null,
    undo_status: readUndoStatus(model.get("undo_status")),
    setup: readSetup(model.get("setup")),
    puzzle: readPuzzle(model.get("puzzle")),
    scrubber: readScrubber(model.get("scrubber")),
    timeline: readTimeline(model.get("timeline")),
    online: readOnline(model.get("online")),
    figures: asArray<Figures>(model.get("figures")).filter((f) => f && typeof f === "object" && typeof f.seat === "number"),
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
