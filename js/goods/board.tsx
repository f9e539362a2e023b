/**
 * The Oh My Goods! board (format `goods-view/1`): a tableau a seat (buildings with their
 * goods and coins, the Worker and Assistants, VP so far), the market in its two rows with
 * the half suns, the Assistants on offer, your hand, and what is being decided: keep or a
 * new hand, the sealed plan by clicks on your tableau, production (what each building
 * needs, what the market and your Offices supply, what is missing, hand cards to close the
 * gap), chains, paying with goods, hiring; the end screen's VP by source.
 * What may be clicked is what `legal` says; a click on anything else asks the kernel
 * "why not?" and shows its ruling. The shell's toolbar, message strip, New game panel and
 * hot-seat cover are shared with the other games' boards.
 */
import type { ComponentChildren, JSX } from "preact";
import { winnersWords } from "../format";
import { useEffect, useMemo, useState } from "preact/hooks";
import { PrivacyCover } from "../board/hand";
import type { Message } from "../board/messages";
import { MessageBar } from "../board/messages";
import { ShellLegend, ShellLog, ShellTop, useFocusHandOver, useGameShell } from "../board/shell";
import type { ShellHost } from "../board/shell";
import type { InMessage, OutMessage, WidgetState } from "../types";
import { AssistantIcon, HalfSun, ResourceChip, WorkerIcon } from "./icons";
import {
  actionWords,
  chainWords,
  countWords,
  goodsPrivacy,
  isLegalGoods,
  legalOf,
  logLines,
  marketRows,
  meOf,
  needsWords,
} from "./model";
import type { Built, CardFace, GoodsAction, GoodsPlayer, GoodsView, Kind, Need, Standing } from "./model";

export type GoodsHost = ShellHost;

/** What a click on the board does now: act (legal), ask why (not legal), or nothing. */
interface Clicks {
  legal: unknown[];
  act: (a: GoodsAction) => void;
  tryAct: (a: GoodsAction) => void;
  /** The Assistant picked to move in the plan (its building is clicked next), or null. */
  moving: string | null;
  setMoving: (a: string | null) => void;
  /** The building picked for the Worker, waiting for its mode, or null. */
  working: string | null;
  setWorking: (b: string | null) => void;
}

function nameOf(view: GoodsView, seat: number): string {
  const name = view.players[seat]?.name ?? `Player ${seat + 1}`;
  return seat === view.seat ? `${name} (you)` : name;
}

const PHASE_WORDS: Record<string, string> = {
  hand: "I · New hand cards",
  plan: "II · Sunrise: plan",
  production: "IV · Production and building",
  over: "Game over",
};

/** What the seat is asked now, in words. */
function prompt(view: GoodsView, legal: unknown[], privacy: number | null, me: number | null): string {
  if (view.phase === "over") return "The game is over.";
  if (privacy !== null) return `Waiting for ${nameOf(view, privacy)} to come to the screen.`;
  const waiting = view.to_decide.map((s) => nameOf(view, s)).join(", ");
  if (legal.length === 0) {
    if (view.sealed && me !== null && view.sealed[me]) return `Sealed. Waiting for ${waiting}…`;
    return `${waiting} ${view.to_decide.length > 1 ? "are" : "is"} deciding…`;
  }
  if (view.exhaust) return "Both piles are empty: discard a card of your hand (half your hand in all).";
  const stage = view.production?.stage;
  switch (view.phase) {
    case "hand":
      return "Keep your hand, or discard it all for as many new cards (sealed).";
    case "plan": {
      const plan = me === null ? null : view.players[me]?.plan;
      if (plan?.paying) return "Pay the Assistant's move: click a lit goods stack on your buildings.";
      if (plan?.worked) return "Plan a building: click a lit card of your hand, or plan none.";
      return "Place your Worker: click a lit building of your tableau (or move an Assistant first).";
    }
    case "production":
      if (stage === "supply") return "Close the gap: click a lit hand card to supply its resource.";
      if (stage === "pay") return "Pay: click a lit goods stack on your buildings.";
      if (stage === "assign") return "Put your new Assistant on a lit building.";
      if (stage === "after") return "Build your planned card, hire an Assistant, or end your turn.";
      return "Produce: run your staffed buildings (click Produce), use chains, then end production.";
    default:
      return "";
  }
}

function goodsOf(view: GoodsView, b: Built): string {
  if (!b.good) return b.supplies ? `adds 1 ${b.supplies}` : view.kinds[b.building]?.extra_cards ? "+1 card" : "";
  return `${b.good} ${b.worth}`;
}

