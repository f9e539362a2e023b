/**
 * The action bar under the board: what is being decided, what has been
 * picked, the scoundrel toggle, Confirm, Why not?, Cancel and Pass.
 */
import type { JSX } from "preact";
import { ToolIcon } from "../icons";
import { actionWords, decisionWords, plural } from "../format";
import { canPass, rateGives, stealChoice } from "../intents";
import type { Action } from "../types";
import { currentAction, draftAction, hasSelection } from "./compose";
import { useUi } from "./ui";

function prompt(kind: string | undefined, hasPick: boolean, need: number): string {
  switch (kind) {
    case "place":
      return "Click a place to put a token on its next free square.";
    case "city":
      return "Pick the tools to take from the City, then confirm.";
    case "villa":
    case "museum":
      return hasPick ? "Check the payment, then confirm." : "Click a loot card you can pay for.";
    case "ruin":
      return hasPick ? `Pick ${plural(need, "card")} from your hand to give, then confirm.` : "Click a free exchange square.";
    case "harbor":
      return hasPick ? "Pick the loot to sell to this fence, then confirm." : "Click a fence that buys your loot.";
    default:
      return "";
  }
}

function draftHasPicks(a: Action): boolean {
  if (a.type === "take_tools") return a.tools.length > 0;
  if (a.type === "exchange") return a.give.length > 0;
  if (a.type === "sell") return a.loot.length > 0;
  return true;
}

export function Composer(): JSX.Element | null {
  const { view, legal, sel, ctl, pending, handCards, mySeat } = useUi();
  if (view.is_over || !view.decision) return null;
  const kind = view.decision.kind;
  const mine = legal.length > 0;
  const current = mine ? currentAction(view, legal, sel, handCards) : null;
  const draft = mine ? draftAction(view, sel, handCards) : null;
  const steal = (kind === "villa" || kind === "museum") && sel.slot !== null ? stealChoice(legal, sel.slot, sel.scoundrel) : null;
  const scoundrelTool = mySeat === null ? undefined : view.players[mySeat]?.tool;
  return (
    <section class={`lf-composer ${mine ? "lf-mine-turn" : ""}`} aria-label="Your decision" data-testid="composer">
      <p class="lf-decision" data-testid="decision" aria-live="polite">
        {decisionWords(view)}
      </p>
      {mine ? (
        <>
          <p class="lf-prompt">{prompt(kind, hasSelection(sel), sel.rate ? rateGives(sel.rate) : 0)}</p>
          {current || (draft && draftHasPicks(draft)) ? (
            <p class="lf-draft" data-testid="draft">
              You will {actionWords(view, current ?? (draft as NonNullable<typeof draft>))}.
            </p>
          ) : null}
          {steal?.canToggle ? (
            <label class="lf-toggle">
              <input
                type="checkbox"
                data-testid="scoundrel"
                checked={steal.action.scoundrel}
                onChange={() => ctl.toggleScoundrel()}
              />
              Use my scoundrel for one {scoundrelTool ? <ToolIcon tool={scoundrelTool} size={16} /> : null}{" "}
              {scoundrelTool} (R5.2)
            </label>
          ) : steal?.action.scoundrel ? (
            <p class="lf-note">Your scoundrel covers one {scoundrelTool} (R5.2).</p>
          ) : null}
          <div class="lf-buttons">
            {kind !== "place" ? (
              <button
                type="button"
                class="lf-btn lf-primary"
                data-testid="confirm"
                disabled={!current || pending}
                onClick={() => ctl.confirm()}
              >
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
              <button
                type="button"
                class="lf-btn"
                data-testid="pass"
                disabled={!canPass(legal) || pending}
                onClick={() => ctl.pass()}
              >
                Pass
              </button>
            )}
          </div>
        </>
      ) : null}
    </section>
  );
}
