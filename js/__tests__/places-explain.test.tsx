/** Issue 40, item 2: places that explain themselves, and a square that comes too late. */
import { describe, expect, it } from "vitest";
import { city5, place2, stateOf } from "../__fixtures__/views";
import { click, mountPerTest, q } from "./fake-model";

const setup = mountPerTest();

describe("what each place does", () => {
  it("says it in a sentence on a tap of the place's header", () => {
    const { el } = setup(stateOf(city5()));
    click(el, '[data-area="city"] .lf-place-head h3');
    expect(q(el, '[data-testid="tip"]').textContent).toBe("City: take 2 of the tools shown (R4).");
    click(el, '[data-area="harbor"] .lf-place-head');
    expect(q(el, '[data-testid="tip"]').textContent).toContain("Harbor: sell loot to a fence that buys its kind");
  });

  it("is in the legend too, in the order the places act", () => {
    const { el } = setup(stateOf(city5()));
    click(el, '[data-testid="legend"]');
    const places = [...el.querySelectorAll('[data-testid="legend-places"] li')].map((li) => li.textContent ?? "");
    expect(places.map((p) => p.split(":")[0])).toEqual(["City", "Villa", "Ruin", "Museum", "Harbor"]);
    expect(places[2]).toContain("(R6.1)");
  });
});

describe("a square that comes too late", () => {
  const LATE = "The Museum's 2 cards will be gone before square 3 acts if the 2 tokens ahead each steal one (R5.1).";

  it("shows the kernel's warning before the token goes down, and lets it go down", () => {
    const f = place2();
    f.view.decision = { seat: 0, kind: "place", place: null, square: null, too_late: { museum: LATE } };
    const { el, model } = setup(stateOf(f));
    expect(q(el, '[data-testid="too-late-museum"]').textContent).toContain(LATE);
    expect(q(el, '[data-place="museum"]').getAttribute("aria-label")).toBe(`Place a token at the Museum (square 3). ${LATE}`);
    expect(el.querySelector('[data-testid="too-late-city"]')).toBeNull();
    click(el, '[data-place="museum"]');
    expect(model.sent.filter((m) => (m as { kind: string }).kind === "act")).toHaveLength(1);
  });

  it("says nothing the kernel did not say", () => {
    const { el } = setup(stateOf(place2()));
    expect(el.querySelectorAll(".lf-too-late")).toHaveLength(0);
  });
});
