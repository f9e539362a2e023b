/**
 * The board online: an anywidget-like model that speaks the server's protocol
 * (docs/server.md) over one WebSocket, so the very same board (`widget.js`)
 * that runs in a notebook runs in a plain browser page.
 *
 * The model keeps the traits the board reads (`view`, `legal`, `events`, ...)
 * and fires `change:<trait>` and `msg:custom` as anywidget does. Intents the
 * board sends (`act`, `why`, `hint`, `undo`) get an `id` and go to the server;
 * its answers come back as custom messages. It reconnects by itself with
 * backoff, resyncs when it is behind, and reports its connection to the page.
 */
import type { AnyModel, Setup } from "./types";

export const PROTOCOL_VERSION = 1;
/** The board shows the latest events; the whole game is the record. */
export const EVENT_LIMIT = 30;
const BACKOFF_FIRST_MS = 500;
const BACKOFF_MAX_MS = 30_000;
/** Refusals after which reconnecting cannot help: the link itself is wrong or revoked. */
const FATAL = new Set(["unauthorized", "revoked", "origin", "version"]);
/** Intents the server knows; the board's others (new game, hot seat) have no meaning online. */
const INTENTS = new Set(["act", "why", "hint", "undo", "stand_in", "return", "resign", "leave", "webhook", "sync"]);

type Cb = (...args: unknown[]) => void;
type Json = Record<string, unknown>;

/** The part of a browser WebSocket the model uses (a fake one in tests). */
export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number; reason: string }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
}

export type Connection = "connecting" | "online" | "behind" | "offline" | "closed";

/** What the page around the board shows: the connection, the table, who we are. */
export interface OnlineStatus {
  connection: Connection;
  /** Why the socket is closed for good (a revoked or wrong link), or the last trouble. */
  message: string;
  /** Milliseconds until the next attempt while offline. */
  retryIn: number | null;
  table: TableInfo | null;
  you: { seat: number | null; role: "seat" | "spectator"; name?: string } | null;
  seq: number | null;
}

export interface SeatInfo {
  seat: number;
  name: string;
  kind: "person" | "bot";
  level: string | null;
  status: "open" | "taken" | "resigned" | "bot";
  stand_in: boolean;
  online: boolean;
}

export interface TableInfo {
  id: string;
  status: "waiting" | "playing" | "over";
  /** `game` names the table's game (`lf.games`); `variant` is Langfinger's own option. */
  options: { players: number; game?: string; variant?: string; time: number | null; hints: boolean; pace: number; stand_in: string };
  seats: SeatInfo[];
  to_move: number | null;
  /** Another game than Langfinger: the seats that may decide now (several in a sealed step). */
  to_decide?: number[];
  game?: string;
  round: number | null;
  money: number[] | null;
  move_number: number;
  deadline: number | null;
  timed_out: boolean;
  /** Langfinger's rows give money; another game's its score and where the points came from. */
  standings: { seat: number; money?: number; score?: number; resigned: boolean }[] | null;
}

/** A game the server deals, as `GET /api/info` lists it. */
export interface GameOffer {
  name: string;
  title: string;
  players: [number, number];
  options: Record<string, unknown[]>;
  levels: string[];
}

export interface OnlineOptions {
  /** ws:// or wss:// URL of the server's socket. */
  url: string;
  /** The credentials said at every (re)connection: `{token}` or `{table, spectate}`. */
  hello: Json;
  /** Makes a socket (tests give a fake one). */
  socket?: (url: string) => SocketLike;
  onStatus?: (status: OnlineStatus) => void;
  /** Timers (tests give fake ones). */
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  random?: () => number;
}

/** The wait before reconnection attempt `n` (0, 1, ...): doubling, capped, with jitter. */
export function backoff(n: number, random: () => number = Math.random): number {
  const base = Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** n);
  return Math.round(base * (0.75 + 0.5 * random()));
}

/** Who plays each seat by bot (a bot seat, a stand-in, a resignation), as the board's `bots` trait. */
export function botsOf(table: TableInfo | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const s of table?.seats ?? []) {
    if (s.kind === "bot") out[String(s.seat)] = s.level ?? "bot";
    else if (s.stand_in || s.status === "resigned") out[String(s.seat)] = `stand-in ${table?.options.stand_in ?? ""}`.trim();
  }
  return out;
}

