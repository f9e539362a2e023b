/**
 * The strip a board shows while it plays at a game server's table (lf.online): the
 * connection, the table and, when this board created the table ("Play online"), the
 * invite links to send, each with a Copy button.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import type { OnlineInfo } from "../types";

const WORDS: Record<string, string> = {
  online: "online",
  connecting: "connecting…",
  offline: "offline, reconnecting…",
  closed: "disconnected",
};

function CopyLink(props: { label: string; link: string; testid: string }): JSX.Element {
  const [copied, setCopied] = useState(false);
  return (
    <span class="lf-online-link">
      <span class="lf-online-label">{props.label}</span>
      <input readOnly value={props.link} aria-label={props.label} data-testid={props.testid} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
      <button
        type="button"
        class="lf-btn"
        onClick={() => {
          void navigator.clipboard?.writeText(props.link).then(() => setCopied(true));
        }}
      >
        {copied ? "Copied" : "Copy"}
      </button>
    </span>
  );
}

export function OnlineBar(props: { online: OnlineInfo }): JSX.Element {
  const { online } = props;
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
            <CopyLink key={seat} label={`Invite for seat ${seat}`} link={link} testid={`online-invite-${seat}`} />
          ))}
          {online.watch ? <CopyLink label="Spectators" link={online.watch} testid="online-watch" /> : null}
        </span>
      ) : null}
    </div>
  );
}
