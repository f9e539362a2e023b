/** The log of what happened, newest first, in sentences. */
import type { JSX } from "preact";
import { Token } from "../icons";
import { eventSentence } from "../format";
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
