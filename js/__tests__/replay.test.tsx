import { act } from "preact/test-utils";
import { describe, expect, it } from "vitest";
import { openBoard, place2, stateOf } from "../__fixtures__/views";
import { click, mountPerTest, q } from "./fake-model";
import { indexAt, readScrubber, readTimeline, roundAround, scrubKey } from "../replay";
import type { ScrubberInfo, Timeline } from "../types";

const setup = mountPerTest();

/** As replay_widget.py sends it: a 2-player record of 10 decisions, at decision 3. */
function scrubber(extra: Partial<ScrubberInfo> = {}): ScrubberInfo {
  return {
    index: 3,
    length: 10,
    rounds: [0, 6],
    playing: false,
    pace: 0.8,
    seat: null,
    record_seat: null,
    label: "3. Pascal place city",
    caption: "Pascal puts a token on the City (square 2).",
    next: "4. Hans place villa",
    can_continue: true,
    levels: ["easy", "medium", "hard", "expert"],
    bots: { "1": "hard" },
    analysing: null,
    ...extra,
  };
}

function timeline(evaluated = false): Timeline {
  return {
    labels: Array.from({ length: 10 }, (_, i) => `${i + 1}. move`),
    money: Array.from({ length: 11 }, (_, i) => [i, Math.floor(i / 2)]),
    seats: [
      { name: "Pascal", scoundrel: "pascal", bot: null },
      { name: "Hans", scoundrel: "hans", bot: "hard" },
    ],
    evaluation: evaluated
      ? {
          seat: 0,
          points: [
            { index: 0, decision: 1, move: "place city", before: 0.5, after: 0.48, best: "place city", best_chance: 0.5, loss: 0.02, doubtful: false },
            { index: 2, decision: 3, move: "place ruin", before: 0.55, after: 0.3, best: "place villa", best_chance: 0.56, loss: 0.26, doubtful: true },
          ],
        }
      : null,
  };
}

const replayState = (s: Partial<ScrubberInfo> = {}, evaluated = false) =>
  stateOf(openBoard(), { scrubber: scrubber(s), timeline: timeline(evaluated), legal: [] });

function key(el: Element, k: string): void {
  act(() => {
    el.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  });
}

describe("reading the replay traits", () => {
  it("reads a live board's {} as no replay and fills safe defaults", () => {
    expect(readScrubber({})).toBeNull();
    expect(readScrubber(null)).toBeNull();
    expect(readScrubber({ index: "3", length: 10 })).toBeNull();
    const s = readScrubber({ index: 2, length: 5, analysing: { seat: 1, done: 2, total: 7 } });
    expect(s?.rounds).toEqual([]);
    expect(s?.seat).toBeNull();
    expect(s?.analysing).toEqual({ seat: 1, done: 2, total: 7 });
    expect(readTimeline({})).toBeNull();
    const t = readTimeline({ money: [[0, 0], [2, "x"]], seats: [{ name: "A", scoundrel: "nobody" }], evaluation: { seat: 0, points: [{ index: 1 }] } });
    expect(t?.money).toEqual([[0, 0], [2]]);
    expect(t?.seats[0]?.scoundrel).toBe("pascal");
    expect(t?.evaluation?.points).toEqual([]);
  });

  it("maps keys to intents, and not past either end", () => {
    const s = scrubber();
    expect(scrubKey("ArrowRight", s)).toEqual({ kind: "replay_step", delta: 1 });
    expect(scrubKey("ArrowLeft", s)).toEqual({ kind: "replay_step", delta: -1 });
    expect(scrubKey("PageDown", s)).toEqual({ kind: "replay_round", direction: 1 });
    expect(scrubKey("Home", s)).toEqual({ kind: "replay_seek", index: 0 });
    expect(scrubKey("End", s)).toEqual({ kind: "replay_seek", index: 10 });
    expect(scrubKey(" ", s)).toEqual({ kind: "replay_play" });
    expect(scrubKey(" ", scrubber({ playing: true }))).toEqual({ kind: "replay_pause" });
    expect(scrubKey("ArrowLeft", scrubber({ index: 0 }))).toBeNull();
    expect(scrubKey("ArrowRight", scrubber({ index: 10 }))).toBeNull();
    expect(scrubKey("x", s)).toBeNull();
    expect(roundAround([0, 6, 12], 6)).toEqual({ back: 0, next: 12 });
    expect(roundAround([0, 6, 12], 7)).toEqual({ back: 6, next: 12 });
    const f = { width: 100, height: 50, left: 10, right: 10, top: 0, bottom: 0 };
    expect(indexAt(f, 10, 8)).toBe(0);
    expect(indexAt(f, 90, 8)).toBe(8);
    expect(indexAt(f, 500, 8)).toBe(8);
    expect(indexAt(f, 50, 8)).toBe(4);
  });
});

