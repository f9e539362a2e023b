/**
 * The replay's timeline under the board: everyone's money after each decision
 * and, once a seat is analysed, its estimated win chance, with the doubtful
 * moves marked. A line marks where the replay is; clicking a point (or
 * pressing Enter on a marked move) asks the kernel to go there.
 */
import type { JSX } from "preact";
import { SCOUNDREL_COLOURS, ShapeMark } from "../icons";
import { indexAt, percent, xOf, yOf } from "../replay";
import type { Frame } from "../replay";
import type { EvalPoint, ReplayMessage, Timeline } from "../types";

const MONEY: Frame = { width: 560, height: 130, left: 38, right: 10, top: 8, bottom: 18 };
const CHANCE: Frame = { width: 560, height: 110, left: 38, right: 10, top: 8, bottom: 18 };

type Send = (m: ReplayMessage) => void;

function seekOnClick(frame: Frame, length: number, send: Send) {
  return (e: MouseEvent): void => {
    const svg = e.currentTarget as SVGSVGElement;
    const box = svg.getBoundingClientRect();
    // The SVG scales with its box: turn the click into the chart's own units.
    const x = box.width > 0 ? ((e.clientX - box.left) * frame.width) / box.width : 0;
    send({ kind: "replay_seek", index: indexAt(frame, x, length) });
  };
}

function Cursor(props: { frame: Frame; index: number; length: number }): JSX.Element {
  const x = xOf(props.frame, props.index, props.length);
  return <line class="lf-tl-cursor" x1={x} x2={x} y1={props.frame.top} y2={props.frame.height - props.frame.bottom} />;
}

function RoundTicks(props: { frame: Frame; rounds: number[]; length: number }): JSX.Element {
  const f = props.frame;
  return (
    <g class="lf-tl-rounds">
      {props.rounds.map((r, i) => (
        <g key={r}>
          <line class="lf-grid" x1={xOf(f, r, props.length)} x2={xOf(f, r, props.length)} y1={f.top} y2={f.height - f.bottom} />
          <text class="lf-axis" x={xOf(f, r, props.length) + 2} y={f.height - 5}>
            {i + 1}
          </text>
        </g>
      ))}
    </g>
  );
}

export function MoneyTimeline(props: { timeline: Timeline; index: number; rounds: number[]; send: Send }): JSX.Element {
  const { timeline, index, rounds, send } = props;
  const f = MONEY;
  const length = Math.max(0, timeline.money.length - 1);
  const max = Math.max(20, ...timeline.money.flat());
  return (
    <svg
      class="lf-chart lf-timeline"
      viewBox={`0 0 ${f.width} ${f.height}`}
      role="img"
      aria-label={`Money of each player after each decision; the line marks decision ${index} of ${length}`}
      data-testid="replay-money"
      onClick={seekOnClick(f, length, send)}
    >
      {[0, 10, 20].map((t) => (
        <text key={t} class="lf-axis" x={f.left - 4} y={yOf(f, t, max) + 3} text-anchor="end">
          {t}
        </text>
      ))}
      <line class="lf-tl-goal" x1={f.left} x2={f.width - f.right} y1={yOf(f, 20, max)} y2={yOf(f, 20, max)} />
      <RoundTicks frame={f} rounds={rounds} length={length} />
      {timeline.seats.map((seat, s) => {
        const points = timeline.money.map((row, i) => `${xOf(f, i, length)},${yOf(f, row[s] ?? 0, max)}`);
        const now = timeline.money[Math.min(index, length)]?.[s] ?? 0;
        return (
          <g key={s} data-seat={s}>
            <polyline points={points.join(" ")} fill="none" stroke={SCOUNDREL_COLOURS[seat.scoundrel]} stroke-width="1.8" />
            <ShapeMark scoundrel={seat.scoundrel} x={xOf(f, index, length)} y={yOf(f, now, max)} size={8} />
          </g>
        );
      })}
      <Cursor frame={f} index={index} length={length} />
    </svg>
  );
}

function pointLabel(p: EvalPoint): string {
  const verdict = p.doubtful ? "doubtful: " : "";
  return (
    `${verdict}decision ${p.decision}, ${p.move}: win chance ${percent(p.before)} before, ${percent(p.after)} after;` +
    ` the bot prefers ${p.best} (${percent(p.best_chance)})` +
    (p.too_late ? `. Too late: ${p.too_late}` : "")
  );
}

export function ChanceTimeline(props: { timeline: Timeline; index: number; send: Send }): JSX.Element | null {
  const { timeline, index, send } = props;
  const ev = timeline.evaluation;
  if (!ev) return null;
  const f = CHANCE;
  const length = Math.max(0, timeline.money.length - 1);
  const seat = timeline.seats[ev.seat];
  const colour = seat ? SCOUNDREL_COLOURS[seat.scoundrel] : "currentColor";
  const line = ev.points.map((p) => `${xOf(f, p.index, length)},${yOf(f, p.before, 1)} ${xOf(f, p.index + 1, length)},${yOf(f, p.after, 1)}`);
  return (
    <svg
      class="lf-chart lf-timeline"
      viewBox={`0 0 ${f.width} ${f.height}`}
      role="group"
      aria-label={`Estimated win chance of ${seat?.name ?? "the seat"} at each of its decisions`}
      data-testid="replay-evaluation"
      onClick={seekOnClick(f, length, send)}
    >
      {[0, 0.5, 1].map((t) => (
        <text key={t} class="lf-axis" x={f.left - 4} y={yOf(f, t, 1) + 3} text-anchor="end">
          {percent(t)}
        </text>
      ))}
      <line class="lf-grid" x1={f.left} x2={f.width - f.right} y1={yOf(f, 0.5, 1)} y2={yOf(f, 0.5, 1)} />
      <polyline points={line.join(" ")} fill="none" stroke={colour} stroke-width="1.6" />
      {ev.points.map((p) => {
        const x = xOf(f, p.index, length);
        const y = yOf(f, p.before, 1);
        const go = (e: Event): void => {
          e.stopPropagation();
          send({ kind: "replay_seek", index: p.index });
        };
        return (
          <g
            key={p.index}
            class={`lf-tl-point ${p.doubtful ? "lf-tl-doubtful" : ""}`}
            role="button"
            tabIndex={p.doubtful || p.too_late ? 0 : -1}
            aria-label={pointLabel(p)}
            data-index={p.index}
            data-doubtful={p.doubtful ? "true" : "false"}
            data-too-late={p.too_late ? "true" : "false"}
            onClick={go}
            onKeyDown={(e: KeyboardEvent) => {
              if (e.key === "Enter" || e.key === " ") go(e);
            }}
          >
            <title>{pointLabel(p)}</title>
            <circle cx={x} cy={y} r={p.doubtful ? 5 : 3} />
            {p.doubtful || p.too_late ? (
              <text x={x} y={y - 8} text-anchor="middle" class="lf-tl-mark">
                {p.too_late ? "⚠" : "?"}
              </text>
            ) : null}
          </g>
        );
      })}
      <Cursor frame={f} index={index} length={length} />
    </svg>
  );
}
