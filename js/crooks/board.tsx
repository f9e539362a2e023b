/**
 * The Crooks board (format `crooks-view/1`): the eight targets with a row a seat, the
 * hangouts with their pile sizes, cash and passes, the pile the recruiter looks through,
 * the crook in hand, each special's choice, the log and the end screen's scoring.
 * Every click is on the board; what may be clicked is what `legal` says, and a click on
 * something `legal` does not hold asks the kernel "why not?" and shows its ruling.
 */
import type { JSX } from "preact";
import { winnersWords } from "../format";
import { useEffect, useState } from "preact/hooks";
import { PrivacyCover } from "../board/hand";
import { MessageBar } from "../board/messages";
import type { Message } from "../board/messages";
import { ReplayPanel } from "../board/scrubber";
import { ShellLegend, ShellLog, ShellTop, useFocusHandOver, useGameShell } from "../board/shell";
import type { ShellHost } from "../board/shell";
import type { InMessage, OutMessage, WidgetState } from "../types";
import {
  actionWords,
  GANG_LETTER,
  GANG_NAMES,
  GANGS,
  SPECIAL_NAMES,
  crookWords,
  describeEvent,
  isLegalCrooks,
  legalOf,
  placementWords,
  placementsAt,
} from "./model";
import type { CrooksAction, CrooksView, Crook, Slot, Standing } from "./model";

export type CrooksHost = ShellHost;

/** The human seat that must confirm being at the screen first (hot seat), or null. */
export function crooksPrivacy(state: WidgetState, view: CrooksView): number | null {
  if (view.step === "over" || view.to_move === null || state.seat === null) return null;
  if (state.human_seats.length < 2) return null;
  return state.human_seats.includes(view.to_move) && view.to_move !== state.seat ? view.to_move : null;
}

function nameOf(view: CrooksView, seat: number): string {
  const name = view.players[seat]?.name ?? `Player ${seat + 1}`;
  return seat === view.seat ? `${name} (you)` : name;
}

/** A crook's face: rank, modifier, gangs, special. */
export function CrookFace(props: { crook: Crook; down?: boolean }): JSX.Element {
  const c = props.crook;
  return (
    <span class={`lf-crook lf-crook-face ${props.down ? "lf-crook-known-down" : ""}`} data-crook={c.id} data-tip={crookWords(c)} title={crookWords(c) + (props.down ? " (face down: only you know)" : "")}>
      <b class="lf-crook-rank">{c.rank}</b>
      {c.modifier ? <span class={`lf-crook-mod ${c.modifier < 0 ? "lf-neg" : "lf-pos"}`}>{c.modifier > 0 ? `+${c.modifier}` : `−${-c.modifier}`}</span> : null}
      <span class="lf-crook-gangs">
        {c.gangs.map((g) => (
          <i key={g} class={`lf-gang lf-gang-${g}`} aria-label={GANG_NAMES[g]}>
            {GANG_LETTER[g]}
          </i>
        ))}
      </span>
      {c.special ? <span class="lf-crook-special">{SPECIAL_NAMES[c.special]}</span> : null}
    </span>
  );
}

function CrookBack(): JSX.Element {
  return (
    <span class="lf-crook lf-crook-back" title="A face-down crook" aria-label="a face-down crook">
      ?
    </span>
  );
}

function SlotView(props: { slot: Slot }): JSX.Element {
  const { slot } = props;
  return slot.crook ? <CrookFace crook={slot.crook} down={slot.face === "down"} /> : <CrookBack />;
}

const SPECIAL_WORDS: [string, string][] = [
  ["Pickpocket", "you take $2 from the bank"],
  ["Accomplice", "may join your crooks at a target; there your strength is the sum of their ranks"],
  ["Switch", "may go where you have crooks; they then all move to a target where you have none"],
  ["Killer", "a seat's crooks at its target go back to the box (yours: the Killer takes their place)"],
  ["Spy", "look at every face-down crook at one target, or at every card of one hangout"],
  ["Kingpin", "always face up; kept only as the last card of its hangout"],
];

