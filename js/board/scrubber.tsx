/**
 * The replay panel: a scrubber (buttons, a slider, the keyboard), the
 * decision just made in the record's words, the timeline charts, and the
 * ways out: Continue from here (a live game with the seats as chosen) and
 * Make a puzzle from here (the kernel answers with the puzzle's Python).
 * Every control is an intent; the kernel moves the replay and the board
 * follows its traits.
 */
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import { analysisLine, roundAround, scrubKey } from "../replay";
import type { InMessage, OutMessage, ReplayMessage, ScrubberInfo, Timeline } from "../types";
import { ChanceTimeline, MoneyTimeline } from "./timeline";

const PACES = [0.25, 0.5, 0.8, 1.5, 3];
const HUMAN = "human";

/** The scrubber's button faces, drawn (media glyphs are missing from many fonts). */
const GLYPHS: Record<string, string> = {
  roundBack: "M2 2h2v12H2zM10 2v12L5 8zM15 2v12L10 8z",
  back: "M3 2h2v12H3zM14 2v12L6 8z",
  play: "M4 2v12l9-6z",
  pause: "M4 2h3v12H4zM9 2h3v12H9z",
  forward: "M11 2h2v12h-2zM2 2v12l8-6z",
  roundNext: "M1 2v12l5-6zM6 2v12l5-6zM12 2h2v12h-2z",
};

function Glyph(props: { name: keyof typeof GLYPHS }): JSX.Element {
  return (
    <svg class="lf-glyph" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d={GLYPHS[props.name]} fill="currentColor" />
    </svg>
  );
}

/** One of the scrubber's buttons: a drawn face, its name for screen readers. */
function Control(props: {
  testid: string;
  label: string;
  glyph: keyof typeof GLYPHS;
  disabled?: boolean;
  pressed?: boolean;
  onClick: () => void;
}): JSX.Element {
  return (
    <button
      type="button"
      class="lf-btn"
      data-testid={props.testid}
      aria-label={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled ?? false}
      onClick={props.onClick}
    >
      <Glyph name={props.glyph} />
    </button>
  );
}

function seatName(timeline: Timeline | null, seat: number): string {
  return timeline?.seats[seat]?.name ?? `seat ${seat}`;
}

function ContinuePanel(props: { s: ScrubberInfo; timeline: Timeline | null; send: (m: OutMessage) => void; onClose: () => void }): JSX.Element {
  const { s, timeline } = props;
  const players = timeline?.seats.length ?? 0;
  const [seat, setSeat] = useState<number | null>(s.seat);
  const [bots, setBots] = useState<Record<string, string>>(s.bots);
  const seats = Array.from({ length: players }, (_, i) => i);
  return (
    <form
      class="lf-replay-continue"
      data-testid="replay-continue-panel"
      aria-label="Continue from here"
      onSubmit={(e) => {
        e.preventDefault();
        const chosen = Object.fromEntries(Object.entries(bots).filter(([k, v]) => v !== HUMAN && Number(k) !== seat));
        props.send({ kind: "replay_continue", seat, bots: chosen });
      }}
    >
      <label>
        Your seat{" "}
        <select
          data-testid="replay-continue-seat"
          value={seat === null ? "" : String(seat)}
          onChange={(e) => setSeat((e.target as HTMLSelectElement).value === "" ? null : Number((e.target as HTMLSelectElement).value))}
        >
          <option value="">open board (everyone)</option>
          {seats.map((i) => (
            <option key={i} value={String(i)}>
              {seatName(timeline, i)}
            </option>
          ))}
        </select>
      </label>
      {seats
        .filter((i) => i !== seat)
        .map((i) => (
          <label key={i}>
            {seatName(timeline, i)}{" "}
            <select
              data-testid={`replay-continue-bot-${i}`}
              value={bots[String(i)] ?? HUMAN}
              onChange={(e) => setBots({ ...bots, [String(i)]: (e.target as HTMLSelectElement).value })}
            >
              <option value={HUMAN}>a person</option>
              {s.levels.map((l) => (
                <option key={l} value={l}>
                  {l} bot
                </option>
              ))}
            </select>
          </label>
        ))}
      <button type="submit" class="lf-btn lf-primary" data-testid="replay-continue-go">
        Play on
      </button>
      <button type="button" class="lf-btn" onClick={props.onClose}>
        Cancel
      </button>
    </form>
  );
}

