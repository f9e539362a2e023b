/**
 * The board's messages in one strip of reserved height under the top bar: an
 * error, the answer to "Why not?", a hint, the end of a round, and the others'
 * move being shown. The strip keeps its height; messages beyond it lie over the
 * board (they never push it down), and each can be closed.
 */
import type { ComponentChildren, JSX } from "preact";

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
      <span class="lf-banner-text">{m.text}</span>
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
