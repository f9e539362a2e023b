/**
 * A message with its rulings one click away: every "R5.2" the kernel cites in an
 * error, a "why not" answer or a puzzle's verdict is a button that opens the
 * ruling's words (docs/rulings.md) right under the message, and closes it again.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { rulingTexts, splitRulings } from "../rulings";

export function WithRulings(props: { text: string }): JSX.Element {
  const [open, setOpen] = useState<string | null>(null);
  const pieces = splitRulings(props.text);
  const shown = open === null ? [] : rulingTexts(open);
  return (
    <>
      {pieces.map((p, i) =>
        "ruling" in p ? (
          <button
            key={i}
            type="button"
            class="lf-ruling-link"
            data-testid="ruling-link"
            data-ruling={p.ruling}
            aria-expanded={open === p.ruling}
            aria-label={`${p.ruling}: show the ruling's words`}
            onClick={() => setOpen(open === p.ruling ? null : p.ruling)}
          >
            {p.ruling}
          </button>
        ) : (
          <span key={i}>{p.text}</span>
        ),
      )}
      {shown.length > 0 ? (
        <span class="lf-ruling-text" data-testid="ruling-text" role="note">
          {shown.map((r) => (
            <span key={r.id} class="lf-ruling-item" data-ruling={r.id}>
              <b>{r.id}</b> <small>({r.section})</small> {r.text}
            </span>
          ))}
        </span>
      ) : null}
    </>
  );
}
