/** A stand-in for the anywidget model: traits in a dict, change events, a record of sent messages. */
import { act } from "preact/test-utils";
import { afterEach } from "vitest";
import type { AnyModel, WidgetState } from "../types";
import widget from "../widget";

type Cb = (...args: unknown[]) => void;

export class FakeModel implements AnyModel {
  sent: unknown[] = [];
  private listeners = new Map<string, Set<Cb>>();
  constructor(public state: Record<string, unknown>) {}
  get(name: string): unknown {
    return this.state[name];
  }
  on(event: string, cb: Cb): void {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)?.add(cb);
  }
  off(event?: string | null, cb?: Cb | null): void {
    if (event && cb) this.listeners.get(event)?.delete(cb);
  }
  send(msg: unknown): void {
    this.sent.push(msg);
  }
  save_changes(): void {}
  /** Python changed a trait. */
  set(name: string, value: unknown): void {
    act(() => {
      this.state[name] = value;
      for (const cb of this.listeners.get(`change:${name}`) ?? []) cb();
    });
  }
  /** Python sent a custom message. */
  emit(msg: unknown): void {
    act(() => {
      for (const cb of this.listeners.get("msg:custom") ?? []) cb(msg, []);
    });
  }
  listenerCount(): number {
    let n = 0;
    for (const s of this.listeners.values()) n += s.size;
    return n;
  }
}

/** Render the widget the way anywidget does; returns the model, the element and the cleanup. */
export function mount(state: WidgetState): { model: FakeModel; el: HTMLElement; cleanup: () => void } {
  const model = new FakeModel({ ...state });
  const el = document.createElement("div");
  document.body.appendChild(el);
  let cleanup: () => void = () => {};
  act(() => {
    cleanup = widget.render({ model, el });
  });
  return {
    model,
    el,
    cleanup: () => {
      act(() => cleanup());
      el.remove();
    },
  };
}

/** A `mount` that keeps one board at a time: the previous one, and the last after each test, are cleaned up. */
export function mountPerTest(): (state: WidgetState) => ReturnType<typeof mount> {
  let mounted: ReturnType<typeof mount> | null = null;
  const unmount = (): void => {
    mounted?.cleanup();
    mounted = null;
  };
  afterEach(unmount);
  return (state) => {
    unmount();
    mounted = mount(state);
    return mounted;
  };
}

export function q<T extends Element = HTMLElement>(el: Element, selector: string): T {
  const found = el.querySelector<T & Element>(selector);
  if (!found) throw new Error(`nothing matches ${selector}`);
  return found as T;
}

export function click(el: Element, selector: string): void {
  const target = q(el, selector);
  act(() => {
    target.click();
  });
}

/** What the kernel recorded at one position of a game (js/__fixtures__/crooks.json, goods.json). */
export interface Recorded {
  view: unknown;
  legal: unknown[];
  events: unknown[];
  move_number: number;
  version: number;
}

/** The traits of seat 0's board at a recorded position of a 3-player game of `game` against a
 * greedy and a random bot, with the New game panel offering every game. */
export function recordedState(game: string, f: Recorded, extra: Partial<WidgetState> = {}): WidgetState {
  return {
    view: f.view as WidgetState["view"],
    legal: f.legal as WidgetState["legal"],
    events: f.events as WidgetState["events"],
    error: "",
    seat: 0,
    pace: 0.6,
    bots: { "1": "greedy", "2": "random" },
    human_seats: [0],
    highlight: {},
    hint: {},
    move_number: f.move_number,
    version: f.version,
    undo_status: { allowed: false, reason: "nothing to undo" },
    setup: {
      game,
      games: [
        { name: "langfinger", title: "Langfinger", players: [2, 5] },
        { name: "crooks", title: "Crooks", players: [2, 4] },
        { name: "goods", title: "Oh My Goods!", players: [2, 4] },
      ],
      players: 3,
      seat: 0,
      bots: { "1": "greedy", "2": "random" },
      variant: "standard",
      levels: ["easy", "medium", "hard", "expert"],
      level_notes: {},
      allow_new_game: true,
    },
    ...extra,
  };
}
