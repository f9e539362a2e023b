/**
 * Original inline SVG icons, drawn for this project on a 24×24 grid.
 * Tools and protections use `currentColor` so they follow the theme;
 * kinds carry their own colours; tokens pair a colour with a shape so that
 * colour is never the only cue (R0.5).
 */
import type { ComponentChildren, JSX } from "preact";
import type { Kind, Protection, Scoundrel, Tool } from "./types";

interface IconProps {
  size?: number;
  /** When given, the icon is announced (role="img"); otherwise it is decorative. */
  label?: string;
  class?: string;
}

function Svg(props: IconProps & { children: ComponentChildren; viewBox?: string }): JSX.Element {
  const size = props.size ?? 20;
  const a11y = props.label
    ? { role: "img" as const, "aria-label": props.label }
    : { "aria-hidden": "true" as const, focusable: "false" as const };
  return (
    <svg
      class={`lf-icon ${props.class ?? ""}`}
      width={size}
      height={size}
      viewBox={props.viewBox ?? "0 0 24 24"}
      {...a11y}
    >
      {props.label ? <title>{props.label}</title> : null}
      {props.children}
    </svg>
  );
}

const stroke = {
  fill: "none",
  stroke: "currentColor",
  "stroke-width": 1.8,
  "stroke-linecap": "round",
  "stroke-linejoin": "round",
} as const;

// ---- tools ------------------------------------------------------------------

const TOOL_DRAWINGS: Record<Tool, () => JSX.Element> = {
  lockpick: () => (
    <g {...stroke}>
      <circle cx="6.5" cy="17.5" r="3.2" />
      <path d="M8.8 15.2 L16.8 7.2 L17.9 8.1 L18.7 6.5 L19.8 7.4 L20.6 5.6" />
    </g>
  ),
  hammer: () => (
    <g {...stroke}>
      <path d="M13.2 10.8 L4.5 19.5" stroke-width="2.6" />
      <path d="M10.5 6.2 L14.5 2.8 L21.2 9.5 L17.8 13.5 Z" fill="currentColor" fill-opacity="0.25" />
      <path d="M12.5 4.5 L10 2.5" />
    </g>
  ),
  // Pliers, not scissors: short blunt ridged jaws over a bolt, long gripped handles.
  pliers: () => (
    <g>
      <path d="M9.4 10 L9.2 4.2 C9.2 2.6 14.8 2.6 14.8 4.2 L14.6 10 Z" fill="currentColor" />
      <path d="M12 3.4 V9.6" stroke="var(--lf-card, #fff)" stroke-width="0.9" />
      <path d="M9.9 5.2 H11.2 M9.9 6.8 H11.2 M12.8 5.2 H14.1 M12.8 6.8 H14.1" stroke="var(--lf-card, #fff)" stroke-width="0.7" />
      <g {...stroke}>
        <path d="M10.8 12 C9.6 15.2 8 18.4 6.8 21.6" stroke-width="3.4" stroke="#c0392b" />
        <path d="M13.2 12 C14.4 15.2 16 18.4 17.2 21.6" stroke-width="3.4" stroke="#c0392b" />
        <path d="M10.2 10.2 L10.9 12.4 M13.8 10.2 L13.1 12.4" stroke-width="2.2" />
      </g>
      <circle cx="12" cy="11" r="2" fill="currentColor" />
      <circle cx="12" cy="11" r="0.7" fill="var(--lf-card, #fff)" />
    </g>
  ),
  welder: () => (
    <g>
      <g {...stroke}>
        <path d="M4 20 L12.5 11.5" stroke-width="3" />
        <path d="M12.5 11.5 L15.5 8.5" />
        <path d="M6.5 14.5 L9.5 17.5" />
      </g>
      <path d="M16.2 7.8 C17.5 4.8 20.5 3.8 21.5 2.5 C21.6 5 20.8 8.2 17.8 9.4 Z" fill="#f08a24" />
      <path d="M16.6 7.9 C17.6 6.3 19 5.6 19.9 5 C19.7 6.4 19 7.8 17.5 8.5 Z" fill="#ffd34d" />
    </g>
  ),
  map: () => (
    <g {...stroke}>
      <path d="M3 6 L9 3.8 L15 6 L21 3.8 V18 L15 20.2 L9 18 L3 20.2 Z" fill="currentColor" fill-opacity="0.12" />
      <path d="M9 3.8 V18 M15 6 V20.2" stroke-width="1.2" />
      <path d="M5 15 C7 13 9 14 11 12 S 15 9 17 10" stroke-dasharray="1.6 1.6" stroke-width="1.3" />
      <path d="M17 8.5 l2 2 M19 8.5 l-2 2" stroke="#d6333a" />
    </g>
  ),
};

