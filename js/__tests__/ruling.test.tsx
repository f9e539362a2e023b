import { describe, expect, it } from "vitest";
import { city5, museum5, stateOf } from "../__fixtures__/views";
import { click, mountPerTest, q } from "./fake-model";
import { rulingTexts, splitRulings } from "../rulings";
import RULINGS from "../../langfinger_widget/kernel/data/rulings.json";

const setup = mountPerTest();
const TABLE: Record<string, { section: string; text: string }> = RULINGS;

describe("rulings cited in messages", () => {
  it("cuts a message at each known ruling and finds the words", () => {
    expect(splitRulings("R5.2: once per place (see R7), not R99")).toEqual([
      { ruling: "R5.2" },
      { text: ": once per place (see " },
      { ruling: "R7" },
      { text: "), not R99" },
    ]);
    expect(splitRulings("no ruling here")).toEqual([{ text: "no ruling here" }]);
    expect(rulingTexts("R5.2")).toEqual([{ id: "R5.2", ...TABLE["R5.2"] }]);
    expect(rulingTexts("R11").map((r) => r.id)).toEqual(["R11.1", "R11.2"]);
    expect(rulingTexts("R99")).toEqual([]);
  });

  it("a click on the R5.2 of an error opens the ruling's words, a second click closes them", () => {
    const error = "R5.2: Hans's scoundrel was already used at the Villa this round";
    const { el } = setup(stateOf(city5(), { error }));
    const banner = q(el, '[data-testid="error"]');
    expect(banner.textContent).toContain(error);
    const link = q<HTMLButtonElement>(banner, '[data-testid="ruling-link"]');
    expect(link.getAttribute("data-ruling")).toBe("R5.2");
    expect(link.getAttribute("aria-expanded")).toBe("false");
    expect(banner.querySelector('[data-testid="ruling-text"]')).toBeNull();
    click(banner, '[data-testid="ruling-link"]');
    const words = q(banner, '[data-testid="ruling-text"]');
    expect(words.textContent).toContain(TABLE["R5.2"]?.text ?? "missing");
    expect(words.textContent).toContain("Acting");
    expect(q(banner, '[data-testid="ruling-link"]').getAttribute("aria-expanded")).toBe("true");
    click(banner, '[data-testid="ruling-link"]');
    expect(banner.querySelector('[data-testid="ruling-text"]')).toBeNull();
  });

  it("the answer to 'why not' links its ruling too", () => {
    const { el, model } = setup(stateOf(museum5()));
    click(el, '[data-area="museum"] [data-slot="2"]');
    model.emit({ kind: "why", action: { type: "steal", slot: 2, pay: ["pliers", "welder"], scoundrel: false }, reason: "R7: you hold no welder to pay with" });
    const why = q(el, '[data-testid="why-reason"]');
    click(why, '[data-ruling="R7"]');
    expect(q(why, '[data-testid="ruling-text"]').textContent).toContain(TABLE["R7"]?.text ?? "missing");
  });
});
