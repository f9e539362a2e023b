/**
 * What every game's own board shares with the others (Crooks', Oh My Goods!'): the move sent
 * and waiting for the kernel, "why not?" for a choice `legal` does not hold, the kernel's
 * refusals and hints, and the top bar (title, status, the shared toolbar) with its panels (the
 * legend, the New game panel). A board brings its words, its pieces and which actions it
 * compares as equal; the rules stay the kernel's.
 */
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import type { NewGameIntent } from "../newgame";
import type { InMessage, OutMessage, WidgetState } from "../types";
import { NewGamePanel } from "./newgame";
import { Toolbar } from "./toolbar";
import type { Panel } from "./toolbar";
import { usePositionId } from "./ui";

export interface ShellHost {
  send: (m: OutMessage) => void;
  /** Write the `pace` trait (the kernel checks it). */
  setPace?: (pace: number) => void;
}

export interface Shell<A> {
  /** The position the board shows (a move, an undo, a new deal or another seat changes it). */
  positionKey: number;
  /** A move was sent at this position and waits for the kernel's answer. */
  pending: boolean;
  /** Send a legal action (nothing if it is not legal, or a move is pending). */
  act: (a: A) => void;
  /** Ask the kernel why this action is not legal now; the answer names the ruling. */
  askWhy: (a: A) => void;
  /** A click: the action if legal, else "why not?". */
  tryAct: (a: A) => void;
  /** The question asked and the kernel's answer (undefined while asked, null: it is legal). */
  why: { action: A; text: string | null | undefined } | null;
  closeWhy: () => void;
  /** The kernel's refusal or error to show ("" for none). */
  errorText: string;
  clearError: () => void;
  hintError: string;
  clearHintError: () => void;
  /** The hint for this very position, when it is one of the legal actions. */
  hint: { action: A; value?: number } | null;
  panel: Panel;
  setPanel: (p: Panel) => void;
  newGame: { pending: boolean; refusal: string };
  setNewGame: (n: { pending: boolean; refusal: string }) => void;
}

export function useGameShell<A>(props: {
  state: WidgetState;
  host: ShellHost;
  inbox: InMessage | null;
  legal: readonly unknown[];
  isLegal: (legal: readonly unknown[], a: A) => boolean;
  /** What makes the position shown (the view, legal, seat, move, version, the cover): when
   *  any of it is replaced, picks, a pending move and "why not?" belong to the old one. */
  position: readonly unknown[];
}): Shell<A> {
  const { state, host, legal, isLegal } = props;
  const positionKey = usePositionId(props.position);
  const [pendingKey, setPendingKey] = useState<number | null>(null);
  const [why, setWhy] = useState<{ action: A; text: string | null | undefined } | null>(null);
  const [refusal, setRefusal] = useState("");
  const [hintError, setHintError] = useState("");
  const [panel, setPanel] = useState<Panel>("none");
  const [newGame, setNewGame] = useState<{ pending: boolean; refusal: string }>({ pending: false, refusal: "" });
  const lastKey = useRef(positionKey);
  useEffect(() => {
    if (lastKey.current !== positionKey) {
      lastKey.current = positionKey;
      setPendingKey(null);
      setWhy(null);
    }
  }, [positionKey]);

  useEffect(() => {
    const msg = props.inbox;
    if (!msg) return;
    if (msg.kind === "result" && newGame.pending) {
      setNewGame({ pending: false, refusal: msg.ok === false ? (typeof msg.error === "string" ? msg.error : "refused") : "" });
      if (msg.ok !== false) setPanel("none");
    } else if (msg.kind === "result") {
      setPendingKey(null);
      setRefusal(msg.ok === false ? (typeof msg.error === "string" ? msg.error : "That move was refused.") : "");
    } else if (msg.kind === "hint" && typeof msg.error === "string" && msg.error) {
      setHintError(msg.error);
    } else if (msg.kind === "why") {
      const reason = msg.reason;
      setWhy((w) => (w ? { ...w, text: typeof reason === "string" ? reason : null } : null));
    }
  }, [props.inbox]);

  const pending = pendingKey === positionKey;
  const act = (action: A): void => {
    if (!isLegal(legal, action) || pending) return;
    if (state.move_number === null || typeof state.version !== "number") return;
    setWhy(null);
    setRefusal("");
    setPendingKey(positionKey);
    host.send({ kind: "act", action, move: state.move_number, version: state.version } as unknown as OutMessage);
  };
  const askWhy = (action: A): void => {
    setWhy({ action, text: undefined });
    host.send({ kind: "why", action } as unknown as OutMessage);
  };
  const hintAction = state.hint.action as A | undefined;
  const hint =
    legal.length > 0 && hintAction && (state.hint.move === undefined || state.hint.move === state.move_number) && isLegal(legal, hintAction)
      ? { action: hintAction, value: state.hint.value }
      : null;
  return {
    positionKey,
    pending,
    act,
    askWhy,
    tryAct: (action) => (isLegal(legal, action) ? act(action) : askWhy(action)),
    why,
    closeWhy: () => setWhy(null),
    errorText: panel === "new-game" && state.error === newGame.refusal ? refusal : state.error || refusal,
    clearError: () => setRefusal(""),
    hintError,
    clearHintError: () => setHintError(""),
    hint,
    panel,
    setPanel,
    newGame,
    setNewGame,
  };
}