/** What the pieces mean, for a player new to the board ("?" in the toolbar). */
function CrooksLegend(props: { onClose: () => void }): JSX.Element {
  return (
    <ShellLegend onClose={props.onClose}>
        <li>
          <span class="lf-crook lf-crook-face lf-legend-crook">
            <b class="lf-crook-rank">7</b>
            <span class="lf-crook-mod lf-pos">+2</span>
          </span>{" "}
          A crook: its rank (strength at a target) and its modifier (added to the target's worth at the end).
        </li>
        <li>
          <CrookBack /> Another seat's face-down crook. Your own face-down crooks show their face to you, dashed.
        </li>
        <li>
          {GANGS.map((g) => (
            <i key={g} class={`lf-gang lf-gang-${g}`}>
              {GANG_LETTER[g]}
            </i>
          ))}{" "}
          The gangs: {GANGS.map((g) => GANG_NAMES[g]).join(", ")}. Each pays the seat with most of its members.
        </li>
        {SPECIAL_WORDS.map(([name, words]) => (
          <li key={name}>
            <b>{name}</b>: {words} (face up from your hand only).
          </li>
        ))}
        <li>A lit cell, hangout or crook is a move you may make now; click anything else to ask why not.</li>
    </ShellLegend>
  );
}

/** What the seat is asked now, in words. */
function prompt(view: CrooksView, mine: boolean, privacy: number | null): string {
  if (view.step === "over") return "The game is over.";
  if (privacy !== null) return `Waiting for ${nameOf(view, privacy)} to come to the screen.`;
  const mover = view.to_move === null ? "" : nameOf(view, view.to_move);
  if (!mine) return `${mover} is thinking…`;
  switch (view.step) {
    case "start":
      return "Your turn: click a hangout to recruit there (a dollar a card), or pass for good.";
    case "keep":
      return "Keep one crook of the pile: click it.";
    case "place":
      return "Send your crook to a target: click a lit cell in your row.";
    case "switch":
      return "Switch: click the target your crooks move to.";
    case "kill":
      return "Killer: click the row whose crooks go back to the box.";
    case "spy":
      return "Spy: click a target or a hangout to look at.";
    default:
      return "";
  }
}

/** Below this width the targets turn a quarter (a row a target): a phone's 390 px, less a
 * notebook's margins, leaves under 40 px a cell for eight targets side by side. */
const NARROW_PX = 560;

/** Whether the element is narrower than `px` now; follows its size (a phone turned, a panel
 * resized). Without ResizeObserver (old browsers, tests) the board stays wide. */
function useNarrow(ref: { current: HTMLElement | null }, px: number): boolean {
  const [narrow, setNarrow] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const width = entries[0]?.contentRect.width ?? el.clientWidth;
      if (width > 0) setNarrow(width < px);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref, px]);
  return narrow;
}

