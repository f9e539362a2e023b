/** The legend, one tap away: every icon of the board with its name. */
import type { ComponentChildren, JSX } from "preact";
import { FenceIcon, KindIcon, ProtectionIcon, ScoundrelIcon, ToolIcon, Token } from "../icons";
import { PLACE_ROLES } from "../format";
import type { Kind, Protection, Scoundrel, Tool } from "../types";
import { KINDS, PLACES, PROTECTIONS, SCOUNDRELS, TOOLS } from "../types";
import { FenceFace } from "./cards";
import { Popover } from "./options";

const KIND_NOTES: Record<Kind, string> = {
  money: "money (chests: cashed at once)",
  painting: "painting",
  coins: "coins (round, silver)",
  gold: "gold (bars)",
  jewelry: "jewelry",
  statue: "statue",
};

const PROTECTION_NOTES: Record<Protection, string> = {
  chest: "chest: money inside",
  pillar: "pillar: paintings",
  showcase: "showcase: statues, coins",
  safe: "safe: gold, jewelry",
};

const SCOUNDREL_NAMES: Record<Scoundrel, [string, Tool]> = {
  pascal: ["Pascal", "lockpick"],
  hans: ["Hans", "hammer"],
  tommaso: ["Tommaso", "pliers"],
  yoshiko: ["Yoshiko", "welder"],
  bobby: ["Bobby", "map"],
};

/** "a lockpick", "an ..."; pliers take no article. */
function toolWithArticle(tool: Tool): string {
  return tool === "pliers" ? "pliers" : `a ${tool}`;
}

function Item(props: { icon: JSX.Element; children: string }): JSX.Element {
  return (
    <li class="lf-legend-item">
      {props.icon}
      <span>{props.children}</span>
    </li>
  );
}

function Section(props: { title: string; items: [string, JSX.Element, string][]; children?: ComponentChildren }): JSX.Element {
  return (
    <div>
      <h5>{props.title}</h5>
      <ul>
        {props.items.map(([key, icon, text]) => (
          <Item key={key} icon={icon}>
            {text}
          </Item>
        ))}
      </ul>
      {props.children}
    </div>
  );
}

export function LegendPanel(props: { onClose: () => void }): JSX.Element {
  return (
    <Popover title="Legend" testid="legend-panel" class="lf-legend" onClose={props.onClose}>
      <div class="lf-legend-grid">
        <div class="lf-legend-wide" data-testid="legend-places">
          <h5>Places, in the order their tokens act (R3.1)</h5>
          <ol class="lf-legend-places">
            {PLACES.map((p) => (
              <li key={p}>{PLACE_ROLES[p]}</li>
            ))}
          </ol>
          <p class="lf-legend-note">Each place has 5 squares; a token takes the lowest free one, and square 1 acts first (R2.2).</p>
        </div>
        <Section title="Tools" items={TOOLS.map((t) => [t, <ToolIcon tool={t} size={26} />, t])} />
        <Section title="Loot (front)" items={KINDS.map((k) => [k, <KindIcon kind={k} size={26} />, KIND_NOTES[k]])} />
        <Section title="Loot (back)" items={PROTECTIONS.map((p) => [p, <ProtectionIcon protection={p} size={26} />, PROTECTION_NOTES[p]])}>
          <p class="lf-legend-note">The tools under a back are what stealing it costs (R5.1).</p>
        </Section>
        <div class="lf-legend-scoundrels">
          <h5>Scoundrels</h5>
          <ul>
            {SCOUNDRELS.map((s) => (
              <Item
                key={s}
                icon={
                  <span class="lf-legend-pair">
                    <ScoundrelIcon scoundrel={s} size={24} />
                    <Token scoundrel={s} size={16} />
                  </span>
                }
              >
                {`${SCOUNDREL_NAMES[s][0]}: counts as ${toolWithArticle(SCOUNDREL_NAMES[s][1])} (R5.2)`}
              </Item>
            ))}
          </ul>
        </div>
        <div class="lf-legend-wide">
          <h5>
            <FenceIcon size={20} /> Fences
          </h5>
          <FenceFace fence={{ id: "", buys: { painting: [2, 2], gold: [1, 0] } }} />
          <p class="lf-legend-note">
            This fence buys up to 2 paintings in one sale, each worth its value +2, or one gold bar at its value (R8.1, R8.2).
          </p>
          <p class="lf-legend-note">Money beyond 20 is shown as its total; the first to 20 ends the game at the end of that round (R10.1).</p>
        </div>
      </div>
    </Popover>
  );
}