describe("the replay panel", () => {
  it("is not there on a live board, and replaces the toolbar on a replay", () => {
    const live = setup(stateOf(place2()));
    expect(live.el.querySelector('[data-testid="replay"]')).toBeNull();
    const { el } = setup(replayState());
    expect(q(el, '[data-testid="replay-position"]').textContent).toBe("3 / 10");
    expect(q(el, '[data-testid="replay-label"]').textContent).toBe("3. Pascal puts a token on the City (square 2).");
    expect(q(el, ".lf-toolbar").hidden).toBe(true);
    expect(q<HTMLInputElement>(el, '[data-testid="replay-slider"]').value).toBe("3");
    expect(q(el, '[data-testid="replay-slider"]').getAttribute("aria-valuetext")).toBe(
      "decision 3 of 10: Pascal puts a token on the City (square 2).",
    );
  });

  it("captions each position in the kernel's plain words, never in the record's shorthand", () => {
    const { el, model } = setup(replayState());
    model.set("scrubber", scrubber({ index: 4, label: "4. Hans take lockpick,lockpick", caption: "Hans takes two lockpicks from the City." }));
    const label = q(el, '[data-testid="replay-label"]');
    expect(label.textContent).toBe("4. Hans takes two lockpicks from the City.");
    expect(label.textContent).not.toContain("lockpick,lockpick");
    expect(label.getAttribute("title")).toBe("4. Hans take lockpick,lockpick"); // the record's line, on demand
    model.set("scrubber", scrubber({ index: 0, label: "the start", caption: "The record's first position." }));
    expect(q(el, '[data-testid="replay-label"]').textContent?.trim()).toBe("The record's first position.");
    // An older kernel without captions: the record's words are still better than nothing.
    expect(readScrubber({ index: 1, length: 2, label: "1. Hans place city" })?.caption).toBe("1. Hans place city");
  });

  it("sends an intent for every control, and greys out what cannot move", () => {
    const { el, model } = setup(replayState());
    click(el, '[data-testid="replay-forward"]');
    click(el, '[data-testid="replay-back"]');
    click(el, '[data-testid="replay-round-next"]');
    click(el, '[data-testid="replay-round-back"]');
    click(el, '[data-testid="replay-play"]');
    expect(model.sent).toEqual([
      { kind: "replay_step", delta: 1 },
      { kind: "replay_step", delta: -1 },
      { kind: "replay_round", direction: 1 },
      { kind: "replay_round", direction: -1 },
      { kind: "replay_play" },
    ]);
    model.set("scrubber", scrubber({ index: 10, playing: true }));
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-forward"]').disabled).toBe(true);
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-round-next"]').disabled).toBe(true);
    expect(q(el, '[data-testid="replay-play"]').getAttribute("aria-label")).toBe("Pause");
    model.set("scrubber", scrubber({ index: 0 }));
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-back"]').disabled).toBe(true);
  });

  it("answers the keyboard on the panel and on the slider, once per key", () => {
    const { el, model } = setup(replayState());
    key(q(el, '[data-testid="replay"]'), "ArrowRight");
    key(q(el, '[data-testid="replay-slider"]'), "ArrowLeft");
    key(q(el, '[data-testid="replay"]'), "PageUp");
    key(q(el, '[data-testid="replay"]'), "End");
    key(q(el, '[data-testid="replay"]'), " ");
    expect(model.sent).toEqual([
      { kind: "replay_step", delta: 1 },
      { kind: "replay_step", delta: -1 },
      { kind: "replay_round", direction: -1 },
      { kind: "replay_seek", index: 10 },
      { kind: "replay_play" },
    ]);
  });

  it("seeks where the slider is dragged, and sets the pace without starting to play", () => {
    const { el, model } = setup(replayState());
    const slider = q<HTMLInputElement>(el, '[data-testid="replay-slider"]');
    act(() => {
      slider.value = "7";
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    });
    const pace = q<HTMLSelectElement>(el, '[data-testid="replay-pace"]');
    act(() => {
      pace.value = "1.5";
      pace.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(model.sent).toEqual([
      { kind: "replay_seek", index: 7 },
      { kind: "replay_pace", pace: 1.5 },
    ]);
  });

  it("draws the money and the evaluation, marks doubtful moves, and a click on one seeks there", () => {
    const { el, model } = setup(replayState({}, true));
    expect(el.querySelector('[data-testid="replay-money"]')).not.toBeNull();
    const doubtful = el.querySelectorAll('[data-doubtful="true"]');
    expect(doubtful.length).toBe(1);
    expect(doubtful[0]?.getAttribute("aria-label")).toContain("doubtful: decision 3, place ruin");
    expect(q(el, '[data-testid="replay-eval-note"]').textContent).toBe(
      "Pascal: one doubtful move marked “?”. Before this move 55% to win. Pascal played: place ruin (30% to win); the bot prefers: place villa (56%).",
    );
    act(() => {
      (doubtful[0] as SVGGElement).dispatchEvent(new MouseEvent("click", { bubbles: true }));
    });
    key(doubtful[0] as Element, "Enter");
    expect(model.sent).toEqual([
      { kind: "replay_seek", index: 2 },
      { kind: "replay_seek", index: 2 },
    ]);
    const plain = setup(replayState());
    expect(plain.el.querySelector('[data-testid="replay-evaluation"]')).toBeNull();
  });

  it("continues from here with the seats as chosen", () => {
    const { el, model } = setup(replayState());
    click(el, '[data-testid="replay-continue"]');
    const seat = q<HTMLSelectElement>(el, '[data-testid="replay-continue-seat"]');
    act(() => {
      seat.value = "0";
      seat.dispatchEvent(new Event("change", { bubbles: true }));
    });
    const bot = q<HTMLSelectElement>(el, '[data-testid="replay-continue-bot-1"]');
    expect(bot.value).toBe("hard");
    act(() => {
      bot.value = "expert";
      bot.dispatchEvent(new Event("change", { bubbles: true }));
    });
    click(el, '[data-testid="replay-continue-go"]');
    expect(model.sent).toEqual([{ kind: "replay_continue", seat: 0, bots: { "1": "expert" } }]);
  });

  it("asks for a puzzle and shows the kernel's skeleton; analyses the seat chosen", () => {
    const { el, model } = setup(replayState());
    click(el, '[data-testid="replay-make-puzzle"]');
    expect(model.sent).toEqual([{ kind: "replay_puzzle" }]);
    model.emit({ kind: "replay_puzzle", source: "position = (Position(['pascal', 'hans']))", seat: 0, error: "" });
    expect(q(el, '[data-testid="replay-puzzle-source"]').textContent).toContain("Position(['pascal', 'hans'])");
    expect(q(el, '[data-testid="replay-puzzle-line-error"]')).toBeTruthy(); // no line sent: none shown
    model.emit({ kind: "replay_puzzle", source: "x", line: '{"name": "From a game"}', line_error: "", seat: 0, error: "" });
    expect(q(el, '[data-testid="replay-puzzle-line"]').textContent).toBe('{"name": "From a game"}');
    click(el, '[data-testid="replay-analyse"]');
    expect(model.sent[1]).toEqual({ kind: "replay_analyse", seat: 0 });
    model.set("scrubber", scrubber({ analysing: { seat: 0, done: 2, total: 5 } }));
    expect(q(el, '[data-testid="replay-analyse"]').textContent).toBe("Analysing Pascal 2/5");
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-analyse"]').disabled).toBe(true);
  });

  it("the seat picked for analysis is the seat the chart shows", () => {
    const { el, model } = setup(replayState());
    const pick = q<HTMLSelectElement>(el, '[data-testid="replay-analyse-seat"]');
    act(() => {
      pick.value = "1";
      pick.dispatchEvent(new Event("change", { bubbles: true }));
    });
    click(el, '[data-testid="replay-analyse"]');
    expect(model.sent).toEqual([{ kind: "replay_analyse", seat: 1 }]);
    // While Hans is analysed the menu names Hans and is locked.
    model.set("scrubber", scrubber({ analysing: { seat: 1, done: 0, total: null } }));
    expect(pick.value).toBe("1");
    expect(pick.disabled).toBe(true);
    // The chart arrives for Hans; then another evaluation (of Pascal, from Python) is drawn:
    // the menu follows the chart, and the line names the same seat.
    const hans = timeline(true);
    hans.evaluation = { seat: 1, points: hans.evaluation?.points ?? [] };
    model.set("timeline", hans);
    model.set("scrubber", scrubber());
    expect(pick.value).toBe("1");
    expect(q(el, '[data-testid="replay-eval-note"]').textContent).toMatch(/^Hans: /);
    expect(q(el, '[data-testid="replay-evaluation"]').getAttribute("aria-label")).toContain("of Hans");
    model.set("timeline", timeline(true));
    expect(pick.value).toBe("0");
    expect(q(el, '[data-testid="replay-eval-note"]').getAttribute("data-seat")).toBe("0");
  });

  it("a seat's record is seen only from that seat: no seat menu, analysis of that seat", () => {
    const { el, model } = setup(replayState({ seat: 1, record_seat: 1 }));
    expect(el.querySelector('[data-testid="replay-seat"]')).toBeNull();
    click(el, '[data-testid="replay-analyse"]');
    expect(model.sent).toEqual([{ kind: "replay_analyse", seat: 1 }]);
    const full = setup(replayState());
    const seen = q<HTMLSelectElement>(full.el, '[data-testid="replay-seat"]');
    act(() => {
      seen.value = "1";
      seen.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(full.model.sent).toEqual([{ kind: "replay_seat", seat: 1 }]);
  });
});
