import { afterEach, expect, it, vi } from "vitest";
import { act } from "preact/test-utils";
import { place2, stateOf } from "../__fixtures__/views";
import { mount, q } from "./fake-model";

let mounted: ReturnType<typeof mount> | null = null;
afterEach(() => {
  mounted?.cleanup();
  mounted = null;
  vi.useRealTimers();
});

it("keeps the keyboard focus on a place while its last move glows and after", () => {
  // A person places with Enter; the move's glow must not remount the place's column,
  // or the focus falls back to the page and the next Tab starts from the top.
  vi.useFakeTimers();
  const f = place2();
  mounted = mount(stateOf(f, { bots: { "1": "greedy" } }));
  const { el, model } = mounted;
  const city = q(el, '[data-place="city"]');
  city.focus();
  // A bot's token lands at the City while the person's focus rests there.
  model.set("events", [...f.events, { type: "place", seat: 1, place: "city", square: 0 }]);
  expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(true);
  expect(document.activeElement).toBe(city);
  act(() => {
    vi.advanceTimersByTime(2000);
  });
  expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(false);
  expect(document.activeElement).toBe(city);
  expect(city.isConnected).toBe(true);
});
