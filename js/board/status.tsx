/**
 * The status line: the round, the phase, the start player, and who is to move.
 * "Your turn" only when the seat shown is the one to move; otherwise the
 * player to move is named (the open board, a hot seat waiting for the next
 * person, a bot thinking).
 */
import type { JSX } from "preact";
import { Token } from "../icons";
import { playerName } from "../format";
import type { View, WidgetState } from "../types";

export type Turn =
  | { kind: "over" }
  | { kind: "round-over" }
  | { kind: "step-done" }
  | { kind: "waiting"; name: string }
  | { kind: "thinking"; name: string; bot: string }
  | { kind: "yours"; name: string }
  | { kind: "theirs"; name: string; act: boolean };

/** Who is to move, as this board may say it (`act`: this screen decides for them). */
export function turnOf(state: WidgetState, view: View, privacy: number | null, canAct: boolean): Turn {
  if (view.is_over) return { kind: "over" };
  if (view.to_move === null) return { kind: "round-over" }; // a puzzle's end
  if (state.setup?.step_done) return { kind: "step-done" }; // a lesson's board holds
  const name = playerName(view, view.to_move);
  if (privacy !== null) return { kind: "waiting", name: playerName(view, privacy) };
  const bot = state.scrubber ? undefined : state.bots[String(view.to_move)]; // a replay's bots rest
  if (bot) return { kind: "thinking", name, bot };
  if (canAct && view.seat !== null && view.seat === view.to_move) return { kind: "yours", name };
  return { kind: "theirs", name, act: canAct };
}

function TurnText(props: { turn: Turn }): JSX.Element {
  const t = props.turn;
  switch (t.kind) {
    case "over":
      return <span class="lf-turn">Game over</span>;
    case "round-over":
      return <span class="lf-turn">Round over</span>;
    case "step-done":
      return <span class="lf-turn">Step done</span>;
    case "waiting":
      return <span class="lf-turn">Waiting for {t.name}</span>;
    case "thinking":
      return (
        <span class="lf-turn lf-thinking" data-testid="thinking">
          {t.name} ({t.bot}) is thinking
          <span class="lf-dots" aria-hidden="true">
            <i>.</i>
            <i>.</i>
            <i>.</i>
          </span>
        </span>
      );
    case "yours":
      return <span class="lf-turn lf-your-turn">Your turn</span>;
    case "theirs":
      // The open board decides for everyone: it names whose turn it is, never "yours".
      return <span class={`lf-turn ${t.act ? "lf-your-turn" : ""}`}>{t.act ? `${t.name}'s turn` : `${t.name} to move`}</span>;
  }
}

export function Status(props: { view: View; turn: Turn }): JSX.Element {
  const { view } = props;
  const start = view.players[view.start_player];
  return (
    <div class="lf-status" aria-live="polite">
      <span class="lf-round" data-testid="round">
        Round {view.round}
      </span>
      <span class="lf-phase">{view.phase === "place" ? "placing tokens" : view.phase === "act" ? "actions" : "over"}</span>
      {start ? (
        <span class="lf-start" data-tip="The start player places the first token this round (R2.1)">
          start: <Token scoundrel={start.scoundrel} size={16} /> {start.name}
        </span>
      ) : null}
      <TurnText turn={props.turn} />
    </div>
  );
}
