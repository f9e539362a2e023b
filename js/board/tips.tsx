/**
 * Labels a tap shows. A `title` tooltip never appears on a touch screen, so a
 * tap (or a click) on anything the board labels but that is not a control
 * (an opponent's card, a token on the money track, a hand's size) shows its
 * label in a small bubble next to it, until the next tap.
 */
import type { JSX } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";

const TIP_MS = 4000;

export interface Tip {
  text: string;
  x: number;
  y: number;
  key: number;
}

/** The label a tap on `target` shows, and the element it belongs to; null for controls. */
export function tipTarget(target: EventTarget | null): { el: Element; text: string } | null {
  if (!(target instanceof Element)) return null;
  const el = target.closest("[data-tip], [title]");
  if (!el || el.closest("button, a, input, select, label, summary")) return null;
  const text = el.getAttribute("data-tip") || el.getAttribute("title") || "";
  return text ? { el, text } : null;
}

export function useTapTips(root: () => HTMLElement | null): [Tip | null, (e: MouseEvent) => void] {
  const [tip, setTip] = useState<Tip | null>(null);
  const onClick = useCallback(
    (e: MouseEvent) => {
      const found = tipTarget(e.target);
      const box = root()?.getBoundingClientRect();
      if (!found || !box) {
        setTip(null);
        return;
      }
      const r = found.el.getBoundingClientRect();
      // Centred under the element, but kept inside the board (a phone's edge would cut it).
      const half = Math.min(110, box.width / 2);
      const x = Math.min(Math.max(r.left - box.left + r.width / 2, half), box.width - half);
      setTip((old) => ({ text: found.text, x, y: r.bottom - box.top + 4, key: (old?.key ?? 0) + 1 }));
    },
    [root],
  );
  useEffect(() => {
    if (!tip) return;
    const t = setTimeout(() => setTip(null), TIP_MS);
    return () => clearTimeout(t);
  }, [tip?.key]);
  return [tip, onClick];
}

export function TapTip(props: { tip: Tip | null }): JSX.Element | null {
  const { tip } = props;
  if (!tip) return null;
  return (
    <div class="lf-tip" role="tooltip" data-testid="tip" style={{ left: `${tip.x}px`, top: `${tip.y}px` }}>
      {tip.text}
    </div>
  );
}
