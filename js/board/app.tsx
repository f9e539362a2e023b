/**
 * The whole widget: reads the traits, keeps the picks of the decision in
 * progress, and sends intents. No rule is decided here: what may be clicked
 * comes from `legal`, what is sent is one of the `legal` actions (or a
 * question: `why`).
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { CrooksBoard } from "../crooks/board";
import { isCrooksView } from "../crooks/model";
import { GoodsBoard } from "../goods/board";
import { isGoodsView } from "../goods/model";
import { actionTargets, canPass, handCards as toHandCards, isLegal } from "../intents";
import { setupOrDefault } from "../newgame";
import type { NewGameIntent } from "../newgame";
import { useCustomMessages, useWidgetState } from "../model";
import { sinceLastMove, stepMs } from "../playback";
import { prefersReducedMotion, usePrefs } from "../prefs";
import type { Action, AnyModel, InMessage, OutMessage, Rate, View, WidgetState } from "../types";
import { currentAction, onlyCompletion } from "./compose";
import { Composer } from "./composer";
import { GameOver } from "./gameover";
import type { EndActions } from "./gameover";
import { MyArea, PrivacyScreen } from "./hand";
import { LegendPanel } from "./legend";
import { Log, SinceLastMove } from "./log";
import { MessageBar, stripMessages } from "./messages";
import type { Why } from "./messages";
import { Flights, selfSkipper, usePlayback } from "./motion";
import { NewGamePanel } from "./newgame";
import { OnlineBar } from "./online";
import { OptionsPanel } from "./options";
import { Places } from "./places";
import { PuzzlePanel } from "./puzzle";
import { ReplayPanel } from "./scrubber";
import { MoneyTrack, Piles, Players } from "./players";
import { Status, turnOf } from "./status";
import { Toolbar } from "./toolbar";
import type { Panel } from "./toolbar";
import { TapTip, useTapTips } from "./tips";
import { EMPTY_SELECTION, UiContext, usePositionId } from "./ui";
import type { Controls, Selection, Ui } from "./ui";

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

/** What the board may ask the page around it for. */
export interface Host {
  send: (m: OutMessage) => void;
  /** Write the `pace` trait (the only one the board may write; the kernel checks it). */
  setPace?: (pace: number) => void;
}


