/**
 * The strip a board shows while it plays at a game server's table (lf.online): the
 * connection, the table and, when this board created the table ("Play online"), the
 * invite links to send, each with Show and Copy buttons.
 *
 * A notebook saves the widget's state, so the kernel puts each link there without its
 * secret (after `#`, shown as "…"). Show or Copy asks the kernel for the whole link, which
 * arrives as a message and lives only in this page.
 */
import type { JSX } from "preact";
import { useEffect, useState } from "preact/hooks";
import type { InMessage, OnlineInfo, OutMessage } from "../types";

/** A link whose secret the kernel left out of the widget's state. */
export function isMasked(link: string): boolean {
  return link.endsWith("#…");
}

const WORDS: Record<string, string> = {
  online: "online",
  connecting: "connecting…",
  offline: "offline, reconnecting…",
  closed: "disconnected",
};

type Send = (msg: OutMessage) => void;

function CopyLink(props: { label: string; link: string; testid: string; which: string; full?: string; send?: Send }): JSX.Element {
  const [copied, setCopied] = useState(false);
  const [asked, setAsked] = useState<"show" | "copy" | null>(null);
  const secret = isMasked(props.link);
  const whole = secret ? props.full : props.link;
  const copy = (link: string): void => {
    void navigator.clipboard?.writeText(link).then(() => setCopied(true));
  };
  // The whole link arrived after a Copy: copy it now.
  useEffect(() => {
    if (asked === "copy" && whole) copy(whole);
  }, [asked, whole]);
  const ask = (what: "show" | "copy"): void => {
    setAsked(what);
    if (whole) {
      if (what === "copy") copy(whole);
    } else props.send?.({ kind: "online_link", which: props.which });
  };
  const shown = whole && asked !== null ? whole : props.link;
  return (
    <span class="lf-online-link">
      <span class="lf-online-label">{props.label}</span>
      <input readOnly value={shown} aria-label={props.label} data-testid={props.testid} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
      {secret && asked === null ? (
        <button type="button" class="lf-btn" data-testid={`${props.testid}-show`} onClick={() => ask("show")}>
          Show
        </button>
      ) : null}
      <button type="button" class="lf-btn" data-testid={`${props.testid}-copy`} onClick={() => ask("copy")}>
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}

export function OnlineBar(props: { online: OnlineInfo; send?: Send; inbox?: InMessage | null }): JSX.Element {
  const { online } = props;
  // Whole links the kernel sent on request (a message, never the saved state).
  const [full, setFull] = useState<Record<string, string>>({});
  useEffect(() => {
    const m = props.inbox;
    if (m && m.kind === "online_link" && typeof m.which === "string" && typeof m.link === "string") {
      const which = m.which;
      const link = m.link;
      setFull((old) => ({ ...old, [which]: link }));
    }
  }, [props.inbox]);
  const invites = Object.entries(online.invites).sort(([a], [b]) => Number(a) - Number(b));
  const waiting = online.status === "waiting";
  return (
    <div class="lf-online" data-testid="online-bar" data-state={online.connection}>
      <span>
        Online table <b>{online.table}</b> · {WORDS[online.connection] ?? online.connection}
        {waiting ? " · waiting for everyone to join" : ""}
      </span>
      {invites.length > 0 ? (
        <span class="lf-online-links">
          {invites.map(([seat, link]) => (
            <CopyLink key={seat} label={`Invite for seat ${seat}`} link={link} testid={`online-invite-${seat}`} which={seat} full={full[seat]} send={props.send} />
          ))}
          {online.watch ? <CopyLink label="Spectators" link={online.watch} testid="online-watch" which="watch" full={full.watch} send={props.send} /> : null}
        </span>
      ) : null}
    </div>
  );
}
