/**
 * Everything about the players: their panels, the money track and the piles.
 */
import type { JSX } from "preact";
import { ScoundrelIcon, ToolIcon, Token } from "../icons";
import { moneyTrack, plural } from "../format";
import type { Loot, PlayerView, Tool } from "../types";
import { TOOLS } from "../types";
import { FenceFace, LootChip, LootFace } from "./cards";
import { useUi } from "./ui";

function SpentTag(props: { place: string; spent: boolean }): JSX.Element {
  return (
    <span
      class={`lf-spent ${props.spent ? "lf-is-spent" : ""}`}
      data-tip={`Scoundrel ${props.spent ? "already used" : "still free"} at the ${props.place} this round (R5.2)`}
    >
      {props.place}: {props.spent ? "used" : "free"}
    </span>
  );
}

function ToolCounts(props: { counts: Partial<Record<Tool, number>> }): JSX.Element {
  return (
    <span class="lf-toolcounts">
      {TOOLS.filter((t) => (props.counts[t] ?? 0) > 0).map((t) => (
        <span class="lf-toolcount" key={t} data-tip={`${props.counts[t]} ${t}`}>
          <ToolIcon tool={t} size={18} />
          <small>{props.counts[t]}</small>
        </span>
      ))}
    </span>
  );
}

/** How many loot chips a panel shows before it counts the rest. */
const CHIPS = 5;

function PlayerPanel(props: { p: PlayerView }): JSX.Element {
  const { view, state, flash, mySeat, privacy } = useUi();
  const { p } = props;
  // Behind the hot-seat privacy screen the previous player's loot fronts are covered too.
  const loot: Loot[] = privacy === null ? p.loot : p.loot.map((l) => ({ protection: l.protection, tools: l.tools }));
  const bot = state.bots[String(p.seat)];
  const toMove = view.to_move === p.seat;
  const isStart = view.start_player === p.seat;
  // Behind the privacy screen nobody is "you": the next person has not taken the board yet.
  const isMe = privacy === null && view.seat !== null && mySeat === p.seat;
  const winner = view.is_over && view.winners.includes(p.seat);
  // R11.2 games keep the "seen" row always, so that it never appears and pushes the board.
  const known = view.variant === "open_info";
  return (
    <article
      class={`lf-player ${toMove ? "lf-to-move" : ""} ${isMe ? "lf-me" : ""} ${flash.seat === p.seat ? "lf-flash" : ""}`}
      data-seat={p.seat}
      aria-label={`${p.name}${isMe ? " (you)" : ""}: ${p.money} money, ${plural(p.tokens, "token")} left, ${plural(p.hand_size, "tool")} in hand, ${plural(p.loot.length, "loot card")}`}
      aria-current={toMove ? "true" : undefined}
    >
      <header class="lf-player-head">
        <ScoundrelIcon scoundrel={p.scoundrel} size={34} label={`scoundrel ${p.scoundrel}`} />
        <div class="lf-player-name">
          <b>{p.name}</b>
          <small>
            {isMe ? "you" : bot ? `bot: ${bot}` : state.human_seats.includes(p.seat) ? "human" : ""}
            {isStart ? " · start player" : ""}
            {winner ? " · winner" : ""}
          </small>
        </div>
        <span class="lf-money" data-tip={`${p.name} has ${p.money} money`}>
          {p.money}
        </span>
      </header>
      <div class="lf-player-row">
        <span class="lf-scoundrel-tool" data-tip={`Scoundrel tool: stands in for one ${p.tool} (R5.2)`}>
          <ToolIcon tool={p.tool} size={18} label={`scoundrel tool ${p.tool}`} />
        </span>
        <SpentTag place="Villa" spent={p.scoundrel_used.villa} />
        <SpentTag place="Museum" spent={p.scoundrel_used.museum} />
      </div>
      <div class="lf-player-row">
        <span class="lf-tokens" data-tip={`${plural(p.tokens, "token")} left to place`}>
          {Array.from({ length: p.tokens }, (_, i) => (
            <Token key={i} scoundrel={p.scoundrel} size={14} />
          ))}
          {p.tokens === 0 ? <small>no tokens</small> : null}
        </span>
        <span class="lf-handsize" data-tip={`${plural(p.hand_size, "tool")} in hand`}>
          <span class="lf-cardback" aria-hidden="true" />
          {p.hand_size}
        </span>
      </div>
      {p.hand && !isMe && privacy === null ? (
        <div class="lf-player-row">
          <ToolCounts counts={p.hand} />
        </div>
      ) : known ? (
        <div class="lf-player-row" data-tip="Tools seen entering this hand (R11.2)">
          <small>seen:</small>
          <ToolCounts counts={p.known} />
        </div>
      ) : null}
      {/* Always there, one row high, so a stolen card never makes the panel grow. */}
      <div class="lf-player-loot" data-tip={plural(loot.length, "loot card")}>
        {loot.slice(0, CHIPS).map((l, i) => (
          <LootChip key={i} loot={l} />
        ))}
        {loot.length > CHIPS ? <small class="lf-more">+{loot.length - CHIPS}</small> : null}
        {loot.length === 0 ? <small class="lf-none">no loot</small> : null}
      </div>
    </article>
  );
}

