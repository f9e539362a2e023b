import { describe, expect, it } from "vitest";
import { place2, stateOf } from "../__fixtures__/views";
import { readOnline } from "../model";
import type { Setup } from "../types";
import { click, mountPerTest, q } from "./fake-model";

const mount = mountPerTest();

function setupOf(extra: Partial<Setup> = {}): Setup {
  return { players: 2, seat: 0, bots: { "1": "easy" }, variant: "standard", levels: ["easy", "medium"], level_notes: {}, allow_new_game: true, ...extra };
}

describe("Play online (issue 32)", () => {
  it("is offered only where the kernel allows it, and sends the panel's choices without a seed", () => {
    const off = mount(stateOf(place2(), { setup: setupOf() }));
    click(off.el, '[data-testid="new-game"]');
    expect(off.el.querySelector('[data-testid="ng-online"]')).toBeNull();

    const { el, model } = mount(stateOf(place2(), { setup: setupOf({ allow_online: true }) }));
    click(el, '[data-testid="new-game"]');
    click(el, '[data-testid="ng-online"]');
    expect(model.sent.filter((m) => (m as { kind: string }).kind === "new_game")).toEqual([
      { kind: "new_game", players: 2, seat: 0, bots: { "1": "easy" }, variant: "standard", seed: null, online: true },
    ]);
    expect(q<HTMLButtonElement>(el, '[data-testid="ng-online"]').disabled).toBe(true); // waiting
  });

  it("shows the table, the connection and the invites to copy", () => {
    const online = { connection: "online", server: "http://h", table: "T1", status: "waiting", seat: 0, invites: { "1": "http://h/join/T1#k" }, watch: "http://h/watch/T1#w" };
    const { el } = mount(stateOf(place2(), { online }));
    const bar = q(el, '[data-testid="online-bar"]');
    expect(bar.getAttribute("data-state")).toBe("online");
    expect(bar.textContent).toContain("T1");
    expect(bar.textContent).toContain("waiting for everyone to join");
    expect(q<HTMLInputElement>(el, '[data-testid="online-invite-1"]').value).toBe("http://h/join/T1#k");
    expect(q<HTMLInputElement>(el, '[data-testid="online-watch"]').value).toBe("http://h/watch/T1#w");
  });

  it("keeps a link's secret out of sight until asked, and asks the kernel for it (issue 40)", () => {
    const online = { connection: "online", server: "http://h", table: "T1", status: "waiting", seat: 0, invites: { "1": "http://h/join/T1#…" }, watch: "http://h/watch/T1#…" };
    const { el, model } = mount(stateOf(place2(), { online }));
    const invite = q<HTMLInputElement>(el, '[data-testid="online-invite-1"]');
    expect(invite.value).toBe("http://h/join/T1#…");
    click(el, '[data-testid="online-invite-1-show"]');
    expect(model.sent.filter((m) => (m as { kind: string }).kind === "online_link")).toEqual([{ kind: "online_link", which: "1" }]);
    model.emit({ kind: "online_link", which: "1", link: "http://h/join/T1#k" });
    expect(q<HTMLInputElement>(el, '[data-testid="online-invite-1"]').value).toBe("http://h/join/T1#k");
    expect(q<HTMLInputElement>(el, '[data-testid="online-watch"]').value).toBe("http://h/watch/T1#…"); // not asked
    expect(el.querySelector('[data-testid="online-invite-1-show"]')).toBeNull();
  });

  it("shows nothing for a game played here, or a malformed trait", () => {
    expect(readOnline({})).toBeNull();
    expect(readOnline({ table: 3 })).toBeNull();
    const { el } = mount(stateOf(place2(), {}));
    expect(el.querySelector('[data-testid="online-bar"]')).toBeNull();
  });
});