/** One building of a tableau: its colour, VP, good and worth, goods stack, who works it. */
function BuildingTile(props: {
  view: GoodsView;
  b: Built;
  seat: number;
  /** Own sealed plan marks (the Worker placed, Assistants moved) shown only to its seat. */
  planned?: { worker: string | null; assistants: string[]; promised: number };
  action: GoodsAction | null;
  /** The click on this tile when it is a button (own tableau, a step that involves it). */
  onClick?: () => void;
  lit: boolean;
  picked: boolean;
  staffButton?: JSX.Element | null;
}): JSX.Element {
  const { view, b, planned } = props;
  const kind: Kind | undefined = view.kinds[b.building];
  const label = `${b.name}${b.good ? `: ${b.goods} ${b.good} worth ${b.coins} coins` : ""}`;
  const worker = planned ? planned.worker : b.mode;
  const assistants = planned ? planned.assistants : b.assistant ? [b.assistant] : [];
  const body = (
    <>
      <span class="lf-bld-head">
        <b class="lf-bld-name">{b.name}</b>
        <span class="lf-vp" title={`${b.vp} VP`}>
          {b.vp}★
        </span>
      </span>
      <span class="lf-bld-good">{goodsOf(view, b)}</span>
      {b.good ? (
        <span class="lf-stack" data-testid="goods-stack" data-goods={b.goods} title={`${b.goods} goods, ${b.coins} coins`}>
          <span class="lf-stack-cards" aria-hidden="true">
            {Array.from({ length: Math.min(b.goods, 6) }, (_, i) => (
              <i key={i} />
            ))}
          </span>
          ×{b.goods} = <b>{b.coins}</b>¢{planned && planned.promised > 0 ? <small> (−{planned.promised} promised)</small> : null}
        </span>
      ) : null}
      {kind && (kind.needs.length || kind.needs_any) ? (
        <span class="lf-bld-needs" title={`Needs ${needsWords(kind)}`}>
          {kind.needs_any ? <ResourceChip resource="any" count={kind.needs_any} /> : kind.needs.map((r, i) => <ResourceChip key={i} resource={r} />)}
        </span>
      ) : null}
      {kind && chainWords(kind) ? <small class="lf-bld-chain">chain: {chainWords(kind)}</small> : null}
      <span class="lf-bld-staff">
        {worker ? <WorkerIcon mode={worker} /> : null}
        {assistants.map((a) => (
          <AssistantIcon key={a} id={a} />
        ))}
      </span>
    </>
  );
  const cls = `lf-bld lf-gc-${b.colour} ${props.lit ? "lf-legal" : ""} ${props.picked ? "lf-picked" : ""}`;
  return (
    <div class="lf-bld-wrap" data-building={b.id} data-seat={props.seat}>
      {props.onClick ? (
        <button
          type="button"
          class={cls}
          data-testid="building"
          data-building={b.id}
          data-legal={props.lit ? "true" : "false"}
          aria-disabled={props.lit ? undefined : "true"}
          aria-pressed={props.picked}
          aria-label={`${props.action ? actionWords(view, props.action) : label}${props.lit ? "" : " (not now: why?)"}`}
          onClick={props.onClick}
        >
          {body}
        </button>
      ) : (
        <div class={cls} data-testid="building" data-building={b.id} role="group" aria-label={label}>
          {body}
        </div>
      )}
      {props.staffButton ?? null}
    </div>
  );
}

/** The tile click on the own tableau for the step being decided, or null (not a button). */
function tileAction(view: GoodsView, legal: unknown[], me: number, b: Built, c: Clicks): GoodsAction | null {
  const stage = view.production?.stage;
  if (view.phase === "plan") {
    const plan = view.players[me]?.plan;
    if (plan?.paying) return { type: "pay", building: b.id };
    if (plan?.worked) return null;
    if (c.moving) return { type: "move_assistant", assistant: c.moving, to: b.id };
    if (!b.good) return null; // grey buildings take nobody
    const modes = legalOf(legal, "work").filter((w) => w.building === b.id);
    return modes[0] ?? { type: "work", building: b.id, mode: "efficient" };
  }
  if (view.phase === "production" && view.production?.seat === me) {
    if (stage === "produce") return b.staffed || view.production.buildings.some((n) => n.building === b.id) ? { type: "produce", building: b.id } : null;
    if (stage === "pay") return { type: "pay", building: b.id };
    if (stage === "assign") return b.good ? { type: "assign", building: b.id } : null;
  }
  return null;
}

