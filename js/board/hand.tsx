/**
 * "Your" area: the seat's own hand (pick cards to give at the Ruin) and the
 * fronts of its own loot (pick loot to sell at the Harbor). Behind a privacy
 * screen in hot-seat play until the next player says who they are.
 */
import type { JSX } from "preact";
import { ScoundrelIcon } from "../icons";
import { giveCardEnabled, pickedTools, sellLootEnabled } from "../intents";
import { lootWords, plural } from "../format";
import { LootFace, Pick, ToolFace } from "./cards";
import { markTools, useUi } from "./ui";

export function MyArea(): JSX.Element | null {
  const { view, legal, sel, ctl, hint, mySeat, handCards } = useUi();
  if (mySeat === null) return null;
  const me = view.players[mySeat];
  if (!me) return null;
  const kind = view.decision?.kind;
  const giving = kind === "ruin" && legal.length > 0 && sel.rate !== null;
  const selling = kind === "harbor" && legal.length > 0 && sel.fence !== null;
  const hinted = hint.rate ? markTools(handCards, hint.tools) : [];
  return (
    <section class="lf-mine" aria-label={`${me.name}'s hand and loot`} data-testid="my-area">
      <header class="lf-mine-head">
        <ScoundrelIcon scoundrel={me.scoundrel} size={22} />
        <h4>{view.seat === null ? `${me.name}'s hand` : `Your hand (${me.name})`}</h4>
        <small>{plural(handCards.length, "tool")}</small>
      </header>
      <div class="lf-hand" data-area="hand">
        {handCards.length === 0 ? <p class="lf-empty">No tools in hand</p> : null}
        {handCards.map((tool, i) => (
          <Pick
            key={`${tool}-${i}`}
            candidate={giving}
            enabled={giveCardEnabled(legal, sel.rate, handCards, sel.give, i)}
            selected={sel.give.includes(i)}
            toggle
            hint={hinted[i]}
            label={`${giving ? (sel.give.includes(i) ? "Keep " : "Give ") : ""}${tool}`}
            class="lf-tool-pick"
            data={{ tool, index: i }}
            onPick={() => ctl.clickHandCard(i)}
            onWhy={() =>
              sel.rate &&
              ctl.why({ type: "exchange", rate: sel.rate, give: [...pickedTools(handCards, sel.give), tool] })
            }
          >
            <ToolFace tool={tool} size={30} />
          </Pick>
        ))}
      </div>
      <header class="lf-mine-head">
        <h4>{view.seat === null ? `${me.name}'s loot` : "Your loot"}</h4>
        <small>{plural(me.loot.length, "card")}</small>
      </header>
      <div class="lf-myloot" data-area="my-loot">
        {me.loot.length === 0 ? <p class="lf-empty">No loot yet</p> : null}
        {me.loot.map((loot, i) => {
          const id = loot.id;
          const candidate = selling && id !== undefined;
          return (
            <Pick
              key={id ?? i}
              candidate={candidate}
              enabled={id !== undefined && sellLootEnabled(legal, sel.fence, sel.loot, id)}
              selected={id !== undefined && sel.loot.includes(id)}
              toggle
              hint={id !== undefined && (hint.loot ?? []).includes(id)}
              label={`${candidate ? "Sell " : ""}${lootWords(loot)}`}
              class="lf-loot-pick"
              data={id !== undefined ? { loot: id } : {}}
              onPick={() => id && ctl.clickOwnLoot(id)}
              onWhy={() => id && sel.fence && ctl.why({ type: "sell", fence: sel.fence, loot: [...sel.loot, id] })}
            >
              <LootFace loot={loot} />
            </Pick>
          );
        })}
      </div>
    </section>
  );
}

/** Hot-seat: the board waits until the next human says they are at the screen. */
export function PrivacyScreen(props: { seat: number; onReveal: () => void }): JSX.Element {
  const { view } = useUi();
  const p = view.players[props.seat];
  return (
    <PrivacyCover
      name={p?.name ?? `Player ${props.seat + 1}`}
      icon={p ? <ScoundrelIcon scoundrel={p.scoundrel} size={48} /> : null}
      next="their hand comes next"
      onReveal={props.onReveal}
    />
  );
}

/**
 * The hot seat's cover, for any game's board: it names the person to come to the screen,
 * tells everyone else to look away (`next`: what comes into sight), and waits for "I am …".
 */
export function PrivacyCover(props: { name: string; icon?: JSX.Element | null; next: string; onReveal: () => void }): JSX.Element {
  const { name } = props;
  return (
    <section class="lf-privacy" data-testid="privacy" role="dialog" aria-label={`Pass the screen to ${name}`}>
      {props.icon ?? null}
      <p>
        Pass the screen to <b>{name}</b>. Everyone else, look away: {props.next}.
      </p>
      <button type="button" class="lf-btn lf-primary" data-testid="reveal" onClick={props.onReveal}>
        I am {name}
      </button>
    </section>
  );
}
