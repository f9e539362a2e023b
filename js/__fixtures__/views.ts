/**
 * Realistic views (docs/view-format.md) and their legal actions, for the
 * unit tests and the screenshot page. Loot and fences follow the shipped
 * deck (langfinger_widget/kernel/data/deck.json); backs only where the seat may
 * not know the front.
 */
import type { Action, Fence, GameEvent, Loot, PlayerView, Rate, Scoundrel, Tool, View, WidgetState } from "../types";
import { RATES, TOOLS } from "../types";

const LOOT: Record<string, Required<Omit<Loot, "told">>> = {
  L01: { id: "L01", protection: "chest", tools: ["lockpick", "hammer", "welder"], kind: "money", value: 1 },
  L02: { id: "L02", protection: "pillar", tools: ["hammer", "welder"], kind: "painting", value: 3 },
  L03: { id: "L03", protection: "showcase", tools: ["pliers", "lockpick"], kind: "statue", value: 4 },
  L04: { id: "L04", protection: "safe", tools: ["welder", "pliers", "hammer"], kind: "jewelry", value: 2 },
  L05: { id: "L05", protection: "chest", tools: ["map", "map"], kind: "money", value: 2 },
  L06: { id: "L06", protection: "pillar", tools: ["lockpick", "hammer"], kind: "painting", value: 4 },
  L07: { id: "L07", protection: "showcase", tools: ["hammer", "welder", "map"], kind: "statue", value: 2 },
  L08: { id: "L08", protection: "safe", tools: ["pliers", "lockpick"], kind: "jewelry", value: 3 },
  L09: { id: "L09", protection: "chest", tools: ["welder", "pliers"], kind: "money", value: 3 },
  L10: { id: "L10", protection: "pillar", tools: ["map", "map", "pliers"], kind: "painting", value: 2 },
  L12: { id: "L12", protection: "safe", tools: ["hammer", "welder"], kind: "jewelry", value: 4 },
  L14: { id: "L14", protection: "pillar", tools: ["welder", "pliers"], kind: "painting", value: 3 },
  L15: { id: "L15", protection: "showcase", tools: ["map", "map"], kind: "statue", value: 4 },
  L16: { id: "L16", protection: "safe", tools: ["lockpick", "hammer", "welder"], kind: "jewelry", value: 2 },
  L18: { id: "L18", protection: "pillar", tools: ["pliers", "lockpick"], kind: "painting", value: 4 },
  L19: { id: "L19", protection: "showcase", tools: ["welder", "pliers", "hammer"], kind: "statue", value: 2 },
  L20: { id: "L20", protection: "safe", tools: ["map", "map"], kind: "jewelry", value: 3 },
};

const FENCES: Record<string, Fence> = {
  F01: { id: "F01", buys: { painting: [2, 0], gold: [1, 0] } },
  F02: { id: "F02", buys: { coins: [1, 1], jewelry: [1, 0] } },
  F03: { id: "F03", buys: { gold: [1, 2], statue: [1, 0] } },
  F04: { id: "F04", buys: { gold: [1, 0], jewelry: [1, 1], statue: [2, 0], painting: [1, 0] } },
  F05: { id: "F05", buys: { painting: [1, 2] } },
};

/** A card as the seat sees it: the front only when `known`. */
export function loot(id: string, known: boolean): Loot {
  const l = LOOT[id];
  if (!l) throw new Error(`no fixture loot ${id}`);
  return known ? { ...l, tools: [...l.tools] } : { protection: l.protection, tools: [...l.tools] };
}

const NAMES: Record<Scoundrel, [string, Tool]> = {
  pascal: ["Pascal", "lockpick"],
  hans: ["Hans", "hammer"],
  tommaso: ["Tommaso", "pliers"],
  yoshiko: ["Yoshiko", "welder"],
  bobby: ["Bobby", "map"],
};

export const ORDER: Scoundrel[] = ["pascal", "hans", "tommaso", "yoshiko", "bobby"];

function handSize(hand: Partial<Record<Tool, number>>): number {
  return Object.values(hand).reduce((a, b) => a + (b ?? 0), 0);
}