export function ToolIcon(props: IconProps & { tool: Tool }): JSX.Element {
  const Draw = TOOL_DRAWINGS[props.tool];
  return (
    <Svg {...props} class={`lf-tool-icon lf-tool-${props.tool} ${props.class ?? ""}`}>
      <Draw />
    </Svg>
  );
}

// ---- loot kinds -----------------------------------------------------------------

const KIND_DRAWINGS: Record<Kind, () => JSX.Element> = {
  money: () => (
    <g>
      <path d="M8.5 7 C5 10 3.5 14 4.5 17.5 C5.5 20.5 9 21 12 21 C15 21 18.5 20.5 19.5 17.5 C20.5 14 19 10 15.5 7 Z" fill="#c9a26b" stroke="#6b4a22" stroke-width="1.2" />
      <path d="M8.5 7 L7 3.5 C9 4.5 10.5 3 12 3.8 C13.5 3 15 4.5 17 3.5 L15.5 7 Z" fill="#b38b55" stroke="#6b4a22" stroke-width="1.2" />
      <path d="M8 7 H16" stroke="#6b4a22" stroke-width="1.6" />
      <path d="M14 11.5 C13.4 10.8 10.2 10.6 10.2 12.4 C10.2 14.2 14 13.6 14 15.5 C14 17.2 10.8 17 10 16.2 M12 9.8 V18" fill="none" stroke="#4a3214" stroke-width="1.3" stroke-linecap="round" />
    </g>
  ),
  painting: () => (
    <g>
      <rect x="2.5" y="4" width="19" height="16" rx="1" fill="#b8862b" stroke="#6e4d12" stroke-width="1.2" />
      <rect x="5" y="6.5" width="14" height="11" fill="#bfe3f2" />
      <path d="M5 17.5 L10 11 L13 14.5 L15 12.5 L19 17.5 Z" fill="#3f8f4f" />
      <circle cx="15.5" cy="9.5" r="1.6" fill="#f2c200" />
    </g>
  ),
  // Coins are silver and round (a stack and one face-on, stamped with a star): never the
  // gold bars' yellow, so the two kinds tell apart at a glance.
  coins: () => (
    <g stroke="#4f5660" stroke-width="1.1">
      <ellipse cx="9.5" cy="19" rx="6.5" ry="2.4" fill="#aeb4bc" />
      <path d="M3 16.6 V19 M16 16.6 V19" />
      <ellipse cx="9.5" cy="16.6" rx="6.5" ry="2.4" fill="#c3c8cf" />
      <path d="M3 14.2 V16.6 M16 14.2 V16.6" />
      <ellipse cx="9.5" cy="14.2" rx="6.5" ry="2.4" fill="#d8dce1" />
      <circle cx="16" cy="8" r="5.4" fill="#e3e6ea" />
      <circle cx="16" cy="8" r="3.6" fill="none" stroke-width="0.9" />
      <path d="M16 5.6 L16.7 7.3 L18.4 7.4 L17.1 8.5 L17.5 10.2 L16 9.3 L14.5 10.2 L14.9 8.5 L13.6 7.4 L15.3 7.3 Z" fill="#8d949d" stroke="none" />
    </g>
  ),
  // Gold: three stacked bars, deep yellow with a bright edge.
  gold: () => (
    <g stroke="#7a5200" stroke-width="1.1" stroke-linejoin="round">
      <path d="M1.8 20.5 L4 14 H11.2 L13.4 20.5 Z" fill="#f0b400" />
      <path d="M10.6 20.5 L12.8 14 H20 L22.2 20.5 Z" fill="#e0a100" />
      <path d="M6.2 13.6 L8.4 7 H15.6 L17.8 13.6 Z" fill="#ffc928" />
      <path d="M9.2 9 H14.6 M5 16 H10 M13.8 16 H18.8" stroke="#fff1b3" stroke-width="1.2" />
    </g>
  ),
  jewelry: () => (
    <g>
      <circle cx="12" cy="15" r="5.8" fill="none" stroke="#c9a227" stroke-width="2.2" />
      <path d="M8.5 6 L10 3.5 H14 L15.5 6 L12 10.2 Z" fill="#7fd3f5" stroke="#2a7ea8" stroke-width="1" stroke-linejoin="round" />
      <path d="M8.5 6 H15.5 M12 10.2 L10.6 6 L12 3.5 L13.4 6 Z" fill="none" stroke="#2a7ea8" stroke-width="0.8" />
    </g>
  ),
  statue: () => (
    <g fill="#c7c2b8" stroke="#6f6a60" stroke-width="1.1" stroke-linejoin="round">
      <rect x="5.5" y="18" width="13" height="3.5" rx="0.6" />
      <path d="M7 18 C7 14.5 9 13.5 12 13.5 C15 13.5 17 14.5 17 18 Z" />
      <circle cx="12" cy="8.8" r="3.8" />
      <path d="M10.8 12.3 V13.6 M13.2 12.3 V13.6" />
      <path d="M8.4 7.6 C9 4.8 15 4.8 15.6 7.6" fill="none" />
    </g>
  ),
};