/** The New game panel has no place online: a table's game is the table's. */
function setupOf(table: TableInfo | null, seat: number | null, variant: string): Setup {
  return {
    players: table?.options.players ?? 2,
    seat,
    bots: botsOf(table),
    variant,
    levels: [],
    level_notes: {},
    allow_new_game: false,
  };
}

export class OnlineModel implements AnyModel {
  private traits: Json = { view: null, legal: [], events: [], error: "", seat: null, bots: {}, human_seats: [], highlight: {}, hint: {}, puzzle: {} };
  private listeners = new Map<string, Set<Cb>>();
  private ws: SocketLike | null = null;
  private nextId = 0;
  private attempts = 0;
  private timer: unknown = null;
  private stopped = false;
  private resyncing = false;
  readonly status: OnlineStatus = { connection: "connecting", message: "", retryIn: null, table: null, you: null, seq: null };

  constructor(private readonly opts: OnlineOptions) {}

  // --- the anywidget model interface -----------------------------------------------------
  get(name: string): unknown {
    return this.traits[name];
  }
  on(event: string, cb: Cb): void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(cb);
  }
  off(event?: string | null, cb?: Cb | null): void {
    if (!event) this.listeners.clear();
    else if (!cb) this.listeners.delete(event);
    else this.listeners.get(event)?.delete(cb);
  }
  /** An intent from the board (or the page): numbered and sent, or refused at once offline. */
  send(msg: unknown): void {
    const m = (msg && typeof msg === "object" ? msg : {}) as Json;
    const kind = typeof m.kind === "string" ? m.kind : "";
    if (!INTENTS.has(kind)) {
      this.emit({ kind: "result", ok: false, error: `${kind || "this"} is not available at an online table` });
      return;
    }
    if (!this.ws || this.ws.readyState !== 1 || this.status.connection === "closed") {
      this.emit({ kind: kind === "why" ? "why" : "result", ok: false, action: m.action, reason: "offline: not sent", error: "You are offline: nothing was sent. The board reconnects by itself." });
      return;
    }
    this.nextId += 1;
    this.ws.send(JSON.stringify({ ...m, v: PROTOCOL_VERSION, id: this.nextId, seq: this.status.seq }));
  }
  save_changes(): void {}

  // --- the connection ----------------------------------------------------------------------
  start(): this {
    this.stopped = false;
    this.connect();
    return this;
  }

  stop(): void {
    this.stopped = true;
    this.clearRetry();
    this.ws?.close(1000, "bye");
    this.ws = null;
  }

  private connect(): void {
    this.clearRetry();
    this.setStatus({ connection: "connecting", retryIn: null });
    const make = this.opts.socket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
    let ws: SocketLike;
    try {
      ws = make(this.opts.url);
    } catch (err) {
      this.scheduleRetry(String(err));
      return;
    }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ v: PROTOCOL_VERSION, kind: "hello", ...this.opts.hello }));
    ws.onmessage = (ev) => {
      if (this.ws !== ws) return;
      let msg: Json;
      try {
        msg = JSON.parse(String(ev.data)) as Json;
      } catch {
        return; // the server sends JSON only; anything else is ignored
      }
      this.receive(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped || this.status.connection === "closed") return;
      this.scheduleRetry(ev.reason || `the connection closed (${ev.code})`);
    };
    ws.onerror = () => {};
  }

  private scheduleRetry(message: string): void {
    if (this.stopped) return;
    const wait = backoff(this.attempts, this.opts.random);
    this.attempts += 1;
    this.setStatus({ connection: "offline", retryIn: wait, message });
    const set = this.opts.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    this.timer = set(() => this.connect(), wait);
  }

  private clearRetry(): void {
    if (this.timer !== null) (this.opts.clearTimer ?? ((h: unknown) => clearTimeout(h as number)))(this.timer);
    this.timer = null;
  }

  /** Ask the server for the whole picture again (the page's "catch up" too). */
  resync(): void {
    if (this.resyncing || !this.ws || this.ws.readyState !== 1) return;
    this.resyncing = true;
    this.setStatus({ connection: "behind" });
    this.send({ kind: "sync" });
  }

  // --- messages from the server ------------------------------------------------------------
  private receive(msg: Json): void {
    const kind = msg.kind;
    if (kind === "state") this.applyState(msg);
    else if (kind === "update") this.applyUpdate(msg);
    else if (kind === "presence") this.applyPresence(msg);
    else if (kind === "error") this.applyError(msg);
    else if (kind === "hint") this.applyHint(msg);
    else if (kind === "result" || kind === "why") this.emit(msg);
  }

  private applyState(msg: Json): void {
    this.attempts = 0;
    this.resyncing = false;
    this.applyPicture(msg, Array.isArray(msg.events) ? (msg.events as unknown[]) : []);
  }

  private applyUpdate(msg: Json): void {
    if (msg.since !== this.status.seq) {
      this.resync(); // a gap: never guess, ask for the whole picture
      return;
    }
    const events = [...((this.traits.events as unknown[]) ?? []), ...(Array.isArray(msg.events) ? msg.events : [])];
    this.applyPicture(msg, events);
  }

  private applyPicture(msg: Json, events: unknown[]): void {
    const table = (msg.table ?? null) as TableInfo | null;
    const you = (msg.you ?? null) as OnlineStatus["you"];
    const seat = you?.seat ?? null;
    const view = (msg.view ?? null) as { variant?: string } | null;
    const move = typeof msg.move_number === "number" ? msg.move_number : null;
    const hint = this.traits.hint as { move?: number };
    const changes: Json = {
      view,
      legal: Array.isArray(msg.legal) ? msg.legal : [],
      events: events.slice(-EVENT_LIMIT),
      seat,
      bots: botsOf(table),
      human_seats: seat === null ? [] : [seat], // one person at this screen: no hot-seat cover
      highlight: msg.highlight ?? {},
      move_number: move,
      version: typeof msg.version === "number" ? msg.version : null,
      undo_status: msg.undo ?? { allowed: false, reason: "" },
      setup: setupOf(table, seat, view?.variant ?? "standard"),
      hint: hint && hint.move === move ? hint : {},
    };
    this.setStatus({ connection: "online", message: "", retryIn: null, table, you, seq: typeof msg.seq === "number" ? msg.seq : null });
    this.setTraits(changes);
  }

  private applyPresence(msg: Json): void {
    const table = this.status.table;
    if (!table || !Array.isArray(msg.online)) return;
    const online = new Set(msg.online as number[]);
    this.setStatus({ table: { ...table, seats: table.seats.map((s) => ({ ...s, online: online.has(s.seat) })) } });
  }

  private applyHint(msg: Json): void {
    if (msg.pending) return;
    if (msg.action) this.setTraits({ hint: { seat: this.traits.seat, action: msg.action, value: msg.value, move: msg.move } });
    this.emit(msg);
  }

  private applyError(msg: Json): void {
    const code = typeof msg.code === "string" ? msg.code : "";
    const text = typeof msg.error === "string" ? msg.error : "refused";
    if (FATAL.has(code)) {
      this.stopped = true;
      this.setStatus({ connection: "closed", message: text, retryIn: null });
      this.ws?.close(1000, code);
      return;
    }
    // Anything else answers an intent of ours (malformed, too fast, stale): the board shows it.
    this.emit({ kind: "result", ok: false, error: text, code });
  }

  // --- telling the board and the page -------------------------------------------------------
  private setTraits(changes: Json): void {
    const changed: string[] = [];
    for (const [name, value] of Object.entries(changes)) {
      if (JSON.stringify(this.traits[name]) !== JSON.stringify(value)) {
        this.traits[name] = value;
        changed.push(name);
      }
    }
    for (const name of changed) for (const cb of [...(this.listeners.get(`change:${name}`) ?? [])]) cb();
  }

  private setStatus(changes: Partial<OnlineStatus>): void {
    Object.assign(this.status, changes);
    this.opts.onStatus?.({ ...this.status });
  }

  private emit(msg: Json): void {
    for (const cb of [...(this.listeners.get("msg:custom") ?? [])]) cb(msg, []);
  }
}

/** The socket URL of the server that served this page. With `table`, the URL names the
 * table (`/ws?table=`), so that a balancer in front of many server processes can send all of
 * a table's seats to its owner; the server checks the name against the hello's secret. */
export function socketUrl(location: { protocol: string; host: string }, table?: string): string {
  const query = table ? `?table=${encodeURIComponent(table)}` : "";
  return `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/ws${query}`;
}
