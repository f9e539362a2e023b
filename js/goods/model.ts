/**
 * Oh My Goods! on the board: the shapes of the kernel's `goods-view/1` view and actions
 * (RULINGS-goods.md, "Actions"), and pure helpers that read them. Nothing here decides a
 * rule: what may be clicked is what `legal` holds, every action sent is one of `legal`'s,
 * and the needs, gaps and totals shown are the view's own numbers.
 */
export const GOODS_FORMAT = "goods-view/1";

export type Phase = "hand" | "plan" | "production" | "over";
export type Mode = "efficient" | "sloppy";

/** A card's face as a seat sees it: the building on it, its resource and half sun. */
export interface CardFace {
  id: string;
  building: string;
  name: string;
  resource: string;
  half_sun: boolean;
}

/** One kind of building from the view's catalogue (`kinds`). */
export interface Kind {
  key: string;
  name: string;
  colour: string;
  cost: number;
  vp: number;
  needs: string[];
  needs_any: number;
  good: string | null;
  worth: number;
  chain: string[];
  extra_cards: number;
}

/** A built building: its goods stack (face down: a count) and who works there. */
export interface Built {
  id: string;
  building: string;
  name: string;
  colour: string;
  vp: number;
  good: string | null;
  worth: number;
  goods: number;
  coins: number;
  supplies: string | null;
  staffed: "assistant" | "worker" | null;
  assistant: string | null;
  mode: Mode | null;
}

export interface PlanMove {
  assistant: string;
  to: string;
  paid: string[] | { building: string; card: string }[];
}

/** The seat's own plan while it is sealed (G6.1): its steps so far. */
export interface OwnPlan {
  moves: PlanMove[];
  paying: { assistant: string; to: string; paid: string[]; cost: number; coins: number } | null;
  work: { building: string; mode: Mode } | null;
  worked: boolean;
  card: string | null;
  /** Goods promised to pay for moves, by building: they leave at the reveal. */
  promised: Record<string, number>;
}

/** A plan as everyone sees it after the reveal (G7.1). */
export interface RevealedPlan {
  moves: PlanMove[];
  work: { building: string; mode: Mode } | null;
  planned: boolean;
}

export interface GoodsPlayer {
  seat: number;
  name: string;
  buildings: Built[];
  vp: number;
  vp_sources: { buildings: number; assistants: number; goods: number };
  coins: number;
  coins_left: number;
  hand_size: number;
  hand: CardFace[] | null;
  planned: string | null;
  /** The planned card's face, to its owner (it left the hand at the reveal). */
  planned_face: CardFace | null;
  planned_any: boolean | null;
  mulliganed: boolean | null;
  sealed: boolean | null;
  choice: string | null;
  plan: OwnPlan | null;
  revealed_plan: RevealedPlan | null;
  hired: boolean;
  assistants: string[];
}

export interface Assistant {
  id: string;
  side: "a" | "b";
  cost: number;
  vp: number;
  colours: string[];
  owner: number | null;
  at: string | null;
}

/** One building's needs against what the market, the Offices and the hand supply. */
export interface Need {
  building: string;
  mode: Mode | "assistant";
  needs: string[];
  needs_any: number;
  market: Record<string, number>;
  offices: Record<string, number>;
  supplied: string[];
  from_hand: Record<string, number>;
  missing: Record<string, number>;
  skip: number;
  satisfied: boolean;
  run?: boolean;
  must_run?: boolean;
}

export interface Production {
  seat: number;
  stage: "produce" | "supply" | "after" | "pay" | "assign";
  run: string[];
  last: string | null;
  buildings: Need[];
  current: Need | null;
  chains: string[];
  pay: { for: "build" | "hire"; card: string | null; assistant: string | null; cost: number; paid: number } | null;
}

export interface Standing {
  seat: number;
  score: number;
  sources: { buildings: number; assistants: number; goods: number };
  coins_left: number;
}

export interface GoodsView {
  format: string;
  game: "goods";
  seat: number | null;
  spectator: boolean;
  num_players: number;
  start_player: number;
  round: number;
  phase: Phase;
  phase_number: string | null;
  active: number;
  final_round: boolean;
  to_decide: number[];
  sealed: boolean[] | null;
  market: CardFace[];
  half_suns: number;
  draw_size: number;
  discard: string[];
  assistants: Assistant[];
  exhaust: { owing: number[]; left: number[] } | null;
  players: GoodsPlayer[];
  production: Production | null;
  kinds: Record<string, Kind>;
  standings: Standing[] | null;
  winners: number[];
}

