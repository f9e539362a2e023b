import { afterEach, describe, expect, it, vi } from "vitest";
import userEvent from "@testing-library/user-event";
import { act } from "preact/test-utils";
import { city5, harbor5, museum5, openBoard, over5, place2, place2Waiting, ruin5, stateOf, villa5 } from "../__fixtures__/views";
import { loot } from "../__fixtures__/views";
import type { PlayerView } from "../types";
import { click, mount, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();
afterEach(() => {
  vi.useRealTimers();
});

const acts = (sent: unknown[]): unknown[] => sent.filter((m) => (m as { kind: string }).kind === "act");

describe("the board at a glance", () => {
  it("shows the 5 places in resolution order with squares and tokens (colour and shape)", () => {
    const { el } = setup(stateOf(city5()));
    const places = [...el.querySelectorAll("[data-area]")].map((s) => s.getAttribute("data-area"));
    expect(places.slice(0, 5)).toEqual(["city", "villa", "ruin", "museum", "harbor"]);
    const villaSquares = q(el, '[data-area="villa"] .lf-squares').querySelectorAll(".lf-token");
    expect([...villaSquares].map((t) => t.getAttribute("class"))).toEqual([
      expect.stringContaining("lf-token-bobby"),
      expect.stringContaining("lf-token-tommaso"),
      expect.stringContaining("lf-token-hans"),
    ]);
    // shapes differ, not only colours
    const paths = [...el.querySelectorAll(".lf-track .lf-token path")].map((p) => p.getAttribute("d"));
    expect(new Set(paths).size).toBe(5);
  });

  it("shows displays: City tools, loot backs, Ruin squares, fences", () => {
    const { el } = setup(stateOf(city5()));
    expect(el.querySelectorAll('[data-area="city"] [data-tool]').length).toBe(8);
    expect(el.querySelectorAll('[data-area="villa"] .lf-loot').length).toBe(3);
    expect(el.querySelectorAll('[data-area="museum"] .lf-loot').length).toBe(3);
    expect(el.querySelectorAll("[data-rate]").length).toBe(5);
    expect([...el.querySelectorAll("[data-fence]")].map((f) => f.getAttribute("data-fence"))).toEqual(["F01", "F02", "F03", "F04", "F05"]);
    // loot backs in the displays carry no front
    expect(el.querySelectorAll('[data-area="villa"] .lf-loot-front').length).toBe(0);
  });

  it("shows players, the money track with totals beyond 20, round, start player and piles", () => {
    const { el } = setup(stateOf(city5()));
    expect(el.querySelectorAll(".lf-player").length).toBe(5);
    expect(q(el, '[data-testid="round"]').textContent).toBe("Round 4");
    expect(q(el, ".lf-start").textContent).toContain("Tommaso");
    expect(q(el, '.lf-player[data-seat="1"]').textContent).toContain("12");
    expect(q(el, '.lf-player[data-seat="1"] .lf-spent.lf-is-spent').textContent).toContain("Villa");
    // Bobby has 24: the track stops at 20 and shows his total, never wrapped (R10.1)
    const last = el.querySelectorAll(".lf-track-cell")[20] as HTMLElement;
    expect(last.querySelector(".lf-token-bobby")).not.toBeNull();
    expect(q(last, ".lf-beyond").textContent).toBe("24");
    expect((el.querySelectorAll(".lf-track-cell")[4] as HTMLElement).querySelector(".lf-token")).toBeNull();
    expect(q(el, '.lf-player[data-seat="4"] .lf-money').textContent).toBe("24");
    expect(q(el, ".lf-piles").textContent).toContain("17");
  });

  it("writes the log newest first in sentences", () => {
    const { el } = setup(stateOf(city5()));
    const items = [...el.querySelectorAll('[data-testid="log"] li')].map((li) => li.textContent);
    expect(items[0]).toBe("Yoshiko sells a statue worth 2 to fence F09: +2 money (now 18).");
    expect(items[items.length - 1]).toBe("Round 4: Tommaso is the start player.");
  });

  it("never renders what the seat may not see", () => {
    const { el } = setup(stateOf(place2Waiting()));
    // seat 1 sees its own hand, not Pascal's
    expect(q(el, '[data-testid="my-area"]').textContent).toContain("Hans");
    expect(q(el, '.lf-player[data-seat="0"]').querySelector(".lf-toolcounts")).toBeNull();
    const c = city5();
    const m = setup(stateOf(c));
    // opponents' loot shows backs only: no ids, no fronts
    const ids = [...m.el.querySelectorAll("[data-loot]")].map((e) => e.getAttribute("data-loot"));
    expect(ids.sort()).toEqual(["L08", "L14"]);
    expect(m.el.querySelector('.lf-player[data-seat="3"] .lf-loot-front')).toBeNull();
    expect(m.el.textContent).not.toContain("L10");
  });

  it("shows every hand on the open board (seat null)", () => {
    const { el } = setup(stateOf(openBoard()));
    expect(el.querySelectorAll(".lf-player .lf-toolcounts").length).toBeGreaterThanOrEqual(4);
  });
});

describe("deciding by clicking", () => {
  it("places a token with one click", () => {
    const { el, model } = setup(stateOf(place2()));
    expect(el.querySelectorAll('[data-place][data-legal="true"]').length).toBe(5);
    click(el, '[data-place="ruin"]');
    expect(model.sent).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "place", place: "ruin" } }]);
  });

  it("enables nothing when it is not the seat's decision", () => {
    const { el } = setup(stateOf(place2Waiting()));
    expect(el.querySelectorAll('[data-legal="true"]').length).toBe(0);
    expect(el.querySelector("[data-place]")).toBeNull();
    expect(el.querySelector('[data-testid="pass"]')).toBeNull();
    expect(q<HTMLButtonElement>(el, '[data-testid="hint"]').disabled).toBe(true);
  });

  it("takes two City tools, then confirms", () => {
    const { el, model } = setup(stateOf(city5()));
    const confirm = (): HTMLButtonElement => q(el, '[data-testid="confirm"]');
    expect(confirm().disabled).toBe(true);
    click(el, '[data-area="city"] [data-index="1"]');
    expect(q(el, '[data-area="city"] [data-index="1"]').getAttribute("aria-pressed")).toBe("true");
    expect(confirm().disabled).toBe(true);
    click(el, '[data-area="city"] [data-index="7"]');
    // a third tool is no longer legal
    expect(q(el, '[data-area="city"] [data-index="0"]').getAttribute("aria-disabled")).toBe("true");
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "take_tools", tools: ["hammer", "map"] } }]);
  });

  it("steals with the payment pre-filled and offers the scoundrel", () => {
    const { el, model } = setup(stateOf(villa5()));
    expect(q(el, '[data-area="villa"] [data-slot="1"]').getAttribute("aria-disabled")).toBe("true");
    click(el, '[data-area="villa"] [data-slot="0"]');
    expect(q(el, '[data-testid="draft"]').textContent).toContain("paying a lockpick and a hammer");
    click(el, '[data-testid="scoundrel"]');
    expect(q(el, '[data-testid="draft"]').textContent).toContain("paying a hammer and the scoundrel");
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "steal", slot: 0, pay: ["hammer"], scoundrel: true } }]);
  });

  it("steals without a scoundrel toggle when no variant uses it", () => {
    const { el, model } = setup(stateOf(museum5()));
    click(el, '[data-area="museum"] [data-slot="1"]');
    expect(el.querySelector('[data-testid="scoundrel"]')).toBeNull();
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "steal", slot: 1, pay: ["map", "map"], scoundrel: false } }]);
  });

  it("asks why for a choice that cannot be completed, and shows the ruling", () => {
    const { el, model } = setup(stateOf(museum5()));
    click(el, '[data-area="museum"] [data-slot="2"]');
    expect(acts(model.sent)).toEqual([]);
    expect(model.sent).toEqual([{ kind: "why", action: { type: "steal", slot: 2, pay: ["pliers", "welder"], scoundrel: false } }]);
    model.emit({ kind: "why", action: { type: "steal", slot: 2, pay: ["pliers", "welder"], scoundrel: false }, reason: "R5.1: you need pliers" });
    expect(q(el, '[data-testid="why-reason"]').textContent).toContain("R5.1: you need pliers");
    click(el, '[data-testid="why-reason"] .lf-close');
    expect(el.querySelector('[data-testid="why-reason"]')).toBeNull();
  });

  it("exchanges at a free Ruin square with cards picked from the hand", () => {
    const { el, model } = setup(stateOf(ruin5()));
    expect(q(el, '[data-rate="2>3"]').getAttribute("aria-disabled")).toBe("true");
    expect(el.querySelector('[data-area="hand"] [data-legal]')).toBeNull(); // pick a square first
    click(el, '[data-rate="2>2"]');
    const maps = el.querySelectorAll('[data-area="hand"] [data-tool="map"]');
    expect(maps.length).toBe(2);
    act(() => (maps[0] as HTMLElement).click());
    act(() => (maps[1] as HTMLElement).click());
    expect(q(el, '[data-area="hand"] [data-tool="lockpick"]').getAttribute("aria-disabled")).toBe("true");
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "exchange", rate: "2>2", give: ["map", "map"] } }]);
  });

  it("offers 'Why not?' for an incomplete exchange", () => {
    const { el, model } = setup(stateOf(ruin5()));
    click(el, '[data-rate="3>4"]');
    click(el, '[data-area="hand"] [data-tool="welder"]');
    click(el, '[data-testid="why"]');
    expect(model.sent).toEqual([{ kind: "why", action: { type: "exchange", rate: "3>4", give: ["welder"] } }]);
  });

  it("sells: a fence, then the loot", () => {
    const { el, model } = setup(stateOf(harbor5()));
    expect(q(el, '[data-fence="F03"]').getAttribute("aria-disabled")).toBe("true");
    click(el, '[data-fence="F04"]');
    click(el, '[data-loot="L08"]');
    expect(q(el, '[data-loot="L14"]').getAttribute("aria-disabled")).toBe("true");
    click(el, '[data-testid="confirm"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "sell", fence: "F04", loot: ["L08"] } }]);
  });

  it("passes", () => {
    const { el, model } = setup(stateOf(harbor5()));
    click(el, '[data-testid="pass"]');
    expect(model.sent).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "pass" } }]);
  });

  it("sends one act per decision until the kernel answers", () => {
    const { el, model } = setup(stateOf(harbor5()));
    click(el, '[data-testid="pass"]');
    click(el, '[data-testid="pass"]');
    expect(acts(model.sent).length).toBe(1);
    model.emit({ kind: "result", ok: false, error: "R3.1: stale" });
    click(el, '[data-testid="pass"]');
    expect(acts(model.sent).length).toBe(2);
    expect(q(el, '[data-testid="error"]').textContent).toContain("R3.1: stale");
  });

  it("works from the keyboard (Tab, Enter, Space)", async () => {
    const { el, model } = setup(stateOf(place2()));
    const user = userEvent.setup();
    const city = q(el, '[data-place="city"]');
    city.focus();
    await user.keyboard("{Enter}");
    expect(model.sent).toEqual([{ kind: "act", move: 12, version: 40, action: { type: "place", place: "city" } }]);
    const m2 = setup(stateOf(villa5()));
    q(m2.el, '[data-area="villa"] [data-slot="0"]').focus();
    await user.keyboard(" ");
    await user.tab();
    expect(m2.el.querySelector('[data-testid="draft"]')).not.toBeNull();
  });

  it("labels every clickable element for screen readers", () => {
    const { el } = setup(stateOf(city5()));
    const buttons = [...el.querySelectorAll("button")];
    // the 8 City tools, Confirm, Pass, Hint, Undo, New game, Settings, Legend; nothing of
    // other places is a button
    expect(buttons.length).toBe(15);
    expect(el.querySelector("button[data-fence], button[data-rate], button[data-slot]")).toBeNull();
    for (const b of buttons) expect(b.getAttribute("aria-label") || b.textContent?.trim()).toBeTruthy();
    expect(q(el, '[data-area="city"] [data-index="0"]').getAttribute("aria-label")).toBe("Take lockpick (City tool 1)");
  });
});

