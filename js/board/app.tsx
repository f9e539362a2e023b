/**
 * The whole widget: reads the traits, keeps the picks of the decision in
 * progress, and sends intents. No rule is decided here: what may be clicked
 * comes from `legal`, what is sent is one of the `legal` actions (or a
 * question: `why`).
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { Token } from "../icons";
import { actionTargets, canPass, handCards as toHandCards, isLegal } from "../intents";
import type { Targets } from "../intents";
import { actionWords, playerName } from "../format";
import { setupOrDefault } from "../newgame";
import type { NewGameIntent } from "../newgame";
import { useCustomMessages, useWidgetState } from "../model";
import type { Action, AnyModel, InMessage, OutMessage, Place, Rate, View, WidgetState } from "../types";
import { currentAction } from "./compose";
import { Composer } from "./composer";
import { GameOver } from "./gameover";
import { MyArea, PrivacyScreen } from "./hand";
import { Log } from "./log";
import { Places } from "./places";
import { PuzzlePanel } from "./puzzle";
import { NewGamePanel } from "./newgame";
import { ReplayPanel } from "./scrubber";
import { MoneyTrack, Piles, Players } from "./players";
import { EMPTY_SELECTION, UiContext } from "./ui";
import type { Controls, Selection, Ui } from "./ui";

/** How long a bot's (or anyone's) last move stays highlighted. */
const FLASH_MS = 1600;

/**
 * A number that changes whenever the position shown changes for any reason: a move, Undo,
 * a new game, a bot, another seat. Picks and pending moves belong to one such number, so
 * coming back to a position that looks the same (Undo, then the same move again) never
 * brings back picks made before. The kernel sends a trait only when its value changed,
 * so a new `view` or `legal` object means a new position.
 */
export function usePositionId(parts: readonly unknown[]): number {
  const last = useRef<{ parts: readonly unknown[]; id: number }>({ parts, id: 0 });
  if (parts.length !== last.current.parts.length || parts.some((p, i) => p !== last.current.parts[i])) {
    last.current = { parts, id: last.current.id + 1 };
  }
  return last.current.id;
}

function toggle<T>(list: readonly T[], item: T): T[] {
  return list.includes(item) ? list.filter((x) => x !== item) : [...list, item];
}

/** The human seat that must confirm being at the screen first (hot-seat), or null. */
export function privacyFor(state: WidgetState): number | null {
  const v = state.view;
  if (!v || v.is_over || v.to_move === null || state.seat === null) return null;
  if (state.human_seats.length < 2) return null;
  return state.human_seats.includes(v.to_move) && v.to_move !== state.seat ? v.to_move : null;
}

function lastMovePlace(state: WidgetState): Place | null {
  if (state.highlight.place) return state.highlight.place;
  const seat = state.highlight.seat;
  for (let i = state.events.length - 1; i >= 0; i--) {
    const ev = state.events[i];
    if (ev && ev.seat === seat && ev.place) return ev.place;
  }
  return null;
}

function Banner(props: { kind: "error" | "info"; text: string; testid: string; onClose: () => void }): JSX.Element {
  return (
    <div class={`lf-banner lf-banner-${props.kind}`} role={props.kind === "error" ? "alert" : "status"} data-testid={props.testid}>
      <span>{props.text}</span>
      <button type="button" class="lf-close" aria-label="Dismiss" onClick={props.onClose}>
        ×
      </button>
    </div>
  );
}

function Status(props: { ui: Ui; privacy: number | null }): JSX.Element {
  const { view, state } = props.ui;
  const start = view.players[view.start_player];
  const bot = view.to_move === null ? undefined : state.bots[String(view.to_move)];
  const mine = props.ui.legal.length > 0;
  let turn: JSX.Element | null = null;
  if (view.is_over) turn = <span class="lf-turn">Game over</span>;
  else if (props.privacy !== null)
    turn = <span class="lf-turn">Waiting for {playerName(view, props.privacy)}</span>;
  else if (bot)
    turn = (
      <span class="lf-turn lf-thinking" data-testid="thinking">
        {playerName(view, view.to_move)} ({bot}) is thinking
        <span class="lf-dots" aria-hidden="true">
          <i>.</i>
          <i>.</i>
          <i>.</i>
        </span>
      </span>
    );
  else if (mine) turn = <span class="lf-turn lf-your-turn">Your turn</span>;
  else turn = <span class="lf-turn">{playerName(view, view.to_move)} to move</span>;
  return (
    <div class="lf-status" aria-live="polite">
      <span class="lf-round" data-testid="round">
        Round {view.round}
      </span>
      <span class="lf-phase">{view.phase === "place" ? "placing tokens" : view.phase === "act" ? "actions" : "over"}</span>
      {start ? (
        <span class="lf-start" title="start player">
          start: <Token scoundrel={start.scoundrel} size={14} /> {start.name}
        </span>
      ) : null}
      {turn}
    </div>
  );
}