export type GoodsAction =
  | { type: "keep" }
  | { type: "mulligan" }
  | { type: "discard"; card: string }
  | { type: "move_assistant"; assistant: string; to: string }
  | { type: "work"; building: string | null; mode: Mode | null }
  | { type: "plan_build"; card: string | null }
  | { type: "produce"; building: string }
  | { type: "supply"; card: string }
  | { type: "chain"; building: string; hand: string[]; goods: string[] }
  | { type: "build" }
  | { type: "hire"; assistant: string }
  | { type: "pay"; building: string }
  | { type: "assign"; building: string }
  | { type: "done" };

export const RESOURCES = ["grain", "wood", "clay", "ore", "hide"] as const;

export function isGoodsView(view: unknown): view is GoodsView {
  return !!view && typeof view === "object" && (view as { format?: unknown }).format === GOODS_FORMAT;
}

/** The legal actions of one type (the dicts as the kernel sent them). */
export function legalOf<T extends GoodsAction["type"]>(legal: readonly unknown[], type: T): Extract<GoodsAction, { type: T }>[] {
  return legal.filter((a): a is Extract<GoodsAction, { type: T }> => !!a && typeof a === "object" && (a as { type?: unknown }).type === type);
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

export function sameAction(a: GoodsAction, b: GoodsAction): boolean {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  const ka = Object.keys(ra).sort();
  const kb = Object.keys(rb).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(ra[k], rb[k]));
}

export function isLegalGoods(legal: readonly unknown[], action: GoodsAction): boolean {
  return legal.some((a) => !!a && typeof a === "object" && sameAction(a as GoodsAction, action));
}

/** The seat whose tableau is "yours": the shown seat, or on the open board the first to decide. */
export function meOf(view: GoodsView): number | null {
  return view.seat ?? view.to_decide[0] ?? null;
}

/** The human seat that must come to the screen first (hot seat), or null: the shown seat
 * has nothing to decide and another person at this screen has (a sealed step: each planner
 * in turn, G6.2). */
export function goodsPrivacy(seat: number | null, humans: readonly number[], view: GoodsView): number | null {
  if (view.phase === "over" || seat === null || humans.length < 2) return null;
  if (view.to_decide.includes(seat)) return null;
  return view.to_decide.find((s) => humans.includes(s) && s !== seat) ?? null;
}

/**
 * The market in its two rows: the cards turned at sunrise (up to the second half sun) and
 * those turned at sunset after them (G3.1, G3.3). Only the order of the view's own list is
 * read: the row a card sits in changes nothing in play.
 */
export function marketRows(market: readonly CardFace[]): [CardFace[], CardFace[]] {
  let suns = 0;
  let cut = market.length;
  for (let i = 0; i < market.length; i++) {
    if (market[i]?.half_sun) suns += 1;
    if (suns === 2) {
      cut = i + 1;
      break;
    }
  }
  return [market.slice(0, cut), market.slice(cut)];
}

