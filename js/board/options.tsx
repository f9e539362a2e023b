/**
 * The pace of the bots (the `pace` trait, the one trait the board may write; the
 * kernel checks it) and the player's own settings (kept in the browser).
 */
import type { ComponentChildren, JSX } from "preact";
import type { Prefs } from "../prefs";

export const PACES: [number, string][] = [
  [0.3, "quick"],
  [0.6, "steady"],
  [1.2, "slow"],
  [2.5, "very slow"],
];

export function paceChoices(current: number): [number, string][] {
  if (PACES.some(([p]) => p === current)) return PACES;
  const mine: [number, string] = [current, "as set"];
  return [...PACES, mine].sort((a, b) => a[0] - b[0]);
}

export function PaceSelect(props: { pace: number; onPace: (pace: number) => void }): JSX.Element {
  return (
    <label class="lf-pace">
      <span>Pace</span>
      <select
        data-testid="pace"
        aria-label="Pace of the other players' moves"
        value={String(props.pace)}
        onChange={(e) => props.onPace(Number((e.currentTarget as HTMLSelectElement).value))}
      >
        {paceChoices(props.pace).map(([p, words]) => (
          <option key={p} value={String(p)}>
            {words} ({p} s)
          </option>
        ))}
      </select>
    </label>
  );
}

function Check(props: { testid: string; checked: boolean; onChange: (v: boolean) => void; children: string; note: string }): JSX.Element {
  return (
    <label class="lf-check lf-option">
      <input type="checkbox" data-testid={props.testid} checked={props.checked} onChange={(e) => props.onChange((e.currentTarget as HTMLInputElement).checked)} />
      <span>
        {props.children}
        <small>{props.note}</small>
      </span>
    </label>
  );
}

/** A panel over the board, under the toolbar; × or Escape closes it. */
export function Popover(props: { title: string; testid: string; class: string; onClose: () => void; children: ComponentChildren }): JSX.Element {
  return (
    <section
      class={`lf-popover ${props.class}`}
      data-testid={props.testid}
      aria-label={props.title}
      onKeyDown={(e) => e.key === "Escape" && props.onClose()}
    >
      <header class="lf-popover-head">
        <h4>{props.title}</h4>
        <button type="button" class="lf-close" aria-label={`Close the ${props.title.toLowerCase()}`} onClick={props.onClose}>
          ×
        </button>
      </header>
      {props.children}
    </section>
  );
}

export function OptionsPanel(props: { prefs: Prefs; onPrefs: (p: Partial<Prefs>) => void; onClose: () => void }): JSX.Element {
  const { prefs, onPrefs } = props;
  return (
    <Popover title="Settings" testid="options-panel" class="lf-options" onClose={props.onClose}>
      <Check testid="opt-auto-pass" checked={prefs.autoPass} onChange={(v) => onPrefs({ autoPass: v })} note="after a moment you can stop">
        Pass by itself when nothing else is legal
      </Check>
      <Check testid="opt-confirm" checked={prefs.confirmMoves} onChange={(v) => onPrefs({ confirmMoves: v })} note="else a click that leaves one way to go sends it">
        Ask me to confirm every move
      </Check>
      <Check testid="opt-motion" checked={prefs.motion} onChange={(v) => onPrefs({ motion: v })} note="off: the moves only glow (your system's reduced motion also turns it off)">
        Show the others' moves flying across the board
      </Check>
    </Popover>
  );
}
