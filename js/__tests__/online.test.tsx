import { afterEach, describe, expect, it } from "vitest";
import { act } from "preact/test-utils";
import { place2, place2Waiting } from "../__fixtures__/views";
import { backoff, botsOf, OnlineModel, socketUrl } from "../online";
import type { OnlineStatus, SocketLike, TableInfo } from "../online";
import widget from "../widget";
import { click, q } from "./fake-model";

/** A socket the test plays the server of. */
class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Record<string, unknown>[] = [];
  closed: { code?: number; reason?: string } | null = null;
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: { code: number; reason: string }) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  constructor(public url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code?: number, reason?: string): void {
    this.closed = { code, reason };
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.({});
  }
  deliver(msg: unknown): void {
    act(() => this.onmessage?.({ data: JSON.stringify(msg) }));
  }
  drop(code = 1006): void {
    this.readyState = 3;
    act(() => this.onclose?.({ code, reason: "" }));
  }
}

const TABLE: TableInfo = {
  id: "t1",
  status: "playing",
  options: { players: 2, variant: "standard", time: null, hints: false, pace: 0.5, stand_in: "medium" },
  seats: [
    { seat: 0, name: "Pascal", kind: "person", level: null, status: "taken", stand_in: false, online: true },
    { seat: 1, name: "Hans", kind: "person", level: null, status: "taken", stand_in: true, online: false },
  ],
  to_move: 0,
  round: 1,
  money: [0, 0],
  move_number: 2,
  deadline: null,
  timed_out: false,
  standings: null,
};

function stateMessage(seq = 4, fixture = place2()): Record<string, unknown> {
  return {
    v: 1,
    kind: "state",
    seq,
    since: -1,
    you: { seat: 0, role: "seat", name: "Pascal" },
    table: TABLE,
    view: fixture.view,
    legal: fixture.legal,
    events: fixture.events,
    log_size: fixture.events.length,
    move_number: 2,
    version: 2,
    undo: { allowed: false, reason: "R12.2: no decision of yours to take back" },
    highlight: {},
  };
}

function connected(): { model: OnlineModel; sockets: FakeSocket[]; timers: (() => void)[]; statuses: OnlineStatus[] } {
  const sockets: FakeSocket[] = [];
  const timers: (() => void)[] = [];
  const statuses: OnlineStatus[] = [];
  const model = new OnlineModel({
    url: "ws://example/ws",
    hello: { token: "T".repeat(43) },
    socket: (url) => {
      const s = new FakeSocket(url);
      sockets.push(s);
      return s;
    },
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => {},
    random: () => 0.5,
    onStatus: (s) => statuses.push(s),
  }).start();
  sockets[0]?.open();
  return { model, sockets, timers, statuses };
}