interface PuzzleDraft {
  source: string;
  line: string;
  lineError: string;
}

function PuzzleSource(props: { draft: PuzzleDraft; onClose: () => void }): JSX.Element {
  const { source, line, lineError } = props.draft;
  return (
    <section class="lf-replay-puzzle" data-testid="replay-puzzle" aria-label="Puzzle from here">
      <p>
        A puzzle for the seat to move, proven by the solver, as one line of a puzzle book: append it to a{" "}
        <code>.jsonl</code> book and give it a name, a story and hints.
      </p>
      {line ? (
        <pre data-testid="replay-puzzle-line">{line}</pre>
      ) : (
        <p data-testid="replay-puzzle-line-error">{lineError}</p>
      )}
      <p>
        The same as Python (<code>w.puzzle_draft</code>): check it with <code>puzzle.prove()</code>.
      </p>
      <pre data-testid="replay-puzzle-source">{source}</pre>
      <button
        type="button"
        class="lf-btn"
        onClick={() => {
          void navigator.clipboard?.writeText(line || source);
        }}
      >
        Copy
      </button>
      <button type="button" class="lf-btn" onClick={props.onClose}>
        Close
      </button>
    </section>
  );
}

export function ReplayPanel(props: {
  scrubber: ScrubberInfo;
  timeline: Timeline | null;
  send: (m: OutMessage) => void;
  inbox: InMessage | null;
}): JSX.Element {
  const { scrubber: s, timeline, send } = props;
  const [continuing, setContinuing] = useState(false);
  const [puzzle, setPuzzle] = useState<PuzzleDraft | null>(null);
  const shownEval = timeline?.evaluation?.seat ?? null;
  const [analyseSeat, setAnalyseSeat] = useState<number>(s.record_seat ?? shownEval ?? s.seat ?? 0);
  // The seat picked for analysis follows the chart: the graph drawn is of the seat the menu names.
  useEffect(() => {
    if (shownEval !== null) setAnalyseSeat(shownEval);
  }, [shownEval]);
  const ask = (m: ReplayMessage): void => send(m);

  useEffect(() => {
    const msg = props.inbox;
    if (msg && msg.kind === "replay_puzzle" && typeof msg.source === "string")
      setPuzzle({
        source: msg.source,
        line: typeof msg.line === "string" ? msg.line : "",
        lineError: typeof msg.line_error === "string" ? msg.line_error : "",
      });
  }, [props.inbox]);

  const { next } = roundAround(s.rounds, s.index);
  const onKey = (e: KeyboardEvent): void => {
    const target = e.target as HTMLElement;
    // Space and Enter on a button or a menu are that control's own.
    if ((e.key === " " || e.key === "k") && target.tagName !== "INPUT" && target !== e.currentTarget) return;
    if (target.tagName === "SELECT") return;
    const m = scrubKey(e.key, s);
    if (m) {
      e.preventDefault();
      ask(m);
    }
  };
  const players = timeline?.seats.length ?? 0;
  const a = s.analysing;
  return (
    <section class="lf-replay" aria-label="Replay" data-testid="replay" tabIndex={0} onKeyDown={onKey}>
      <div class="lf-replay-bar" role="toolbar" aria-label="Replay controls">
        <Control testid="replay-round-back" label="Back to the start of the round" glyph="roundBack" disabled={s.index === 0} onClick={() => ask({ kind: "replay_round", direction: -1 })} />
        <Control testid="replay-back" label="One decision back" glyph="back" disabled={s.index === 0} onClick={() => ask({ kind: "replay_step", delta: -1 })} />
        <Control
          testid="replay-play"
          label={s.playing ? "Pause" : "Play"}
          glyph={s.playing ? "pause" : "play"}
          pressed={s.playing}
          onClick={() => ask(s.playing ? { kind: "replay_pause" } : { kind: "replay_play" })}
        />
        <Control testid="replay-forward" label="One decision forward" glyph="forward" disabled={s.index >= s.length} onClick={() => ask({ kind: "replay_step", delta: 1 })} />
        <Control testid="replay-round-next" label="Next round" glyph="roundNext" disabled={next === null} onClick={() => ask({ kind: "replay_round", direction: 1 })} />
        <input
          type="range"
          class="lf-replay-slider"
          data-testid="replay-slider"
          min={0}
          max={s.length}
          step={1}
          value={s.index}
          aria-label="Decision"
          aria-valuetext={`decision ${s.index} of ${s.length}: ${s.caption}`}
          onInput={(e) => ask({ kind: "replay_seek", index: Number((e.target as HTMLInputElement).value) })}
        />
        <span class="lf-replay-position" data-testid="replay-position">
          {s.index} / {s.length}
        </span>
        <label class="lf-replay-pace">
          <span class="lf-sr">seconds a decision</span>
          <select
            data-testid="replay-pace"
            value={String(s.pace)}
            onChange={(e) => ask({ kind: "replay_pace", pace: Number((e.target as HTMLSelectElement).value) })}
          >
            {[...new Set([...PACES, s.pace])].sort((x, y) => x - y).map((p) => (
              <option key={p} value={String(p)}>
                {p} s
              </option>
            ))}
          </select>
        </label>
      </div>
      <p class="lf-replay-label" data-testid="replay-label" aria-live="polite" title={s.index > 0 ? s.label : undefined}>
        {s.index > 0 ? <span class="lf-replay-no">{s.index}.</span> : null} {s.caption}
      </p>
      {timeline ? (
        <div class="lf-replay-charts">
          <MoneyTimeline timeline={timeline} index={s.index} rounds={s.rounds} send={ask} />
          <ChanceTimeline timeline={timeline} index={s.index} send={ask} />
        </div>
      ) : null}
      <div class="lf-replay-actions">
        {s.record_seat === null && players > 0 ? (
          <label>
            Seen by{" "}
            <select
              data-testid="replay-seat"
              value={s.seat === null ? "" : String(s.seat)}
              onChange={(e) => {
                const v = (e.target as HTMLSelectElement).value;
                ask({ kind: "replay_seat", seat: v === "" ? null : Number(v) });
              }}
            >
              <option value="">everyone (from above)</option>
              {Array.from({ length: players }, (_, i) => (
                <option key={i} value={String(i)}>
                  {seatName(timeline, i)}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <span class="lf-replay-seen">Seen by {s.seat === null ? "everyone" : seatName(timeline, s.seat)}</span>
        )}
        <label>
          Analyse{" "}
          <select
            data-testid="replay-analyse-seat"
            value={String(a ? a.seat : analyseSeat)}
            disabled={s.record_seat !== null || a !== null}
            onChange={(e) => setAnalyseSeat(Number((e.target as HTMLSelectElement).value))}
          >
            {Array.from({ length: players }, (_, i) => i)
              .filter((i) => s.record_seat === null || i === s.record_seat)
              .map((i) => (
                <option key={i} value={String(i)}>
                  {seatName(timeline, i)}
                </option>
              ))}
          </select>
        </label>
        <button
          type="button"
          class="lf-btn"
          data-testid="replay-analyse"
          disabled={a !== null}
          onClick={() => ask({ kind: "replay_analyse", seat: s.record_seat ?? analyseSeat })}
        >
          {a ? `Analysing ${seatName(timeline, a.seat)} ${a.done}/${a.total ?? "…"}` : "Analyse"}
        </button>
        <button type="button" class="lf-btn" data-testid="replay-continue" disabled={!s.can_continue} onClick={() => setContinuing(!continuing)}>
          Continue from here
        </button>
        {s.puzzles === false ? null : (
          <button type="button" class="lf-btn" data-testid="replay-make-puzzle" disabled={!s.can_continue} onClick={() => ask({ kind: "replay_puzzle" })}>
            Make a puzzle from here
          </button>
        )}
      </div>
      {timeline?.evaluation ? (
        <p class="lf-replay-eval" data-testid="replay-eval-note" data-seat={timeline.evaluation.seat}>
          {analysisLine(timeline, s.index)}
        </p>
      ) : null}
      {continuing ? <ContinuePanel s={s} timeline={timeline} send={send} onClose={() => setContinuing(false)} /> : null}
      {puzzle !== null ? <PuzzleSource draft={puzzle} onClose={() => setPuzzle(null)} /> : null}
    </section>
  );
}