export function CrooksBoard(props: { state: WidgetState; view: CrooksView; host: CrooksHost; inbox: InMessage | null }): JSX.Element {
  const { state, view, host } = props;
  const privacy = crooksPrivacy(state, view);
  const legal: unknown[] = privacy === null ? state.legal : [];
  const mine = legal.length > 0;
  const over = view.step === "over";
  // The seat whose row is "yours": the shown seat, or on the open board the one to move.
  const me = view.seat ?? view.to_move;
  const turn = view.turn;
  // Picks and a pending move belong to one position: a replaced game at the same move
  // number and version (a new deal, a lesson dealt again) is another one.
  const shell = useGameShell<CrooksAction>({
    state,
    host,
    inbox: props.inbox,
    legal,
    isLegal: isLegalCrooks,
    position: [view, state.legal, state.seat, state.move_number, state.version, privacy],
  });
  const { positionKey, act, askWhy, tryAct, why, hint, errorText, hintError } = shell;

  const [picked, setPicked] = useState<{ key: number; target: number | null }>({ key: positionKey, target: null });
  const target = picked.key === positionKey ? picked.target : null;
  // After a step the keyboard goes on to the way to lay the crook, else the first lit
  // choice, else Pass or the privacy screen's button.
  const focus = useFocusHandOver(['[data-testid="place-choice"]', '[data-legal="true"]', '[data-testid="pass"], [data-testid="reveal"]']);
  const rootRef = focus.ref;
  const narrow = useNarrow(rootRef, NARROW_PX);
  // Enter on a cell with several ways to lay the crook: the keyboard goes to those ways.
  useEffect(() => {
    const root = rootRef.current;
    if (target === null || !root || !root.contains(document.activeElement)) return;
    root.querySelector<HTMLElement>('[data-testid="place-choice"]')?.focus({ preventScroll: true });
  }, [target]);

  const clickCell = (t: number, seat: number): void => {
    if (!mine) return;
    if (view.step === "place" && seat === me) {
      const options = placementsAt(legal, t);
      if (options.length === 1 && options[0]) act(options[0]);
      else if (options.length > 1) setPicked({ key: positionKey, target: t });
      else askWhy({ type: "place", target: t, face: "up", effect: false });
    } else if (view.step === "switch") tryAct({ type: "switch", to: t });
    else if (view.step === "kill") tryAct({ type: "kill", seat });
    else if (view.step === "spy") tryAct({ type: "spy", target: t });
  };
  const cellLegal = (t: number, seat: number): boolean => {
    if (!mine) return false;
    switch (view.step) {
      case "place":
        return seat === me && placementsAt(legal, t).length > 0;
      case "switch":
        return seat === me && isLegalCrooks(legal, { type: "switch", to: t });
      case "kill":
        return t === turn?.target && isLegalCrooks(legal, { type: "kill", seat });
      case "spy":
        return isLegalCrooks(legal, { type: "spy", target: t });
      default:
        return false;
    }
  };
  /** Which cells are buttons now: the seat's own row to place or switch into, the current
   * target's rows for a Killer, every cell for a Spy. */
  const cellClickable = (t: number, seat: number): boolean => {
    if (!mine) return false;
    if (view.step === "place" || view.step === "switch") return seat === me;
    if (view.step === "kill") return t === turn?.target;
    return view.step === "spy";
  };

  // The strip of the shared shell (board/messages.tsx): the kernel's words cite rulings there.
  const messages: Message[] = [];
  if (errorText) messages.push({ kind: "error", testid: "error", text: errorText });
  if (why) {
    const reason = why.text === undefined ? "Asking the kernel…" : why.text === null ? "It is legal." : why.text;
    messages.push({ kind: "info", testid: "why-reason", text: `Why not? ${reason}`, onClose: shell.closeWhy });
  }
  if (hintError) messages.push({ kind: "info", testid: "hint-error", text: `No hint: ${hintError}`, onClose: shell.clearHintError });
  if (hint) {
    const chance = typeof hint.value === "number" ? ` (estimated win chance ${Math.round(hint.value * 100)}%)` : "";
    messages.push({ kind: "hint", testid: "hint-text", text: `Hint: ${actionWords(view, hint.action)}${chance}` });
  }
  const standings: Standing[] | null = view.standings;
  const boardState = over ? "over" : privacy !== null ? "privacy" : mine ? "mine" : "waiting";
  const events = (state.events as unknown as Record<string, unknown>[])
    .map((e) => describeEvent(view, e))
    .filter((t): t is string => t !== null);

  return (
    <div
      ref={rootRef}
      class="lf-board-root lf-crooks"
      data-testid="crooks-board"
      data-state={boardState}
      data-step={view.step}
      data-pending={shell.pending ? "true" : "false"}
      onFocusIn={focus.handlers.onFocusIn}
      onFocusOut={focus.handlers.onFocusOut}
    >
      <ShellTop
        shell={shell}
        state={state}
        host={host}
        title="Crooks"
        status={prompt(view, mine, privacy)}
        canHint={mine}
        legend={(close) => <CrooksLegend onClose={close} />}
      />
      <MessageBar messages={messages} />

      {/* A replay (lf.LangfingerWidget.replay of a Crooks record): the shared scrubber. */}
      {state.scrubber ? <ReplayPanel scrubber={state.scrubber} timeline={state.timeline ?? null} send={host.send} inbox={props.inbox} /> : null}
      {over && standings ? <CrooksEnd view={view} standings={standings} /> : null}

      <div class="lf-main">
        <div class="lf-board">
          <section class="lf-crooks-players" aria-label="Players">
            {view.players.map((p) => (
              <div
                key={p.seat}
                class={`lf-crooks-player ${view.to_move === p.seat ? "lf-to-move" : ""} ${p.passed ? "lf-passed" : ""}`}
                data-seat={p.seat}
                data-testid="crooks-player"
              >
                <b>{nameOf(view, p.seat)}</b>
                <span class="lf-cash" data-testid="cash">
                  ${p.cash}
                </span>
                {p.passed ? <span class="lf-badge">passed</span> : view.to_move === p.seat && !over ? <span class="lf-badge lf-badge-turn">to move</span> : null}
                {state.bots[String(p.seat)] ? <small class="lf-bot-name">bot: {state.bots[String(p.seat)]}</small> : null}
              </div>
            ))}
          </section>

          <TargetsTable
            view={view}
            narrow={narrow}
            me={me}
            head={(t, scope) => {
              const spyable = mine && view.step === "spy" && isLegalCrooks(legal, { type: "spy", target: t.target });
              return (
                <th key={t.target} scope={scope} class={turn?.target === t.target ? "lf-current" : ""}>
                  {mine && view.step === "spy" ? (
                    <button
                      type="button"
                      class={`lf-target-head ${spyable ? "lf-legal" : ""}`}
                      data-target={t.target}
                      data-legal={spyable ? "true" : "false"}
                      aria-disabled={spyable ? undefined : "true"}
                      aria-label={`Spy on the face-down crooks at the ${t.target}`}
                      onClick={() => tryAct({ type: "spy", target: t.target })}
                    >
                      {t.target}
                    </button>
                  ) : (
                    <span class="lf-target-value" title={`Target worth ${t.target}`}>
                      {t.target}
                    </span>
                  )}
                </th>
              );
            }}
            cell={(t, seat) => {
              const slots = t.rows[seat] ?? [];
              const isLegal = cellLegal(t.target, seat);
              const chosen = target === t.target && seat === me;
              const content = slots.map((s, i) => <SlotView key={i} slot={s} />);
              return (
                <td key={`${t.target}:${seat}`} class={`lf-cell ${seat === me ? "lf-my-cell" : ""} ${isLegal ? "lf-legal" : ""} ${chosen ? "lf-picked" : ""}`}>
                  {cellClickable(t.target, seat) ? (
                    <button
                      type="button"
                      class="lf-cell-btn"
                      data-testid="target-cell"
                      data-target={t.target}
                      data-seat={seat}
                      data-legal={isLegal ? "true" : "false"}
                      aria-disabled={isLegal ? undefined : "true"}
                      aria-label={`The ${t.target}, ${nameOf(view, seat)}'s row${isLegal ? "" : " (not now: why?)"}`}
                      aria-pressed={chosen}
                      onClick={() => clickCell(t.target, seat)}
                    >
                      {content}
                    </button>
                  ) : (
                    <div class="lf-cell-inner" data-target={t.target} data-seat={seat}>
                      {content}
                    </div>
                  )}
                </td>
              );
            }}
          />

          <section class="lf-hangouts" aria-label="Hangouts" data-testid="hangouts">
            <h3>Hangouts</h3>
            <div class="lf-hangout-row">
              {view.hangouts.map((h) => {
                const action: CrooksAction | null =
                  view.step === "start" ? { type: "recruit", hangout: h.hangout } : view.step === "spy" ? { type: "spy", hangout: h.hangout } : null;
                const isLegal = mine && action !== null && isLegalCrooks(legal, action);
                const label =
                  action?.type === "recruit"
                    ? `Recruit at hangout ${h.hangout}: ${h.size} crooks for $${h.size}`
                    : `Hangout ${h.hangout}: ${h.size} crooks`;
                const body = (
                  <>
                    <b class="lf-hangout-letter">{h.hangout}</b>
                    <span class="lf-hangout-size">
                      {h.size} {h.size === 1 ? "crook" : "crooks"}
                    </span>
                    {h.size > 0 ? <span class="lf-hangout-price">${h.size}</span> : <span class="lf-hangout-price">closed</span>}
                    {h.cards ? (
                      <span class="lf-hangout-known" title="You know this pile">
                        {h.cards.map((c) => (
                          <CrookFace key={c.id} crook={c} />
                        ))}
                      </span>
                    ) : null}
                  </>
                );
                return mine && action !== null ? (
                  <button
                    key={h.hangout}
                    type="button"
                    class={`lf-hangout ${isLegal ? "lf-legal" : ""} ${turn?.hangout === h.hangout ? "lf-current" : ""}`}
                    data-testid="hangout"
                    data-hangout={h.hangout}
                    data-legal={isLegal ? "true" : "false"}
                    aria-disabled={isLegal ? undefined : "true"}
                    aria-label={label + (isLegal ? "" : " (not now: why?)")}
                    onClick={() => tryAct(action)}
                  >
                    {body}
                  </button>
                ) : (
                  <div key={h.hangout} class={`lf-hangout ${turn?.hangout === h.hangout ? "lf-current" : ""}`} data-hangout={h.hangout}>
                    {body}
                  </div>
                );
              })}
            </div>
          </section>

          {privacy !== null ? (
            <PrivacyCover
              name={nameOf(view, privacy)}
              next="their crooks come next"
              onReveal={() => host.send({ kind: "reveal", seat: privacy } as unknown as OutMessage)}
            />
          ) : (
            <TurnArea view={view} legal={legal} mine={mine} picked={target} act={act} tryAct={tryAct} onCancel={() => setPicked({ key: positionKey, target: null })} />
          )}
        </div>
        <aside class="lf-side">
          <ShellLog lines={events} />
        </aside>
      </div>
    </div>
  );
}

