/**
 * The rulings the kernel's messages cite ("R5.2: ...", Crooks' "C4.6: ...", Oh My Goods!'
 * "G4.4: ..."), with their words: the package's langfinger_widget/kernel/data/rulings.json
 * (written from docs/rulings.md), Crooks' crooks/rulings.json (docs/crooks.md's rulings
 * index) and Oh My Goods!' goods/rulings.json (RULINGS-goods.md in short), bundled in. Pure helpers: find the citations in a text, and a ruling's words.
 */
import RULINGS from "../langfinger_widget/kernel/data/rulings.json";
import CROOKS_RULINGS from "./crooks/rulings.json";
import GOODS_RULINGS from "./goods/rulings.json";

export interface Ruling {
  id: string;
  section: string;
  text: string;
}

const TABLE: Record<string, { section: string; text: string }> = { ...RULINGS, ...CROOKS_RULINGS, ...GOODS_RULINGS };
const CITATION = /\b[RCG]\d+(?:\.\d+)?\b/g;

/** A cited ruling's words; a whole rule ("R11") brings its parts (R11.1, R11.2). */
export function rulingTexts(id: string): Ruling[] {
  const exact = TABLE[id];
  if (exact) return [{ id, ...exact }];
  return Object.entries(TABLE)
    .filter(([k]) => k.startsWith(`${id}.`))
    .map(([k, v]) => ({ id: k, ...v }));
}

export type Piece = { text: string } | { ruling: string };

/** The text cut at each citation of a known ruling: plain pieces and ruling pieces. */
export function splitRulings(text: string): Piece[] {
  const out: Piece[] = [];
  let at = 0;
  for (const m of text.matchAll(CITATION)) {
    const start = m.index ?? 0;
    if (rulingTexts(m[0]).length === 0) continue;
    if (start > at) out.push({ text: text.slice(at, start) });
    out.push({ ruling: m[0] });
    at = start + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