interface PlayerSpec {
  money?: number;
  tokens?: number;
  hand: Partial<Record<Tool, number>>;
  loot?: string[];
  used?: { villa: boolean; museum: boolean };
}

/** Players as `seat` sees them: only its own hand and loot fronts. */
function players(specs: PlayerSpec[], seat: number | null): PlayerView[] {
  return specs.map((s, i) => {
    const sc = ORDER[i] as Scoundrel;
    const [name, tool] = NAMES[sc];
    const mine = seat === null || seat === i;
    return {
      seat: i,
      name,
      scoundrel: sc,
      tool,
      money: s.money ?? 0,
      tokens: s.tokens ?? 0,
      hand_size: handSize(s.hand),
      hand: mine ? { ...s.hand } : null,
      known: {},
      loot: (s.loot ?? []).map((id) => loot(id, mine)),
      scoundrel_used: s.used ?? { villa: false, museum: false },
    };
  });
}

function emptySquares(): View["squares"] {
  return {
    city: [null, null, null, null, null],
    villa: [null, null, null, null, null],
    ruin: [null, null, null, null, null],
    museum: [null, null, null, null, null],
    harbor: [null, null, null, null, null],
  };
}

function freeRates(): Record<Rate, number | null> {
  return { "1>2": null, "2>3": null, "3>4": null, "2>2": null, "1>1": null };
}

function base(n: number, seat: number | null, specs: PlayerSpec[]): View {
  return {
    format: "langfinger-view/1",
    seat,
    variant: "standard",
    round: 1,
    phase: "place",
    start_player: 0,
    to_move: 0,
    decision: { seat: 0, kind: "place", place: null, square: null },
    players: players(specs.slice(0, n), seat),
    city: [],
    villa: [],
    museum: [],
    harbor: [],
    squares: emptySquares(),
    ruin_rates: freeRates(),
    piles: {
      tools: { draw: 40, discard: {} },
      loot: { draw: 24, discard: [] },
      fences: { draw: 10, discard: [] },
    },
    money_by_round: [Array.from({ length: n }, () => 0)],
    is_over: false,
    winners: [],
  };
}

/** Every multiset of `k` cards from `cards`, in tool order (how the kernel lists them). */
export function combinations(cards: Tool[], k: number): Tool[][] {
  const sorted = [...cards].sort((a, b) => TOOLS.indexOf(a) - TOOLS.indexOf(b));
  const out = new Map<string, Tool[]>();
  const rec = (start: number, acc: Tool[]): void => {
    if (acc.length === k) {
      out.set(acc.join(","), [...acc]);
      return;
    }
    for (let i = start; i < sorted.length; i++) rec(i + 1, [...acc, sorted[i] as Tool]);
  };
  rec(0, []);
  return [...out.values()];
}

function handList(hand: Partial<Record<Tool, number>>): Tool[] {
  return TOOLS.flatMap((t) => Array.from({ length: hand[t] ?? 0 }, () => t));
}

export interface Fixture {
  view: View;
  legal: Action[];
  events: GameEvent[];
}

// ---- 2 players, placing tokens ----------------------------------------------------

export function place2(): Fixture {
  const v = base(2, 0, [
    { tokens: 2, hand: { hammer: 1, map: 1 }, money: 0 },
    { tokens: 2, hand: { lockpick: 1, pliers: 1, welder: 1 }, money: 0 },
  ]);
  v.city = ["hammer", "map", "welder", "map"];
  v.villa = [loot("L06", false)];
  v.museum = [loot("L07", false), loot("L12", false)];
  v.harbor = [FENCES.F01 as Fence, FENCES.F05 as Fence];
  v.squares.museum = [0, 1, null, null, null];
  v.piles.tools.draw = 51;
  v.piles.loot.draw = 27;
  v.piles.fences.draw = 12;
  const full: string[] = [];
  const legal: Action[] = (["city", "villa", "ruin", "museum", "harbor"] as const)
    .filter((p) => !full.includes(p))
    .map((place) => ({ type: "place", place }));
  const log: GameEvent[] = [
    { type: "deal", seat: 0, tools: ["hammer", "map"], count: 2 },
    { type: "deal", seat: 1, tools: null, count: 3 },
    { type: "place", seat: 0, place: "museum", square: 0 },
    { type: "place", seat: 1, place: "museum", square: 1 },
  ];
  return { view: v, legal, events: log };
}

