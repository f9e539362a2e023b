/**
 * The board's own New game panel: how many players, whose board this is (or
 * the open board), who plays each seat (a person or a bot of a chosen level),
 * the open-information variant (R11.2) and an optional seed. "Start" sends the
 * `new_game` intent; the kernel checks it again and answers with a `result`,
 * which the board passes back here: the panel closes on success and shows the
 * refusal otherwise. Every control is a labelled native form control, so it
 * works by keyboard; Escape closes the panel.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import {
  HUMAN,
  LANGFINGER,
  initialChoices,
  levelNote,
  newGameIntent,
  playerOptions,
  playerRange,
  playerWords,
  seatNameIn,
  withGame,
  withPlayer,
  withPlayers,
  withSeat,
} from "../newgame";
import type { NewGameChoices, NewGameIntent } from "../newgame";
import type { Setup } from "../types";

const OPEN_BOARD = "open";

// Element ids are page-wide, and a notebook page may show several boards (each its own
// Preact root, where useId could repeat): a counter across them all keeps ids unique.
let notes = 0;
function newNoteId(): string {
  notes += 1;
  return `lf-ng-note-${notes}`;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function SeatPlayer(props: { setup: Setup; choices: NewGameChoices; seat: number; onChange: (c: NewGameChoices) => void }): JSX.Element {
  const { setup, choices, seat } = props;
  const name = seatNameIn(choices.game, seat);
  const [noteId] = useState(newNoteId);
  if (seat === choices.seat) {
    return (
      <div class="lf-field lf-ng-seat" data-seat={seat}>
        <span class="lf-ng-label">{name}</span>
        <span class="lf-ng-you" data-testid={`ng-player-${seat}`}>
          You
        </span>
      </div>
    );
  }
  const current = choices.seats[seat] ?? HUMAN;
  const note = levelNote(setup, current);
  return (
    <div class="lf-field lf-ng-seat" data-seat={seat}>
      <label class="lf-field">
        <span class="lf-ng-label">{name}</span>
        <select
          data-testid={`ng-player-${seat}`}
          value={current}
          aria-describedby={note ? noteId : undefined}
          onChange={(e) => props.onChange(withPlayer(choices, seat, e.currentTarget.value))}
        >
          {playerOptions(setup, current).map((p) => (
            <option key={p} value={p}>
              {playerWords(p)}
            </option>
          ))}
        </select>
      </label>
      {note ? (
        <small class="lf-ng-note" id={noteId}>
          {note}
        </small>
      ) : null}
    </div>
  );
}

export function NewGamePanel(props: {
  setup: Setup;
  /** The kernel's refusal of the last Start, if any. */
  refusal: string;
  pending: boolean;
  onStart: (intent: NewGameIntent) => void;
  onClose: () => void;
}): JSX.Element {
  const { setup } = props;
  const [choices, setChoices] = useState(() => initialChoices(setup));
  const [problem, setProblem] = useState("");
  const first = useRef<HTMLSelectElement>(null);
  // Keyboard users land on the first choice (in the same commit, before the next key arrives).
  useLayoutEffect(() => first.current?.focus(), []);

  const start = (e: Event): void => {
    e.preventDefault();
    const made = newGameIntent(choices, !!setup.games);
    if ("error" in made) {
      setProblem(made.error);
      return;
    }
    setProblem("");
    props.onStart(made.intent);
  };
  const online = (): void => {
    // Play online: the same choices at a new table on a game server; this seat is yours and
    // every other person's seat gets an invite. The server deals from a secret seed.
    const made = newGameIntent(choices, !!setup.games);
    if ("error" in made) {
      setProblem(made.error);
      return;
    }
    if (choices.seat === null) {
      setProblem("An online table is played from one seat: choose yours, not the open board.");
      return;
    }
    setProblem("");
    props.onStart({ ...made.intent, seed: null, online: true });
  };
  const error = problem || props.refusal;
  const [fewest, most] = playerRange(setup, choices.game);
  const games = setup.games ?? [];
  const langfinger = choices.game === LANGFINGER;
  return (
    <section
      class="lf-newgame"
      data-testid="new-game-panel"
      aria-label="New game"
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onClose();
      }}
    >
      <h3 class="lf-ng-title">New game</h3>
      <form class="lf-ng-form" onSubmit={start}>
        <div class="lf-ng-row">
          {games.length > 1 ? (
            <label class="lf-field">
              <span class="lf-ng-label">Game</span>
              <select data-testid="ng-game" value={choices.game} onChange={(e) => setChoices(withGame(setup, choices, e.currentTarget.value))}>
                {games.map((g) => (
                  <option key={g.name} value={g.name}>
                    {g.title}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <label class="lf-field">
            <span class="lf-ng-label">Players</span>
            <select
              ref={first}
              data-testid="ng-players"
              value={String(choices.players)}
              onChange={(e) => setChoices(withPlayers(choices, Number(e.currentTarget.value)))}
            >
              {range(fewest, most).map((n) => (
                <option key={n} value={String(n)}>
                  {n}
                </option>
              ))}
            </select>
          </label>
          <label class="lf-field">
            <span class="lf-ng-label">Your board</span>
            <select
              data-testid="ng-seat"
              value={choices.seat === null ? OPEN_BOARD : String(choices.seat)}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setChoices(withSeat(choices, v === OPEN_BOARD ? null : Number(v)));
              }}
            >
              {range(0, choices.players - 1).map((k) => (
                <option key={k} value={String(k)}>
                  {seatNameIn(choices.game, k)}
                </option>
              ))}
              <option value={OPEN_BOARD}>Open board: every hand shown</option>
            </select>
          </label>
        </div>
        <fieldset class="lf-ng-seats">
          <legend>Who plays each seat</legend>
          {range(0, choices.players - 1).map((k) => (
            <SeatPlayer key={k} setup={setup} choices={choices} seat={k} onChange={setChoices} />
          ))}
        </fieldset>
        <div class="lf-ng-row">
          {langfinger ? (
          <label class="lf-check">
            <input
              type="checkbox"
              data-testid="ng-open-info"
              checked={choices.variant === "open_info"}
              onChange={(e) => setChoices({ ...choices, variant: e.currentTarget.checked ? "open_info" : "standard" })}
            />
            <span>Open information (R11.2): what all have seen face up stays public</span>
          </label>
          ) : null}
          <label class="lf-field">
            <span class="lf-ng-label">Seed (optional)</span>
            <input
              type="text"
              inputMode="numeric"
              data-testid="ng-seed"
              placeholder="random"
              value={choices.seed}
              onInput={(e) => setChoices({ ...choices, seed: e.currentTarget.value })}
            />
          </label>
        </div>
        {error ? (
          <p class="lf-ng-error" role="alert" data-testid="ng-error">
            {error}
          </p>
        ) : null}
        <div class="lf-ng-buttons">
          <button type="submit" class="lf-btn lf-primary" data-testid="ng-start" disabled={props.pending}>
            {props.pending ? "Dealing…" : "Start the new game"}
          </button>
          {setup.allow_online && langfinger ? (
            <button type="button" class="lf-btn" data-testid="ng-online" disabled={props.pending} onClick={online} title="A new table on a game server: the other people join by their invite links">
              Play online
            </button>
          ) : null}
          <button type="button" class="lf-btn" data-testid="ng-cancel" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
