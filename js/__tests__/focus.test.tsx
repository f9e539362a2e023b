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
  mounted = mount(stateOf(place2()));
  const { el, model } = mounted;
  const city = q(el, '[data-place="city"]');
  city.focus();
  model.set("highlight", { seat: 0, action: { type: "place", place: "city" } });
  expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(true);
  expect(document.activeElement).toBe(city);
  act(() => {
    vi.advanceTimersByTime(2000);
  });
  expect(q(el, '[data-area="city"]').classList.contains("lf-flash")).toBe(false);
  expect(document.activeElement).toBe(city);
  expect(city.isConnected).toBe(true);
});