/** The same table seen by the other seat, when it is not its decision. */
export function place2Waiting(): Fixture {
  const f = place2();
  const v = base(2, 1, [
    { tokens: 2, hand: { hammer: 1, map: 1 } },
    { tokens: 2, hand: { lockpick: 1, pliers: 1, welder: 1 } },
  ]);
  return { view: { ...f.view, seat: 1, players: v.players }, legal: [], events: f.events.map((e) => (e.type === "deal" && e.seat === 0 ? { ...e, tools: null } : e)) };
}

// ---- 5 players, the actions -----------------------------------------------------------

const SPECS5: PlayerSpec[] = [
  { money: 7, hand: { lockpick: 1, hammer: 2, welder: 1, map: 2 }, loot: ["L08", "L14"], used: { villa: false, museum: false } },
  { money: 12, hand: { pliers: 2, map: 1 }, loot: ["L02"], used: { villa: true, museum: false } },
  { money: 3, hand: { hammer: 1, welder: 2, map: 1, lockpick: 1 }, loot: [] },
  { money: 18, hand: { map: 2 }, loot: ["L03", "L20", "L10"] },
  { money: 24, hand: { lockpick: 2, pliers: 1 }, loot: ["L18"] },
];

function act5(kind: "city" | "villa" | "ruin" | "museum" | "harbor", square: number, seat = 0): View {
  const v = base(5, seat, SPECS5);
  v.round = 4;
  v.start_player = 2;
  v.phase = "act";
  v.to_move = 0;
  v.decision = { seat: 0, kind, place: kind, square };
  v.city = ["lockpick", "hammer", "hammer", "pliers", "welder", "map", "map", "map"];
  v.villa = [loot("L06", false), loot("L04", false), loot("L16", false)];
  v.museum = [loot("L07", false), loot("L15", false), loot("L09", false)];
  v.harbor = ["F01", "F02", "F03", "F04", "F05"].map((id) => FENCES[id] as Fence);
  v.squares = {
    city: [0, 3, null, null, null],
    villa: [4, 2, 1, null, null],
    ruin: [2, null, null, null, null],
    museum: [1, 0, 3, null, null],
    harbor: [4, 0, 3, null, null],
  };
  v.money_by_round = [
    [0, 0, 0, 0, 0],
    [2, 4, 0, 5, 6],
    [5, 9, 3, 11, 14],
    [7, 12, 3, 18, 24],
  ];
  v.piles = {
    tools: { draw: 17, discard: { hammer: 3, map: 4, pliers: 1, welder: 2 } },
    loot: { draw: 9, discard: [loot("L05", true), loot("L01", true)] },
    fences: { draw: 3, discard: [FENCES.F04 as Fence].map((f) => ({ ...f, id: "F09" })) },
  };
  return v;
}

const LOG5: GameEvent[] = [
  { type: "start_player", seat: 2, round: 4 },
  { type: "place", seat: 2, place: "villa", square: 0 },
  { type: "place", seat: 3, place: "city", square: 1 },
  { type: "actions_begin", round: 4 },
  { type: "steal", seat: 4, place: "villa", square: 0, slot: 1, loot: { protection: "pillar", tools: ["pliers", "lockpick"] }, paid: ["pliers", "lockpick"], scoundrel: false },
  { type: "cash", seat: 2, loot: loot("L05", true), gained: 2, money: 3 },
  { type: "exchange", seat: 2, square: 0, rate: "2>3", gave: ["map", "map"], drew: null, count: 3 },
  { type: "sell", seat: 3, square: 0, fence: "F09", loot: [loot("L19", true)], gained: 2, money: 18 },
];

export function city5(): Fixture {
  const v = act5("city", 0);
  const legal: Action[] = combinations(v.city, 2).map((tools) => ({ type: "take_tools", tools }));
  legal.push({ type: "pass" });
  return { view: v, legal, events: LOG5 };
}

/**
 * The Villa, square 2: Pascal (scoundrel tool: lockpick) may take card 1
 * (lockpick, hammer) or card 3 (lockpick, hammer, welder), with or without
 * the scoundrel; card 2 needs pliers he lacks.
 */
