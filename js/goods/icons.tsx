/**
 * Oh My Goods!' own small pictures (original, no artwork of the game's): a resource chip
 * (a shape and a letter per resource, so colour is never the only cue), the half sun, the
 * Worker and an Assistant.
 */
import type { JSX } from "preact";

const LETTER: Record<string, string> = { grain: "G", wood: "W", clay: "C", ore: "O", hide: "H" };

/** A resource: a coloured chip with its initial; `any` (the Glassmaker's) is a star. */
export function ResourceChip(props: { resource: string; count?: number; state?: "market" | "office" | "hand" | "missing" | "need" }): JSX.Element {
  const r = props.resource;
  const words = `${props.count !== undefined && props.count !== 1 ? `${props.count} ` : ""}${r}${props.state ? ` (${props.state})` : ""}`;
  return (
    <span class="lf-res-wrap" data-resource={r} data-tip={words} title={words} aria-label={words} role="img">
      <span class={`lf-res lf-res-${r} ${props.state ? `lf-res-${props.state}` : ""}`} aria-hidden="true">
        {LETTER[r] ?? "★"}
      </span>
      {props.count !== undefined && props.count !== 1 ? <small class="lf-res-count">×{props.count}</small> : null}
    </span>
  );
}

/** The half sun a market card may show (G3.1). */
export function HalfSun(props: { size?: number; label?: string }): JSX.Element {
  const s = props.size ?? 14;
  return (
    <svg class="lf-icon lf-halfsun" width={s} height={s} viewBox="0 0 20 20" role="img" aria-label={props.label ?? "half sun"}>
      <path d="M2 15 A8 8 0 0 1 18 15 Z" fill="#f2a900" stroke="#8a5a00" stroke-width="1" />
      {[150, 120, 90, 60, 30].map((deg) => {
        const a = (deg * Math.PI) / 180;
        return <line key={deg} x1={10 + 9.5 * Math.cos(a)} y1={15 - 9.5 * Math.sin(a)} x2={10 + 12 * Math.cos(a)} y2={15 - 12 * Math.sin(a)} stroke="#8a5a00" stroke-width="1.4" />;
      })}
      <line x1="1" y1="15.5" x2="19" y2="15.5" stroke="#8a5a00" stroke-width="1.2" />
    </svg>
  );
}

/** The Worker: a round-headed figure; `mode` adds E (efficient) or S (sloppy). */
export function WorkerIcon(props: { mode?: string | null; size?: number }): JSX.Element {
  const s = props.size ?? 18;
  const label = props.mode ? `Worker, ${props.mode}` : "Worker";
  return (
    <span class="lf-person lf-worker" title={label} aria-label={label} role="img">
      <svg class="lf-icon" width={s} height={s} viewBox="0 0 20 20" aria-hidden="true">
        <circle cx="10" cy="5" r="3.6" fill="currentColor" />
        <path d="M3 19 Q3 10 10 10 Q17 10 17 19 Z" fill="currentColor" />
      </svg>
      {props.mode ? <b class="lf-person-mode">{props.mode === "efficient" ? "E" : "S"}</b> : null}
    </span>
  );
}

/** An Assistant: a figure with a square head and its id. */
export function AssistantIcon(props: { id: string; size?: number }): JSX.Element {
  const s = props.size ?? 18;
  return (
    <span class="lf-person lf-assistant" title={`Assistant ${props.id}`} aria-label={`Assistant ${props.id}`} role="img">
      <svg class="lf-icon" width={s} height={s} viewBox="0 0 20 20" aria-hidden="true">
        <rect x="6.4" y="1.4" width="7.2" height="7.2" rx="1.5" fill="#14917f" />
        <path d="M3 19 Q3 10 10 10 Q17 10 17 19 Z" fill="#14917f" />
      </svg>
      <b class="lf-person-mode">{props.id}</b>
    </span>
  );
}