export function KindIcon(props: IconProps & { kind: Kind }): JSX.Element {
  const Draw = KIND_DRAWINGS[props.kind];
  return (
    <Svg {...props} class={`lf-kind-icon ${props.class ?? ""}`}>
      <Draw />
    </Svg>
  );
}

// ---- protections ------------------------------------------------------------------

const PROTECTION_DRAWINGS: Record<Protection, () => JSX.Element> = {
  chest: () => (
    <g {...stroke}>
      <path d="M3.5 10 C3.5 5 20.5 5 20.5 10 Z" fill="currentColor" fill-opacity="0.2" />
      <rect x="3.5" y="10" width="17" height="10" rx="1" fill="currentColor" fill-opacity="0.12" />
      <rect x="10.3" y="9" width="3.4" height="4.2" rx="0.6" fill="currentColor" />
      <path d="M7 10 V20 M17 10 V20" stroke-width="1.2" />
    </g>
  ),
  pillar: () => (
    <g {...stroke}>
      <path d="M4 6 H20 L18.5 3.5 H5.5 Z" fill="currentColor" fill-opacity="0.2" />
      <path d="M6 6.5 V18 M18 6.5 V18" />
      <path d="M10 7 V17.5 M14 7 V17.5" stroke-width="1.2" />
      <path d="M4 20.5 H20 M5 18.2 H19" />
    </g>
  ),
  showcase: () => (
    <g {...stroke}>
      <rect x="5" y="3.5" width="14" height="12" rx="0.8" fill="currentColor" fill-opacity="0.08" />
      <path d="M8 7 L10.5 4.5 M8 10.5 L13 5.5" stroke-width="1.2" />
      <path d="M3.5 15.5 H20.5 V18.5 H3.5 Z" fill="currentColor" fill-opacity="0.25" />
      <path d="M6 18.5 V21 M18 18.5 V21" />
    </g>
  ),
  safe: () => (
    <g {...stroke}>
      <rect x="3.5" y="3.5" width="17" height="16" rx="1.5" fill="currentColor" fill-opacity="0.15" />
      <circle cx="11" cy="11.5" r="4" />
      <path d="M11 7.5 V9 M11 14 V15.5 M7 11.5 H8.5 M13.5 11.5 H15" stroke-width="1.3" />
      <path d="M17.5 9 V14" stroke-width="2.4" />
      <path d="M6 19.5 V21.5 M18 19.5 V21.5" />
    </g>
  ),
};

export function ProtectionIcon(props: IconProps & { protection: Protection }): JSX.Element {
  const Draw = PROTECTION_DRAWINGS[props.protection];
  return (
    <Svg {...props} class={`lf-protection-icon ${props.class ?? ""}`}>
      <Draw />
    </Svg>
  );
}

// ---- fence and scoundrels ---------------------------------------------------------------