/** A seat's tableau: header (VP, coins, hand, sealed or plan), buildings, Assistants. */
function Tableau(props: { view: GoodsView; p: GoodsPlayer; me: number | null; legal: unknown[]; clicks: Clicks; hidePrivate: boolean; bot?: string }): JSX.Element {
  const { view, p, me, legal, clicks } = props;
  const mine = p.seat === me && legal.length > 0;
  const own = p.seat === me && !props.hidePrivate;
  const plan = own ? p.plan : null;
  // The own sealed plan's marks: where the Worker and the Assistants will stand (G7.2).
  const where = new Map<string, string[]>();
  if (own) for (const b of p.buildings) if (b.assistant) where.set(b.assistant, [b.id]);
  if (plan) {
    for (const m of plan.moves) where.set(m.assistant, [m.to]);
    if (plan.paying) where.set(plan.paying.assistant, [plan.paying.to]);
  }
  const deciding = view.to_decide.includes(p.seat);
  const revealed = p.revealed_plan;
  return (
    <section
      class={`lf-tableau ${deciding ? "lf-to-move" : ""} ${p.seat === me ? "lf-my-tableau" : ""}`}
      data-testid="tableau"
      data-seat={p.seat}
      aria-label={`${nameOf(view, p.seat)}'s tableau`}
    >
      <header class="lf-tableau-head">
        <b>{nameOf(view, p.seat)}</b>
        {props.bot ? <small class="lf-bot-name">bot: {props.bot}</small> : null}
        <span class="lf-vp-total" data-testid="vp" title={`VP so far: ${p.vp_sources.buildings} from buildings, ${p.vp_sources.assistants} from Assistants, ${p.vp_sources.goods} from goods`}>
          {p.vp} VP
        </span>
        <span class="lf-coins" data-testid="coins" title="The worth of all goods on the buildings">
          {p.coins}¢
        </span>
        <span class="lf-handsize" title="Cards in hand">
          {p.hand_size} {p.hand_size === 1 ? "card" : "cards"}
        </span>
        {view.phase === "over" ? null : p.seat === view.active ? <span class="lf-badge">active</span> : null}
        {p.sealed === true ? (
          <span class="lf-badge lf-badge-ok" data-testid="sealed">
            sealed
          </span>
        ) : p.sealed === false ? (
          <span class="lf-badge lf-badge-turn" data-testid="choosing">
            choosing
          </span>
        ) : deciding && view.phase !== "over" ? (
          <span class="lf-badge lf-badge-turn">to move</span>
        ) : null}
        {p.mulliganed ? <span class="lf-badge">new hand</span> : null}
        {p.hired ? <span class="lf-badge">hired</span> : null}
      </header>
      {revealed && view.phase === "production" ? (
        <p class="lf-plan-shown" data-testid="revealed-plan">
          Plan:{" "}
          {revealed.work ? (
            <>
              Worker at the {p.buildings.find((b) => b.id === revealed.work?.building)?.name ?? revealed.work.building}, {revealed.work.mode}
            </>
          ) : (
            "Worker resting"
          )}
          {revealed.moves.length ? `; moved ${revealed.moves.map((m) => m.assistant).join(", ")}` : ""}
          {revealed.planned ? "; plans a building" : "; no building planned"}
          {own && p.planned ? <> ({plannedName(p) ?? "your planned card"})</> : null}
        </p>
      ) : null}
      <div class="lf-buildings">
        {p.buildings.map((b) => {
          const action = mine && me !== null ? tileAction(view, legal, me, b, clicks) : null;
          const lit = action !== null && (action.type === "work" ? legalOf(legal, "work").some((w) => w.building === b.id) : isLegalGoods(legal, action));
          const planned = plan
            ? {
                worker: plan.work?.building === b.id ? plan.work.mode : null,
                assistants: [...where.entries()].filter(([, at]) => at[0] === b.id).map(([a]) => a),
                promised: plan.promised[b.id] ?? 0,
              }
            : undefined;
          // Moving an Assistant starts from the Assistant: a button on its building.
          const movable =
            mine && view.phase === "plan" && !plan?.worked && !plan?.paying
              ? [...where.entries()].filter(([a, at]) => at[0] === b.id && legalOf(legal, "move_assistant").some((m) => m.assistant === a)).map(([a]) => a)
              : [];
          return (
            <BuildingTile
              key={b.id}
              view={view}
              b={b}
              seat={p.seat}
              planned={planned}
              action={action}
              lit={lit}
              picked={clicks.working === b.id && mine}
              onClick={
                action
                  ? () => {
                      if (action.type === "work") {
                        const modes = legalOf(legal, "work").filter((w) => w.building === b.id);
                        if (modes.length === 1 && modes[0]) clicks.act(modes[0]);
                        else if (modes.length > 1) clicks.setWorking(clicks.working === b.id ? null : b.id);
                        else clicks.tryAct(action);
                      } else {
                        if (action.type === "move_assistant") clicks.setMoving(null);
                        clicks.tryAct(action);
                      }
                    }
                  : undefined
              }
              staffButton={
                movable.length ? (
                  <span class="lf-move-btns">
                    {movable.map((a) => (
                      <button
                        key={a}
                        type="button"
                        class={`lf-btn lf-btn-small ${clicks.moving === a ? "lf-picked" : ""}`}
                        data-testid="move-assistant"
                        data-assistant={a}
                        aria-pressed={clicks.moving === a}
                        onClick={() => clicks.setMoving(clicks.moving === a ? null : a)}
                      >
                        Move {a} (2¢)
                      </button>
                    ))}
                  </span>
                ) : null
              }
            />
          );
        })}
      </div>
    </section>
  );
}

/** A card of a hand or the market: the building on it, its cost and VP, its resource, a half sun. */
function CardFront(props: { view: GoodsView; card: CardFace; small?: boolean }): JSX.Element {
  const { card, view } = props;
  const kind = view.kinds[card.building];
  return (
    <span class={`lf-gcard lf-gc-${kind?.colour ?? "grey"} ${props.small ? "lf-gcard-small" : ""}`} data-card={card.id}>
      <span class="lf-gcard-res">
        <ResourceChip resource={card.resource} />
        {card.half_sun ? <HalfSun /> : null}
      </span>
      <span class="lf-gcard-name">{card.name}</span>
      {kind && !props.small ? (
        <span class="lf-gcard-facts">
          <span title={`costs ${kind.cost} coins`}>{kind.cost}¢</span> <span title={`${kind.vp} VP`}>{kind.vp}★</span>
          {kind.good ? <span title={`makes ${kind.good}, worth ${kind.worth}`}> {kind.good} {kind.worth}</span> : null}
        </span>
      ) : null}
    </span>
  );
}

function cardWords(view: GoodsView, card: CardFace): string {
  const kind = view.kinds[card.building];
  const facts = kind ? `, costs ${kind.cost}, ${kind.vp} VP${kind.good ? `, makes ${kind.good} worth ${kind.worth}` : ""}, needs ${needsWords(kind)}` : "";
  return `${card.name}${facts}; as a resource: ${card.resource}${card.half_sun ? ", half sun" : ""}`;
}

