/** The log of what happened, newest first, in sentences; and what happened since your last move. */
import type { JSX } from "preact";
import { Token } from "../icons";
import { eventSentence } from "../format";
import type { Recap } from "../playback";
import { useUi } from "./ui";

export function Log(): JSX.Element {
  const { view, state, privacy } = useUi();
  if (privacy !== null) {
    // The log is the previous player's (their own draws, their loot fronts): covered too.
    return (
      <section class="lf-log" aria-label="Log">
        <h4>Log</h4>
        <p class="lf-empty" data-testid="log-hidden">
          Hidden until {view.players[privacy]?.name ?? "the next player"} takes the board.
        </p>
      </section>
    );
  }
  const events = state.events.map((ev, i) => ({ ev, i })).reverse();
  return (
    <section class="lf-log" aria-label="Log">
      <h4>Log</h4>
      <ol data-testid="log" reversed>
        {events.map(({ ev, i }) => {
          const p = typeof ev.seat === "number" ? view.players[ev.seat] : undefined;
          return (
            <li key={i} class={`lf-ev lf-ev-${ev.type}`}>
              <span class="lf-ev-mark">{p ? <Token scoundrel={p.scoundrel} size={11} /> : null}</span>
              {eventSentence(view, ev)}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** What the others did since the shown seat's last move, oldest first (playback.ts). */
export function SinceLastMove(props: { recap: Recap[] }): JSX.Element {
  const { view } = useUi();
  return (
    <section class="lf-since" aria-label="Since your last move" data-testid="since-last-move">
      <h4>Since your last move</h4>
      <ol>
        {props.recap.map((r, i) => {
          const p = r.seat === undefined ? undefined : view.players[r.seat];
          return (
            <li key={i} class={r.round ? "lf-since-round" : ""}>
              <span class="lf-ev-mark">{p ? <Token scoundrel={p.scoundrel} size={12} /> : null}</span>
              {r.text}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