/** A fence: a shady buyer with a low hat and a turned-up collar. */
export function FenceIcon(props: IconProps): JSX.Element {
  return (
    <Svg {...props} class={`lf-fence-icon ${props.class ?? ""}`}>
      <g {...stroke}>
        <path d="M3.5 9.5 H20.5" stroke-width="2.2" />
        <path d="M7 9.5 C7 3.5 17 3.5 17 9.5" fill="currentColor" fill-opacity="0.35" />
        <path d="M8 10 C8 14 16 14 16 10" />
        <path d="M9.2 11.2 H14.8" stroke-width="1.2" />
        <path d="M4.5 21 C5 16 8 14.5 9.5 13.5 L12 17 L14.5 13.5 C16 14.5 19 16 19.5 21" fill="currentColor" fill-opacity="0.2" />
      </g>
    </Svg>
  );
}

export const SCOUNDREL_COLOURS: Record<Scoundrel, string> = {
  pascal: "#2b6cd4",
  hans: "#8a5a2e",
  tommaso: "#2f9e44",
  yoshiko: "#e8b800",
  bobby: "#d6333a",
};

export const SCOUNDREL_SHAPES: Record<Scoundrel, string> = {
  pascal: "circle",
  hans: "square",
  tommaso: "triangle",
  yoshiko: "diamond",
  bobby: "star",
};

const SHAPE_PATHS: Record<string, string> = {
  circle: "M12 3 A9 9 0 1 1 11.99 3 Z",
  square: "M4 4 H20 V20 H4 Z",
  triangle: "M12 2.8 L21.5 20 H2.5 Z",
  diamond: "M12 2 L22 12 L12 22 L2 12 Z",
  star: "M12 2 L14.6 8.6 L21.6 9.1 L16.2 13.6 L17.9 20.5 L12 16.7 L6.1 20.5 L7.8 13.6 L2.4 9.1 L9.4 8.6 Z",
};

/** A player's token: the scoundrel's colour and shape. */
export function Token(props: IconProps & { scoundrel: Scoundrel }): JSX.Element {
  const shape = SCOUNDREL_SHAPES[props.scoundrel];
  return (
    <Svg {...props} class={`lf-token lf-token-${props.scoundrel} ${props.class ?? ""}`}>
      <path
        d={SHAPE_PATHS[shape]}
        fill={SCOUNDREL_COLOURS[props.scoundrel]}
        stroke="var(--lf-token-edge)"
        stroke-width="1.6"
        stroke-linejoin="round"
      />
    </Svg>
  );
}

/** A scoundrel: a masked face in the scoundrel's colour, with its token shape as a badge. */
export function ScoundrelIcon(props: IconProps & { scoundrel: Scoundrel }): JSX.Element {
  const c = SCOUNDREL_COLOURS[props.scoundrel];
  const shape = SCOUNDREL_SHAPES[props.scoundrel];
  return (
    <Svg {...props} class={`lf-scoundrel-icon ${props.class ?? ""}`} viewBox="0 0 32 32">
      <circle cx="15" cy="15" r="11" fill={c} stroke="var(--lf-token-edge)" stroke-width="1.4" />
      <path d="M5 8.5 C9 5.5 21 5.5 25 8.5 L25 10 H5 Z" fill="var(--lf-token-edge)" opacity="0.75" />
      <path d="M4.8 13 C8 11 22 11 25.2 13 L24.5 17 C21 16 18 18.5 15 16.5 C12 18.5 9 16 5.5 17 Z" fill="#1d1d1f" />
      <circle cx="10.5" cy="14.6" r="1.5" fill="#fff" />
      <circle cx="19.5" cy="14.6" r="1.5" fill="#fff" />
      <path d="M11 21 C13 22.5 17 22.5 19 21" fill="none" stroke="#1d1d1f" stroke-width="1.4" stroke-linecap="round" />
      <g transform="translate(19 19) scale(0.5)">
        <path d={SHAPE_PATHS[shape]} fill={c} stroke="var(--lf-token-edge)" stroke-width="2.4" stroke-linejoin="round" />
      </g>
    </Svg>
  );
}

/** A token shape drawn inside another SVG (for charts), centred on (x, y). */
export function ShapeMark(props: { scoundrel: Scoundrel; x: number; y: number; size?: number }): JSX.Element {
  const s = (props.size ?? 10) / 24;
  return (
    <path
      d={SHAPE_PATHS[SCOUNDREL_SHAPES[props.scoundrel]]}
      transform={`translate(${props.x - 12 * s} ${props.y - 12 * s}) scale(${s})`}
      fill={SCOUNDREL_COLOURS[props.scoundrel]}
      stroke="var(--lf-token-edge)"
      stroke-width={1.6 / s / 2}
    />
  );
}