/** The top bar (title, the status, the shared toolbar) and the panels it opens. */
export function ShellTop<A>(props: {
  shell: Shell<A>;
  state: WidgetState;
  host: ShellHost;
  title: string;
  status: ComponentChildren;
  canHint: boolean;
  legend: (close: () => void) => JSX.Element;
}): JSX.Element {
  const { shell, state, host } = props;
  const close = (): void => {
    shell.setPanel("none");
    shell.setNewGame({ pending: false, refusal: "" });
  };
  return (
    <>
      <div class="lf-top">
        <h2 class="lf-title">{props.title}</h2>
        <p class="lf-status" data-testid="status" aria-live="polite">
          {props.status}
        </p>
        <Toolbar
          state={state}
          canHint={props.canHint}
          allowNewGame={!!state.setup && state.setup.allow_new_game !== false}
          panel={shell.panel}
          setPanel={(p) => {
            shell.setPanel(p);
            shell.setNewGame({ pending: false, refusal: "" });
          }}
          onHint={() => {
            shell.clearHintError();
            host.send({ kind: "hint" });
          }}
          onUndo={() => host.send({ kind: "undo" })}
          onPace={state.setup?.allow_new_game !== false ? host.setPace : undefined}
          settings={false}
          legendLabel="Legend: what the pieces mean"
        />
      </div>
      {shell.panel === "legend" ? props.legend(close) : null}
      {shell.panel === "new-game" && state.setup ? (
        <NewGamePanel
          setup={state.setup}
          refusal={shell.newGame.refusal}
          pending={shell.newGame.pending}
          onStart={(intent: NewGameIntent) => {
            shell.setNewGame({ pending: true, refusal: "" });
            host.send(intent);
          }}
          onClose={close}
        />
      ) : null}
    </>
  );
}

/** The log in words, the newest last (a game's board turns its events into lines). */
export function ShellLog(props: { lines: readonly string[]; most?: number }): JSX.Element {
  return (
    <section class="lf-log" aria-label="Log" data-testid="log">
      <h3>Log</h3>
      <ol>
        {props.lines.slice(-(props.most ?? 14)).map((t, i) => (
          <li key={i}>{t}</li>
        ))}
      </ol>
    </section>
  );
}

/** A game's legend ("?" in the toolbar): what its pieces mean, one item a line. */
export function ShellLegend(props: { class?: string; onClose: () => void; children: ComponentChildren }): JSX.Element {
  return (
    <section class={`lf-legend lf-crooks-legend ${props.class ?? ""}`} data-testid="legend-panel" aria-label="Legend">
      <h3>Legend</h3>
      <ul>{props.children}</ul>
      <button type="button" class="lf-btn" onClick={props.onClose}>
        Close
      </button>
    </section>
  );
}

/**
 * Keyboard play on a game's board. A step changes which things are buttons (a building, then
 * a mode; a pile, then a row), so the button a keyboard user pressed is often gone and the
 * focus falls to the page. It goes on to the next thing to decide instead: the first element
 * that matches one of `next`, in order. Spread `handlers` on the board's root, with `ref`.
 */
export function useFocusHandOver(next: readonly string[]): {
  ref: { current: HTMLDivElement | null };
  handlers: { onFocusIn: () => void; onFocusOut: (e: FocusEvent) => void };
} {
  const ref = useRef<HTMLDivElement | null>(null);
  const inside = useRef(false);
  useEffect(() => {
    const root = ref.current;
    const active = document.activeElement;
    if (!root || !inside.current || (active && active !== document.body)) return;
    for (const selector of next) {
      const found = root.querySelector<HTMLElement>(selector);
      if (found) {
        found.focus({ preventScroll: true });
        return;
      }
    }
  });
  return {
    ref,
    handlers: {
      onFocusIn: () => {
        inside.current = true;
      },
      onFocusOut: (e: FocusEvent) => {
        const to = e.relatedTarget as Node | null;
        if (to && !ref.current?.contains(to)) inside.current = false;
      },
    },
  };
}
