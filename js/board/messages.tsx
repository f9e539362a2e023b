/**
 * The board's messages in one strip of reserved height under the top bar: an
 * error, the answer to "Why not?", a hint, the end of a round, and the others'
 * move being shown. The strip keeps its height; messages beyond it lie over the
 * board (they never push it down), and each can be closed.
 */
import type { ComponentChildren, JSX } from "preact";
import { actionWords, decisionWords } from "../format";
import type { Action, View } from "../types";
import type { Playback } from "./motion";
import { WithRulings } from "./ruling";
import type { Turn } from "./status";

export interface Message {
  kind: "error" | "info" | "hint" | "round" | "caption" | "idle";
  testid: string;
  text: ComponentChildren;
  onClose?: () => void;
  /** A second button (e.g. Skip for the others' moves). */
  action?: { label: string; testid: string; onClick: () => void };
}

function Banner(props: { m: Message }): JSX.Element {
  const { m } = props;
  return (
    <div
      class={`lf-banner lf-banner-${m.kind}`}
      role={m.kind === "error" ? "alert" : m.kind === "idle" ? undefined : "status"}
      aria-hidden={m.kind === "idle" ? "true" : undefined}
      data-testid={m.testid}
    >
      <span class="lf-banner-text">
        {/* The kernel's words (a refusal, "why not", no hint) cite rulings: each opens its text. */}
        {(m.kind === "error" || m.kind === "info") && typeof m.text === "string" ? <WithRulings text={m.text} /> : m.text}
      </span>
      {m.action ? (
        <button type="button" class="lf-btn lf-btn-small" data-testid={m.action.testid} onClick={m.action.onClick}>
          {m.action.label}
        </button>
      ) : null}
      {m.onClose ? (
        <button type="button" class="lf-close" aria-label="Dismiss" onClick={m.onClose}>
          ×
        </button>
      ) : null}
    </div>
  );
}

export function MessageBar(props: { messages: Message[] }): JSX.Element {
  return (
    <div class="lf-messages" data-testid="messages">
      <div class="lf-messages-inner">
        {props.messages.map((m) => (
          <Banner key={m.testid} m={m} />
        ))}
      </div>
    </div>
  );
}

/** The kernel's answer to "Why not?" (reason undefined while it is asked). */
export interface Why {
  action: Action;
  reason: string | null | undefined;
}

export interface StripInput {
  view: View;
  legal: Action[];
  turn: Turn;
  privacy: number | null;
  playback: Playback;
  error: string;
  onDismissError: () => void;
  why: Why | null;
  onCloseWhy: () => void;
  hintError: string;
  onCloseHintError: () => void;
  hint: { action: Action; value?: number } | null;
  /** A lesson's board holds at the end of its step: the kernel's words ("" while it is open). */
  stepDone?: string;
}

/** The kernel's clause as a sentence: capital first, full stop last. */
function sentence(text: string): string {
  const s = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

function whyWords(view: View, why: Why): string {
  const words = actionWords(view, why.action);
  if (why.reason === undefined) return `Asking why you cannot ${words}…`;
  if (why.reason === null) return `You can ${words}: it is legal.`;
  return `Why not ${words}? ${why.reason}`;
}

/** What the strip says, most urgent first: an error, "Why not?", the hint, then one line for
 *  the others (the move being shown, else the round's end), else what is being decided. */
export function stripMessages(i: StripInput): Message[] {
  const out: Message[] = [];
  if (i.error) out.push({ kind: "error", testid: "error", text: i.error, onClose: i.onDismissError });
  if (i.stepDone) out.push({ kind: "info", testid: "step-done", text: sentence(i.stepDone) });
  if (i.why) out.push({ kind: "info", testid: "why-reason", text: whyWords(i.view, i.why), onClose: i.onCloseWhy });
  if (i.hintError) out.push({ kind: "info", testid: "hint-error", text: `No hint: ${i.hintError}`, onClose: i.onCloseHintError });
  if (i.hint) {
    const chance = typeof i.hint.value === "number" ? ` (estimated win chance ${Math.round(i.hint.value * 100)}%)` : "";
    out.push({ kind: "hint", testid: "hint-text", text: `Hint: ${actionWords(i.view, i.hint.action)}${chance}` });
  }
  const { step, banner, queued, skip, dismissBanner } = i.playback;
  const more = queued > 0 ? { label: `Skip ${queued}`, testid: "skip", onClick: skip } : undefined;
  if (step && step.kind !== "round" && i.privacy === null) {
    out.push({ kind: "caption", testid: "caption", text: step.text, action: more });
  } else if (banner && !i.view.is_over) {
    out.push({ kind: "round", testid: "round-banner", text: banner.text, onClose: dismissBanner, action: more });
  }
  // Nothing to say: what is being decided (the composer says it to screen readers).
  if (out.length === 0 && i.legal.length > 0 && i.view.decision) {
    out.push({ kind: "idle", testid: "now", text: `${i.turn.kind === "yours" ? "Your turn: " : ""}${decisionWords(i.view)}` });
  }
  return out;
}
