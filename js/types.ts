/**
 * The wire formats the front end receives and sends.
 *
 * They mirror docs/view-format.md (views and events) and DESIGN.md (actions).
 * The front end only reads these; it never decides a rule.
 */

export const PLACES = ["city", "villa", "ruin", "museum", "harbor"] as const;
export type Place = (typeof PLACES)[number];

export const TOOLS = ["lockpick", "hammer", "pliers", "welder", "map"] as const;
export type Tool = (typeof TOOLS)[number];

export const KINDS = ["money", "painting", "coins", "gold", "jewelry", "statue"] as const;
export type Kind = (typeof KINDS)[number];

export const PROTECTIONS = ["chest", "pillar", "showcase", "safe"] as const;
export type Protection = (typeof PROTECTIONS)[number];

export const SCOUNDRELS = ["pascal", "hans", "tommaso", "yoshiko", "bobby"] as const;
export type Scoundrel = (typeof SCOUNDRELS)[number];

/** Ruin exchange squares in board order (R6.1). */
export const RATES = ["1>2", "2>3", "3>4", "2>2", "1>1"] as const;
export type Rate = (typeof RATES)[number];

/** A loot card: its back is public; id/kind/value only when the seat may know the front. */
export interface Loot {
  protection: Protection;
  tools: Tool[];
  id?: string;
  kind?: Kind;
  value?: number;
  /** A front the puzzle tells its reader (the seat's own view would show only the back). */
  told?: boolean;
}

/** kind -> [count, bonus] */
export interface Fence {
  id: string;
  buys: Partial<Record<Kind, [number, number]>>;
}

export interface PlayerView {
  seat: number;
  name: string;
  scoundrel: Scoundrel;
  tool: Tool;
  money: number;
  tokens: number;
  hand_size: number;
  hand: Partial<Record<Tool, number>> | null;
  known: Partial<Record<Tool, number>>;
  loot: Loot[];
  scoundrel_used: { villa: boolean; museum: boolean };
}

export type DecisionKind = "place" | Place;

export interface Decision {
  seat: number;
  kind: DecisionKind;
  place: Place | null;
  square: number | null;
  /** Placing only: each place where a token placed now may find everything gone when it acts,
   *  in the kernel's words (legal all the same, R2.2). */
  too_late?: Partial<Record<Place, string>>;
}

export interface View {
  format: string;
  seat: number | null;
  variant: "standard" | "open_info";
  round: number;
  phase: "place" | "act" | "over";
  start_player: number;
  to_move: number | null;
  decision: Decision | null;
  players: PlayerView[];
  city: Tool[];
  villa: Loot[];
  museum: Loot[];
  harbor: Fence[];
  squares: Record<Place, (number | null)[]>;
  ruin_rates: Record<Rate, number | null>;
  piles: {
    tools: { draw: number; discard: Partial<Record<Tool, number>> };
    loot: { draw: number; discard: Loot[] };
    fences: { draw: number; discard: Fence[] };
  };
  money_by_round: number[][];
  is_over: boolean;
  winners: number[];
  /** Present (true) only in a composed position: a puzzle's or the builder's, not a deal's. */
  composed?: boolean;
}

export type Action =
  | { type: "place"; place: Place }
  | { type: "take_tools"; tools: Tool[] }
  | { type: "steal"; slot: number; pay: Tool[]; scoundrel: boolean }
  | { type: "exchange"; rate: Rate; give: Tool[] }
  | { type: "sell"; fence: string; loot: string[] }
  | { type: "pass" };

/** A log event (view-format.md, "Events"); fields vary by type. */
export interface GameEvent {
  type: string;
  seat?: number;
  place?: Place;
  square?: number;
  round?: number;
  [field: string]: unknown;
}

/** The last move made (widget.py adds where it happened and the move number). */
export interface Highlight {
  seat?: number;
  action?: Action;
  place?: Place | null;
  square?: number | null;
  by?: string;
  move?: number;
}

export interface Hint {
  action?: Action | null;
  value?: number;
  seat?: number;
  move?: number;
}

