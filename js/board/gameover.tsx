/** Game over: standings, winners and each player's money by round as a line chart. */
import type { JSX } from "preact";
import { ScoundrelIcon, SCOUNDREL_COLOURS, ShapeMark } from "../icons";
import { listWords } from "../format";
import { useUi } from "./ui";

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
  const ticks = [0, 5, 10, 15, 20].filter((t) => t <= max).concat(max > 20 ? [max] : []);
  return (
    <svg
      class="lf-chart"
      viewBox={`0 0 ${W} ${H}`}
      width={W}
      height={H}
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
          {i + 1}
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

export function GameOver(): JSX.Element {
  const { view } = useUi();
  const standings = [...view.players].sort((a, b) => b.money - a.money);
  const winners = view.winners.map((s) => view.players[s]?.name ?? `Player ${s + 1}`);
  return (
    <section class="lf-gameover" data-testid="game-over" aria-label="Game over">
      <h3>
        Game over: {listWords(winners)} {winners.length === 1 ? "wins" : "win"}!
      </h3>
      <div class="lf-gameover-body">
        <table class="lf-standings" data-testid="standings">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Player</th>
              <th scope="col">Money</th>
            </tr>
          </thead>
          <tbody>
            {standings.map((p) => {
              const rank = 1 + view.players.filter((o) => o.money > p.money).length;
              const won = view.winners.includes(p.seat);
              return (
                <tr key={p.seat} class={won ? "lf-winner" : ""} data-seat={p.seat}>
                  <td>{rank}</td>
                  <td>
                    <ScoundrelIcon scoundrel={p.scoundrel} size={20} /> {p.name}
                    {won ? <span class="lf-crown"> ★ winner</span> : null}
                  </td>
                  <td class="lf-num">{p.money}</td>
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
