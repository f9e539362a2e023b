/**
 * The Oh My Goods! board (issue 38). The positions in __fixtures__/goods.json are the kernel's
 * own `view(0)`, `legal_actions(0)` and `log(0)` from 3-player games (random play), one at each
 * kind of decision (make_goods_fixture.py): the board is checked against what the kernel sends.
 */
import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import FIXTURES from "../__fixtures__/goods.json";
import { rulingTexts, splitRulings } from "../rulings";
import { goodsPrivacy, isGoodsView, isLegalGoods, legalOf, logLines, marketRows } from "../goods/model";
import type { GoodsAction, GoodsView } from "../goods/model";
import type { WidgetState } from "../types";
import { click, mountPerTest, q, recordedState } from "./fake-model";
import type { Recorded } from "./fake-model";

type Key = keyof typeof FIXTURES;
const setup = mountPerTest();

function view(key: Key): GoodsView {
  return FIXTURES[key].view as unknown as GoodsView;
}

function stateOf(key: Key, extra: Partial<WidgetState> = {}): WidgetState {
  return recordedState("goods", FIXTURES[key] as unknown as Recorded, extra);
}

function legal(key: Key): GoodsAction[] {
  return FIXTURES[key].legal as unknown as GoodsAction[];
}

function sentAction(model: { sent: unknown[] }): unknown {
  const last = model.sent[model.sent.length - 1] as { kind: string; action?: unknown };
  return last?.action;
}

const lit = (el: HTMLElement, testid: string): Element[] => [...el.querySelectorAll(`[data-testid="${testid}"][data-legal="true"]`)];