/** Resources as counts: "2 grain, 1 wood". */
export function countWords(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${r}`);
  return parts.length ? parts.join(", ") : "nothing";
}

/** A building's needs in words: "grain, grain, wood" or "any 11". */
export function needsWords(kind: Pick<Kind, "needs" | "needs_any"> | Pick<Need, "needs" | "needs_any">): string {
  if (kind.needs_any) return `any ${kind.needs_any} resources`;
  return kind.needs.length ? kind.needs.join(", ") : "nothing";
}

export function chainWords(kind: Kind): string {
  return kind.chain.length && kind.good ? `${kind.chain.join(" + ")} → ${kind.good}` : "";
}

function seatName(view: GoodsView, seat: unknown): string {
  if (typeof seat !== "number") return "Someone";
  if (seat === view.seat) return "You";
  return view.players[seat]?.name ?? `Player ${seat + 1}`;
}

/** A building by id, among every seat's (or a hand card's face), in words: "Mill (D09)". */
export function buildingName(view: GoodsView, id: unknown): string {
  if (typeof id !== "string") return "a building";
  for (const p of view.players) {
    const b = p.buildings.find((x) => x.id === id);
    if (b) return b.name;
    const h = p.hand?.find((x) => x.id === id);
    if (h) return h.name;
  }
  const m = view.market.find((x) => x.id === id);
  return m ? m.name : id;
}

function handCard(view: GoodsView, id: unknown): CardFace | null {
  if (typeof id !== "string") return null;
  for (const p of view.players) {
    const h = p.hand?.find((x) => x.id === id);
    if (h) return h;
  }
  return null;
}

/** An action in words, for a hint or a button: "produce at the Mill". */
export function actionWords(view: GoodsView, a: GoodsAction): string {
  switch (a.type) {
    case "keep":
      return "keep your hand";
    case "mulligan":
      return "discard your hand and draw as many";
    case "discard":
      return `discard ${handCard(view, a.card)?.name ?? a.card}`;
    case "move_assistant":
      return `move Assistant ${a.assistant} to the ${buildingName(view, a.to)} (2 coins)`;
    case "work":
      return a.building === null ? "the Worker rests (no free building)" : `Worker to the ${buildingName(view, a.building)}, ${a.mode}`;
    case "plan_build":
      return a.card === null ? "plan no building" : `plan to build the ${handCard(view, a.card)?.name ?? a.card}`;
    case "produce":
      return `produce at the ${buildingName(view, a.building)}`;
    case "supply": {
      const c = handCard(view, a.card);
      return c ? `supply ${c.resource} from your hand (${c.name})` : `supply ${a.card}`;
    }
    case "chain":
      return `chain at the ${buildingName(view, a.building)}: ${[
        ...a.hand.map((h) => {
          const c = handCard(view, h);
          return c ? `${c.resource} from hand (the ${c.name} card)` : `${h} from hand`;
        }),
        ...a.goods.map((g) => `a good from the ${buildingName(view, g)}`),
      ].join(" + ")}`;
    case "build":
      return "build the planned building";
    case "hire":
      return `hire Assistant ${a.assistant}`;
    case "pay":
      return `pay a good from the ${buildingName(view, a.building)}`;
    case "assign":
      return `put the new Assistant at the ${buildingName(view, a.building)}`;
    case "done":
      return view.production?.stage === "produce" ? "end production" : "end your turn";
  }
}

/** The log in words, a run of one sentence told once with its count ("drew a card (×2)"). */
export function logLines(view: GoodsView, events: readonly Record<string, unknown>[]): string[] {
  const out: { text: string; n: number }[] = [];
  for (const e of events) {
    const text = describeEvent(view, e);
    if (text === null) continue;
    const last = out[out.length - 1];
    if (last && last.text === text) last.n += 1;
    else out.push({ text, n: 1 });
  }
  return out.map((l) => (l.n > 1 ? `${l.text} (×${l.n})` : l.text));
}

/** One event of `log(seat)` in words, or null for one with nothing to say. */
export function describeEvent(view: GoodsView, e: Record<string, unknown>): string | null {
  const who = seatName(view, e.seat);
  const n = (x: unknown): number => (typeof x === "number" ? x : Array.isArray(x) ? x.length : 0);
  switch (e.type) {
    case "deal":
      return `The deal: ${String(e.players)} players.`;
    case "round":
      return `Round ${String(e.round)}${e.final ? " (the last)" : ""}: ${seatName(view, e.active)} ${seatName(view, e.active) === "You" ? "are" : "is"} active.`;
    case "sealed":
      return `${who} ${e.step === "hand" ? "chose" : "sealed a plan"}.`;
    case "reveal":
      if (e.step === "hand") {
        const m = Array.isArray(e.mulligan) ? e.mulligan.map((x, s) => (x ? seatName(view, s) : null)).filter((x) => x) : [];
        return m.length ? `Revealed: ${m.join(", ")} took a new hand.` : "Revealed: everyone kept their hand.";
      }
      return "Every plan is revealed.";
    case "mulligan":
      return `${who} discarded ${n(e.cards)} cards for a new hand.`;
    case "draw":
      return `${who} drew a card.`;
    case "market":
      return null;
    case "phase":
      return e.phase === "plan" ? "Sunrise: plan your Worker and building." : null;
    case "turn":
      return `${who} produce${who === "You" ? "" : "s"} and build${who === "You" ? "" : "s"}.`;
    case "produce":
      return `${who} ran the ${buildingName(view, e.building)} (${String(e.mode)}).`;
    case "produced":
      return `${who} made ${n(e.goods)} ${n(e.goods) === 1 ? "good" : "goods"} at the ${buildingName(view, e.building)}.`;
    case "supply":
      return `${who} supplied a card from hand to the ${buildingName(view, e.building)}.`;
    case "chain":
      return `${who} used the ${buildingName(view, e.building)}'s chain.`;
    case "pay":
      return `${who} paid a good from the ${buildingName(view, e.building)}.`;
    case "built":
      return `${who} built the ${buildingName(view, e.card)}.`;
    case "unbuilt":
      return `${who} did not build; the planned card went back to hand.`;
    case "hired":
      return `${who} hired Assistant ${String(e.assistant)} for the ${buildingName(view, e.building)}.`;
    case "move_assistant":
      return `${who} moved Assistant ${String(e.assistant)} to the ${buildingName(view, e.to)}.`;
    case "work":
      return e.building ? `${who} put the Worker at the ${buildingName(view, e.building)} (${String(e.mode)}).` : `${who} let the Worker rest.`;
    case "market_discarded":
      return "The market is discarded.";
    case "reshuffle":
      return `The discard is shuffled into a new draw pile (${String(e.cards)} cards).`;
    case "exhausted":
      return "Both piles are empty: seats owing cards discard half their hand.";
    case "discard":
      return `${who} discarded a card.`;
    case "over":
      return "The game is over.";
    default:
      return null;
  }
}
