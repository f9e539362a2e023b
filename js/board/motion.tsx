/**
 * The others' moves, one at a time at the table's pace: each step glows where it
 * happens, and what it moves flies from where it was to where it goes (a token to
 * its square, tools from the City, a card to its thief or its fence). The end of
 * a round raises a banner. With `prefers-reduced-motion` (or the setting off)
 * nothing flies: the steps only glow, one after another.
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { Token } from "../icons";
import { newEvents, stepMs, stepsOf } from "../playback";
import type { Flight, Step } from "../playback";
import type { Scoundrel, View, WidgetState } from "../types";
import { LootFace, ToolFace } from "./cards";

/** With no pace (bots move at once) the last of the others' moves still glows this long. */
const GLANCE_MS = 1200;
/** A round's banner stays this long unless closed. */
const BANNER_MS = 9000;

export interface Playback {
  step: Step | null;
  /** Changes with every step shown, so the same place glowing twice restarts its glow. */
  key: number;
  queued: number;
  banner: Step | null;
  skip(): void;
  dismissBanner(): void;
}

interface Seen {
  events: WidgetState["events"];
  move: number | null;
  seat: number | null;
  replaying: boolean;
}

/** Who needs no showing of their own acts: the person at this board. */
export function selfSkipper(state: WidgetState): (seat: number) => boolean {
  if (state.scrubber) return () => false; // a replay shows everyone's moves
  if (state.seat === null) return (seat) => state.human_seats.includes(seat);
  return (seat) => seat === state.seat;
}

export function usePlayback(state: WidgetState, view: View): Playback {
  const seen = useRef<Seen>({ events: state.events, move: state.move_number, seat: state.seat, replaying: !!state.scrubber });
  const queue = useRef<Step[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const bannerTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pace = useRef(state.pace);
  pace.current = state.pace;
  const counter = useRef(0);
  const [shown, setShown] = useState<{ step: Step | null; key: number; queued: number }>({ step: null, key: 0, queued: 0 });
  const [banner, setBanner] = useState<Step | null>(null);

  const raise = (round: Step): void => {
    if (bannerTimer.current) clearTimeout(bannerTimer.current);
    setBanner(round);
    bannerTimer.current = setTimeout(() => setBanner(null), BANNER_MS);
  };

  const advance = useCallback((): void => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    const next = queue.current.shift();
    counter.current += 1;
    if (!next) {
      setShown({ step: null, key: counter.current, queued: 0 });
      return;
    }
    setShown({ step: next, key: counter.current, queued: queue.current.length });
    if (next.kind === "round") raise(next); // in its turn, after the last moves of the round
    const ms = stepMs(pace.current, queue.current.length) || GLANCE_MS;
    timer.current = setTimeout(advance, ms);
  }, []);

  const skip = useCallback((): void => {
    queue.current = [];
    advance();
  }, [advance]);

  const dismissBanner = useCallback((): void => {
    if (bannerTimer.current) clearTimeout(bannerTimer.current);
    setBanner(null);
  }, []);

  useEffect(() => {
    const before = seen.current;
    seen.current = { events: state.events, move: state.move_number, seat: state.seat, replaying: !!state.scrubber };
    const moved = before.move !== null && state.move_number !== null ? state.move_number - before.move : 0;
    // Undo, a new game, another seat's eyes, into or out of a replay, or a replay jumping
    // (not stepping): nothing to show.
    const reset =
      before.seat !== state.seat || moved < 0 || before.replaying !== !!state.scrubber || (!!state.scrubber && moved > 1);
    // A composed position (a lesson's, a puzzle's) starts with no events at all: whatever
    // its first moves bring is news, its round's end included.
    const fresh = reset ? null : before.events.length === 0 && moved > 0 ? state.events : newEvents(before.events, state.events);
    if (reset) {
      skip();
      dismissBanner(); // the old game's round end is not this board's news any more
    }
    if (!fresh || fresh.length === 0) return;
    const steps = stepsOf(view, fresh, selfSkipper(state));
    if (steps.length === 0) return;
    // No pace: the bots' moves arrive at once; the last one glows, the list says the rest,
    // and a round's end still raises its banner.
    const round = [...steps].reverse().find((s) => s.kind === "round");
    if (state.pace <= 0 && round) raise(round);
    queue.current.push(...(state.pace <= 0 ? steps.slice(-1) : steps));
    if (timer.current === null) advance();
  }, [state.events]);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
      if (bannerTimer.current) clearTimeout(bannerTimer.current);
    },
    [],
  );

  return { step: shown.step, key: shown.key, queued: shown.queued, banner, skip, dismissBanner };
}

