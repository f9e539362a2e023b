/**
 * The five places in resolution order (R3.1), each with its 5 squares and
 * its display: the City's tools, the Villa's and Museum's loot backs, the
 * Ruin's exchange squares and the Harbor's fences.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { Token } from "../icons";
import {
  citySlotEnabled,
  openRates,
  placeablePlaces,
  rateDraws,
  rateGives,
  sellableFences,
  stealableSlots,
  whyExchange,
  whySteal,
} from "../intents";
import { PLACE_NAMES, PLACE_ROLES, rateWords } from "../format";
import type { Loot, Place, Rate } from "../types";
import { PLACES, RATES } from "../types";
import { FenceFace, LootFace, Pick, ToolFace, fenceLabel, lootLabel } from "./cards";
import { markTools, useUi } from "./ui";

function Squares(props: { place: Place }): JSX.Element {
  const { view, legal, ctl, hint, flash } = useUi();
  const owners = view.squares[props.place] ?? [null, null, null, null, null];
  const d = view.decision;
  const candidate = d?.kind === "place" && legal.length > 0;
  const enabled = placeablePlaces(legal).has(props.place);
  const next = owners.indexOf(null);
  const name = PLACE_NAMES[props.place];
  // The kernel's warning, before the token is placed: legal, but it may find nothing left.
  const late = candidate && enabled ? d?.too_late?.[props.place] : undefined;
  const label = enabled
    ? `Place a token at the ${name} (square ${next + 1})${late ? `. ${late}` : ""}`
    : next < 0
      ? `The ${name} is full`
      : `Place a token at the ${name}`;
  return (
    <>
      <Pick
        candidate={candidate}
        enabled={enabled}
        label={candidate ? label : `Squares of the ${name}`}
        class="lf-squares"
        data={candidate ? { place: props.place, testid: `place-${props.place}` } : {}}
        hint={hint.place === props.place && hint.slot === undefined && !hint.tools && !hint.rate && !hint.fence && !hint.pass}
        onPick={() => ctl.clickPlace(props.place)}
        onWhy={() => ctl.why({ type: "place", place: props.place })}
      >
        {owners.map((seat, i) => {
          const acting = d?.place === props.place && d.square === i;
          const p = seat === null ? undefined : view.players[seat];
          return (
            <span
              key={i}
              class={`lf-square ${acting ? "lf-acting" : ""} ${candidate && enabled && i === next ? "lf-next" : ""} ${
                flash.place === props.place && flash.square === i ? "lf-flash" : ""
              }`}
              data-square={i}
            >
              {p ? <Token scoundrel={p.scoundrel} size={18} /> : <span class="lf-square-no">{i + 1}</span>}
            </span>
          );
        })}
      </Pick>
      {late ? (
        <p class="lf-too-late" data-testid={`too-late-${props.place}`}>
          <span aria-hidden="true">⚠ </span>
          {late}
        </p>
      ) : null}
    </>
  );
}

function City(): JSX.Element {
  const { view, legal, sel, ctl, hint } = useUi();
  const candidate = view.decision?.kind === "city" && legal.length > 0;
  const hinted = hint.place === "city" ? markTools(view.city, hint.tools) : [];
  if (view.city.length === 0) return <p class="lf-empty">No tools left</p>;
  return (
    <div class="lf-display lf-city-tools">
      {view.city.map((tool, i) => (
        <Pick
          key={i}
          candidate={candidate}
          enabled={citySlotEnabled(legal, view.city, sel.city, i)}
          selected={sel.city.includes(i)}
          toggle
          hint={hinted[i]}
          label={`${sel.city.includes(i) ? "Put back" : "Take"} ${tool} (City tool ${i + 1})`}
          class="lf-tool-pick"
          data={{ tool, index: i }}
          onPick={() => ctl.clickCityTool(i)}
          onWhy={() => ctl.why({ type: "take_tools", tools: [tool] })}
        >
          <ToolFace tool={tool} />
        </Pick>
      ))}
    </div>
  );
}

function LootDisplay(props: { place: "villa" | "museum" }): JSX.Element {
  const { view, legal, sel, ctl, hint } = useUi();
  const cards: Loot[] = view[props.place];
  const candidate = view.decision?.kind === props.place && legal.length > 0;
  const stealable = stealableSlots(legal);
  if (cards.length === 0) return <p class="lf-empty">No loot left</p>;
  return (
    <div class="lf-display lf-loot-display">
      {cards.map((loot, i) => (
        <Pick
          key={i}
          candidate={candidate}
          enabled={stealable.has(i)}
          selected={candidate && sel.slot === i}
          hint={hint.place === props.place && hint.slot === i}
          label={`${candidate ? "Steal " : ""}${lootLabel(loot)} (card ${i + 1} at the ${PLACE_NAMES[props.place]})`}
          class="lf-loot-pick"
          data={{ slot: i }}
          onPick={() => ctl.clickSlot(props.place, i)}
          onWhy={() => ctl.why(whySteal(i, loot))}
        >
          <LootFace loot={loot} />
        </Pick>
      ))}
    </div>
  );
}

function Ruin(): JSX.Element {
  const { view, legal, sel, ctl, hint, flash, handCards } = useUi();
  const candidate = view.decision?.kind === "ruin" && legal.length > 0;
  const open = openRates(legal);
  return (
    <div class="lf-display lf-rates">
      {RATES.map((rate: Rate) => {
        const owner = view.ruin_rates[rate];
        const p = owner === null || owner === undefined ? undefined : view.players[owner];
        const label = `Exchange ${rateWords(rate)} (${rate})${p ? `, taken by ${p.name}` : ""}`;
        return (
          <Pick
            key={rate}
            candidate={candidate}
            enabled={open.has(rate)}
            selected={candidate && sel.rate === rate}
            hint={hint.rate === rate}
            flash={flash.rate === rate}
            label={label}
            class="lf-rate"
            data={{ rate }}
            onPick={() => ctl.clickRate(rate)}
            onWhy={() => ctl.why(whyExchange(rate, handCards, sel.give))}
          >
            <span class="lf-rate-text">
              {rateGives(rate)}
              <span aria-hidden="true">→</span>
              {rateDraws(rate)}
            </span>
            <span class="lf-rate-token">{p ? <Token scoundrel={p.scoundrel} size={16} /> : null}</span>
          </Pick>
        );
      })}
    </div>
  );
}

function Harbor(): JSX.Element {
  const { view, legal, sel, ctl, hint, flash, mySeat } = useUi();
  const candidate = view.decision?.kind === "harbor" && legal.length > 0;
  const sellable = sellableFences(legal);
  const myLoot = mySeat === null ? [] : (view.players[mySeat]?.loot ?? []);
  const firstId = myLoot.find((l) => l.id !== undefined)?.id;
  if (view.harbor.length === 0) return <p class="lf-empty">No fences left</p>;
  return (
    <div class="lf-display lf-fences">
      {view.harbor.map((fence) => (
        <Pick
          key={fence.id}
          candidate={candidate}
          enabled={sellable.has(fence.id)}
          selected={candidate && sel.fence === fence.id}
          hint={hint.fence === fence.id}
          flash={flash.fence === fence.id}
          label={`${candidate ? "Sell to " : ""}${fenceLabel(fence)}`}
          class="lf-fence-pick"
          data={{ fence: fence.id }}
          onPick={() => ctl.clickFence(fence.id)}
          onWhy={() => ctl.why({ type: "sell", fence: fence.id, loot: firstId ? [firstId] : [] })}
        >
          <FenceFace fence={fence} />
        </Pick>
      ))}
    </div>
  );
}

const DISPLAYS: Record<Place, () => JSX.Element> = {
  city: City,
  villa: () => <LootDisplay place="villa" />,
  ruin: Ruin,
  museum: () => <LootDisplay place="museum" />,
  harbor: Harbor,
};

export function PlaceColumn(props: { place: Place; order: number }): JSX.Element {
  const { view, flash } = useUi();
  const Display = DISPLAYS[props.place];
  const resolving = view.decision?.place === props.place;
  const flashing = flash.place === props.place;
  const ref = useRef<HTMLElement>(null);
  // A new move here restarts the glow even if the last one still shows. The column is
  // not remounted for that (a remount would drop the keyboard focus of a person
  // who just placed a token with Enter); the animation is restarted in place instead.
  useLayoutEffect(() => {
    const el = ref.current;
    if (!flashing || !el) return;
    const glowing = [el, ...Array.from(el.querySelectorAll<HTMLElement>(".lf-flash"))].filter((n) =>
      n.classList.contains("lf-flash"),
    );
    glowing.forEach((n) => n.classList.remove("lf-flash"));
    void el.offsetWidth; // a reflow, so the browser sees the class come back as a new animation
    glowing.forEach((n) => n.classList.add("lf-flash"));
  }, [flashing, flash.key]);
  return (
    <section
      ref={ref}
      class={`lf-place lf-place-${props.place} ${resolving ? "lf-resolving" : ""} ${flashing ? "lf-flash" : ""}`}
      data-area={props.place}
      aria-label={PLACE_NAMES[props.place]}
    >
      {/* What the place does: a hover's tooltip, a tap's tip (tips.tsx), a screen reader's words. */}
      <header class="lf-place-head" title={PLACE_ROLES[props.place]} data-tip={PLACE_ROLES[props.place]} data-testid={`role-${props.place}`}>
        <span class="lf-place-no" aria-hidden="true">
          {props.order}
        </span>
        <h3>{PLACE_NAMES[props.place]}</h3>
        <span class="lf-sr-only">{PLACE_ROLES[props.place].replace(/^\w+: /, "")}</span>
      </header>
      <Squares place={props.place} />
      <Display />
    </section>
  );
}

export function Places(): JSX.Element {
  return (
    <div class="lf-places">
      {PLACES.map((p, i) => (
        <PlaceColumn key={p} place={p} order={i + 1} />
      ))}
    </div>
  );
}
