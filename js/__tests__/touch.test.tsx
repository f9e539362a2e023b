/** Issue 28, items 2 and 4: labels a tap shows (no `title` tooltip on touch), the legend. */
import { describe, expect, it } from "vitest";
import { city5, stateOf } from "../__fixtures__/views";
import { tipTarget } from "../board/tips";
import { click, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();

describe("labels a tap shows", () => {
  it("shows a card's label when tapped, and hides it on the next tap", () => {
    const { el } = setup(stateOf(city5()));
    click(el, '.lf-player[data-seat="3"] .lf-chip');
    expect(q(el, '[data-testid="tip"]').textContent).toBe("showcase, front hidden");
    click(el, '[data-area="villa"] .lf-loot-pick'); // a display card (not a control now)
    expect(q(el, '[data-testid="tip"]').textContent).toContain("(card 1 at the Villa)");
    click(el, ".lf-title");
    expect(el.querySelector('[data-testid="tip"]')).toBeNull();
  });

  it("shows the money of a token on the track and a player's hand size", () => {
    const { el } = setup(stateOf(city5()));
    click(el, ".lf-track-cell .lf-track-token");
    expect(q(el, '[data-testid="tip"]').textContent).toMatch(/^\w+: \d+$/);
    click(el, '.lf-player[data-seat="1"] .lf-handsize');
    expect(q(el, '[data-testid="tip"]').textContent).toBe("3 tools in hand");
  });

  it("leaves controls to do what they do", () => {
    const { el } = setup(stateOf(city5()));
    const tool = q(el, '[data-area="city"] [data-index="0"]');
    expect(tipTarget(tool)).toBeNull(); // a legal choice is a button: its click picks it
    click(el, '[data-area="city"] [data-index="0"]');
    expect(el.querySelector('[data-testid="tip"]')).toBeNull();
  });
});

describe("the legend", () => {
  it("is one tap away and names every icon", () => {
    const { el } = setup(stateOf(city5()));
    expect(el.querySelector('[data-testid="legend-panel"]')).toBeNull();
    click(el, '[data-testid="legend"]');
    const panel = q(el, '[data-testid="legend-panel"]');
    const names = [...panel.querySelectorAll(".lf-legend-item span")].map((s) => s.textContent);
    for (const word of ["lockpick", "hammer", "pliers", "welder", "map", "gold (bars)", "coins (round, silver)", "safe: gold, jewelry"]) {
      expect(names).toContain(word);
    }
    expect(panel.textContent).toContain("2×");
    expect(q(el, '[data-testid="legend"]').getAttribute("aria-expanded")).toBe("true");
    click(el, '[data-testid="legend-panel"] .lf-close');
    expect(el.querySelector('[data-testid="legend-panel"]')).toBeNull();
  });

  it("draws a fence buying two of a kind as 2× and a number, not as a second icon", () => {
    const { el } = setup(stateOf(city5()));
    const f04 = q(el, '[data-fence="F04"]'); // buys statue twice
    expect(q(f04, ".lf-times").textContent).toBe("2×");
    expect(f04.querySelectorAll(".lf-kind-icon").length).toBe(4); // one icon per kind
  });
});