function Market(props: { view: GoodsView }): JSX.Element {
  const { view } = props;
  const [rise, set] = marketRows(view.market);
  const row = (cards: CardFace[], name: string, testid: string): JSX.Element => (
    <div class="lf-market-row" data-testid={testid} aria-label={name}>
      <span class="lf-market-label">{name}</span>
      {cards.length === 0 ? <span class="lf-empty">—</span> : null}
      {cards.map((c) => (
        <span key={c.id} class="lf-market-card" data-testid="market-card" data-card={c.id} data-resource={c.resource} title={cardWords(view, c)}>
          <ResourceChip resource={c.resource} />
          {c.half_sun ? <HalfSun /> : null}
        </span>
      ))}
    </div>
  );
  const counts: Record<string, number> = {};
  for (const c of view.market) counts[c.resource] = (counts[c.resource] ?? 0) + 1;
  return (
    <section class="lf-market" data-testid="market" aria-label="The market">
      <h3>
        Market <HalfSun label="half suns" /> <span data-testid="half-suns">{view.half_suns}</span>
        <small>
          {" "}
          · {countWords(counts)} · draw {view.draw_size} · discard {view.discard.length}
        </small>
      </h3>
      {row(rise, "Sunrise", "market-sunrise")}
      {row(set, "Sunset", "market-sunset")}
    </section>
  );
}

