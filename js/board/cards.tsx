/**
 * Cards and the one clickable wrapper every choice on the board goes through.
 */
import type { ComponentChildren, JSX } from "preact";
import { FenceIcon, KindIcon, ProtectionIcon, ToolIcon } from "../icons";
import { fenceWords, lootWords } from "../format";
import type { Fence, Kind, Loot, Tool } from "../types";

export interface PickProps {
  /** Part of the decision being made: rendered as a button. */
  candidate: boolean;
  /** A legal choice (else aria-disabled; a click asks `why` when onWhy is given). */
  enabled: boolean;
  selected?: boolean;
  /** Show aria-pressed (a toggle in a multi-click choice). */
  toggle?: boolean;
  hint?: boolean;
  flash?: boolean;
  label: string;
  class?: string;
  data?: Record<string, string | number>;
  onPick?: () => void;
  onWhy?: () => void;
  children: ComponentChildren;
}

function dataAttrs(data: Record<string, string | number> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(data ?? {})) out[`data-${k}`] = String(v);
  return out;
}

/**
 * A board element that may be chosen. Legal choices are real, focusable
 * buttons (Enter and Space work natively); illegal candidates stay focusable
 * but are aria-disabled and only ever ask the kernel why.
 */
export function Pick(p: PickProps): JSX.Element {
  const cls = [
    p.class ?? "",
    p.candidate ? "lf-pick" : "",
    p.candidate && p.enabled ? "lf-legal" : "",
    p.candidate && !p.enabled ? "lf-illegal" : "",
    p.selected ? "lf-selected" : "",
    p.hint ? "lf-hint" : "",
    p.flash ? "lf-flash" : "",
  ]
    .filter(Boolean)
    .join(" ");
  if (!p.candidate) {
    return (
      <div class={cls} role="img" aria-label={p.label} title={p.label} {...dataAttrs(p.data)}>
        {p.children}
      </div>
    );
  }
  const onClick = (): void => {
    if (p.enabled) p.onPick?.();
    else p.onWhy?.();
  };
  return (
    <button
      type="button"
      class={cls}
      aria-label={p.label}
      title={p.label}
      aria-disabled={p.enabled ? undefined : "true"}
      aria-pressed={p.toggle ? (p.selected ? "true" : "false") : undefined}
      data-legal={p.enabled ? "true" : "false"}
      {...dataAttrs(p.data)}
      onClick={onClick}
    >
      {p.children}
    </button>
  );
}

export function ToolFace(props: { tool: Tool; size?: number }): JSX.Element {
  return (
    <span class={`lf-toolcard lf-tool-${props.tool}`}>
      <ToolIcon tool={props.tool} size={props.size ?? 28} />
    </span>
  );
}

export function ToolRow(props: { tools: readonly Tool[]; size?: number }): JSX.Element {
  return (
    <span class="lf-toolrow">
      {props.tools.map((t, i) => (
        <ToolIcon key={i} tool={t} size={props.size ?? 14} />
      ))}
    </span>
  );
}

/** A loot card: the back (protection and pictured tools) and, when known, the front. */
export function LootFace(props: { loot: Loot; small?: boolean }): JSX.Element {
  const { loot } = props;
  const known = loot.kind !== undefined && loot.value !== undefined;
  return (
    <span
      class={`lf-loot lf-prot-${loot.protection} ${props.small ? "lf-small" : ""} ${known ? "lf-known" : ""} ${loot.told ? "lf-told" : ""}`}
      title={loot.told ? "the puzzle tells you this front" : undefined}
    >
      <span class="lf-loot-back">
        <ProtectionIcon protection={loot.protection} size={props.small ? 16 : 26} />
        <ToolRow tools={loot.tools} size={props.small ? 11 : 16} />
      </span>
      {known ? (
        <span class="lf-loot-front">
          <KindIcon kind={loot.kind as Kind} size={props.small ? 15 : 22} />
          <b class="lf-value">{loot.value}</b>
        </span>
      ) : null}
    </span>
  );
}

export function lootLabel(loot: Loot): string {
  return lootWords(loot);
}

/** A loot card in a player's panel, in little: its back and, when known, its front. */
export function LootChip(props: { loot: Loot }): JSX.Element {
  const l = props.loot;
  const known = l.kind !== undefined && l.value !== undefined;
  return (
    <span
      class={`lf-chip lf-prot-${l.protection} ${l.told ? "lf-told" : ""}`}
      data-tip={known ? `${l.kind} worth ${l.value}${l.told ? " (told by the puzzle)" : ""}` : `${l.protection}, front hidden`}
    >
      <ProtectionIcon protection={l.protection} size={16} />
      {known ? (
        <>
          <KindIcon kind={l.kind as Kind} size={16} />
          <b>{l.value}</b>
        </>
      ) : null}
    </span>
  );
}

/** A fence card: each kind it buys, twice when it buys two, with its bonus. */
export function FenceFace(props: { fence: Fence; small?: boolean }): JSX.Element {
  const { fence } = props;
  const size = props.small ? 15 : 22;
  return (
    <span class={`lf-fence ${props.small ? "lf-small" : ""}`}>
      <FenceIcon size={size + 2} />
      <span class="lf-fence-buys">
        {Object.entries(fence.buys).map(([kind, cb]) => {
          const [count, bonus] = cb as [number, number];
          return (
            // "2×" in figures: this fence buys two of the kind in one sale (R8.2).
            <span class="lf-buy" key={kind} data-tip={`${count === 2 ? "2 × " : ""}${kind}${bonus ? `, +${bonus} each` : ""}`}>
              {count > 1 ? <b class="lf-times">{count}×</b> : null}
              <KindIcon kind={kind as Kind} size={size} />
              {bonus ? <b class="lf-bonus">+{bonus}</b> : null}
            </span>
          );
        })}
      </span>
      <small class="lf-fence-id">{fence.id}</small>
    </span>
  );
}

export function fenceLabel(fence: Fence): string {
  return fenceWords(fence);
}