export function villa5(): Fixture {
  const v = act5("villa", 1);
  v.squares.villa = [null, 0, 1, null, null];
  const legal: Action[] = [
    { type: "steal", slot: 0, pay: ["lockpick", "hammer"], scoundrel: false },
    { type: "steal", slot: 0, pay: ["hammer"], scoundrel: true },
    { type: "steal", slot: 2, pay: ["lockpick", "hammer", "welder"], scoundrel: false },
    { type: "steal", slot: 2, pay: ["hammer", "welder"], scoundrel: true },
    { type: "pass" },
  ];
  return { view: v, legal, events: LOG5 };
}

/** The Museum: cards 1 and 2 are affordable; card 3 (welder, pliers) needs pliers Pascal lacks. */
export function museum5(): Fixture {
  const v = act5("museum", 1);
  v.squares.museum = [null, 0, 3, null, null];
  v.squares.city = [null, null, null, null, null];
  v.squares.villa = [null, null, null, null, null];
  const legal: Action[] = [
    { type: "steal", slot: 0, pay: ["hammer", "welder", "map"], scoundrel: false },
    { type: "steal", slot: 1, pay: ["map", "map"], scoundrel: false },
    { type: "pass" },
  ];
  return { view: v, legal, events: LOG5 };
}

export function ruin5(): Fixture {
  const v = act5("ruin", 1);
  v.squares.ruin = [2, 0, null, null, null];
  v.ruin_rates = { "1>2": null, "2>3": 2, "3>4": null, "2>2": null, "1>1": null };
  const hand = handList(v.players[0]?.hand ?? {});
  const legal: Action[] = [];
  for (const rate of RATES) {
    if (v.ruin_rates[rate] !== null) continue;
    const n = Number(rate[0]);
    for (const give of combinations(hand, n)) legal.push({ type: "exchange", rate, give });
  }
  legal.push({ type: "pass" });
  return { view: v, legal, events: LOG5 };
}

/** The Harbor: Pascal holds jewelry L08 and painting L14. */
export function harbor5(): Fixture {
  const v = act5("harbor", 1);
  v.squares = { city: [null, null, null, null, null], villa: [null, null, null, null, null], ruin: [null, null, null, null, null], museum: [null, null, null, null, null], harbor: [null, 0, 3, null, null] };
  const legal: Action[] = [
    { type: "sell", fence: "F01", loot: ["L14"] },
    { type: "sell", fence: "F02", loot: ["L08"] },
    { type: "sell", fence: "F04", loot: ["L08"] },
    { type: "sell", fence: "F04", loot: ["L14"] },
    { type: "sell", fence: "F05", loot: ["L14"] },
    { type: "pass" },
  ];
  return { view: v, legal, events: LOG5 };
}

export function over5(): Fixture {
  const v = act5("harbor", 0);
  v.phase = "over";
  v.is_over = true;
  v.to_move = null;
  v.decision = null;
  v.round = 5;
  v.squares = emptySquares();
  v.players = v.players.map((p, i) => ({ ...p, money: [9, 21, 5, 24, 24][i] ?? 0 }));
  v.money_by_round.push([9, 21, 5, 24, 24]);
  v.winners = [3, 4];
  const log = [...LOG5, { type: "game_over", money: [9, 21, 5, 24, 24], winners: [3, 4] }];
  return { view: v, legal: [], events: log };
}

/** Everything, as the teacher's open board (seat null) shows it. */
export function openBoard(): Fixture {
  const f = city5();
  const v = act5("city", 0, 0);
  const open = base(5, null, SPECS5);
  return { ...f, view: { ...v, seat: null, players: open.players } };
}

/** The widget's full trait set around a fixture. */
export function stateOf(f: Fixture, extra: Partial<WidgetState> = {}): WidgetState {
  return {
    view: f.view,
    legal: f.legal,
    events: f.events,
    error: "",
    seat: f.view.seat,
    pace: 0.6,
    bots: {},
    human_seats: f.view.seat === null ? [] : [f.view.seat],
    highlight: {},
    hint: {},
    move_number: 12,
    version: 40,
    ...extra,
  };
}