export function Board(props: { state: WidgetState; view: View; send: (m: OutMessage) => void; inbox: InMessage | null }): JSX.Element {
  const { state, view, send } = props;
  const privacy = privacyFor(state);
  const legal = privacy === null ? state.legal : [];
  const mySeat = view.seat ?? view.to_move;
  const handCards = useMemo(
    () => toHandCards(mySeat === null ? null : (view.players[mySeat]?.hand ?? null)),
    [view, mySeat],
  );
  const key = usePositionId([view, state.legal, state.seat, state.move_number, state.version, privacy]);

  const [selState, setSelState] = useState<{ key: number; sel: Selection }>({ key, sel: EMPTY_SELECTION });
  const sel = selState.key === key ? selState.sel : EMPTY_SELECTION;
  const setSel = (next: Selection): void => setSelState({ key, sel: next });

  const [pendingKey, setPendingKey] = useState<number | null>(null);
  const pending = pendingKey === key;
  const [why, setWhy] = useState<{ action: Action; reason: string | null | undefined } | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [resultError, setResultError] = useState("");
  const [hintError, setHintError] = useState("");
  // The New game panel: open or not, waiting for the kernel's answer, and its refusal.
  const [newGame, setNewGame] = useState({ open: false, pending: false, refusal: "" });
  const newGameButton = useRef<HTMLButtonElement>(null);
  const closeNewGame = (): void => {
    setNewGame({ open: false, pending: false, refusal: "" });
    newGameButton.current?.focus(); // back where the keyboard user opened it
  };
  const setup = setupOrDefault(state, view);

  // Answers from Python arrive as custom messages.
  useEffect(() => {
    const msg = props.inbox;
    if (!msg) return;
    if (msg.kind === "result" && newGame.pending) {
      if (msg.ok === false) setNewGame({ open: true, pending: false, refusal: typeof msg.error === "string" ? msg.error : "refused" });
      else closeNewGame();
    } else if (msg.kind === "result") {
      setPendingKey(null);
      if (msg.ok === false) {
        setResultError(typeof msg.error === "string" ? msg.error : "That move was refused.");
        setDismissed(null);
      } else setResultError("");
    } else if (msg.kind === "why") {
      setWhy({ action: msg.action as Action, reason: (msg.reason as string | null) ?? null });
    } else if (msg.kind === "hint" && typeof msg.error === "string" && msg.error) {
      setHintError(msg.error);
    }
  }, [props.inbox]);

  // The last move glows briefly, so that people can follow the bots.
  const hl = JSON.stringify(state.highlight);
  const [flash, setFlash] = useState<Targets & { seat?: number; square?: number | null; key: number }>({ key: 0 });
  const flashes = useRef(0);
  useEffect(() => {
    if (!state.highlight.action) return;
    flashes.current += 1;
    setFlash({
      ...actionTargets(state.highlight.action, lastMovePlace(state)),
      seat: state.highlight.seat,
      square: state.highlight.square,
      key: flashes.current,
    });
    const t = setTimeout(() => setFlash({ key: flashes.current }), FLASH_MS);
    return () => clearTimeout(t);
  }, [hl]);

  const act = (action: Action): void => {
    if (!isLegal(legal, action) || pending) return;
    setWhy(null);
    setPendingKey(key);
    // Quoting the move number lets the kernel refuse an intent made on a board that moved on.
    const msg: OutMessage = { kind: "act", action };
    if (state.move_number !== null) msg.move = state.move_number;
    if (typeof state.version === "number") msg.version = state.version;
    send(msg);
  };

  const ctl: Controls = {
    clickPlace: (place) => act({ type: "place", place }),
    clickCityTool: (i) => setSel({ ...sel, city: toggle(sel.city, i) }),
    clickSlot: (_place, slot) => setSel({ ...sel, slot: sel.slot === slot ? null : slot, scoundrel: null }),
    toggleScoundrel: () => {
      const cur = currentAction(view, legal, sel, handCards);
      setSel({ ...sel, scoundrel: !(cur?.type === "steal" && cur.scoundrel) });
    },
    clickRate: (rate: Rate) => setSel({ ...sel, rate: sel.rate === rate ? null : rate, give: [] }),
    clickHandCard: (i) => setSel({ ...sel, give: toggle(sel.give, i) }),
    clickFence: (id) => setSel({ ...sel, fence: sel.fence === id ? null : id, loot: [] }),
    clickOwnLoot: (id) => setSel({ ...sel, loot: toggle(sel.loot, id) }),
    confirm: () => {
      const a = currentAction(view, legal, sel, handCards);
      if (a) act(a);
    },
    cancel: () => setSel(EMPTY_SELECTION),
    pass: () => {
      if (canPass(legal)) act({ type: "pass" });
    },
    why: (action) => {
      setWhy({ action, reason: undefined });
      send({ kind: "why", action });
    },
  };

  // A hint belongs to the move it was asked at.
  const hintFresh = state.hint.move === undefined || state.move_number === null || state.hint.move === state.move_number;
  const hintAction = hintFresh ? (state.hint.action ?? undefined) : undefined;
  const ui: Ui = {
    state,
    view,
    legal,
    mySeat,
    handCards,
    sel,
    ctl,
    hint: legal.length > 0 ? actionTargets(hintAction, view.decision?.place ?? null) : {},
    flash,
    pending,
    privacy,
  };

  const errorText = state.error || resultError;
  const whyText =
    why === null
      ? ""
      : why.reason === undefined
        ? `Asking why you cannot ${actionWords(view, why.action)}…`
        : why.reason === null
          ? `You can ${actionWords(view, why.action)}: it is legal.`
          : `Why not ${actionWords(view, why.action)}? ${why.reason}`;

  return (
    <UiContext.Provider value={ui}>
      <div class="lf-top">
        <h2 class="lf-title">Langfinger</h2>
        <Status ui={ui} privacy={privacy} />
        {/* A replay is read-only: its own panel below the board moves it. */}
        <div class="lf-toolbar" hidden={!!state.scrubber}>
          {/* A puzzle gives its own hints and restarts with "Try again" (the puzzle panel). */}
          {state.puzzle ? null : (
            <button
              type="button"
              class="lf-btn"
              data-testid="hint"
              disabled={legal.length === 0}
              onClick={() => {
                setHintError("");
                send({ kind: "hint" });
              }}
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
            onClick={() => {
              setSel(EMPTY_SELECTION); // even if the kernel refuses: a take-back starts the choice afresh
              send({ kind: "undo" });
            }}
          >
            Undo
          </button>
          {state.puzzle || !setup.allow_new_game ? null : (
            <button
              type="button"
              class="lf-btn"
              data-testid="new-game"
              ref={newGameButton}
              aria-expanded={newGame.open}
              onClick={() => (newGame.open ? closeNewGame() : setNewGame({ open: true, pending: false, refusal: "" }))}
            >
              New game
            </button>
          )}
        </div>
      </div>
      {state.puzzle ? <PuzzlePanel puzzle={state.puzzle} send={send} /> : null}
      {newGame.open && !state.puzzle && setup.allow_new_game ? (
        <NewGamePanel
          setup={setup}
          refusal={newGame.refusal}
          pending={newGame.pending}
          onStart={(intent: NewGameIntent) => {
            setNewGame({ open: true, pending: true, refusal: "" });
            send(intent);
          }}
          onClose={closeNewGame}
        />
      ) : null}
      {/* A refused new game is told inside its panel, next to the choices. */}
      {errorText && dismissed !== errorText && !(newGame.open && errorText === newGame.refusal) ? (
        <Banner kind="error" text={errorText} testid="error" onClose={() => setDismissed(errorText)} />
      ) : null}
      {whyText ? <Banner kind="info" text={whyText} testid="why-reason" onClose={() => setWhy(null)} /> : null}
      {hintError ? <Banner kind="info" text={`No hint: ${hintError}`} testid="hint-error" onClose={() => setHintError("")} /> : null}
      {hintAction && legal.length > 0 ? (
        <div class="lf-banner lf-banner-hint" data-testid="hint-text" role="status">
          Hint: {actionWords(view, hintAction)}
          {typeof state.hint.value === "number" ? ` (estimated win chance ${Math.round(state.hint.value * 100)}%)` : ""}
        </div>
      ) : null}
      {view.is_over ? <GameOver /> : null}
      <div class="lf-main">
        <div class="lf-board">
          <Players />
          <Places />
          <MoneyTrack />
          <div class={`lf-act ${view.is_over ? "lf-act-over" : ""}`}>
            <Composer />
            {privacy !== null ? (
              <PrivacyScreen seat={privacy} onReveal={() => send({ kind: "reveal", seat: privacy })} />
            ) : (
              <MyArea />
            )}
          </div>
        </div>
        <aside class="lf-side">
          <Log />
          <Piles />
        </aside>
      </div>
      {state.scrubber ? <ReplayPanel scrubber={state.scrubber} timeline={state.timeline ?? null} send={send} inbox={props.inbox} /> : null}
    </UiContext.Provider>
  );
}

export function App(props: { model: AnyModel }): JSX.Element {
  const state = useWidgetState(props.model);
  const [inbox, setInbox] = useState<InMessage | null>(null);
  // A fresh object per message, so that two equal answers in a row both count.
  const onMessage = useCallback((m: InMessage) => setInbox({ ...m }), []);
  useCustomMessages(props.model, onMessage);
  const send = useCallback((m: OutMessage) => props.model.send(m), [props.model]);
  return (
    <div class="lf-root" data-testid="langfinger" data-move={state.move_number ?? undefined}>
      {state.view ? (
        <Board state={state} view={state.view} send={send} inbox={inbox} />
      ) : (
        <p class="lf-waiting">Waiting for the game…</p>
      )}
    </div>
  );
}