/**
 * The puzzle played on this board (widget.py's `puzzle` trait, PuzzleSession.panel):
 * only what the reader may see, never the solution nor a hint not yet asked for.
 */
export interface PuzzleInfo {
  name: string;
  goal: string;
  difficulty: number;
  /** The ruling it hinges on, e.g. "R5.2". */
  rule: string;
  story?: string;
  /** What the puzzle tells the reader beyond the seat's view, one fact a sentence. */
  told?: string[];
  seat?: number;
  /** "Solved! ...", "Not yet: ...", "Illegal: R...", "Not solved: ..." */
  status: string;
  state: "playing" | "illegal" | "solved" | "failed";
  solved: boolean;
  over?: boolean;
  moves?: number;
  /** The hints asked for so far, gentlest first. */
  hints: string[];
  hints_left: number;
}

export interface UndoStatus {
  allowed: boolean;
  reason: string;
}

/** A registered game the New game panel may offer (Table.setup's `games`). */
export interface GameChoice {
  name: string;
  title: string;
  /** The fewest and the most players. */
  players: [number, number];
}

export interface Setup {
  /** The game being played ("langfinger", "crooks"), and the games on offer. */
  game?: string;
  games?: GameChoice[];
  players: number;
  seat: number | null;
  bots: Record<string, string>;
  variant: string;
  levels: string[];
  level_notes: Record<string, string>;
  allow_new_game: boolean;
  /** Whether the New game panel offers "Play online" (a table on a game server). */
  allow_online?: boolean;
  /** A lesson's board that holds at the end of its step: the kernel's words saying so ("" while it is open). */
  step_done?: string;
}

/** A board playing at a game server's table (widget.py's `online` trait, net/seat.py). */
export interface OnlineInfo {
  connection: string;
  server: string;
  table: string;
  status: string;
  seat: number | null;
  /** Invites this board handed out ("Play online"): seat -> link. */
  invites: Record<string, string>;
  watch: string;
}

/** Where a replay is (replay_widget.py's `scrubber` trait); absent on a live board. */
export interface ScrubberInfo {
  index: number;
  length: number;
  /** Positions where a round's placing begins (0 included). */
  rounds: number[];
  playing: boolean;
  pace: number;
  /** Whose eyes: a seat, or null for everything (full records only). */
  seat: number | null;
  /** Whose record this is: null for a full record (it may be seen from any seat). */
  record_seat: number | null;
  /** The decision that led here, in the record's words ("the start" at 0). */
  label: string;
  /** The same in plain words, as the seat shown saw it ("Hans takes two maps from the City."). */
  caption: string;
  next: string;
  can_continue: boolean;
  /** Made from a live board's end screen: "Back to the end screen" leaves the replay. */
  can_leave?: boolean;
  /** Whether "Make a puzzle from here" is offered (puzzles are Langfinger's; false for Crooks). */
  puzzles?: boolean;
  levels: string[];
  /** The bots that would play on from here (Continue from here's defaults). */
  bots: Record<string, string>;
  analysing: { seat: number; done: number; total: number | null } | null;
}

/** One rated decision (lf.analyse): win chances from 0 to 1. */
export interface EvalPoint {
  index: number;
  decision: number;
  move: string;
  before: number;
  after: number;
  best: string;
  best_chance: number;
  loss: number;
  doubtful: boolean;
  /** A token placed where everything may be gone before it acts: the kernel's words, else "". */
  too_late?: string;
}

/** The replay's timeline (`timeline` trait): words, money after each decision, evaluation. */
export interface Timeline {
  labels: string[];
  /** money[i][seat]: each seat's money after i decisions. */
  money: number[][];
  seats: { name: string; scoundrel: Scoundrel; bot: string | null }[];
  evaluation: { seat: number; points: EvalPoint[] } | null;
}

