/**
 * The puzzle panel: shown above the board when the widget plays a puzzle
 * (the `puzzle` trait). It shows the puzzle's name, goal, difficulty and the
 * ruling it hinges on, the kernel's verdict after each move, and the hints
 * asked for so far. It decides nothing: "Puzzle hint" and "Try again" are
 * intents (`puzzle_hint`, `puzzle_reset`), and the kernel never sends the
 * solution or a hint that was not asked for.
 */
import type { JSX } from "preact";
import type { OutMessage, PuzzleInfo } from "../types";
import { WithRulings } from "./ruling";

const MAX_DIFFICULTY = 5;

/** "●●○○○" for difficulty 2 of 5 (the number is also given in words for screen readers). */
export function difficultyDots(difficulty: number): string {
  const n = Math.max(0, Math.min(MAX_DIFFICULTY, Math.round(difficulty)));
  return "●".repeat(n) + "○".repeat(MAX_DIFFICULTY - n);
}

function hintLabel(p: PuzzleInfo): string {
  if (p.hints_left <= 0) return p.hints.length > 0 ? "No more hints" : "No hints";
  const left = `${p.hints_left} left`;
  return p.hints.length === 0 ? `Puzzle hint (${left})` : `Another hint (${left})`;
}

export function PuzzlePanel(props: { puzzle: PuzzleInfo; send: (m: OutMessage) => void }): JSX.Element {
  const p = props.puzzle;
  return (
    <section class={`lf-puzzle lf-puzzle-${p.state}`} data-testid="puzzle" aria-label={`Puzzle: ${p.name}`}>
      <div class="lf-puzzle-head">
        <h3 class="lf-puzzle-name" data-testid="puzzle-name">
          Puzzle: {p.name}
        </h3>
        <span class="lf-puzzle-difficulty" data-testid="puzzle-difficulty" title={`difficulty ${p.difficulty} of ${MAX_DIFFICULTY}`}>
          <span aria-hidden="true">{difficultyDots(p.difficulty)}</span>
          <span class="lf-sr">
            difficulty {p.difficulty} of {MAX_DIFFICULTY}
          </span>
        </span>
        {p.rule ? (
          <span class="lf-puzzle-rule" data-testid="puzzle-rule" title="the ruling it hinges on">
            {p.rule}
          </span>
        ) : null}
      </div>
      <p class="lf-puzzle-goal" data-testid="puzzle-goal">
        <b>Goal:</b> {p.goal}
      </p>
      {p.story ? <p class="lf-puzzle-story">{p.story}</p> : null}
      {p.told && p.told.length > 0 ? (
        <ul class="lf-puzzle-told" data-testid="puzzle-told" aria-label="What the puzzle tells you">
          {p.told.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ul>
      ) : null}
      <div class="lf-puzzle-status" role="status" aria-live="polite" data-testid="puzzle-status" data-state={p.state}>
        <WithRulings text={p.status} />
      </div>
      {p.hints.length > 0 ? (
        <ol class="lf-puzzle-hints" data-testid="puzzle-hints">
          {p.hints.map((h, i) => (
            <li key={i}>{h}</li>
          ))}
        </ol>
      ) : null}
      <div class="lf-puzzle-buttons">
        <button
          type="button"
          class="lf-btn"
          data-testid="puzzle-hint"
          disabled={p.hints_left <= 0}
          onClick={() => props.send({ kind: "puzzle_hint" })}
        >
          {hintLabel(p)}
        </button>
        <button type="button" class="lf-btn" data-testid="puzzle-reset" onClick={() => props.send({ kind: "puzzle_reset" })}>
          Try again
        </button>
      </div>
    </section>
  );
}