function AssistantsOnOffer(props: { view: GoodsView; legal: unknown[]; tryAct: (a: GoodsAction) => void; mine: boolean }): JSX.Element {
  const { view, legal } = props;
  const hiring = props.mine && view.production?.stage === "after";
  return (
    <section class="lf-offer" data-testid="assistants" aria-label="Assistants">
      <h3>Assistants</h3>
      <div class="lf-offer-row">
        {view.assistants.map((a) => {
          const action: GoodsAction = { type: "hire", assistant: a.id };
          const lit = hiring && isLegalGoods(legal, action);
          const owner = a.owner === null ? "on offer" : `${nameOf(view, a.owner)}${a.at ? `, at the ${view.players[a.owner]?.buildings.find((b) => b.id === a.at)?.name ?? a.at}` : ""}`;
          const body = (
            <>
              <AssistantIcon id={a.id} />
              <span>
                {a.cost}¢ · {a.vp}★
              </span>
              <span class="lf-colours">
                {a.colours.map((c) => (
                  <i key={c} class={`lf-dot lf-gc-${c}`} title={c}>
                    {c}
                  </i>
                ))}
              </span>
              <small>{owner}</small>
            </>
          );
          const words = `Assistant ${a.id}: costs ${a.cost}, ${a.vp} VP, needs ${a.colours.join(" and ")} buildings; ${owner}`;
          return hiring && a.owner === null ? (
            <LitChoice key={a.id} class="lf-assistant-card" testid="offer" data={{ assistant: a.id }} lit={lit} label={`Hire ${words}`} onClick={() => props.tryAct(action)}>
              {body}
            </LitChoice>
          ) : (
            <div key={a.id} class="lf-assistant-card" data-testid="offer" data-assistant={a.id} role="group" aria-label={words}>
              {body}
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** One building's needs against the market, the Offices and the hand (the view's numbers). */
function NeedRow(props: { view: GoodsView; need: Need; action?: JSX.Element | null }): JSX.Element {
  const { view, need } = props;
  const name = view.players.flatMap((p) => p.buildings).find((b) => b.id === need.building)?.name ?? need.building;
  const missing = Object.values(need.missing).reduce((a, b) => a + b, 0);
  const counts: Record<string, number> = {};
  for (const r of need.needs) counts[r] = (counts[r] ?? 0) + 1;
  return (
    <tr data-testid="need" data-building={need.building} data-satisfied={need.satisfied ? "true" : "false"}>
      <th scope="row">
        {name}
        <small> ({need.mode})</small>
        {need.must_run ? <span class="lf-badge">must run</span> : null}
        {need.run ? <span class="lf-badge lf-badge-ok">ran</span> : null}
      </th>
      <td data-label="Needs">
        {need.needs_any ? (
          <ResourceChip resource="any" count={need.needs_any} state="need" />
        ) : (
          Object.entries(counts).map(([r, n]) => <ResourceChip key={r} resource={r} count={n} state="need" />)
        )}
      </td>
      <td data-label="Market">{countWords(Object.fromEntries(Object.keys(counts).map((r) => [r, need.market[r] ?? 0])))}</td>
      <td data-label="Offices">{countWords(need.offices)}</td>
      <td data-label="Hand">{countWords(need.from_hand)}</td>
      <td data-label="Missing" data-testid="missing" class={missing > need.skip ? "lf-missing" : ""}>
        {missing === 0 ? "nothing" : Object.entries(need.missing).map(([r, n]) => <ResourceChip key={r} resource={r} count={n} state="missing" />)}
        {need.skip ? <small> ({need.skip} may be skipped: sloppy)</small> : null}
      </td>
      <td>{props.action ?? null}</td>
    </tr>
  );
}

function NeedsTable(props: { view: GoodsView; needs: Need[]; actionFor?: (n: Need) => JSX.Element | null; caption: string }): JSX.Element {
  return (
    <table class="lf-needs" data-testid="needs">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">Building</th>
          <th scope="col">Needs</th>
          <th scope="col">Market</th>
          <th scope="col">Offices</th>
          <th scope="col">Hand</th>
          <th scope="col">Missing</th>
          <th scope="col">
            <span class="lf-sr">Action</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {props.needs.map((n) => (
          <NeedRow key={n.building} view={props.view} need={n} action={props.actionFor ? props.actionFor(n) : null} />
        ))}
      </tbody>
    </table>
  );
}

/** A piece of the board that is a choice now: lit when `legal` holds it; clicked unlit, the
 * board asks the kernel why not. */
function LitChoice(props: { class: string; testid: string; data: Record<string, string>; lit: boolean; label: string; onClick: () => void; children: ComponentChildren }): JSX.Element {
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(props.data)) data[`data-${k}`] = v;
  return (
    <button
      type="button"
      class={`${props.class} ${props.lit ? "lf-legal" : ""}`}
      data-testid={props.testid}
      {...data}
      data-legal={props.lit ? "true" : "false"}
      aria-disabled={props.lit ? undefined : "true"}
      aria-label={`${props.label}${props.lit ? "" : " (not now: why?)"}`}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** A button for one legal (or, clicked anyway, explained) action. */
function ActButton(props: { clicks: Clicks; action: GoodsAction; testid: string; label: string; primary?: boolean; data?: Record<string, string> }): JSX.Element {
  const lit = isLegalGoods(props.clicks.legal, props.action);
  const data: Record<string, string> = {};
  for (const [k, v] of Object.entries(props.data ?? {})) data[`data-${k}`] = v;
  return (
    <button
      type="button"
      class={`lf-btn ${props.primary && lit ? "lf-primary" : ""} ${lit ? "lf-legal" : ""}`}
      data-testid={props.testid}
      data-legal={lit ? "true" : "false"}
      aria-disabled={lit ? undefined : "true"}
      onClick={() => props.clicks.tryAct(props.action)}
      {...data}
    >
      {props.label}
    </button>
  );
}

/** What the seat decides now, step by step. */
function Decision(props: { view: GoodsView; me: number; clicks: Clicks }): JSX.Element | null {
  const { view, me, clicks } = props;
  const { legal } = clicks;
  const p = view.players[me];
  if (!p) return null;
  const prod = view.production;
  const coinsLeft = p.coins - Object.values(p.plan?.promised ?? {}).reduce((a, b) => a + b, 0);
  if (view.exhaust) return <p>Click a lit card of your hand to discard it.</p>;
  if (view.phase === "hand") {
    return (
      <div class="lf-choices" role="group" aria-label="Your hand">
        <ActButton clicks={clicks} action={{ type: "keep" }} testid="keep" label="Keep my hand" primary />
        <ActButton clicks={clicks} action={{ type: "mulligan" }} testid="mulligan" label={`New hand (discard ${p.hand_size}, draw ${p.hand_size})`} />
      </div>
    );
  }
  if (view.phase === "plan") {
    const plan = p.plan;
    const works = legalOf(legal, "work");
    if (plan?.paying) {
      return (
        <p data-testid="pay-status">
          Moving {plan.paying.assistant}: paid <b>{plan.paying.coins}</b> of {plan.paying.cost} coins. Click a lit goods stack.
        </p>
      );
    }
    if (plan?.worked) {
      return (
        <div class="lf-choices" role="group" aria-label="Plan a building">
          <span>Click a lit card of your hand to plan it as your building, or:</span>
          <ActButton clicks={clicks} action={{ type: "plan_build", card: null }} testid="plan-none" label="Plan no building" />
        </div>
      );
    }
    const picked = clicks.working;
    const modes = picked ? works.filter((w) => w.building === picked) : [];
    return (
      <div class="lf-plan-steps">
        <ol>
          <li>Optional: move an Assistant (2 coins in goods; you have {coinsLeft}): click Move on it, then its new building.</li>
          <li>Place your Worker: click a lit building.</li>
          <li>Plan a building from your hand, or none.</li>
        </ol>
        {clicks.moving ? (
          <p>
            Moving {clicks.moving}: click a lit building.{" "}
            <button type="button" class="lf-btn lf-btn-small" data-testid="cancel" onClick={() => clicks.setMoving(null)}>
              Cancel
            </button>
          </p>
        ) : null}
        {modes.length ? (
          <div class="lf-choices" role="group" aria-label="How the Worker works">
            <span>At the {p.buildings.find((b) => b.id === picked)?.name}:</span>
            {modes.map((w) => (
              <button key={w.mode} type="button" class="lf-btn lf-primary" data-testid="work-mode" data-mode={w.mode ?? ""} onClick={() => clicks.act(w)}>
                {w.mode === "efficient" ? "Efficient: 2 goods, every need met" : "Sloppy: 1 good, one unit may be missing"}
              </button>
            ))}
            <button type="button" class="lf-btn" data-testid="cancel" onClick={() => clicks.setWorking(null)}>
              Cancel
            </button>
          </div>
        ) : null}
        {works.some((w) => w.building === null) ? <ActButton clicks={clicks} action={{ type: "work", building: null, mode: null }} testid="work-rest" label="The Worker rests (no free building)" primary /> : null}
      </div>
    );
  }
  if (!prod || prod.seat !== me) return null;
  const chains = legalOf(legal, "chain");
  const done = legalOf(legal, "done").length > 0;
  const parts: JSX.Element[] = [];
  if (prod.stage === "produce") {
    parts.push(
      <NeedsTable
        key="needs"
        view={view}
        caption="Your staffed buildings"
        needs={prod.buildings}
        actionFor={(n) =>
          n.run ? null : <ActButton clicks={clicks} action={{ type: "produce", building: n.building }} testid="produce" label="Produce" primary data={{ building: n.building }} />
        }
      />,
    );
    if (prod.buildings.length === 0) parts.push(<p key="none">No staffed building left to run.</p>);
  }
  if (prod.stage === "supply" && prod.current) {
    parts.push(<NeedsTable key="cur" view={view} caption="Producing now" needs={[prod.current]} />);
    parts.push(<p key="how">Click a lit card of your hand to supply its resource.</p>);
  }
  if (chains.length) {
    parts.push(
      <div key="chains" class="lf-choices" role="group" aria-label="Chains">
        <span>
          Chain
          {prod.chains.map((id) => {
            const b = p.buildings.find((x) => x.id === id);
            return b ? <small key={id}> · {b.name} now {b.goods} {b.good} = {b.coins}¢</small> : null;
          })}
          :
        </span>
        {chains.map((c, i) => (
          <button key={i} type="button" class="lf-btn lf-legal" data-testid="chain-option" data-legal="true" data-building={c.building} onClick={() => clicks.act(c)}>
            {actionWords(view, c)}
          </button>
        ))}
      </div>,
    );
  }
  if (prod.stage === "after") {
    const planned = plannedFace(p);
    const kind = p.planned ? view.kinds[planned?.building ?? ""] : undefined;
    parts.push(
      <div key="after" class="lf-choices" role="group" aria-label="Build or hire">
        {p.planned ? (
          <ActButton
            clicks={clicks}
            action={{ type: "build" }}
            testid="build"
            primary
            label={`Build the ${planned?.name ?? "planned card"}${kind ? ` (costs ${kind.cost}; your goods: ${p.coins})` : ""}`}
          />
        ) : (
          <span>No building planned.</span>
        )}
        <span>Or click a lit Assistant on offer to hire it.</span>
      </div>,
    );
  }
  if (prod.stage === "pay" && prod.pay) {
    const what = prod.pay.for === "build" ? `the ${plannedName(p, prod.pay.card) ?? "building"}` : `Assistant ${prod.pay.assistant}`;
    parts.push(
      <p key="pay" data-testid="pay-status">
        Paying for {what}: <b data-testid="paid">{prod.pay.paid}</b> of {prod.pay.cost} coins. Click a lit goods stack (no change is given).
      </p>,
    );
  }
  if (prod.stage === "assign") parts.push(<p key="assign">Click a lit building for Assistant {prod.pay?.assistant}.</p>);
  if (done) {
    parts.push(
      <button key="done" type="button" class="lf-btn" data-testid="done" data-legal="true" onClick={() => clicks.act({ type: "done" })}>
        {prod.stage === "after" ? "End my turn" : "End production"}
      </button>,
    );
  } else if (prod.stage === "produce") {
    parts.push(<ActButton key="done" clicks={clicks} action={{ type: "done" }} testid="done" label="End production" />);
  }
  return <div class="lf-production">{parts}</div>;
}

/** Your hand: the cards' buildings and resources; clickable to plan, supply or discard. */
function Hand(props: { view: GoodsView; me: number; clicks: Clicks }): JSX.Element | null {
  const { view, me, clicks } = props;
  const p = view.players[me];
  if (!p || !p.hand) return null;
  const stage = view.production?.seat === me ? view.production.stage : null;
  const actionFor = (c: CardFace): GoodsAction | null => {
    if (clicks.legal.length === 0) return null;
    if (view.exhaust) return { type: "discard", card: c.id };
    if (view.phase === "plan" && p.plan?.worked) return { type: "plan_build", card: c.id };
    if (stage === "supply") return { type: "supply", card: c.id };
    if (stage === "produce") {
      // A chain fed by this card alone is one click on it (the chain buttons offer the rest).
      const uses = legalOf(clicks.legal, "chain").filter((a) => a.hand.length === 1 && a.hand[0] === c.id && a.goods.length === 0);
      return uses.length === 1 ? (uses[0] ?? null) : null;
    }
    return null;
  };
  const planned = p.plan?.card ?? p.planned;
  return (
    <section class="lf-goods-hand" data-testid="hand" aria-label="Your hand">
      <h4>
        {view.seat === null ? `${p.name}'s hand` : "Your hand"} <small>({p.hand.length})</small>
        {planned ? <small> · planned: {plannedName(p, planned) ?? planned}</small> : null}
      </h4>
      <div class="lf-hand-cards">
        {p.hand.length === 0 ? <p class="lf-empty">No cards in hand</p> : null}
        {p.hand.map((c) => {
          const action = actionFor(c);
          const lit = action !== null && isLegalGoods(clicks.legal, action);
          return action ? (
            <LitChoice
              key={c.id}
              class="lf-hand-card"
              testid="hand-card"
              data={{ card: c.id }}
              lit={lit}
              label={`${actionWords(view, action)}: ${cardWords(view, c)}`}
              onClick={() => clicks.tryAct(action)}
            >
              <CardFront view={view} card={c} />
            </LitChoice>
          ) : (
            <span key={c.id} class={`lf-hand-card ${c.id === planned ? "lf-planned" : ""}`} data-testid="hand-card" data-card={c.id} title={cardWords(view, c)}>
              <CardFront view={view} card={c} />
            </span>
          );
        })}
      </div>
    </section>
  );
}

/** The face of the seat's planned card (`card`, else its revealed plan's): in its hand while
 * it plans, from the view's `planned_face` once the plans are revealed. */
function plannedFace(p: GoodsPlayer, card: string | null | undefined = p.planned): CardFace | null {
  if (!card) return null;
  return p.hand?.find((c) => c.id === card) ?? (p.planned_face?.id === card ? p.planned_face : null);
}

function plannedName(p: GoodsPlayer, card?: string | null): string | null {
  return plannedFace(p, card === undefined ? p.planned : card)?.name ?? null;
}

/** The end screen: VP by source, seat by seat (the kernel's standings). */
function GoodsEnd(props: { view: GoodsView; standings: Standing[] }): JSX.Element {
  const { view } = props;
  const rows = [...props.standings].sort((a, b) => b.score - a.score || b.coins_left - a.coins_left);
  const winners = winnersWords(view.winners.map((s) => nameOf(view, s)));
  return (
    <section class="lf-gameover lf-goods-end" data-testid="game-over" aria-label="The scoring">
      <h3>
        Game over: {winners}
      </h3>
      <div class="lf-table-scroll">
      <table class="lf-standings" data-testid="standings">
        <thead>
          <tr>
            <th scope="col">Player</th>
            <th scope="col">Buildings</th>
            <th scope="col">Assistants</th>
            <th scope="col">Goods</th>
            <th scope="col">VP</th>
            <th scope="col">Coins left</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.seat} data-seat={s.seat} class={view.winners.includes(s.seat) ? "lf-winner" : ""}>
              <th scope="row">
                {nameOf(view, s.seat)}
                {view.winners.includes(s.seat) ? <span class="lf-crown"> ★ winner</span> : null}
              </th>
              <td class="lf-num" data-source="buildings">
                {s.sources.buildings}
              </td>
              <td class="lf-num" data-source="assistants">
                {s.sources.assistants}
              </td>
              <td class="lf-num" data-source="goods">
                {s.sources.goods}
              </td>
              <td class="lf-num lf-points" data-testid="points">
                {s.score}
              </td>
              <td class="lf-num">{s.coins_left}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
      <p class="lf-note">1 VP per 5 coins of goods over all your buildings; most VP wins, a tie goes to most coins left (G5.2, G5.3).</p>
    </section>
  );
}

function GoodsLegend(props: { onClose: () => void }): JSX.Element {
  return (
    <ShellLegend class="lf-goods-legend" onClose={props.onClose}>
        <li>
          <ResourceChip resource="grain" /> <ResourceChip resource="wood" /> <ResourceChip resource="clay" /> <ResourceChip resource="ore" /> <ResourceChip resource="hide" /> The
          resources: grain, wood, clay, ore, hide (a card's resource is on its left edge).
        </li>
        <li>
          <HalfSun /> A half sun: the market is turned up until it shows 2 at sunrise, and 2 more at sunset.
        </li>
        <li>
          <WorkerIcon mode="efficient" /> <WorkerIcon mode="sloppy" /> Your Worker: efficient (every need met: 2 goods) or sloppy (one unit short: 1 good).
        </li>
        <li>
          <AssistantIcon id="A1" /> An Assistant: produces 1 good when every need is met; it stays where it is.
        </li>
        <li>
          <span class="lf-stack">
            <span class="lf-stack-cards" aria-hidden="true">
              <i />
              <i />
            </span>
            ×2 = <b>4</b>¢
          </span>{" "}
          A building's goods (face down), and what they are worth in coins. 5 coins make 1 VP at the end.
        </li>
        <li>A lit building, card or button is a move you may make now; click anything else to ask why not.</li>
    </ShellLegend>
  );
}

export function GoodsBoard(props: { state: WidgetState; view: GoodsView; host: GoodsHost; inbox: InMessage | null }): JSX.Element {
  const { state, view, host } = props;
  const privacy = goodsPrivacy(state.seat, state.human_seats, view);
  const legal: unknown[] = privacy === null ? state.legal : [];
  const me = meOf(view);
  const over = view.phase === "over";
  const shell = useGameShell<GoodsAction>({
    state,
    host,
    inbox: props.inbox,
    legal,
    isLegal: isLegalGoods,
    position: [view, state.legal, state.seat, state.move_number, state.version, privacy],
  });
  const { act, why, hint, errorText, hintError } = shell;
  // After a step the keyboard goes on to the Worker's modes, else the first lit choice, else
  // the step's end or the privacy screen's button.
  const focus = useFocusHandOver(['[data-testid="work-mode"]', '[data-legal="true"]', '[data-testid="done"], [data-testid="reveal"]']);
  // A pick (the Worker's building waiting for its mode, an Assistant waiting for its new
  // building) lasts while this seat's own part of the game stays as it was: another seat's
  // plan sealing meanwhile (G6) must not take it away mid-choice, nor let a click made just
  // before that render toggle it. Anything of one's own (a step, an undo, a new deal) clears it.
  const own = useMemo(() => JSON.stringify([view.phase, view.round, me === null ? null : view.players[me], legal]), [view, me, legal]);
  const [picks, setPicks] = useState<{ own: string; moving: string | null; working: string | null }>({ own, moving: null, working: null });
  const current = picks.own === own ? picks : { own, moving: null, working: null };
  useEffect(() => {
    // Cleared for good, so that an old pick never comes back with an equal position.
    if (picks.own !== own && (picks.moving || picks.working)) setPicks({ own, moving: null, working: null });
  }, [own]);
  // A building picked for the Worker asks its mode; an Assistant picked to move, its building:
  // the keyboard goes there.
  useEffect(() => {
    const root = focus.ref.current;
    if (!root || !root.contains(document.activeElement)) return;
    const to = current.working ? '[data-testid="work-mode"]' : current.moving ? '[data-testid="tableau"] button[data-legal="true"]' : null;
    if (to) root.querySelector<HTMLElement>(to)?.focus({ preventScroll: true });
  }, [current.working, current.moving]);
  const clicks: Clicks = {
    legal,
    act,
    tryAct: shell.tryAct,
    moving: current.moving,
    setMoving: (a) => setPicks({ own, moving: a, working: null }),
    working: current.working,
    setWorking: (b) => setPicks({ own, moving: null, working: b }),
  };

  const messages: Message[] = [];
  if (errorText) messages.push({ kind: "error", testid: "error", text: errorText, onClose: shell.clearError });
  if (why) {
    const words = actionWords(view, why.action);
    const text = why.text === undefined ? `Asking why you cannot ${words}…` : why.text === null ? `You can ${words}: it is legal.` : `Why not ${words}? ${why.text}`;
    messages.push({ kind: "info", testid: "why-reason", text, onClose: shell.closeWhy });
  }
  if (hintError) messages.push({ kind: "info", testid: "hint-error", text: `No hint: ${hintError}`, onClose: shell.clearHintError });
  if (hint) {
    const chance = typeof hint.value === "number" ? ` (estimated win chance ${Math.round(hint.value * 100)}%)` : "";
    messages.push({ kind: "hint", testid: "hint-text", text: `Hint: ${actionWords(view, hint.action)}${chance}` });
  }
  const boardState = over ? "over" : privacy !== null ? "privacy" : legal.length > 0 ? "mine" : "waiting";
  const events = logLines(view, state.events as unknown as Record<string, unknown>[]);
  const step = over ? "over" : view.exhaust ? "discard" : view.phase === "production" ? (view.production?.stage ?? "production") : view.phase;
  const order = me === null ? view.players : [...view.players.slice(me), ...view.players.slice(0, me)];

  return (
    <div
      ref={focus.ref}
      class="lf-board-root lf-goods"
      data-testid="goods-board"
      data-state={boardState}
      data-step={step}
      data-pending={shell.pending ? "true" : "false"}
      onFocusIn={focus.handlers.onFocusIn}
      onFocusOut={focus.handlers.onFocusOut}
    >
      <ShellTop
        shell={shell}
        state={state}
        host={host}
        title="Oh My Goods!"
        status={
          <>
            <span class="lf-round">Round {view.round}</span>
            {view.final_round && !over ? <span class="lf-badge lf-badge-turn">last round</span> : null}
            <span class="lf-phase">{PHASE_WORDS[view.phase] ?? view.phase}</span>
            <span class="lf-turn" data-testid="prompt">
              {prompt(view, legal, privacy, me)}
            </span>
          </>
        }
        canHint={legal.length > 0}
        legend={(close) => <GoodsLegend onClose={close} />}
      />
      <MessageBar messages={messages} />
      {over && view.standings ? <GoodsEnd view={view} standings={view.standings} /> : null}

      <div class="lf-main lf-goods-main">
        <div class="lf-board">
          <div class="lf-goods-common">
            <Market view={view} />
            <AssistantsOnOffer view={view} legal={legal} tryAct={clicks.tryAct} mine={legal.length > 0} />
          </div>
          {privacy !== null ? (
            <PrivacyCover
              name={nameOf(view, privacy)}
              next={view.phase === "plan" ? "their hand and sealed plan come next; every plan is shown once the last is sealed" : "their hand comes next"}
              onReveal={() => host.send({ kind: "reveal", seat: privacy } as unknown as OutMessage)}
            />
          ) : me !== null && !over ? (
            <section class="lf-act lf-goods-act" data-testid="decision" aria-label="What you decide">
              {legal.length > 0 ? <Decision view={view} me={me} clicks={clicks} /> : null}
              <Hand view={view} me={me} clicks={clicks} />
            </section>
          ) : null}
          <div class="lf-tableaux">
            {order.map((p) => (
              <Tableau key={p.seat} view={view} p={p} me={me} legal={legal} clicks={clicks} hidePrivate={privacy !== null} bot={state.bots[String(p.seat)]} />
            ))}
          </div>
          {view.production && view.production.seat !== me && view.production.buildings.length ? (
            <NeedsTable view={view} caption={`${nameOf(view, view.production.seat)} is producing`} needs={view.production.buildings} />
          ) : null}
        </div>
        <aside class="lf-side">
          {/* Behind the cover the log would tell the seat shown its own sealed steps. */}
          {privacy === null ? <ShellLog lines={events} /> : null}
        </aside>
      </div>
    </div>
  );
}

export type { Need };