describe("the Oh My Goods! board", () => {
  it("is picked by the view's format: a tableau a seat, the market in two rows, the Assistants on offer", () => {
    expect(isGoodsView(view("produce"))).toBe(true);
    const { el } = setup(stateOf("produce"));
    expect(el.querySelector('[data-testid="goods-board"]')).not.toBeNull();
    expect(el.querySelectorAll('[data-testid="tableau"]').length).toBe(3);
    const v = view("produce");
    const [rise, set] = marketRows(v.market);
    expect(rise.filter((c) => c.half_sun).length).toBe(2);
    expect(rise.length + set.length).toBe(v.market.length);
    expect(el.querySelectorAll('[data-testid="market-sunrise"] [data-testid="market-card"]').length).toBe(rise.length);
    expect(el.querySelectorAll('[data-testid="market-sunset"] [data-testid="market-card"]').length).toBe(set.length);
    expect(q(el, '[data-testid="half-suns"]').textContent).toBe(String(v.half_suns));
    expect(el.querySelectorAll('[data-testid="offer"]').length).toBe(v.assistants.length);
    // Each building shows its goods and their worth in coins, and each seat its VP so far.
    for (const p of v.players) {
      const tableau = q(el, `[data-testid="tableau"][data-seat="${p.seat}"]`);
      expect(tableau.querySelectorAll('[data-testid="building"]').length).toBe(p.buildings.length);
      expect(q(tableau, '[data-testid="vp"]').textContent).toBe(`${p.vp} VP`);
      for (const b of p.buildings.filter((x) => x.good)) {
        expect(q(tableau, `[data-building="${b.id}"] [data-testid="goods-stack"]`).textContent).toContain(`×${b.goods} = ${b.coins}`);
      }
    }
  });

  it("keeps or takes a new hand with one click (phase I)", () => {
    const { el, model } = setup(stateOf("hand"));
    click(el, '[data-testid="mulligan"]');
    expect(model.sent).toEqual([{ kind: "act", action: { type: "mulligan" }, move: FIXTURES.hand.move_number, version: FIXTURES.hand.version }]);
  });

  it("plans the Worker by clicking a lit building of your tableau, then its mode", () => {
    const { el, model } = setup(stateOf("plan_work"));
    const works = legalOf(legal("plan_work"), "work");
    const buildings = new Set(works.map((w) => w.building));
    const litTiles = el.querySelectorAll('[data-testid="tableau"][data-seat="0"] [data-testid="building"][data-legal="true"]');
    expect(new Set([...litTiles].map((t) => t.getAttribute("data-building")))).toEqual(buildings);
    const first = works[0];
    if (!first?.building) throw new Error("no work in the fixture");
    click(el, `[data-testid="tableau"][data-seat="0"] button[data-building="${first.building}"]`);
    expect(model.sent).toEqual([]); // two modes: the board asks which
    click(el, '[data-testid="work-mode"][data-mode="sloppy"]');
    expect(sentAction(model)).toEqual({ type: "work", building: first.building, mode: "sloppy" });
  });

  it("keeps a picked Worker building while another seat seals its plan (G6), clears it on a change of your own", () => {
    const { el, model } = setup(stateOf("plan_work"));
    const first = legalOf(legal("plan_work"), "work")[0];
    if (!first?.building) throw new Error("no work in the fixture");
    const tile = `[data-testid="tableau"][data-seat="0"] button[data-building="${first.building}"]`;
    click(el, tile);
    expect(el.querySelectorAll('[data-testid="work-mode"]').length).toBe(2);
    // Another seat seals: a new move and view, the same hand, plan and choices for seat 0.
    const v = view("plan_work");
    act(() => {
      model.set("view", { ...v, players: v.players.map((p) => ({ ...p })) });
      model.set("legal", [...legal("plan_work")]);
      model.set("move_number", FIXTURES.plan_work.move_number + 1);
      model.set("version", FIXTURES.plan_work.version + 1);
    });
    expect(q(el, tile).getAttribute("aria-pressed")).toBe("true");
    click(el, '[data-testid="work-mode"][data-mode="sloppy"]');
    expect(model.sent).toEqual([
      { kind: "act", action: { type: "work", building: first.building, mode: "sloppy" }, move: FIXTURES.plan_work.move_number + 1, version: FIXTURES.plan_work.version + 1 },
    ]);
    // A change of seat 0's own (here its choices) clears the pick, and it does not come back.
    const { el: el2, model: model2 } = setup(stateOf("plan_work"));
    click(el2, tile);
    act(() => model2.set("legal", legal("plan_build")));
    expect(el2.querySelectorAll('[data-testid="work-mode"]').length).toBe(0);
    act(() => model2.set("legal", legal("plan_work")));
    expect(el2.querySelectorAll('[data-testid="work-mode"]').length).toBe(0);
  });

  it("moves an Assistant: Move on it, then a lit building", () => {
    const { el, model } = setup(stateOf("plan_move"));
    const move = legalOf(legal("plan_move"), "move_assistant")[0];
    if (!move) throw new Error("no move in the fixture");
    click(el, `[data-testid="move-assistant"][data-assistant="${move.assistant}"]`);
    const targets = legalOf(legal("plan_move"), "move_assistant").filter((m) => m.assistant === move.assistant).map((m) => m.to);
    const litTiles = el.querySelectorAll('[data-testid="tableau"][data-seat="0"] button[data-testid="building"][data-legal="true"]');
    expect([...litTiles].map((t) => t.getAttribute("data-building")).sort()).toEqual([...targets].sort());
    click(el, `[data-testid="tableau"][data-seat="0"] button[data-building="${move.to}"]`);
    expect(sentAction(model)).toEqual(move);
  });

  it("pays for a move with a click on a lit goods stack, the total shown", () => {
    const { el, model } = setup(stateOf("plan_pay"));
    const plan = view("plan_pay").players[0]?.plan;
    expect(q(el, '[data-testid="pay-status"]').textContent).toContain(`paid ${plan?.paying?.coins} of ${plan?.paying?.cost} coins`);
    const pay = legalOf(legal("plan_pay"), "pay")[0];
    click(el, `[data-testid="tableau"][data-seat="0"] button[data-building="${pay?.building}"]`);
    expect(sentAction(model)).toEqual(pay);
  });

  it("plans a building with a lit hand card, or none", () => {
    const { el, model } = setup(stateOf("plan_build"));
    const cards = legalOf(legal("plan_build"), "plan_build").filter((a) => a.card !== null);
    expect(lit(el, "hand-card").length).toBe(cards.length);
    click(el, '[data-testid="plan-none"]');
    expect(sentAction(model)).toEqual({ type: "plan_build", card: null });
    click(el, `[data-testid="hand-card"][data-card="${cards[0]?.card}"]`);
    expect(model.sent.length).toBe(1); // a move is pending: no second one until the kernel answers
  });

  it("shows who has sealed and waits, without any other seat's plan", () => {
    const v = view("sealed_wait");
    const { el } = setup(stateOf("sealed_wait"));
    expect(q(el, '[data-testid="goods-board"]').getAttribute("data-state")).toBe("waiting");
    expect(el.querySelectorAll('[data-testid="sealed"]').length).toBe(v.sealed?.filter((s) => s).length);
    expect(el.querySelectorAll('[data-testid="choosing"]').length).toBe(v.to_decide.length);
    expect(q(el, '[data-testid="status"]').textContent).toContain("Sealed");
    // Only your own hand is in the view, and only yours is drawn.
    expect(v.players.filter((p) => p.seat !== 0).every((p) => p.hand === null && p.plan === null)).toBe(true);
    expect(el.querySelectorAll('[data-testid="hand-card"]').length).toBe(v.players[0]?.hand?.length);
  });

  it("at a hot seat, covers the board for the next planner and hides the hand before them", () => {
    const state = stateOf("sealed_wait", { human_seats: [0, 1], bots: { "2": "random" }, legal: [] });
    expect(goodsPrivacy(0, [0, 1], view("sealed_wait"))).toBe(1);
    const { el, model } = setup(state);
    expect(q(el, '[data-testid="goods-board"]').getAttribute("data-state")).toBe("privacy");
    expect(q(el, '[data-testid="privacy"]').textContent).toContain("Player 2");
    expect(el.querySelector('[data-testid="hand"]')).toBeNull();
    expect(el.querySelector('[data-testid="tableau"][data-seat="0"] .lf-worker')).toBeNull(); // the sealed Worker stays hidden
    expect(el.querySelector('[data-testid="log"]')).toBeNull(); // and the log that tells it
    click(el, '[data-testid="reveal"]');
    expect(model.sent).toEqual([{ kind: "reveal", seat: 1 }]);
  });

  it("in production shows each building's needs, the market's and Offices' supply, and what is missing", () => {
    const prod = view("produce").production;
    const { el, model } = setup(stateOf("produce"));
    const rows = el.querySelectorAll('[data-testid="decision"] [data-testid="need"]');
    expect(rows.length).toBe(prod?.buildings.length);
    const need = prod?.buildings[0];
    const row = q(el, `[data-testid="decision"] [data-testid="need"][data-building="${need?.building}"]`);
    expect(row.getAttribute("data-satisfied")).toBe(String(need?.satisfied));
    const missing = Object.values(need?.missing ?? {}).reduce((a, b) => a + b, 0);
    expect(q(row, '[data-testid="missing"]').querySelectorAll('[data-resource]').length).toBe(Object.keys(need?.missing ?? {}).length);
    if (missing === 0) expect(q(row, '[data-testid="missing"]').textContent).toContain("nothing");
    click(el, `[data-testid="produce"][data-building="${need?.building}"]`);
    expect(sentAction(model)).toEqual({ type: "produce", building: need?.building });
  });

  it("closes the gap by clicking lit hand cards", () => {
    const { el, model } = setup(stateOf("supply"));
    const supplies = legalOf(legal("supply"), "supply");
    expect(lit(el, "hand-card").map((c) => c.getAttribute("data-card")).sort()).toEqual(supplies.map((s) => s.card).sort());
    expect(q(el, '[data-testid="decision"] [data-testid="missing"]').querySelectorAll("[data-resource]").length).toBeGreaterThan(0);
    click(el, `[data-testid="hand-card"][data-card="${supplies[0]?.card}"]`);
    expect(sentAction(model)).toEqual(supplies[0]);
  });

  it("offers each chain use the kernel allows as one click", () => {
    const { el, model } = setup(stateOf("chain"));
    const chains = legalOf(legal("chain"), "chain");
    const buttons = el.querySelectorAll<HTMLButtonElement>('[data-testid="chain-option"]');
    expect(buttons.length).toBe(chains.length);
    buttons[buttons.length - 1]?.click();
    expect(sentAction(model)).toEqual(chains[chains.length - 1]);
    // A chain fed by one hand card is also a click on that card, named on its button.
    const single = chains.find((c) => c.hand.length === 1 && c.goods.length === 0);
    if (!single) throw new Error("the fixture has no one-card chain");
    const card = view("chain").players[0]?.hand?.find((c) => c.id === single.hand[0]);
    expect([...buttons].some((b) => b.textContent?.includes(`the ${card?.name} card`))).toBe(true);
    const again = setup(stateOf("chain"));
    expect(q(again.el, `[data-testid="hand-card"][data-card="${single.hand[0]}"]`).getAttribute("data-legal")).toBe("true");
    click(again.el, `[data-testid="hand-card"][data-card="${single.hand[0]}"]`);
    expect(sentAction(again.model)).toEqual(single);
  });

  it("builds, hires a lit Assistant, or ends the turn", () => {
    const { el, model } = setup(stateOf("hire"));
    const hires = legalOf(legal("hire"), "hire");
    expect(lit(el, "offer").map((o) => o.getAttribute("data-assistant"))).toEqual(hires.map((h) => h.assistant));
    click(el, `[data-testid="offer"][data-assistant="${hires[0]?.assistant}"]`);
    expect(sentAction(model)).toEqual(hires[0]);
    const after = setup(stateOf("after"));
    // The planned card has left the hand at the reveal: the button names it from planned_face.
    const me = view("after").players.find((p) => p.seat === view("after").seat);
    const plannedName = me?.planned_face?.name;
    expect(plannedName).toBeTruthy();
    expect(me?.hand?.some((c) => c.id === me.planned)).toBe(false);
    expect(q(after.el, '[data-testid="build"]').textContent).toContain(plannedName as string);
    click(after.el, '[data-testid="build"]');
    expect(sentAction(after.model)).toEqual({ type: "build" });
  });

  it("pays with goods, showing what is paid of the cost", () => {
    const pay = view("pay").production?.pay;
    const { el, model } = setup(stateOf("pay"));
    expect(q(el, '[data-testid="paid"]').textContent).toBe(String(pay?.paid));
    expect(q(el, '[data-testid="pay-status"]').textContent).toContain(`of ${pay?.cost} coins`);
    const lits = el.querySelectorAll('[data-testid="tableau"][data-seat="0"] [data-testid="building"][data-legal="true"]');
    expect([...lits].map((t) => t.getAttribute("data-building")).sort()).toEqual(legalOf(legal("pay"), "pay").map((p) => p.building).sort());
    (lits[0] as HTMLElement).click();
    expect(sentAction(model)).toMatchObject({ type: "pay" });
  });

  it("places a hired Assistant with a click", () => {
    const { el, model } = setup(stateOf("assign"));
    const assigns = legalOf(legal("assign"), "assign");
    const lits = el.querySelectorAll('[data-testid="tableau"][data-seat="0"] [data-testid="building"][data-legal="true"]');
    expect(lits.length).toBe(assigns.length);
    click(el, `[data-testid="tableau"][data-seat="0"] button[data-building="${assigns[1]?.building}"]`);
    expect(sentAction(model)).toEqual(assigns[1]);
  });

  it("discards half the hand a card a step when both piles are empty", () => {
    const { el, model } = setup(stateOf("discard"));
    expect(lit(el, "hand-card").length).toBe(legal("discard").length);
    (lit(el, "hand-card")[0] as HTMLElement).click();
    expect(sentAction(model)).toEqual(legal("discard")[0]);
  });

  it("asks the kernel why not for an unlit choice, and opens the ruling it cites", () => {
    const { el, model } = setup(stateOf("produce"));
    const unlit = el.querySelector<HTMLButtonElement>('[data-testid="done"][data-legal="false"]');
    if (unlit) {
      unlit.click();
      expect(model.sent).toEqual([{ kind: "why", action: { type: "done" } }]);
    } else {
      const hire = el.querySelector('[data-testid="offer"]');
      expect(hire?.tagName).not.toBe("BUTTON"); // not a step that hires: the offer is no button
      click(el, '[data-testid="tableau"][data-seat="0"] button[data-testid="building"][data-legal="false"]');
    }
    const reason = "G4.6: CB3 must run first: the market and your Offices already satisfy it";
    model.emit({ kind: "why", action: { type: "done" }, reason });
    const why = q(el, '[data-testid="why-reason"]');
    expect(why.textContent).toContain("G4.6");
    click(el, '[data-testid="ruling-link"][data-ruling="G4.6"]');
    expect(q(el, '[data-testid="ruling-text"]').textContent).toContain(rulingTexts("G4.6")[0]?.text ?? "missing");
  });

  it("shows another seat's production read-only: its needs, and nothing to click", () => {
    const v = view("watch_production");
    const { el } = setup(stateOf("watch_production", { legal: [] }));
    expect(el.querySelectorAll('[data-testid="needs"] [data-testid="need"]').length).toBe(v.production?.buildings.length);
    expect(el.querySelectorAll('[data-legal="true"]').length).toBe(0);
    expect(el.querySelectorAll('[data-testid="goods-board"] [data-testid="building"]:is(button)').length).toBe(0);
  });

  it("ends with VP by source, seat by seat, the kernel's standings", () => {
    const v = view("over");
    const { el } = setup(stateOf("over", { legal: [] }));
    const rows = el.querySelectorAll('[data-testid="standings"] tbody tr');
    expect(rows.length).toBe(3);
    for (const s of v.standings ?? []) {
      const row = q(el, `[data-testid="standings"] tr[data-seat="${s.seat}"]`);
      expect(q(row, '[data-source="buildings"]').textContent).toBe(String(s.sources.buildings));
      expect(q(row, '[data-source="assistants"]').textContent).toBe(String(s.sources.assistants));
      expect(q(row, '[data-source="goods"]').textContent).toBe(String(s.sources.goods));
      expect(q(row, '[data-testid="points"]').textContent).toBe(String(s.score));
      expect(s.score).toBe(s.sources.buildings + s.sources.assistants + s.sources.goods);
    }
    expect(q(el, '[data-testid="game-over"]').textContent).toContain("wins");
  });

  it("every lit choice in every position is a legal action, and every legal action has a lit choice", () => {
    for (const key of Object.keys(FIXTURES) as Key[]) {
      const acts = legal(key);
      const { el, model } = setup(stateOf(key));
      const sent: unknown[] = [];
      for (const b of el.querySelectorAll<HTMLElement>('[data-legal="true"]')) {
        const before = model.sent.length;
        act(() => b.click());
        // A Worker's building asks its mode first; its last mode button (sloppy) then sends.
        act(() => [...el.querySelectorAll<HTMLElement>('[data-testid="work-mode"]')].pop()?.click());
        for (const s of model.sent.slice(before)) {
          const msg = s as { kind: string; action?: GoodsAction };
          expect(msg.kind, key).toBe("act");
          expect(isLegalGoods(acts, msg.action as GoodsAction), key).toBe(true);
          sent.push(msg.action);
        }
        model.sent.length = 0; // the fake kernel answers at once: the next click may send
        model.emit({ kind: "result", ok: true, error: "" });
      }
      // Moves reached by first picking an Assistant are checked in their own test above.
      const reachable = acts.filter((a) => a.type !== "move_assistant" && !(a.type === "work" && a.mode === "efficient"));
      for (const a of reachable) expect(sent.some((s) => isLegalGoods([s], a)), `${key}: ${JSON.stringify(a)}`).toBe(true);
    }
  }, 30_000); // every fixture mounted and every lit choice clicked: slow on a busy machine

  it("tells the log in words, a run of draws once", () => {
    const lines = logLines(view("over"), FIXTURES.over.events as unknown as Record<string, unknown>[]);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.every((l) => !l.includes("undefined"))).toBe(true);
    expect(splitRulings("G4.10: no change").some((p) => "ruling" in p)).toBe(true);
  });
});
