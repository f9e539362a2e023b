/**
 * The action bar under the board: what is being decided, what has been
 * picked, the scoundrel toggle, Confirm, Why not?, Cancel and Pass.
 */
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { ToolIcon } from "../icons";
import { passReason } from "../forced";
import { actionWords, decisionWords, plural } from "../format";
import { canPass, rateGives, stealChoice } from "../intents";
import type { Action } from "../types";
import { currentAction, draftAction, hasSelection } from "./compose";
import { useUi } from "./ui";

/** How many tools the City lets this token take: the most any legal take_tools holds (R4). */
function cityTake(legal: readonly Action[]): number {
  return Math.max(0, ...legal.map((a) => (a.type === "take_tools" ? a.tools.length : 0)));
}

/** What to click next; asked only while something other than Pass is legal. */
function prompt(kind: string | undefined, hasPick: boolean, need: number, confirm: boolean): string {
  const then = confirm ? ", then confirm" : "";
  switch (kind) {
    case "place":
      return "Click a place to put a token on its next free square.";
    case "city":
      return need > 0 ? `Pick ${plural(need, "tool")} to take from the City${then}.` : `Pick the tools to take from the City${then}.`;
    case "villa":
    case "museum":
      return hasPick ? "Check the payment, then confirm." : "Click a loot card you can pay for.";
    case "ruin":
      return hasPick ? `Pick ${plural(need, "card")} from your hand to give${then}.` : "Click a free exchange square.";
    case "harbor":
      return hasPick ? `Pick the loot to sell to this fence${then}.` : "Click a fence that buys your loot.";
    default:
      return "";
  }
}

/** How long the board waits, visibly, before it passes by itself. */
export const AUTO_PASS_MS = 1600;

/** Pass is the only move: after a visible moment the board passes, unless asked to wait. */
function AutoPass(props: { onPass: () => void; onWait: () => void }): JSX.Element {
  useEffect(() => {
    const t = setTimeout(props.onPass, AUTO_PASS_MS);
    return () => clearTimeout(t);
  }, []);
  return (
    <div class="lf-auto-pass" data-testid="auto-pass" role="status">
      <span class="lf-auto-pass-bar" style={{ animationDuration: `${AUTO_PASS_MS}ms` }} aria-hidden="true" />
      <span>Passing…</span>
      <button type="button" class="lf-btn" data-testid="auto-pass-stop" onClick={props.onWait}>
        Wait
      </button>
    </div>
  );
}

/** Only Pass is legal: say why in one line, and pass with one click (or by itself). */
function ForcedPass(props: { reason: string }): JSX.Element {
  const { ctl, pending, prefs, state } = useUi();
  const here = `${state.version ?? ""}:${state.move_number ?? ""}`;
  const [waitAt, setWaitAt] = useState<string | null>(null);
  const auto = prefs.autoPass && waitAt !== here && !pending;
  return (
    <>
      <p class="lf-pass-reason" data-testid="pass-reason">
        {props.reason}
      </p>
      <div class="lf-buttons">
        <button type="button" class="lf-btn lf-primary" data-testid="pass" disabled={pending} onClick={() => ctl.pass()}>
          Pass
        </button>
        {auto ? <AutoPass key={here} onPass={() => ctl.pass()} onWait={() => setWaitAt(here)} /> : null}
      </div>
    </>
  );
}

function draftHasPicks(a: Action): boolean {
  if (a.type === "take_tools") return a.tools.length > 0;
  if (a.type === "exchange") return a.give.length > 0;
  if (a.type === "sell") return a.loot.length > 0;
  return true;
}

export function Composer(): JSX.Element | null {
  const { view, legal, handCards, mySeat } = useUi();
  if (view.is_over || !view.decision) return null;
  const kind = view.decision.kind;
  const mine = legal.length > 0;
  const forced = mine ? passReason(view, legal, mySeat, handCards.length) : "";
  return (
    <section class={`lf-composer ${mine ? "lf-mine-turn" : ""}`} aria-label="Your decision" data-testid="composer">
      <p class="lf-decision" data-testid="decision" aria-live="polite">
        {decisionWords(view)}
      </p>
      {!mine ? null : forced ? <ForcedPass reason={forced} /> : <Choosing kind={kind} />}
    </section>
  );
}

function Choosing(props: { kind: string }): JSX.Element {
  const { view, legal, sel, ctl, pending, handCards, mySeat, prefs } = useUi();
  const { kind } = props;
  const current = currentAction(view, legal, sel, handCards);
  const draft = draftAction(view, sel, handCards);
  const steal = (kind === "villa" || kind === "museum") && sel.slot !== null ? stealChoice(legal, sel.slot, sel.scoundrel) : null;
  const scoundrelTool = mySeat === null ? undefined : view.players[mySeat]?.tool;
  return (
    <>
      <p class="lf-prompt" data-testid="prompt">
        {prompt(kind, hasSelection(sel), kind === "city" ? cityTake(legal) : sel.rate ? rateGives(sel.rate) : 0, prefs.confirmMoves)}
      </p>
      {current || (draft && draftHasPicks(draft)) ? (
        <p class="lf-draft" data-testid="draft">
          You will {actionWords(view, current ?? (draft as NonNullable<typeof draft>))}.
        </p>
      ) : null}
      {steal?.canToggle ? (
        <label class="lf-toggle">
          <input type="checkbox" data-testid="scoundrel" checked={steal.action.scoundrel} onChange={() => ctl.toggleScoundrel()} />
          Use my scoundrel for one {scoundrelTool ? <ToolIcon tool={scoundrelTool} size={18} /> : null} {scoundrelTool} (R5.2)
        </label>
      ) : steal?.action.scoundrel ? (
        <p class="lf-note">Your scoundrel covers one {scoundrelTool} (R5.2).</p>
      ) : null}
      <div class="lf-buttons">
        {kind !== "place" ? (
          <button type="button" class="lf-btn lf-primary" data-testid="confirm" disabled={!current || pending} onClick={() => ctl.confirm()}>
            Confirm
          </button>
        ) : null}
        {draft && !current ? (
          <button type="button" class="lf-btn" data-testid="why" onClick={() => ctl.why(draft)}>
            Why not?
          </button>
        ) : null}
        {hasSelection(sel) ? (
          <button type="button" class="lf-btn" data-testid="cancel" onClick={() => ctl.cancel()}>
            Cancel
          </button>
        ) : null}
        {kind === "place" && !canPass(legal) ? null : (
          <button type="button" class="lf-btn" data-testid="pass" disabled={!canPass(legal) || pending} onClick={() => ctl.pass()}>
            Pass
          </button>
        )}
      </div>
    </>
  );
}
