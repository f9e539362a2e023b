/**
 * Game over: the winners, each player's money and what they did (steals, sales,
 * tools spent), the loot left unsold (turned up now, R10.2), the money by round
 * as a line chart, and the way to the replay and the analysis of the game.
 */
import type { JSX } from "preact";
import { ScoundrelIcon, SCOUNDREL_COLOURS, ShapeMark } from "../icons";
import { plural, winnersWords } from "../format";
import type { Figures, Loot } from "../types";
import { LootChip } from "./cards";
import { useUi } from "./ui";

/** The least distance, in the chart's units, between two labels of its money axis. */
export const LABEL_GAP = 13;

export function MoneyChart(): JSX.Element {
  const { view } = useUi();
  const rows = view.money_by_round;
  const W = 380;
  const H = 180;
  const L = 32;
  const R = 12;
  const T = 12;
  const B = 26;
  const max = Math.max(20, ...rows.flat());
  const n = Math.max(rows.length, 2);
  const x = (i: number): number => L + (i * (W - L - R)) / (n - 1);
  const y = (m: number): number => T + (1 - m / max) * (H - T - B);
  // The top's own label only where it clears 20's (the goal, R10.1): 20 and 21 overlapped.
  const ticks = [0, 5, 10, 15, 20].filter((t) => t <= max).concat(max > 20 && y(20) - y(max) >= LABEL_GAP ? [max] : []);
  return (
    <svg
      class="lf-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label="Money of each player by round"
      data-testid="money-chart"
    >
      {ticks.map((t) => (
        <g key={t}>
          <line x1={L} x2={W - R} y1={y(t)} y2={y(t)} class="lf-grid" />
          <text x={L - 6} y={y(t) + 4} text-anchor="end" class="lf-axis">
            {t}
          </text>
        </g>
      ))}
      {rows.map((_, i) => (
        <text key={i} x={x(i)} y={H - 8} text-anchor="middle" class="lf-axis">
          {view.is_over && i === rows.length - 1 ? "end" : i + 1}
        </text>
      ))}
      {view.players.map((p) => {
        const pts = rows.map((r, i) => [x(i), y(r[p.seat] ?? 0)] as const);
        return (
          <g key={p.seat} data-seat={p.seat}>
            <polyline
              points={pts.map(([a, b]) => `${a},${b}`).join(" ")}
              fill="none"
              stroke={SCOUNDREL_COLOURS[p.scoundrel]}
              stroke-width="2.2"
            />
            {pts.map(([a, b], i) => (
              <ShapeMark key={i} scoundrel={p.scoundrel} x={a} y={b} size={9} />
            ))}
          </g>
        );
      })}
    </svg>
  );
}

/** What the end screen's buttons ask the kernel for. */
export interface EndActions {
  replay(analyse: boolean): void;
  /** Waiting for the kernel's replay board, or its refusal. */
  pending: boolean;
  /** Whose game "Analyse my game" rates: null on a board with no person at it. */
  analyseSeat: number | null;
}

function Unsold(props: { loot: Loot[] | undefined }): JSX.Element {
  const loot = props.loot ?? [];
  return (
    <td class="lf-unsold-cell" data-tip={`${plural(loot.length, "card")} left unsold: worth nothing (R10.2)`}>
      {loot.length === 0 ? <span class="lf-none">none</span> : loot.map((l, i) => <LootChip key={i} loot={l} />)}
    </td>
  );
}

function FigureCells(props: { f: Figures | undefined }): JSX.Element {
  const f = props.f;
  if (!f) return <td colSpan={3} />;
  return (
    <>
      <td class="lf-num" data-tip={`${plural(f.steals, "steal")}, ${plural(f.chests, "chest")} cashed (+${f.money_from_chests})`}>
        {f.steals}
      </td>
      <td class="lf-num" data-tip={`${plural(f.sales, "sale")} of ${plural(f.sold, "card")} (+${f.money_from_sales})`}>
        {f.sales}
      </td>
      <td class="lf-num" data-tip={`${plural(f.tools_spent, "tool")} paid or given at the Ruin; ${f.tools_taken} taken at the City`}>
        {f.tools_spent}
      </td>
    </>
  );
}

export function GameOver(props: { end: EndActions }): JSX.Element {
  const { view, state, mySeat } = useUi();
  const standings = [...view.players].sort((a, b) => b.money - a.money);
  const winners = view.winners.map((s) => view.players[s]?.name ?? `Player ${s + 1}`);
  const best = Math.max(...view.players.map((p) => p.money));
  const figures = new Map((state.figures ?? []).map((f) => [f.seat, f]));
  const { end } = props;
  return (
    <section class="lf-gameover" data-testid="game-over" aria-label="Game over">
      <h3>
        Game over: {winnersWords(winners)} with {best}!
      </h3>
      <div class="lf-gameover-buttons">
        <button type="button" class="lf-btn lf-primary" data-testid="replay-game" disabled={end.pending} onClick={() => end.replay(false)}>
          Replay this game
        </button>
        {end.analyseSeat !== null ? (
          <button type="button" class="lf-btn" data-testid="analyse-game" disabled={end.pending} onClick={() => end.replay(true)}>
            Analyse my game
          </button>
        ) : null}
      </div>
      <div class="lf-gameover-body">
        <table class="lf-standings" data-testid="standings">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Player</th>
              <th scope="col">Money</th>
              <th scope="col">Steals</th>
              <th scope="col">Sales</th>
              <th scope="col" data-tip="Tools paid for loot or given at the Ruin">
                Tools spent
              </th>
              <th scope="col" data-tip="Loot left unsold at the end, turned up now: worth nothing (R10.2)">
                Unsold
              </th>
            </tr>
          </thead>
          <tbody>
            {standings.map((p) => {
              const rank = 1 + view.players.filter((o) => o.money > p.money).length;
              const won = view.winners.includes(p.seat);
              const me = view.seat !== null && p.seat === mySeat;
              return (
                <tr key={p.seat} class={won ? "lf-winner" : ""} data-seat={p.seat}>
                  <td>{rank}</td>
                  <td>
                    <ScoundrelIcon scoundrel={p.scoundrel} size={20} /> {p.name}
                    {me ? " (you)" : ""}
                    {won ? <span class="lf-crown"> ★ winner</span> : null}
                  </td>
                  <td class="lf-num">{p.money}</td>
                  <FigureCells f={figures.get(p.seat)} />
                  <Unsold loot={figures.get(p.seat)?.unsold} />
                </tr>
              );
            })}
          </tbody>
        </table>
        <figure class="lf-chart-box">
          <MoneyChart />
          <figcaption>Money at the start of each round, and at the end.</figcaption>
        </figure>
      </div>
    </section>
  );
}
