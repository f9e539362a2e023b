/**
 * The pages the game server serves (`langfinger serve`): the lobby, joining by
 * an invite, playing a seat and watching. The board itself is the notebook
 * widget's bundle (`widget.js`), loaded as is and driven by an
 * `OnlineModel`; this file only draws what surrounds it: the connection, the
 * seats and their clocks, stand-ins, resigning, the links to hand out.
 */
import { render } from "preact";
import type { JSX } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { OnlineModel, socketUrl } from "./online";
import type { GameOffer, OnlineStatus, SeatInfo, TableInfo } from "./online";
import type { AnyModel } from "./types";

const SEATS_KEY = "langfinger:seats";
const LEVELS = ["easy", "medium", "hard", "expert"];
const CLOCKS: [string, number | null][] = [["no clock", null], ["1 minute", 60], ["5 minutes", 300], ["1 hour", 3600], ["1 day", 86400], ["1 week", 604800]];

type Widget = { render(args: { model: AnyModel; el: HTMLElement }): () => void };

// --- the seats this browser holds (its tokens, never sent anywhere but this server) ---------
function mySeats(): Record<string, string> {
  try {
    const raw = JSON.parse(localStorage.getItem(SEATS_KEY) ?? "{}") as unknown;
    return raw && typeof raw === "object" ? (raw as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function keepSeat(table: string, token: string): void {
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify({ ...mySeats(), [table]: token }));
  } catch {
    /* private browsing: the link in the address bar still works */
  }
}

function forgetSeat(table: string): void {
  const seats = mySeats();
  delete seats[table];
  try {
    localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
  } catch {
    /* nothing kept, nothing to forget */
  }
}

async function api(path: string, body?: unknown, token?: string): Promise<{ ok: boolean; data: Record<string, unknown>; text: string }> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method: body === undefined ? "GET" : "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(text) as Record<string, unknown>;
  } catch {
    /* a record is plain text */
  }
  return { ok: response.ok, data, text };
}

function Copy(props: { text: string; label: string; testid: string }): JSX.Element {
  const [done, setDone] = useState(false);
  return (
    <span class="lfo-link">
      <input readOnly value={props.text} aria-label={props.label} data-testid={props.testid} onFocus={(e) => (e.target as HTMLInputElement).select()} />
      <button
        type="button"
        class="lf-btn"
        onClick={() => {
          void navigator.clipboard?.writeText(props.text).then(() => setDone(true));
        }}
      >
        {done ? "Copied" : "Copy"}
      </button>
    </span>
  );
}

// --- the lobby --------------------------------------------------------------------------------
/** Langfinger alone, until the server says which games it deals (and for an older server). */
const LANGFINGER: GameOffer = { name: "langfinger", title: "Langfinger", players: [2, 5], options: {}, levels: LEVELS };