/** What one player did in a finished game (widget.py's `figures` trait, figures.py). */
export interface Figures {
  seat: number;
  steals: number;
  chests: number;
  sales: number;
  sold: number;
  exchanges: number;
  passes: number;
  tools_taken: number;
  tools_spent: number;
  money_from_chests: number;
  money_from_sales: number;
  /** The player's loot left unsold, turned up at the end (fronts, no ids). */
  unsold?: Loot[];
}

/** Everything the widget syncs from Python, as one snapshot. */
export interface WidgetState {
  view: View | null;
  legal: Action[];
  events: GameEvent[];
  error: string;
  seat: number | null;
  pace: number;
  bots: Record<string, string>;
  human_seats: number[];
  highlight: Highlight;
  hint: Hint;
  /** Actions played so far (widget.py); quoted in `act` so that a stale intent is refused. */
  move_number: number | null;
  /** Game.version: changes on every play and undo; quoted in `act` too (an undo can bring a
   *  game back to the same move number in another position). */
  version?: number | null;
  /** Whether Undo may be pressed now, and the ruling why not (R12). */
  undo_status?: UndoStatus;
  /** What the New game panel starts from and offers (Table.setup). */
  setup?: Setup;
  /** The puzzle on this board; null (or absent) when it plays a normal game. */
  puzzle?: PuzzleInfo | null;
  /** A replay's position (null or absent on a live board) and its timeline. */
  scrubber?: ScrubberInfo | null;
  timeline?: Timeline | null;
  /** Once the game is over: what each player did, and their unsold loot. */
  figures?: Figures[];
  /** At a game server's table: the connection and the invites; null for a game played here. */
  online?: OnlineInfo | null;
}

export type OutMessage =
  | { kind: "act"; action: Action; move: number; version: number }
  | { kind: "why"; action: Action }
  | { kind: "hint" }
  | { kind: "undo" }
  | {
      kind: "new_game";
      /** Every field is optional: a missing one keeps the current setting (the kernel's contract). */
      players?: number;
      seat?: number | null;
      bots?: Record<string, string>;
      /** A registered game's name (lf.games); left out, the game being played. */
      game?: string;
      variant?: "standard" | "open_info";
      seed?: number | null;
      /** "Play online": the same choices, at a new table on a game server. */
      online?: boolean;
    }
  | { kind: "reveal"; seat: number }
  | { kind: "puzzle_hint" }
  | { kind: "puzzle_reset" }
  /** The end screen: this board replays its finished game (and analyses the seat's play). */
  | { kind: "replay"; analyse: boolean }
  | { kind: "replay_leave" }
  /** One invite ("0".."4") or the spectators' link ("watch"), secret and all: the `online`
   *  trait holds them without (a saved notebook keeps the trait). */
  | { kind: "online_link"; which: string }
  | ReplayMessage;

/** Intents of a replay (replay_widget.py); every one is checked by the kernel. */
export type ReplayMessage =
  | { kind: "replay_seek"; index: number }
  | { kind: "replay_step"; delta: 1 | -1 }
  | { kind: "replay_round"; direction: 1 | -1 }
  | { kind: "replay_play"; pace?: number }
  | { kind: "replay_pause" }
  | { kind: "replay_pace"; pace: number }
  | { kind: "replay_seat"; seat: number | null }
  | { kind: "replay_analyse"; seat: number; bot?: string }
  | { kind: "replay_continue"; seat: number | null; bots: Record<string, string> }
  | { kind: "replay_puzzle" };

export type InMessage =
  | { kind: "result"; ok: boolean; error?: string }
  | { kind: "why"; action: Action; reason: string | null }
  | { kind: "hint"; action: Action | null; error: string }
  | { kind: string; [field: string]: unknown };

/** The part of the anywidget model the front end uses. */
export interface AnyModel {
  get(name: string): unknown;
  on(event: string, cb: (...args: unknown[]) => void): void;
  off(event?: string | null, cb?: ((...args: unknown[]) => void) | null): void;
  send(msg: unknown, callbacks?: unknown, buffers?: unknown): void;
  set?(name: string, value: unknown): void;
  save_changes?(): void;
}
