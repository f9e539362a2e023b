/**
 * Pure helpers of the replay's scrubber and timeline: reading the traits
 * safely, the keyboard's meaning, and the charts' geometry. The kernel moves
 * the replay (replay_widget.py); the page only asks.
 */
import type { EvalPoint, ReplayMessage, ScrubberInfo, Scoundrel, Timeline } from "./types";
import { SCOUNDRELS } from "./types";

const isNum = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x);
const nums = (x: unknown): number[] => (Array.isArray(x) ? x.filter(isNum) : []);

/** The `scrubber` trait, or null on a live board ({}) or when malformed. */
export function readScrubber(x: unknown): ScrubberInfo | null {
  if (!x || typeof x !== "object" || Array.isArray(x)) return null;
  const s = x as Record<string, unknown>;
  if (!isNum(s.index) || !isNum(s.length)) return null;
  const a = s.analysing as Record<string, unknown> | null | undefined;
  const seatOrNull = (v: unknown): number | null => (isNum(v) ? v : null);
  return {
    index: s.index,
    length: s.length,
    rounds: nums(s.rounds),
    playing: s.playing === true,
    pace: isNum(s.pace) ? s.pace : 0.8,
    seat: seatOrNull(s.seat),
    record_seat: seatOrNull(s.record_seat),
    label: typeof s.label === "string" ? s.label : "",
    caption: typeof s.caption === "string" ? s.caption : typeof s.label === "string" ? s.label : "",
    next: typeof s.next === "string" ? s.next : "",
    can_continue: s.can_continue === true,
    can_leave: s.can_leave === true,
    puzzles: s.puzzles !== false, // puzzles are Langfinger's: a Crooks replay offers none
    levels: Array.isArray(s.levels) ? s.levels.filter((l): l is string => typeof l === "string") : [],
    bots: s.bots && typeof s.bots === "object" ? (s.bots as Record<string, string>) : {},
    analysing: a && typeof a === "object" && isNum(a.seat) && isNum(a.done)
      ? { seat: a.seat, done: a.done, total: isNum(a.total) ? a.total : null }
      : null,
  };
}

function readPoint(x: unknown): EvalPoint | null {
  if (!x || typeof x !== "object") return null;
  const p = x as Record<string, unknown>;
  if (!isNum(p.index) || !isNum(p.before) || !isNum(p.after) || !isNum(p.best_chance)) return null;
  return {
    index: p.index,
    decision: isNum(p.decision) ? p.decision : p.index + 1,
    move: typeof p.move === "string" ? p.move : "",
    before: p.before,
    after: p.after,
    best: typeof p.best === "string" ? p.best : "",
    best_chance: p.best_chance,
    loss: isNum(p.loss) ? p.loss : 0,
    doubtful: p.doubtful === true,
    too_late: typeof p.too_late === "string" ? p.too_late : "",
  };
}

/** The `timeline` trait, or null when absent or malformed. */
export function readTimeline(x: unknown): Timeline | null {
  if (!x || typeof x !== "object" || Array.isArray(x)) return null;
  const t = x as Record<string, unknown>;
  if (!Array.isArray(t.money) || !Array.isArray(t.seats)) return null;
  const seats = t.seats
    .filter((s): s is Record<string, unknown> => !!s && typeof s === "object")
    .map((s) => ({
      name: typeof s.name === "string" ? s.name : "?",
      scoundrel: (SCOUNDRELS as readonly string[]).includes(s.scoundrel as string) ? (s.scoundrel as Scoundrel) : "pascal",
      bot: typeof s.bot === "string" ? s.bot : null,
    }));
  const ev = t.evaluation as Record<string, unknown> | null | undefined;
  const points = ev && Array.isArray(ev.points) ? ev.points.map(readPoint).filter((p): p is EvalPoint => p !== null) : [];
  return {
    labels: Array.isArray(t.labels) ? t.labels.map((l) => String(l)) : [],
    money: t.money.map(nums),
    seats,
    evaluation: ev && isNum(ev.seat) ? { seat: ev.seat, points } : null,
  };
}

/** The round start before `index` (or at it, when `inclusive`), and the next one after it. */
export function roundAround(rounds: readonly number[], index: number): { back: number; next: number | null } {
  const back = [...rounds].reverse().find((r) => r < index) ?? 0;
  const next = rounds.find((r) => r > index) ?? null;
  return { back, next };
}

/**
 * What a key asks of the replay: arrows step one decision, PageUp/PageDown
 * jump between rounds' starts, Home/End go to the ends, Space plays or pauses.
 * Null when the key means nothing here (it is then left to the page).
 */
export function scrubKey(key: string, s: ScrubberInfo): ReplayMessage | null {
  switch (key) {
    case "ArrowRight":
    case "ArrowDown":
      return s.index < s.length ? { kind: "replay_step", delta: 1 } : null;
    case "ArrowLeft":
    case "ArrowUp":
      return s.index > 0 ? { kind: "replay_step", delta: -1 } : null;
    case "PageDown":
      return s.index < s.length ? { kind: "replay_round", direction: 1 } : null;
    case "PageUp":
      return s.index > 0 ? { kind: "replay_round", direction: -1 } : null;
    case "Home":
      return { kind: "replay_seek", index: 0 };
    case "End":
      return { kind: "replay_seek", index: s.length };
    case " ":
    case "k":
      return s.playing ? { kind: "replay_pause" } : { kind: "replay_play" };
    default:
      return null;
  }
}

/** The chart's plot area and scales: x by decision index, y by value (bottom is 0). */
export interface Frame {
  width: number;
  height: number;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

export function xOf(f: Frame, index: number, length: number): number {
  const span = Math.max(1, length);
  return f.left + (index * (f.width - f.left - f.right)) / span;
}

export function yOf(f: Frame, value: number, max: number): number {
  return f.top + (1 - value / Math.max(1e-9, max)) * (f.height - f.top - f.bottom);
}

/** The decision index under a click at `x` (clamped to the record). */
export function indexAt(f: Frame, x: number, length: number): number {
  const share = (x - f.left) / Math.max(1, f.width - f.left - f.right);
  return Math.max(0, Math.min(length, Math.round(share * length)));
}

/** "57%" for 0.57. */
export function percent(chance: number): string {
  return `${Math.round(chance * 100)}%`;
}

/**
 * The analysis line at position `index`: how many of the analysed seat's moves were marked
 * doubtful and, when the decision that led here (the caption's) was that seat's, what it
 * played and what the bot prefers, in the kernel's plain words, with the win chances.
 */
export function analysisLine(timeline: Timeline, index: number): string {
  const ev = timeline.evaluation;
  if (!ev) return "";
  const who = timeline.seats[ev.seat]?.name ?? `seat ${ev.seat}`;
  const doubtful = ev.points.filter((p) => p.doubtful).length;
  const marked = `${who}: ${doubtful === 0 ? "no doubtful move" : doubtful === 1 ? "one doubtful move" : `${doubtful} doubtful moves`} marked “?”.`;
  const here = ev.points.find((p) => p.index === index - 1);
  if (!here) return marked;
  const same = here.best === here.move;
  const verdict = same
    ? `${who} played the bot's choice: ${here.move} (${percent(here.after)} to win).`
    : `${who} played: ${here.move} (${percent(here.after)} to win); the bot prefers: ${here.best} (${percent(here.best_chance)}).`;
  return `${marked} Before this move ${percent(here.before)} to win. ${verdict}`;
}