export function Board(props: { state: WidgetState; view: View; host: Host; inbox: InMessage | null }): JSX.Element {
  const { state, view, host } = props;
  const send = host.send;
  const privacy = privacyFor(state);
  const legal = privacy === null ? state.legal : [];
  const mySeat = view.seat ?? view.to_move;
  const handCards = useMemo(() => toHandCards(mySeat === null ? null : (view.players[mySeat]?.hand ?? null)), [view, mySeat]);
  const key = usePositionId([view, state.legal, state.seat, state.move_number, state.version, privacy]);
  const [prefs, setPrefs] = usePrefs();

  const [selState, setSelState] = useState<{ key: number; sel: Selection }>({ key, sel: EMPTY_SELECTION });
  const sel = selState.key === key ? selState.sel : EMPTY_SELECTION;
  const [pendingKey, setPendingKey] = useState<number | null>(null);
  const pending = pendingKey === key;
  const [why, setWhy] = useState<Why | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const [resultError, setResultError] = useState("");
  const [hintError, setHintError] = useState("");
  const [replay, setReplay] = useState({ pending: false });
  const [panel, setPanel] = useState<Panel>("none");
  const [newGame, setNewGame] = useState({ pending: false, refusal: "" });
  const newGameButton = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement | null>(null);
  const closeNewGame = (): void => {
    setPanel("none");
    setNewGame({ pending: false, refusal: "" });
    newGameButton.current?.focus(); // back where the keyboard user opened it
  };
  const setup = setupOrDefault(state, view);
  const playback = usePlayback(state, view);
  const [tip, onTap] = useTapTips(() => rootRef.current);

  // Answers from Python arrive as custom messages.
  useEffect(() => {
    const msg = props.inbox;
    if (!msg) return;
    if (msg.kind === "result" && newGame.pending) {
      if (msg.ok === false) setNewGame({ pending: false, refusal: typeof msg.error === "string" ? msg.error : "refused" });
      else closeNewGame();
    } else if (msg.kind === "result") {
      setPendingKey(null);
      setReplay({ pending: false });
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

  const act = (action: Action): void => {
    if (!isLegal(legal, action) || pending) return;
    setWhy(null);
    // The kernel takes a move only with the position it was chosen in (the move number and the
    // version, which an undo changes), so that a click on a board that moved on is refused.
    const move = state.move_number;
    const version = state.version;
    if (move === null || typeof version !== "number") {
      setResultError("The board is not in step with the kernel yet; wait a moment and try again.");
      setDismissed(null);
      return;
    }
    setPendingKey(key);
    playback.skip(); // the person moves on: the others' earlier moves need no more showing
    playback.dismissBanner();
    send({ kind: "act", action, move, version });
  };

  // A pick that leaves one way to complete the move sends it (unless asked to confirm).
  const pick = (next: Selection): void => {
    setSelState({ key, sel: next });
    if (prefs.confirmMoves) return;
    const only = onlyCompletion(view, legal, next, handCards);
    if (only) act(only);
  };

  const ctl: Controls = {
    clickPlace: (place) => act({ type: "place", place }),
    clickCityTool: (i) => pick({ ...sel, city: toggle(sel.city, i) }),
    clickSlot: (_place, slot) => pick({ ...sel, slot: sel.slot === slot ? null : slot, scoundrel: null }),
    toggleScoundrel: () => {
      const cur = currentAction(view, legal, sel, handCards);
      setSelState({ key, sel: { ...sel, scoundrel: !(cur?.type === "steal" && cur.scoundrel) } });
    },
    clickRate: (rate: Rate) => pick({ ...sel, rate: sel.rate === rate ? null : rate, give: [] }),
    clickHandCard: (i) => pick({ ...sel, give: toggle(sel.give, i) }),
    clickFence: (id) => pick({ ...sel, fence: sel.fence === id ? null : id, loot: [] }),
    clickOwnLoot: (id) => pick({ ...sel, loot: toggle(sel.loot, id) }),
    confirm: () => {
      const a = currentAction(view, legal, sel, handCards);
      if (a) act(a);
    },
    cancel: () => setSelState({ key, sel: EMPTY_SELECTION }),
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
  const motion = prefs.motion && !prefersReducedMotion();
  const step = playback.step;
  const ui: Ui = {
    state,
    view,
    legal,
    mySeat,
    handCards,
    sel,
    ctl,
    hint: legal.length > 0 ? actionTargets(hintAction, view.decision?.place ?? null) : {},
    flash: { ...(step?.flash ?? {}), key: playback.key },
    pending,
    privacy,
    prefs,
  };
  const turn = turnOf(state, view, privacy, legal.length > 0);

  const errorText = state.error || resultError;
  const messages = stripMessages({
    view,
    legal,
    turn,
    privacy,
    playback,
    error: errorText && dismissed !== errorText && !(panel === "new-game" && errorText === newGame.refusal) ? errorText : "",
    onDismissError: () => setDismissed(errorText),
    why,
    onCloseWhy: () => setWhy(null),
    hintError,
    onCloseHintError: () => setHintError(""),
    hint: hintAction && legal.length > 0 ? { action: hintAction, value: state.hint.value } : null,
    stepDone: setup.step_done,
  });
  const skipSelf = selfSkipper(state);
  // A replay moves through the record itself; a hot seat's next person sees it once revealed.
  const recap = privacy === null && !state.scrubber ? sinceLastMove(view, state.events, skipSelf) : [];
  const end: EndActions = {
    pending: replay.pending,
    analyseSeat: state.seat ?? state.human_seats[0] ?? null,
    replay: (analyse) => {
      setReplay({ pending: true });
      send({ kind: "replay", analyse });
    },
  };
  const boardState = view.is_over ? "over" : privacy !== null ? "privacy" : legal.length > 0 ? "mine" : "waiting";

  return (
    <UiContext.Provider value={ui}>
      <div
        class="lf-board-root"
        ref={rootRef}
        data-state={boardState}
        data-pending={pending ? "true" : "false"}
        onClick={(e) => onTap(e as unknown as MouseEvent)}
      >
        {state.scrubber?.can_leave ? (
          <div class="lf-replay-host-bar">
            <b>Replay of this game</b>
            <button type="button" class="lf-btn" data-testid="replay-leave" onClick={() => send({ kind: "replay_leave" })}>
              Back to the end screen
            </button>
          </div>
        ) : null}
        <div class="lf-top">
          <h2 class="lf-title">Langfinger</h2>
          <Status view={view} turn={turn} />
          <Toolbar
            state={state}
            canHint={ui.legal.length > 0}
            allowNewGame={setup.allow_new_game}
            panel={panel}
            setPanel={(p) => (p === "none" && panel === "new-game" ? closeNewGame() : setPanel(p))}
            newGameButton={newGameButton}
            onHint={() => {
              setHintError("");
              send({ kind: "hint" });
            }}
            onUndo={() => {
              setSelState({ key, sel: EMPTY_SELECTION }); // even if refused: a take-back starts afresh
              send({ kind: "undo" });
            }}
            onPace={setup.allow_new_game ? host.setPace : undefined} // a table whose game is not ours (online, a puzzle) has its own pace
          />
        </div>
        {panel === "options" ? <OptionsPanel prefs={prefs} onPrefs={setPrefs} onClose={() => setPanel("none")} /> : null}
        {panel === "legend" ? <LegendPanel onClose={() => setPanel("none")} /> : null}
        {state.online ? <OnlineBar online={state.online} send={send} inbox={props.inbox} /> : null}
        <MessageBar messages={messages} />
        {state.puzzle ? <PuzzlePanel puzzle={state.puzzle} send={send} /> : null}
        {panel === "new-game" && !state.puzzle && setup.allow_new_game ? (
          <NewGamePanel
            setup={setup}
            refusal={newGame.refusal}
            pending={newGame.pending}
            onStart={(intent: NewGameIntent) => {
              setNewGame({ pending: true, refusal: "" });
              send(intent);
            }}
            onClose={closeNewGame}
          />
        ) : null}
        {/* A puzzle ends with its round: its panel gives the verdict, not a game's standings. */}
        {view.is_over && !state.puzzle ? <GameOver end={end} /> : null}
        <div class="lf-main">
          <div class="lf-board">
            <Players />
            <Places />
            <MoneyTrack />
            <div class={`lf-act ${view.is_over ? "lf-act-over" : ""}`}>
              <Composer />
              {privacy !== null ? <PrivacyScreen seat={privacy} onReveal={() => send({ kind: "reveal", seat: privacy })} /> : <MyArea />}
            </div>
            {/* Under the board, before the log: board, scrubber and charts share one screen. */}
            {state.scrubber ? <ReplayPanel scrubber={state.scrubber} timeline={state.timeline ?? null} send={send} inbox={props.inbox} /> : null}
          </div>
          <aside class="lf-side">
            {recap.length > 0 && !view.is_over ? <SinceLastMove recap={recap} /> : null}
            <Log />
            <Piles />
          </aside>
        </div>
        <Flights root={rootRef.current} step={step} stepKey={playback.key} view={view} ms={stepMs(state.pace, 0)} enabled={motion} />
        <TapTip tip={tip} />
      </div>
    </UiContext.Provider>
  );
}

export function App(props: { model: AnyModel }): JSX.Element {
  const state = useWidgetState(props.model);
  const [inbox, setInbox] = useState<InMessage | null>(null);
  const { model } = props;
  // A fresh object per message, so that two equal answers in a row both count.
  const onMessage = useCallback((m: InMessage) => setInbox({ ...m }), []);
  useCustomMessages(model, onMessage);
  const host: Host = useMemo(
    () => ({
      send: (m: OutMessage) => model.send(m),
      setPace: model.set
        ? (pace: number) => {
            model.set?.("pace", pace);
            model.save_changes?.();
          }
        : undefined,
    }),
    [model],
  );
  return (
    <div class="lf-root" data-testid="langfinger" data-move={state.move_number ?? undefined}>
      {isCrooksView(state.view) ? (
        // Each game brings its own board, chosen by the view's format.
        <CrooksBoard state={state} view={state.view} host={host} inbox={inbox} />
      ) : isGoodsView(state.view) ? (
        <GoodsBoard state={state} view={state.view} host={host} inbox={inbox} />
      ) : state.view ? (
        <Board state={state} view={state.view} host={host} inbox={inbox} />
      ) : state.error ? (
        // No game to show yet, and a reason (an online table that cannot be reached, a revoked link).
        <p class="lf-waiting lf-waiting-error" role="alert" data-testid="error">
          {state.error}
        </p>
      ) : (
        <p class="lf-waiting">Waiting for the game…</p>
      )}
    </div>
  );
}