interface Ghost {
  id: string;
  x: number;
  y: number;
  dx: number;
  dy: number;
  flight?: Flight;
  gained?: number;
}

function centre(root: DOMRect, el: Element): { x: number; y: number } {
  const r = el.getBoundingClientRect();
  return { x: r.left - root.left + r.width / 2, y: r.top - root.top + r.height / 2 };
}

/** The element a selector names, or the nearest place column / panel it sits in. */
function find(root: HTMLElement, selector: string): Element | null {
  const exact = root.querySelector(selector);
  if (exact) return exact;
  const area = selector.match(/^(\[data-area="[a-z]+"\]|article\.lf-player\[data-seat="\d+"\])/);
  return area ? root.querySelector(area[1] as string) : null;
}

function ghostsOf(root: HTMLElement, step: Step, key: number): Ghost[] {
  const box = root.getBoundingClientRect();
  const out: Ghost[] = [];
  step.flights.forEach((flight, i) => {
    const from = find(root, flight.from);
    const to = find(root, flight.to);
    if (!from || !to) return;
    const a = centre(box, from);
    const b = centre(box, to);
    out.push({ id: `${key}-${i}`, x: a.x, y: a.y, dx: b.x - a.x, dy: b.y - a.y, flight });
  });
  const money = step.seat === undefined ? null : root.querySelector(`article.lf-player[data-seat="${step.seat}"] .lf-money`);
  if (money && step.gained) {
    const m = centre(box, money);
    out.push({ id: `${key}-money`, x: m.x, y: m.y, dx: 0, dy: -28, gained: step.gained });
  }
  return out;
}

function GhostFace(props: { ghost: Ghost; view: View }): JSX.Element | null {
  const { ghost, view } = props;
  if (ghost.gained) return <b class="lf-gain">+{ghost.gained}</b>;
  const what = ghost.flight?.what;
  if (!what) return null;
  if ("token" in what && what.token !== undefined) {
    const p = view.players[what.token];
    return p ? <Token scoundrel={p.scoundrel as Scoundrel} size={22} /> : null;
  }
  if ("tools" in what) {
    return (
      <span class="lf-ghost-row">
        {what.tools.map((t, i) => (t ? <ToolFace key={i} tool={t} size={20} /> : <span key={i} class="lf-cardback lf-cardback-big" />))}
      </span>
    );
  }
  if ("loot" in what) {
    return (
      <span class="lf-ghost-row">
        {what.loot.map((l, i) => (
          <LootFace key={i} loot={l} small />
        ))}
      </span>
    );
  }
  return null;
}

/** The flying pieces of the step being shown, over the board (decorative: the log and the
 *  caption say the same in words). */
export function Flights(props: { root: HTMLElement | null; step: Step | null; stepKey: number; view: View; ms: number; enabled: boolean }): JSX.Element | null {
  const [ghosts, setGhosts] = useState<Ghost[]>([]);
  const layer = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const { root, step } = props;
    setGhosts(root && step && props.enabled && props.ms > 0 ? ghostsOf(root, step, props.stepKey) : []);
  }, [props.stepKey, props.enabled]);
  useLayoutEffect(() => {
    const el = layer.current;
    if (!el) return;
    const duration = Math.min(Math.max(props.ms * 0.75, 300), 1100);
    for (const node of Array.from(el.children) as HTMLElement[]) {
      const g = ghosts.find((x) => x.id === node.dataset.ghost);
      if (!g || typeof node.animate !== "function") continue;
      node.animate(
        [
          { transform: "translate(-50%, -50%) scale(1)", opacity: 0.95 },
          { transform: `translate(calc(-50% + ${g.dx}px), calc(-50% + ${g.dy}px)) scale(${g.gained ? 1.2 : 0.9})`, opacity: g.gained ? 0 : 0.85 },
        ],
        { duration, easing: "cubic-bezier(.3,.7,.3,1)", fill: "forwards" },
      );
    }
  }, [ghosts]);
  if (ghosts.length === 0) return null;
  return (
    <div class="lf-flights" ref={layer} aria-hidden="true" data-testid="flights">
      {ghosts.map((g) => (
        <div key={g.id} class="lf-ghost" data-ghost={g.id} style={{ left: `${g.x}px`, top: `${g.y}px` }}>
          <GhostFace ghost={g} view={props.view} />
        </div>
      ))}
    </div>
  );
}