function Lobby(): JSX.Element {
  const [offers, setOffers] = useState<GameOffer[]>([LANGFINGER]);
  const [game, setGame] = useState("langfinger");
  const [players, setPlayers] = useState(2);
  const [seats, setSeats] = useState<string[]>(["person", "person", "medium", "medium", "medium"]);
  const [names, setNames] = useState<string[]>(["", "", "", "", ""]);
  const [clock, setClock] = useState<number | null>(null);
  const [hints, setHints] = useState(false);
  const [made, setMade] = useState<Record<string, unknown> | null>(null);
  const [error, setError] = useState("");
  const [mine, setMine] = useState<(TableInfo & { seat: number; your_turn: boolean })[]>([]);

  useEffect(() => {
    void api("/api/info").then((r) => {
      if (r.ok && Array.isArray(r.data.games) && r.data.games.length) setOffers(r.data.games as GameOffer[]);
    });
  }, []);
  const offer = offers.find((g) => g.name === game) ?? offers[0] ?? LANGFINGER;
  const counts = Array.from({ length: offer.players[1] - offer.players[0] + 1 }, (_, i) => offer.players[0] + i);
  const chooseGame = (name: string): void => {
    const next = offers.find((g) => g.name === name) ?? LANGFINGER;
    setGame(next.name);
    setPlayers(Math.min(Math.max(players, next.players[0]), next.players[1]));
    // A bot level the new game's bots do not play becomes its strongest one.
    setSeats(seats.map((s) => (s === "person" || next.levels.includes(s) ? s : (next.levels[next.levels.length - 1] ?? "person"))));
  };

  useEffect(() => {
    const tokens = Object.values(mySeats());
    if (tokens.length === 0) return;
    void api("/api/mine", { tokens }).then((r) => setMine(r.ok ? (r.data.tables as typeof mine) : []));
  }, [made]);

  const create = async (): Promise<void> => {
    setError("");
    const chosen = seats.slice(0, players).map((kind, seat) => (kind === "person" ? { kind, name: names[seat] || undefined } : { kind: "bot", level: kind }));
    const join = chosen.findIndex((s) => s.kind === "person");
    const r = await api("/api/tables", { game: offer.name, players, seats: chosen, join: join < 0 ? null : join, time: clock, hints });
    if (!r.ok) {
      setError(String(r.data.error ?? r.text));
      return;
    }
    if (typeof r.data.token === "string") keepSeat(String(r.data.table), r.data.token);
    setMade(r.data);
  };

  const invites = (made?.invites ?? {}) as Record<string, string>;
  return (
    <main class="lfo-lobby">
      <h1>Langfinger online</h1>
      <section class="lfo-card" aria-label="New table">
        <h2>New table</h2>
        {offers.length > 1 ? (
          <label>
            Game{" "}
            <select data-testid="lobby-game" value={offer.name} onChange={(e) => chooseGame((e.target as HTMLSelectElement).value)}>
              {offers.map((g) => (
                <option value={g.name}>{g.title}</option>
              ))}
            </select>
          </label>
        ) : null}
        <label>
          Players{" "}
          <select data-testid="lobby-players" value={players} onChange={(e) => setPlayers(Number((e.target as HTMLSelectElement).value))}>
            {counts.map((n) => (
              <option value={n}>{n}</option>
            ))}
          </select>
        </label>
        {Array.from({ length: players }, (_, seat) => (
          <div class="lfo-seat-row">
            <span>Seat {seat + 1}</span>
            <select
              data-testid={`lobby-seat-${seat}`}
              value={seats[seat]}
              onChange={(e) => setSeats(seats.map((s, i) => (i === seat ? (e.target as HTMLSelectElement).value : s)))}
            >
              <option value="person">a person</option>
              {offer.levels.map((l) => (
                <option value={l}>bot: {l}</option>
              ))}
            </select>
            {seats[seat] === "person" ? (
              <input
                placeholder={seat === 0 ? "your name" : "their name"}
                maxLength={24}
                value={names[seat]}
                onInput={(e) => setNames(names.map((n, i) => (i === seat ? (e.target as HTMLInputElement).value : n)))}
              />
            ) : null}
          </div>
        ))}
        <label>
          Time a decision{" "}
          <select value={String(clock)} onChange={(e) => setClock((e.target as HTMLSelectElement).value === "null" ? null : Number((e.target as HTMLSelectElement).value))}>
            {CLOCKS.map(([label, seconds]) => (
              <option value={String(seconds)}>{label}</option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={hints} onChange={(e) => setHints((e.target as HTMLInputElement).checked)} /> allow hints
        </label>
        <button type="button" class="lf-btn" data-testid="lobby-create" onClick={() => void create()}>
          Create the table
        </button>
        {error ? <p class="lfo-error" role="alert">{error}</p> : null}
      </section>
      {made ? (
        <section class="lfo-card" aria-label="Links" data-testid="lobby-links">
          <h2>Links</h2>
          {typeof made.play === "string" ? (
            <p>
              Your seat: <a href={made.play}>open the board</a> <Copy text={made.play} label="your seat's link" testid="link-play" />
            </p>
          ) : null}
          {Object.entries(invites)
            .filter(([seat]) => seat !== String(made.seat))
            .map(([seat, link]) => (
              <p>
                Send to seat {Number(seat) + 1}: <Copy text={link} label={`invite for seat ${Number(seat) + 1}`} testid={`link-invite-${seat}`} />
              </p>
            ))}
          <p>
            Spectators: <Copy text={String(made.watch)} label="spectator link" testid="link-watch" />
          </p>
        </section>
      ) : null}
      {mine.length ? (
        <section class="lfo-card" aria-label="My tables" data-testid="my-tables">
          <h2>My tables</h2>
          <ul>
            {mine.map((t) => (
              <li>
                <a href={`/play/${t.id}#${mySeats()[t.id] ?? ""}`}>
                  {t.seats.map((s) => s.name).join(" · ")}
                </a>{" "}
                {t.game ? ` (${offers.find((g) => g.name === t.game)?.title ?? t.game})` : ""} — {t.status === "over" ? "finished" : t.your_turn ? <b>your turn</b> : t.status === "waiting" ? "waiting for players" : `${t.seats[t.to_move ?? 0]?.name ?? "?"} to move`}
                {t.round !== null && t.round !== undefined ? `, round ${t.round}` : ""}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </main>
  );
}

// --- joining by an invite -----------------------------------------------------------------------
function Join(props: { table: string; invite: string }): JSX.Element {
  const [error, setError] = useState("");
  useEffect(() => {
    const held = mySeats()[props.table];
    const go = (token: string): void => window.location.replace(`/play/${props.table}#${token}`);
    if (held) {
      go(held);
      return;
    }
    // The join's own key, kept until its answer comes: a join whose answer was lost (the
    // network, a reload) is sent again with it and gets the same seat, not "seat taken".
    const keyName = `langfinger-join-key:${props.table}`;
    let key = sessionStorage.getItem(keyName);
    if (!key) {
      const bytes = crypto.getRandomValues(new Uint8Array(24));
      key = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
      sessionStorage.setItem(keyName, key);
    }
    const attempt = (left: number): void => {
      api(`/api/tables/${props.table}/join`, { invite: props.invite, key }).then(
        (r) => {
          sessionStorage.removeItem(keyName);
          if (r.ok && typeof r.data.token === "string") {
            keepSeat(props.table, r.data.token);
            go(r.data.token);
          } else setError(String(r.data.error ?? "this invite does not open a seat"));
        },
        () => (left > 0 ? window.setTimeout(() => attempt(left - 1), 1000) : setError("the server cannot be reached: reload to try again")),
      );
    };
    attempt(2);
  }, []);
  return <main class="lfo-lobby">{error ? <p class="lfo-error" role="alert" data-testid="join-error">{error}</p> : <p>Taking your seat…</p>}</main>;
}

// --- a table: the bar above the board -----------------------------------------------------------
function clockText(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function connectionText(status: OnlineStatus): string {
  switch (status.connection) {
    case "online":
      return status.you?.role === "spectator" ? "Watching" : "Connected";
    case "connecting":
      return "Connecting…";
    case "behind":
      return "Behind the table: catching up…";
    case "offline":
      return `Offline: reconnecting in ${Math.ceil((status.retryIn ?? 0) / 1000)} s`;
    default:
      return status.message || "Disconnected";
  }
}

function SeatChip(props: { s: SeatInfo; me: boolean; toMove: boolean }): JSX.Element {
  const { s } = props;
  const who = s.kind === "bot" ? `bot ${s.level}` : s.status === "resigned" ? "resigned" : s.stand_in ? "bot stands in" : s.status === "open" ? "seat open" : s.online ? "online" : "away";
  return (
    <li class={`lfo-seat ${props.toMove ? "lfo-to-move" : ""}`} data-seat={s.seat} data-online={String(s.online)}>
      <span class={`lfo-dot ${s.online || s.kind === "bot" ? "lfo-on" : ""}`} aria-hidden="true" />
      {s.name}
      {props.me ? " (you)" : ""} <small>{who}</small>
    </li>
  );
}

function TableBar(props: { status: OnlineStatus; model: OnlineModel; token: string | null; skew: number }): JSX.Element {
  const { status, model } = props;
  const table = status.table;
  const me = status.you?.seat ?? null;
  const [now, setNow] = useState(Date.now() / 1000 + props.skew);
  const [answer, setAnswer] = useState("");
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now() / 1000 + props.skew), 1000);
    return () => clearInterval(t);
  }, [props.skew]);
  useEffect(() => {
    const onMsg = (m: unknown): void => {
      const msg = m as { kind?: string; ok?: boolean; error?: string };
      if (msg.kind === "result" && msg.ok === false && msg.error) setAnswer(msg.error);
    };
    model.on("msg:custom", onMsg);
    return () => model.off("msg:custom", onMsg);
  }, [model]);

  const toMove = table?.to_move ?? null;
  const mover = toMove === null ? null : (table?.seats[toMove] ?? null);
  const left = table?.deadline ? table.deadline - now : null;
  const timedOut = left !== null && left <= 0;
  const canStandIn = me !== null && mover !== null && toMove !== me && mover.kind === "person" && !mover.stand_in && mover.status !== "resigned" && (timedOut || mover.status === "open") && table?.status === "playing";
  const stoodIn = me !== null && table?.seats[me]?.stand_in === true;
  const record = async (): Promise<void> => {
    if (!table || !props.token) return;
    const r = await api(`/api/tables/${table.id}/record`, undefined, props.token);
    if (!r.ok) return setAnswer(String(r.data.error ?? "no record"));
    const url = URL.createObjectURL(new Blob([r.text], { type: "text/plain" }));
    const a = document.createElement("a");
    a.href = url;
    a.download = `langfinger-${table.id}.lfr`;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <header class="lfo-bar">
      <p class={`lfo-status lfo-${status.connection}`} data-testid="online-status" data-state={status.connection} role="status" aria-live="polite">
        {connectionText(status)}
        {status.connection === "offline" ? (
          <button type="button" class="lf-btn" onClick={() => model.start()}>
            Retry now
          </button>
        ) : null}
      </p>
      {table ? (
        <>
          <ul class="lfo-seats" aria-label="Seats">
            {table.seats.map((s) => (
              <SeatChip s={s} me={s.seat === me} toMove={(table.to_decide ?? (toMove === null ? [] : [toMove])).includes(s.seat) && table.status === "playing"} />
            ))}
          </ul>
          {table.status === "waiting" ? <p data-testid="waiting">Waiting for every player to join.</p> : null}
          {left !== null && mover && table.status === "playing" ? (
            <p class={timedOut ? "lfo-late" : ""} data-testid="clock">
              {timedOut ? `${mover.name}'s time is up` : `${mover.name}: ${clockText(left)} left`}
            </p>
          ) : null}
          <div class="lfo-actions">
            {canStandIn && toMove !== null ? (
              <button type="button" class="lf-btn" data-testid="stand-in" onClick={() => model.send({ kind: "stand_in", seat: toMove })}>
                Hand {mover?.name} to a bot
              </button>
            ) : null}
            {stoodIn ? (
              <button type="button" class="lf-btn" data-testid="return" onClick={() => model.send({ kind: "return" })}>
                Take my seat back
              </button>
            ) : null}
            {me !== null && table.status === "playing" ? (
              <button type="button" class="lf-btn" data-testid="resign" onClick={() => window.confirm("Resign? A bot plays your seat to the end.") && model.send({ kind: "resign" })}>
                Resign
              </button>
            ) : null}
            {me !== null && table.status !== "over" ? (
              <button type="button" class="lf-btn" data-testid="leave" onClick={() => window.confirm("Leave this table? Your link stops working.") && model.send({ kind: "leave" })}>
                Leave
              </button>
            ) : null}
            {table.status === "over" && props.token ? (
              <button type="button" class="lf-btn" data-testid="record" onClick={() => void record()}>
                Download the record
              </button>
            ) : null}
          </div>
          {table.standings ? (
            <ol class="lfo-standings" data-testid="online-standings">
              {table.standings.map((r) => (
                <li>
                  {table.seats[r.seat]?.name}: {r.money ?? r.score}
                  {r.resigned ? " (resigned)" : ""}
                </li>
              ))}
            </ol>
          ) : null}
          {me !== null ? (
            <details class="lfo-keep">
              <summary>Your link (keep it to come back)</summary>
              <Copy text={window.location.href} label="your seat's link" testid="link-self" />
            </details>
          ) : null}
          {answer ? (
            <p class="lfo-error" role="alert" data-testid="online-answer">
              {answer}{" "}
              <button type="button" class="lf-close" aria-label="Dismiss" onClick={() => setAnswer("")}>
                ×
              </button>
            </p>
          ) : null}
        </>
      ) : null}
    </header>
  );
}

function TablePage(props: { page: "play" | "watch"; table: string; secret: string }): JSX.Element {
  const token = props.page === "play" ? props.secret || mySeats()[props.table] || null : null;
  const [status, setStatus] = useState<OnlineStatus | null>(null);
  const [skew, setSkew] = useState(0);
  const [boardError, setBoardError] = useState("");
  const model = useMemo(() => {
    const hello = props.page === "play" ? { token } : { table: props.table, spectate: props.secret };
    return new OnlineModel({ url: socketUrl(window.location, props.table), hello, onStatus: setStatus });
  }, []);
  useEffect(() => {
    if (props.page === "play" && token) keepSeat(props.table, token);
    (window as unknown as { langfingerOnline: OnlineModel }).langfingerOnline = model; // for scripts and tests
    model.start();
    const t0 = Date.now() / 1000;
    void api("/api/info").then((r) => {
      if (typeof r.data.now === "number") setSkew(r.data.now - (t0 + Date.now() / 1000) / 2);
    });
    return () => model.stop();
  }, [model]);
  useEffect(() => {
    if (status?.connection === "closed" && props.page === "play") forgetSeat(props.table);
  }, [status?.connection]);

  const mount = (el: HTMLElement | null): void => {
    if (!el || el.dataset.mounted) return;
    el.dataset.mounted = "1";
    const url = new URL("./widget.js", import.meta.url).href;
    import(/* @vite-ignore */ url)
      .then((mod: { default: Widget }) => mod.default.render({ model, el }))
      .catch((err: unknown) => setBoardError(`The board did not load: ${String(err)}`));
  };

  if (props.page === "play" && !token) {
    return (
      <main class="lfo-lobby">
        <p class="lfo-error" role="alert">
          This page needs your seat's link (the one you got when you joined).
        </p>
      </main>
    );
  }
  return (
    <div class="lfo-table">
      {status ? <TableBar status={status} model={model} token={token ?? props.secret} skew={skew} /> : null}
      {boardError ? <p class="lfo-error">{boardError}</p> : null}
      <div class="lfo-board" ref={mount} />
    </div>
  );
}

function Page(): JSX.Element {
  const root = document.getElementById("lf-online");
  const page = root?.dataset.page ?? "lobby";
  const table = root?.dataset.table ?? "";
  const secret = decodeURIComponent(window.location.hash.replace(/^#/, ""));
  if (page === "join") return <Join table={table} invite={secret} />;
  if (page === "play" || page === "watch") return <TablePage page={page} table={table} secret={secret} />;
  return <Lobby />;
}

const host = document.getElementById("lf-online");
if (host) render(<Page />, host);
