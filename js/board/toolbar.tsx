/** The toolbar of every game's board: Hint, Undo, New game, the pace, the settings and the legend. */
import type { JSX } from "preact";
import type { WidgetState } from "../types";
import { PaceSelect } from "./options";

export type Panel = "none" | "new-game" | "options" | "legend";

/** A toolbar button that opens (or closes) a panel over the board. */
function PanelButton(props: { panel: Panel; open: Panel; label: string; face: string; onOpen: (p: Panel) => void }): JSX.Element {
  return (
    <button
      type="button"
      class="lf-btn lf-icon-btn"
      data-testid={props.panel}
      aria-label={props.label}
      aria-expanded={props.open === props.panel}
      onClick={() => props.onOpen(props.panel)}
    >
      {props.face}
    </button>
  );
}

export function Toolbar(props: {
  state: WidgetState;
  /** This screen decides now: Hint asks the search for its move. */
  canHint: boolean;
  /** The New game button (false where the game is not this board's to replace: a table online). */
  allowNewGame: boolean;
  panel: Panel;
  setPanel: (p: Panel) => void;
  newGameButton?: { current: HTMLButtonElement | null };
  onHint: () => void;
  onUndo: () => void;
  onPace?: (pace: number) => void;
  /** The settings panel (⚙) is offered only by a board that has settings. */
  settings?: boolean;
  /** What the legend explains, for its button's accessible name. */
  legendLabel?: string;
}): JSX.Element {
  const { state } = props;
  const open = (p: Panel): void => props.setPanel(props.panel === p ? "none" : p);
  const bots = Object.keys(state.bots).length > 0;
  return (
    // A replay is read-only: its own panel below the board moves it.
    <div class="lf-toolbar" hidden={!!state.scrubber}>
      {/* A puzzle gives its own hints and restarts with "Try again" (the puzzle panel). */}
      {state.puzzle ? null : (
        <button
          type="button"
          class="lf-btn"
          data-testid="hint"
          disabled={!props.canHint}
          title="Ask a search bot for a move (it sees only what you see)"
          onClick={props.onHint}
        >
          Hint
        </button>
      )}
      <button
        type="button"
        class="lf-btn"
        data-testid="undo"
        disabled={state.undo_status?.allowed === false}
        title={state.undo_status?.allowed === false ? state.undo_status.reason : "Take back your last move"}
        onClick={props.onUndo}
      >
        Undo
      </button>
      {state.puzzle || !props.allowNewGame ? null : (
        <button
          type="button"
          class="lf-btn"
          data-testid="new-game"
          ref={props.newGameButton}
          aria-expanded={props.panel === "new-game"}
          onClick={() => open("new-game")}
        >
          New game
        </button>
      )}
      {bots && props.onPace ? <PaceSelect pace={state.pace} onPace={props.onPace} /> : null}
      {props.settings === false ? null : <PanelButton panel="options" open={props.panel} label="Settings" face="⚙" onOpen={open} />}
      <PanelButton panel="legend" open={props.panel} label={props.legendLabel ?? "Legend: what the icons mean"} face="?" onOpen={open} />
    </div>
  );
}