describe("seats, bots, hints and messages", () => {
  it("hot-seat: a privacy screen names the next player and hides the hand", () => {
    const f = place2();
    const pascal = { ...(f.view.players[0] as PlayerView), loot: [loot("L06", true)] };
    f.view = { ...f.view, players: [pascal, f.view.players[1] as PlayerView] };
    // Pascal's own turn: his loot front shows
    const own = mount(stateOf(f, { human_seats: [0, 1] }));
    expect(own.el.querySelector('[data-loot="L06"] .lf-loot-front')).not.toBeNull();
    expect(own.el.textContent).toContain("Pascal is dealt a hammer and a map");
    own.cleanup();
    f.view = { ...f.view, to_move: 1, decision: { seat: 1, kind: "place", place: null, square: null } };
    const { el, model } = setup(stateOf(f, { human_seats: [0, 1], seat: 0, legal: f.legal }));
    expect(q(el, '[data-testid="privacy"]').textContent).toContain("Hans");
    expect(el.querySelector('[data-testid="my-area"]')).toBeNull();
    expect(el.querySelector(".lf-loot-front")).toBeNull(); // Pascal's loot fronts are covered
    expect(el.querySelector("[data-loot]")).toBeNull();
    // the log is Pascal's (his own deal is named): covered as well
    expect(el.textContent).not.toContain("Pascal is dealt a hammer and a map");
    expect(el.querySelector('[data-testid="log-hidden"]')).not.toBeNull();
    expect(el.querySelectorAll('[data-legal="true"]').length).toBe(0);
    const reveal = q(el, '[data-testid="reveal"]');
    expect(reveal.textContent).toBe("I am Hans");
    click(el, '[data-testid="reveal"]');
    expect(model.sent).toEqual([{ kind: "reveal", seat: 1 }]);
    // Python switches the seat: the board opens for Hans
    const w = place2Waiting();
    model.set("view", { ...w.view, to_move: 1, decision: { seat: 1, kind: "place", place: null, square: null } });
    model.set("seat", 1);
    model.set("legal", f.legal);
    expect(el.querySelector('[data-testid="privacy"]')).toBeNull();
    expect(q(el, '[data-testid="my-area"]').textContent).toContain("Hans");
  });

  it("says a bot is thinking", () => {
    const f = place2Waiting();
    f.view = { ...f.view, to_move: 0 };
    const { el } = setup(stateOf(f, { bots: { "0": "greedy" } }));
    expect(q(el, '[data-testid="thinking"]').textContent).toContain("Pascal (greedy) is thinking");
  });

  it("flashes the last move briefly", () => {
    vi.useFakeTimers();
    const { el, model } = setup(stateOf(ruin5()));
    model.set("events", [...ruin5().events, { type: "exchange", seat: 2, place: "ruin", square: 0, rate: "2>3", gave: [], drew: null, count: 3 }]);
    model.set("highlight", { seat: 2, action: { type: "exchange", rate: "2>3", give: ["map", "map"] } });
    expect(q(el, '[data-rate="2>3"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '[data-area="ruin"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '.lf-player[data-seat="2"]').classList.contains("lf-flash")).toBe(true);
    act(() => {
      vi.advanceTimersByTime(2000);
    });
    expect(q(el, '[data-rate="2>3"]').classList.contains("lf-flash")).toBe(false);
  });

  it("sends no move while it has no move number or version to quote, and says why", () => {
    for (const missing of [{ move_number: null }, { version: null }, { version: undefined }]) {
      const { el, model } = setup(stateOf(place2(), missing));
      click(el, '[data-place="villa"]');
      expect(model.sent).toEqual([]);
      expect(q(el, '[data-testid="error"]').textContent).toContain("not in step with the kernel");
    }
  });

  it("drops a hint from an earlier move and says why there is none", () => {
    const { el, model } = setup(
      stateOf(villa5(), { hint: { action: { type: "pass" }, value: 0.1, move: 11 } }),
    );
    expect(el.querySelector('[data-testid="hint-text"]')).toBeNull();
    model.emit({ kind: "hint", action: null, error: "hints need lf.bots (unavailable)" });
    expect(q(el, '[data-testid="hint-error"]').textContent).toContain("hints need lf.bots");
  });

  it("flashes the place the kernel names for a bot's steal", () => {
    const f = museum5();
    const { el, model } = setup(stateOf(f, { bots: { "3": "greedy" } }));
    const steal = { type: "steal", seat: 3, place: "museum", square: 2, slot: 0, loot: { protection: "safe", tools: ["map"] }, paid: [], scoundrel: true };
    model.set("events", [...f.events, steal]);
    expect(q(el, '[data-area="museum"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '[data-area="villa"]').classList.contains("lf-flash")).toBe(false);
    expect(q(el, '[data-area="museum"] [data-square="2"]').classList.contains("lf-flash")).toBe(true);
    expect(q(el, '[data-area="museum"] [data-square="1"]').classList.contains("lf-flash")).toBe(false);
  });

  it("asks for a hint and shows it on the board", () => {
    const { el, model } = setup(stateOf(villa5()));
    click(el, '[data-testid="hint"]');
    expect(model.sent).toEqual([{ kind: "hint" }]);
    model.set("hint", { action: { type: "steal", slot: 2, pay: ["hammer", "welder"], scoundrel: true }, value: 0.62 });
    expect(q(el, '[data-area="villa"] [data-slot="2"]').classList.contains("lf-hint")).toBe(true);
    expect(q(el, '[data-testid="hint-text"]').textContent).toContain("estimated win chance 62%");
  });

  it("shows the error trait in a dismissable banner", () => {
    const { el, model } = setup(stateOf(city5(), { error: "R2.2: the Villa is full" }));
    expect(q(el, '[data-testid="error"]').textContent).toContain("R2.2");
    click(el, '[data-testid="error"] .lf-close');
    expect(el.querySelector('[data-testid="error"]')).toBeNull();
    model.set("error", "R4: no tools left");
    expect(q(el, '[data-testid="error"]').textContent).toContain("R4");
  });

  it("sends undo, and new game from its panel (the current setup by default)", () => {
    const { el, model } = setup(stateOf(city5()));
    click(el, '[data-testid="undo"]');
    click(el, '[data-testid="new-game"]');
    expect(model.sent).toEqual([{ kind: "undo" }]); // the panel opens first
    click(el, '[data-testid="ng-start"]');
    expect(model.sent).toEqual([
      { kind: "undo" },
      { kind: "new_game", players: 5, seat: city5().view.seat, bots: {}, variant: "standard", seed: null },
    ]);
  });

  it("forgets half-made picks when the view changes", () => {
    const { el, model } = setup(stateOf(city5()));
    click(el, '[data-area="city"] [data-index="1"]');
    model.set("view", { ...city5().view, decision: { seat: 0, kind: "city", place: "city", square: 1 } });
    expect(q(el, '[data-area="city"] [data-index="1"]').getAttribute("aria-pressed")).toBe("false");
  });

  describe("Undo starts the choice afresh", () => {
    const picked = (el: HTMLElement): string | null =>
      q(el, '[data-area="city"] [data-index="1"]').getAttribute("aria-pressed");

    it("clears a half-made pick when Undo is clicked, before the kernel answers", () => {
      const { el, model } = setup(stateOf(city5()));
      click(el, '[data-area="city"] [data-index="1"]');
      expect(picked(el)).toBe("true");
      click(el, '[data-testid="undo"]');
      expect(model.sent).toEqual([{ kind: "undo" }]);
      expect(picked(el)).toBe("false");
    });

    it("does not bring old picks back when the same position returns", () => {
      // Pick at move 12; Undo goes back to move 10; the same move again reaches an
      // identical-looking move 12: the board must not show the pick from before.
      const { el, model } = setup(stateOf(city5()));
      click(el, '[data-area="city"] [data-index="1"]');
      const earlier = place2();
      model.set("view", earlier.view);
      model.set("legal", earlier.legal);
      model.set("move_number", 10);
      const again = city5();
      model.set("view", again.view);
      model.set("legal", again.legal);
      model.set("move_number", 12);
      expect(picked(el)).toBe("false");
    });

    it("clears picks when the position moves on without a click here (a new move number)", () => {
      const { el, model } = setup(stateOf(city5()));
      click(el, '[data-area="city"] [data-index="1"]');
      model.set("move_number", 11);
      expect(picked(el)).toBe("false");
    });

    it("clears picks when the game's version changes (an undo and a replay keep the move number)", () => {
      const { el, model } = setup(stateOf(city5(), { version: 40 }));
      click(el, '[data-area="city"] [data-index="1"]');
      model.set("version", 42);
      expect(picked(el)).toBe("false");
    });

    it("keeps picks while nothing about the position changes", () => {
      const { el, model } = setup(stateOf(city5()));
      click(el, '[data-area="city"] [data-index="1"]');
      model.set("pace", 1.2);
      model.set("hint", { action: { type: "pass" }, move: 12 });
      expect(picked(el)).toBe("true");
    });
  });

  it("waits for a view, then follows it", () => {
    const { el, model } = setup(stateOf(city5(), { view: null }));
    expect(el.textContent).toContain("Waiting for the game");
    model.set("view", city5().view);
    expect(el.querySelectorAll(".lf-place").length).toBe(5);
  });

  it("cleans up: unmounts and stops listening", () => {
    const m = mount(stateOf(city5()));
    expect(m.model.listenerCount()).toBeGreaterThan(0);
    m.cleanup();
    expect(m.el.innerHTML).toBe("");
    expect(m.model.listenerCount()).toBe(0);
  });
});

describe("game over", () => {
  it("shows standings, the winners and the money chart", () => {
    const { el } = setup(stateOf(over5()));
    expect(q(el, '[data-testid="game-over"] h3').textContent).toBe("Game over: Yoshiko and Bobby win with 24!");
    const rows = [...el.querySelectorAll('[data-testid="standings"] tbody tr')];
    expect(rows.map((r) => r.getAttribute("data-seat"))).toEqual(["3", "4", "1", "0", "2"]);
    expect(rows[0]?.textContent).toContain("winner");
    expect(rows[1]?.textContent?.startsWith("1")).toBe(true); // tied for first
    expect(rows[2]?.classList.contains("lf-winner")).toBe(false);
    const lines = el.querySelectorAll('[data-testid="money-chart"] polyline');
    expect(lines.length).toBe(5);
    expect((lines[4] as SVGPolylineElement).getAttribute("points")?.split(" ").length).toBe(5);
    expect(el.querySelector('[data-testid="composer"]')).toBeNull();
  });
});

describe("Undo and stale intents (R12, issue 12)", () => {
  it("greys out Undo with the ruling when the kernel says it is not allowed", () => {
    const reason = "R12.1: you have seen a card since your last move (a draw, a stolen front, a refill), so that move stands";
    const { el, model } = setup({ ...stateOf(ruin5()), undo_status: { allowed: false, reason } });
    const undo = q(el, '[data-testid="undo"]') as HTMLButtonElement;
    expect(undo.disabled).toBe(true);
    expect(undo.title).toBe(reason);
    act(() => model.set("undo_status", { allowed: true, reason: "" }));
    expect(undo.disabled).toBe(false);
  });

  it("quotes the game's version with every move, so an undo makes an old click stale", () => {
    const { el, model } = setup({ ...stateOf(place2()), version: 41 });
    click(el, '[data-place="ruin"]');
    expect(acts(model.sent)).toEqual([{ kind: "act", move: 12, version: 41, action: { type: "place", place: "ruin" } }]);
  });
});
