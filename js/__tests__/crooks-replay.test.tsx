/**
 * A Crooks record replayed on the Crooks board (issue 37): the shared scrubber under the
 * Crooks heading, its intents, and no "Make a puzzle" (puzzles are Langfinger's). The
 * positions are the kernel's own (__fixtures__/crooks.json); the scrubber and timeline are
 * shaped as ui/replay_mode.py sends them for a Crooks record.
 */
import { describe, expect, it } from "vitest";
import FIXTURES from "../__fixtures__/crooks.json";
import type { ScrubberInfo, Timeline, WidgetState } from "../types";
import { click, mountPerTest, q } from "./fake-model";

type Key = keyof typeof FIXTURES;
const setup = mountPerTest();

function scrubber(extra: Partial<ScrubberInfo> = {}): ScrubberInfo {
  return {
    index: 5,
    length: 40,
    rounds: [0],
    playing: false,
    pace: 0.8,
    seat: null,
    record_seat: null,
    label: "5. Player 2 keep K04",
    caption: "Player 2: keep hangout E placeable True.",
    next: "6. Player 2 place 9 down",
    can_continue: true,
    can_leave: false,
    puzzles: false,
    levels: ["easy", "medium", "hard", "expert"],
    bots: {},
    analysing: null,
    ...extra,
  };
}

function timeline(): Timeline {
  return {
    labels: Array.from({ length: 40 }, (_, i) => `${i + 1}. Player 1 pass`),
    money: Array.from({ length: 41 }, (_, i) => [18 - Math.floor(i / 4), 18, 18 - Math.floor(i / 8)]),
    seats: [
      { name: "Player 1", scoundrel: "pascal", bot: null },
      { name: "Player 2", scoundrel: "hans", bot: "hard" },
      { name: "Player 3", scoundrel: "tommaso", bot: null },
    ],
    evaluation: null,
  };
}

function replayState(key: Key, s: Partial<ScrubberInfo> = {}): WidgetState {
  const f = FIXTURES[key];
  return {
    view: f.view as unknown as WidgetState["view"],
    legal: [],
    events: f.events as unknown as WidgetState["events"],
    error: "",
    seat: null,
    pace: 0.8,
    bots: {},
    human_seats: [],
    highlight: {},
    hint: {},
    move_number: 5,
    version: f.version,
    undo_status: { allowed: false, reason: "a replay is read-only" },
    setup: {
      game: "crooks",
      games: [{ name: "crooks", title: "Crooks", players: [2, 4] }],
      players: 3,
      seat: null,
      bots: {},
      variant: "standard",
      levels: ["easy", "medium", "hard", "expert"],
      level_notes: {},
      allow_new_game: false,
    },
    scrubber: scrubber(s),
    timeline: timeline(),
  } as unknown as WidgetState;
}

describe("a Crooks replay", () => {
  it("shows the scrubber on the Crooks board, with the position and the caption", () => {
    const { el } = setup(replayState("keep"));
    expect(el.querySelector('[data-testid="crooks-board"]')).not.toBeNull();
    expect(q(el, '[data-testid="replay-position"]').textContent).toBe("5 / 40");
    expect(q(el, '[data-testid="replay-label"]').textContent).toContain("Player 2: keep hangout E");
    expect(q<HTMLInputElement>(el, '[data-testid="replay-slider"]').value).toBe("5");
    expect(el.querySelector('[data-testid="replay-money"]')).not.toBeNull();
    // Read-only: no move, no new game, and no puzzle from a Crooks position.
    expect(el.querySelector('[data-testid="replay-make-puzzle"]')).toBeNull();
    expect(el.querySelector('[data-testid="new-game"]')).toBeNull();
    expect(q<HTMLButtonElement>(el, '[data-testid="hint"]').disabled).toBe(true);
  });

  it("sends the scrubber's intents back and forth", () => {
    const { el, model } = setup(replayState("place"));
    click(el, '[data-testid="replay-forward"]');
    click(el, '[data-testid="replay-back"]');
    click(el, '[data-testid="replay-play"]');
    expect(model.sent).toEqual([
      { kind: "replay_step", delta: 1 },
      { kind: "replay_step", delta: -1 },
      { kind: "replay_play" },
    ]);
    model.set("scrubber", scrubber({ index: 40, label: "40. Player 1 pass", caption: "Player 1: pass." }));
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-forward"]').disabled).toBe(true);
    model.set("scrubber", scrubber({ index: 0, label: "the start", caption: "The record's first position." }));
    expect(q<HTMLButtonElement>(el, '[data-testid="replay-back"]').disabled).toBe(true);
  });

  it("leaves the board live without a scrubber, and Langfinger's puzzle button stays", () => {
    const live = setup({ ...replayState("start"), scrubber: null, timeline: null } as WidgetState);
    expect(live.el.querySelector('[data-testid="replay"]')).toBeNull();
    const withPuzzles = setup(replayState("start", { puzzles: true }));
    expect(withPuzzles.el.querySelector('[data-testid="replay-make-puzzle"]')).not.toBeNull();
  });
});