type TargetRow = CrooksView["targets"][number];

/**
 * The targets and a row a seat; on a narrow board (a phone) turned a quarter, a row a
 * target and a column a seat, so that eight targets do not squeeze every cell below a
 * finger's width.
 */
function TargetsTable(props: {
  view: CrooksView;
  narrow: boolean;
  me: number | null;
  head: (t: TargetRow, scope: "col" | "row") => JSX.Element;
  cell: (t: TargetRow, seat: number) => JSX.Element;
}): JSX.Element {
  const { view, narrow, me, head, cell } = props;
  if (narrow) {
    return (
      <table class="lf-targets lf-targets-narrow" data-testid="targets" aria-label="The targets, a column a seat">
        <thead>
          <tr>
            <th scope="col">Target</th>
            {view.players.map((p) => (
              <th key={p.seat} scope="col" class={p.seat === me ? "lf-my-col" : ""} data-seat={p.seat}>
                {nameOf(view, p.seat)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {view.targets.map((t) => (
            <tr key={t.target} data-target={t.target}>
              {head(t, "row")}
              {view.players.map((p) => cell(t, p.seat))}
            </tr>
          ))}
        </tbody>
      </table>
    );
  }
  return (
    <table class="lf-targets" data-testid="targets" aria-label="The targets, a row a seat">
      <thead>
        <tr>
          <th scope="col">Target</th>
          {view.targets.map((t) => head(t, "col"))}
        </tr>
      </thead>
      <tbody>
        {view.players.map((p) => (
          <tr key={p.seat} data-seat={p.seat} class={p.seat === me ? "lf-my-row" : ""}>
            <th scope="row">{nameOf(view, p.seat)}</th>
            {view.targets.map((t) => cell(t, p.seat))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The turn under way: the pile to keep from, the crook in hand and its choices, Pass. */
function TurnArea(props: {
  view: CrooksView;
  legal: unknown[];
  mine: boolean;
  picked: number | null;
  act: (a: CrooksAction) => void;
  tryAct: (a: CrooksAction) => void;
  onCancel: () => void;
}): JSX.Element | null {
  const { view, legal, mine, picked, act, tryAct } = props;
  const turn = view.turn;
  const keeps = legalOf(legal, "keep");
  const canPass = legalOf(legal, "pass").length > 0;
  const recruiter = turn ? nameOf(view, turn.seat) : "";
  if (!turn?.hangout && !canPass) return null; // nothing under way, nothing to decide
  return (
    <section class="lf-act lf-crooks-turn" data-testid="turn" aria-label="Your turn">
      {turn?.hangout ? (
        <p>
          {recruiter} recruited at <b>{turn.hangout}</b> for ${turn.price}
          {turn.target !== null ? (
            <>
              {" "}
              and placed at the <b>{turn.target}</b>
            </>
          ) : null}
          .
        </p>
      ) : null}
      {turn?.pile ? (
        <div class="lf-pile" data-testid="pile" aria-label={`The pile of hangout ${turn.hangout ?? ""}`}>
          {turn.pile.map((c) => {
            const ok = mine && keeps.some((k) => k.crook === c.id);
            return mine ? (
              <button
                key={c.id}
                type="button"
                class={`lf-pile-card ${ok ? "lf-legal" : ""}`}
                data-testid="pile-card"
                data-crook={c.id}
                data-legal={ok ? "true" : "false"}
                aria-disabled={ok ? undefined : "true"}
                aria-label={`Keep ${crookWords(c)}${ok ? "" : " (not now: why?)"}`}
                title={ok ? `Keep ${crookWords(c)}` : "Not now: click to ask why"}
                onClick={() => tryAct({ type: "keep", crook: c.id })}
              >
                <CrookFace crook={c} />
              </button>
            ) : (
              <CrookFace key={c.id} crook={c} />
            );
          })}
        </div>
      ) : null}
      {turn?.hand ? (
        <div class="lf-hand" data-testid="hand">
          <span>In hand:</span> <CrookFace crook={turn.hand} />
        </div>
      ) : null}
      {mine && view.step === "place" && picked !== null ? (
        <div class="lf-choices" data-testid="place-choices" role="group" aria-label={`How to place at the ${picked}`}>
          <span>At the {picked}:</span>
          {placementsAt(legal, picked).map((a, i) => (
            <button
              key={i}
              type="button"
              class="lf-btn lf-primary"
              data-testid="place-choice"
              data-target={a.target}
              data-face={a.face}
              data-effect={a.effect ? "true" : "false"}
              onClick={() => act(a)}
            >
              {placementWords(a, turn?.hand ?? null)}
            </button>
          ))}
          <button type="button" class="lf-btn" data-testid="cancel" onClick={props.onCancel}>
            Cancel
          </button>
        </div>
      ) : null}
      {mine && view.step === "kill" ? (
        <div class="lf-choices" role="group" aria-label="Whose crooks the Killer removes">
          {legalOf(legal, "kill").map((a) => (
            <button key={a.seat} type="button" class="lf-btn" data-testid="kill-choice" data-seat={a.seat} onClick={() => act(a)}>
              Kill {nameOf(view, a.seat)}'s crooks at the {turn?.target}
            </button>
          ))}
        </div>
      ) : null}
      {canPass ? (
        <button type="button" class="lf-btn" data-testid="pass" aria-label="Pass for good: no more turns this game" onClick={() => act({ type: "pass" })}>
          Pass (for good)
        </button>
      ) : null}
    </section>
  );
}

/** The end screen: each target and each gang, seat by seat (the kernel's standings). */
function CrooksEnd(props: { view: CrooksView; standings: Standing[] }): JSX.Element {
  const { view, standings } = props;
  const targets = view.targets.map((t) => String(t.target));
  const winners = winnersWords(view.winners.map((s) => nameOf(view, s)));
  return (
    <section class="lf-gameover lf-crooks-end" data-testid="game-over" aria-label="The scoring">
      <h3>
        {winners}
      </h3>
      <table class="lf-standings" data-testid="standings">
        <thead>
          <tr>
            <th scope="col">Player</th>
            {targets.map((t) => (
              <th key={t} scope="col" title={`Target ${t}`}>
                {t}
              </th>
            ))}
            {GANGS.map((g) => (
              <th key={g} scope="col" title={GANG_NAMES[g]}>
                {GANG_NAMES[g]}
              </th>
            ))}
            <th scope="col">Points</th>
            <th scope="col">Cash</th>
          </tr>
        </thead>
        <tbody>
          {standings.map((s) => (
            <tr key={s.seat} data-seat={s.seat} class={view.winners.includes(s.seat) ? "lf-winner" : ""}>
              <th scope="row">{nameOf(view, s.seat)}</th>
              {targets.map((t) => (
                <td key={t} class="lf-num" data-target={t}>
                  {s.by_target[t] ?? 0}
                </td>
              ))}
              {GANGS.map((g) => (
                <td key={g} class="lf-num" data-gang={g}>
                  {s.by_gang[g] ?? 0}
                </td>
              ))}
              <td class="lf-num lf-points" data-testid="points">
                {s.score}
              </td>
              <td class="lf-num">${s.cash}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="lf-note">Most points wins; a tie goes to the most cash (C6.5).</p>
    </section>
  );
}