export function Players(): JSX.Element {
  const { view } = useUi();
  return (
    <div class="lf-players" style={{ "--lf-n": String(view.players.length) }}>
      {view.players.map((p) => (
        <PlayerPanel key={p.seat} p={p} />
      ))}
    </div>
  );
}

/** The money track 0–20; a total beyond 20 stands at 20 and shows itself (R10.1). */
export function MoneyTrack(): JSX.Element {
  const { view } = useUi();
  const cells = Array.from({ length: 21 }, (_, i) => i);
  return (
    <div class="lf-track" role="group" aria-label="Money track">
      {cells.map((n) => {
        const here = view.players.filter((p) => moneyTrack(p.money).pos === n);
        return (
          <div class={`lf-track-cell ${n % 5 === 0 ? "lf-track-five" : ""}`} key={n}>
            <span class="lf-track-no">{n === 20 ? "20+" : n}</span>
            <span class="lf-track-tokens">
              {here.map((p) => (
                <span class="lf-track-token" key={p.seat} data-tip={`${p.name}: ${p.money}`}>
                  <Token scoundrel={p.scoundrel} size={14} label={`${p.name}: ${p.money}`} />
                  {moneyTrack(p.money).beyond ? <small class="lf-beyond">{p.money}</small> : null}
                </span>
              ))}
            </span>
          </div>
        );
      })}
    </div>
  );
}

/** Discards are public (R11.1); the newest few are drawn, the rest counted, to keep the side short. */
const DISCARD_SHOWN = 5;

function Pile(props: { name: string; draw: number; children: JSX.Element }): JSX.Element {
  return (
    <div class="lf-pile">
      <span class="lf-pile-name">{props.name}</span>
      <span class="lf-pile-size" data-tip={`${props.draw} cards in the draw pile`}>
        <span class="lf-cardback" aria-hidden="true" />
        {props.draw}
      </span>
      {props.children}
    </div>
  );
}

function Discard<T>(props: { cards: T[]; what: string; show: (card: T, i: number) => JSX.Element }): JSX.Element {
  const { cards, what, show } = props;
  return (
    <span class="lf-pile-discard" data-tip={`${cards.length} ${what} in the discard`}>
      {cards.length > DISCARD_SHOWN ? <small>+{cards.length - DISCARD_SHOWN}</small> : null}
      {cards.slice(-DISCARD_SHOWN).map(show)}
    </span>
  );
}

export function Piles(): JSX.Element {
  const { view } = useUi();
  const { tools, loot, fences } = view.piles;
  return (
    <section class="lf-piles" aria-label="Piles and discards">
      <h4>Piles</h4>
      <Pile name="Tools" draw={tools.draw}>
        <ToolCounts counts={tools.discard} />
      </Pile>
      <Pile name="Loot" draw={loot.draw}>
        <Discard cards={loot.discard} what="loot cards" show={(l, i) => <LootFace key={i} loot={l} small />} />
      </Pile>
      <Pile name="Fences" draw={fences.draw}>
        <Discard cards={fences.discard} what="fences" show={(f) => <FenceFace key={f.id} fence={f} small />} />
      </Pile>
    </section>
  );
}