describe("the online model", () => {
  it("says hello with its credentials and turns a state into the board's traits", () => {
    const { model, sockets, statuses } = connected();
    expect(sockets[0]?.sent[0]).toEqual({ v: 1, kind: "hello", token: "T".repeat(43) });
    const changed: string[] = [];
    for (const t of ["view", "legal", "events", "setup", "bots"]) model.on(`change:${t}`, () => changed.push(t));
    sockets[0]?.deliver(stateMessage());
    expect(changed.sort()).toEqual(["bots", "events", "legal", "setup", "view"]);
    expect(model.get("seat")).toBe(0);
    expect(model.get("human_seats")).toEqual([0]); // one person at this screen: no hot-seat cover
    expect(model.get("bots")).toEqual({ "1": "stand-in medium" });
    expect((model.get("setup") as { allow_new_game: boolean }).allow_new_game).toBe(false);
    expect(model.get("undo_status")).toEqual({ allowed: false, reason: "R12.2: no decision of yours to take back" });
    expect(statuses.at(-1)?.connection).toBe("online");
    expect(statuses.at(-1)?.seq).toBe(4);
  });

  it("numbers each intent and quotes the sequence it was made at", () => {
    const { model, sockets } = connected();
    sockets[0]?.deliver(stateMessage());
    model.send({ kind: "act", action: { type: "place", place: "city" }, move: 2, version: 2 });
    model.send({ kind: "why", action: { type: "pass" } });
    expect(sockets[0]?.sent.slice(1)).toEqual([
      { v: 1, kind: "act", id: 1, seq: 4, action: { type: "place", place: "city" }, move: 2, version: 2 },
      { v: 1, kind: "why", id: 2, seq: 4, action: { type: "pass" } },
    ]);
  });

  it("extends the events with an update that follows on, and resyncs after a gap", () => {
    const { model, sockets, statuses } = connected();
    sockets[0]?.deliver(stateMessage());
    const more = { type: "place", seat: 0, place: "city", square: 0 };
    sockets[0]?.deliver({ ...stateMessage(5), kind: "update", since: 4, events: [more] });
    expect((model.get("events") as unknown[]).at(-1)).toEqual(more);
    expect(statuses.at(-1)?.seq).toBe(5);
    sockets[0]?.deliver({ ...stateMessage(9), kind: "update", since: 7, events: [] });
    expect(statuses.at(-1)?.connection).toBe("behind");
    expect(sockets[0]?.sent.at(-1)).toMatchObject({ kind: "sync" });
    expect(statuses.at(-1)?.seq).toBe(5); // nothing from the gapped update was taken in
    sockets[0]?.deliver(stateMessage(9));
    expect(statuses.at(-1)?.connection).toBe("online");
  });

  it("answers at once, without sending, what cannot be sent", () => {
    const { model, sockets } = connected();
    const answers: unknown[] = [];
    model.on("msg:custom", (m) => answers.push(m));
    model.send({ kind: "new_game", players: 3 });
    model.send({ kind: "reveal", seat: 1 });
    sockets[0]?.drop();
    model.send({ kind: "act", action: { type: "pass" } });
    expect(answers).toHaveLength(3);
    expect(answers.every((a) => (a as { ok: boolean }).ok === false)).toBe(true);
    expect(String((answers[2] as { error: string }).error)).toContain("offline");
    expect(sockets[0]?.sent).toHaveLength(1); // the hello only
  });

  it("reconnects with growing waits and says so, then resyncs", () => {
    const { sockets, timers, statuses } = connected();
    sockets[0]?.deliver(stateMessage());
    sockets[0]?.drop();
    expect(statuses.at(-1)).toMatchObject({ connection: "offline", retryIn: 500 });
    timers.shift()?.();
    expect(sockets).toHaveLength(2);
    expect(statuses.at(-1)?.connection).toBe("connecting");
    sockets[1]?.drop();
    expect(statuses.at(-1)?.retryIn).toBe(1000);
    timers.shift()?.();
    sockets[2]?.open();
    expect(sockets[2]?.sent[0]).toMatchObject({ kind: "hello" });
    sockets[2]?.deliver(stateMessage(6));
    expect(statuses.at(-1)).toMatchObject({ connection: "online", seq: 6 });
    sockets[2]?.drop();
    expect(statuses.at(-1)?.retryIn).toBe(500); // a good state resets the backoff
  });

  it("stops for good when the link is refused or revoked", () => {
    const { sockets, timers, statuses } = connected();
    sockets[0]?.deliver({ v: 1, kind: "error", code: "revoked", error: "this seat token was revoked", seq: 3 });
    sockets[0]?.drop(4410);
    expect(statuses.at(-1)).toMatchObject({ connection: "closed", message: "this seat token was revoked" });
    expect(timers).toHaveLength(0);
  });

  it("passes answers on to the board and keeps a hint for its move", () => {
    const { model, sockets } = connected();
    sockets[0]?.deliver(stateMessage());
    const answers: unknown[] = [];
    model.on("msg:custom", (m) => answers.push(m));
    sockets[0]?.deliver({ v: 1, kind: "result", id: 1, ok: false, error: "R5.2: no", seq: 4 });
    sockets[0]?.deliver({ v: 1, kind: "error", code: "rate_limited", error: "slow down", seq: 4 });
    sockets[0]?.deliver({ v: 1, kind: "hint", id: 2, action: { type: "place", place: "city" }, value: 0.6, move: 2, seq: 4 });
    expect(answers.map((a) => (a as { kind: string }).kind)).toEqual(["result", "result", "hint"]);
    expect(model.get("hint")).toMatchObject({ action: { type: "place", place: "city" }, move: 2 });
  });

  it("names bot seats for the board's labels", () => {
    const bots = botsOf({ ...TABLE, seats: [...TABLE.seats, { seat: 2, name: "B", kind: "bot", level: "hard", status: "bot", stand_in: false, online: false }] });
    expect(bots).toEqual({ "1": "stand-in medium", "2": "hard" });
  });

  it("waits longer after each failure, up to a cap", () => {
    expect([0, 1, 2, 3].map((n) => backoff(n, () => 0.5))).toEqual([500, 1000, 2000, 4000]);
    expect(backoff(20, () => 0.5)).toBe(30_000);
    expect(socketUrl({ protocol: "https:", host: "x.org" })).toBe("wss://x.org/ws");
    expect(socketUrl({ protocol: "http:", host: "h:1" }, "T 4b")).toBe("ws://h:1/ws?table=T%204b");
  });
});

describe("the same board, online", () => {
  let cleanup: (() => void) | null = null;
  afterEach(() => {
    act(() => cleanup?.());
    cleanup = null;
  });

  it("renders the seat's view and sends a click as a numbered act", () => {
    const { model, sockets } = connected();
    sockets[0]?.deliver(stateMessage());
    const el = document.createElement("div");
    document.body.appendChild(el);
    act(() => {
      cleanup = widget.render({ model, el });
    });
    expect(q(el, "[data-testid=langfinger]").textContent).toContain("Your turn");
    expect(el.querySelector("[data-testid=privacy]")).toBeNull();
    expect(el.querySelector("[data-testid=new-game]")).toBeNull();
    click(el, '[data-place="city"][data-legal="true"]');
    expect(sockets[0]?.sent.at(-1)).toMatchObject({ kind: "act", id: 1, seq: 4, action: { type: "place", place: "city" } });
    // The other seat's turn: no legal actions, nothing to click.
    const waiting = place2Waiting();
    sockets[0]?.deliver({ ...stateMessage(5, waiting), you: { seat: 1, role: "seat" } });
    expect(el.querySelectorAll('[data-legal="true"]').length).toBe(0);
    el.remove();
  });
});
