/**
 * Pure: the choices of the New game panel, and the `new_game` intent they make.
 *
 * The panel starts from the `setup` trait (Table.setup: players, seat, bots,
 * variant, the levels on offer). Nothing here decides a rule: the kernel checks
 * every field of the intent again and refuses a bad one (R1.1, R11), changing
 * nothing.
 */
import type { OutMessage, Setup, View, WidgetState } from "./types";
import { SCOUNDRELS } from "./types";

export const MIN_PLAYERS = 2;
export const MAX_PLAYERS = 5;
export const HUMAN = "human";
/** The difficulty ladder, when the kernel sends no `setup` (an older kernel). */
export const DEFAULT_LEVELS = ["easy", "medium", "hard", "expert"];
export type Variant = "standard" | "open_info";

export interface NewGameChoices {
  /** The registered game to deal ("langfinger" unless the kernel offers others). */
  game: string;
  players: number;
  /** The seat whose board this is, or null for the open board (every hand shown). */
  seat: number | null;
  /** Who plays each seat: "human" or a bot level (or the name of a bot already seated). */
  seats: string[];
  variant: Variant;
  /** What was typed into the seed field: empty for a random deal. */
  seed: string;
}

export type NewGameIntent = Extract<OutMessage, { kind: "new_game" }>;

/** The seed field as a number, null when empty, or the reason it cannot be one. */
export function parseSeed(text: string): { seed: number | null } | { error: string } {
  const t = text.trim();
  if (t === "") return { seed: null };
  const n = Number(t);
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n)) {
    return { error: `The seed is a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, or empty for a random deal.` };
  }
  return { seed: n };
}

/** The `setup` trait, or what the board shows when the kernel sends none. */
export function setupOrDefault(state: WidgetState, view: View | null): Setup {
  if (state.setup) return state.setup;
  return {
    players: view?.players.length ?? 3,
    seat: state.seat,
    bots: state.bots,
    variant: view?.variant ?? "standard",
    levels: DEFAULT_LEVELS,
    level_notes: {},
    allow_new_game: true,
  };
}

/** A new seat's player: a person on the open board, else a bot of the middle level (as the kernel). */
function defaultPlayer(setup: Setup, seat: number | null): string {
  if (seat === null) return HUMAN;
  return setup.levels.includes("medium") ? "medium" : (setup.levels[0] ?? HUMAN);
}

export const LANGFINGER = "langfinger";

/** The fewest and the most players of a game on offer (Langfinger's 2 to 5 by default). */
export function playerRange(setup: Setup, game: string): [number, number] {
  return setup.games?.find((g) => g.name === game)?.players ?? [MIN_PLAYERS, MAX_PLAYERS];
}

export function initialChoices(setup: Setup): NewGameChoices {
  const most = Math.max(MAX_PLAYERS, ...(setup.games ?? []).map((g) => g.players[1]));
  const seats = Array.from({ length: most }, (_, k) =>
    k < setup.players ? (setup.bots[String(k)] ?? HUMAN) : defaultPlayer(setup, setup.seat),
  );
  if (setup.seat !== null) seats[setup.seat] = HUMAN;
  return {
    game: setup.game ?? LANGFINGER,
    players: setup.players,
    seat: setup.seat,
    seats,
    variant: setup.variant === "open_info" ? "open_info" : "standard",
    seed: "",
  };
}

/** Fewer or more players: a seat that no longer exists cannot be yours. */
export function withPlayers(c: NewGameChoices, players: number): NewGameChoices {
  const seat = c.seat !== null && c.seat >= players ? 0 : c.seat;
  return withSeat({ ...c, players }, seat);
}

/** Another game: its player counts bound the players (the seats' choices are kept). */
export function withGame(setup: Setup, c: NewGameChoices, game: string): NewGameChoices {
  const [fewest, most] = playerRange(setup, game);
  return withPlayers({ ...c, game }, Math.min(most, Math.max(fewest, c.players)));
}

/** Your seat is always played by you, never by a bot. */
export function withSeat(c: NewGameChoices, seat: number | null): NewGameChoices {
  const seats = [...c.seats];
  if (seat !== null) seats[seat] = HUMAN;
  return { ...c, seat, seats };
}

export function withPlayer(c: NewGameChoices, seat: number, player: string): NewGameChoices {
  if (seat === c.seat) return c;
  const seats = [...c.seats];
  seats[seat] = player;
  return { ...c, seats };
}

/** The intent the choices make, or why they cannot be sent yet. */
export function newGameIntent(c: NewGameChoices, games = false): { intent: NewGameIntent } | { error: string } {
  const seed = parseSeed(c.seed);
  if ("error" in seed) return seed;
  const bots: Record<string, string> = {};
  for (let k = 0; k < c.players; k++) {
    const who = c.seats[k] ?? HUMAN;
    if (k !== c.seat && who !== HUMAN) bots[String(k)] = who;
  }
  // A game other than Langfinger has no variant; the game is named only when the kernel
  // offered a choice of games (an older kernel knows no `game` option).
  const own = c.game !== LANGFINGER ? { game: c.game } : games ? { game: c.game, variant: c.variant } : { variant: c.variant };
  return { intent: { kind: "new_game", players: c.players, seat: c.seat, bots, ...own, seed: seed.seed } };
}

/** A seat as a new game of `game` names it: Langfinger's scoundrels, else "Player 1 (seat 0)". */
export function seatNameIn(game: string, seat: number): string {
  return game === LANGFINGER ? seatName(seat) : `Player ${seat + 1} (seat ${seat})`;
}

/** "Pascal (seat 0)", as the kernel names seats: a new game gives seat k the k-th scoundrel. */
export function seatName(seat: number): string {
  const name = SCOUNDRELS[seat] ?? "player";
  return `${name.charAt(0).toUpperCase()}${name.slice(1)} (seat ${seat})`;
}

/** The words for a seat's player in its menu: a person, or a bot and its level. */
export function playerWords(player: string): string {
  return player === HUMAN ? "Person at this screen" : `Bot: ${player}`;
}

/** What the kernel says a bot level does ("" for a person or a bot with no note). */
export function levelNote(setup: Setup, player: string): string {
  return player === HUMAN ? "plays at this screen when it is their turn" : (setup.level_notes[player] ?? "");
}

/** Every choice a seat's menu offers: a person, each level, and a bot already seated by name. */
export function playerOptions(setup: Setup, current: string): string[] {
  const options = [HUMAN, ...setup.levels];
  if (!options.includes(current)) options.push(current);
  return options;
}
