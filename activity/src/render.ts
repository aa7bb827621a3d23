// The table on the page: drawn afresh from each table frame, the player's choices (a card
// picked, a showdown closed) kept across frames. Taps, drags and keys become moves.
import type { Card, Move, MoveKind, Panel, Seat, ShownHand, Table } from "./protocol";
import { cardName } from "./protocol";

export interface Actions {
  move(kind: MoveKind, card: Card | null): void;
  answer(accept: boolean): void;
  rematch(): void;
}

type Strings = Record<string, string>;

const RED = new Set(["H", "D"]);

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className = "",
  text = "",
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  return node;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The bot's sentences carry **bold** and `code`; everything else is plain text. */
function rich(node: HTMLElement, text: string): HTMLElement {
  node.innerHTML = escapeHtml(text)
    .replace(/\*\*(.+?)\*\*/g, "<strong>$1</strong>")
    .replace(/`(.+?)`/g, "<code>$1</code>")
    .replace(/~~(.+?)~~/g, "<s>$1</s>")
    .replace(/\n/g, "<br>");
  return node;
}

function plain(text: string): string {
  return text.replace(/\*\*|`|~~/g, "");
}

function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => String(values[key] ?? ""));
}

export function cardFace(card: Card, tag: "div" | "button" = "div"): HTMLElement {
  const node = el(tag, `card${RED.has(card.slice(-1)) ? " red" : ""}`);
  node.dataset.card = card;
  node.append(el("span", "rank", card.slice(0, -1)), el("span", "suit", cardName(card).slice(-1)));
  return node;
}

function cardBack(className = ""): HTMLElement {
  const node = el("div", `card back ${className}`.trim());
  node.setAttribute("aria-hidden", "true");
  return node;
}

function clock(endsAt: number | null, strings: Strings): string {
  if (endsAt === null) return "";
  const left = Math.max(0, Math.round(endsAt - Date.now() / 1000));
  const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  return fill(strings.time_left ?? "{time} left", { time });
}

export class TableView {
  private table: Table | null = null;
  private strings: Strings = {};
  private picked: Card | null = null;
  private seenShowdown = "";
  private closedOverlay = "";
  private waiting = false;
  private first = true;
  private spoken = "";
  private readonly live: HTMLElement;
  private readonly screen: HTMLElement;
  private drag: { card: Card | null; source: string; node: HTMLElement; x: number; y: number; moved: boolean } | null =
    null;

  constructor(
    private readonly root: HTMLElement,
    private readonly actions: Actions,
  ) {
    this.screen = el("div", "screen");
    this.live = el("div", "visually-hidden");
    this.live.setAttribute("aria-live", "polite");
    this.live.id = "announce";
    root.replaceChildren(this.screen, this.live);
    root.removeAttribute("aria-busy");
    document.addEventListener("keydown", (event) => this.key(event));
    document.addEventListener("pointermove", (event) => this.dragMove(event));
    document.addEventListener("pointerup", (event) => this.dragEnd(event));
    window.setInterval(() => this.tick(), 1000);
  }

  setStrings(strings: Strings): void {
    this.strings = strings;
  }

  notice(text: string): void {
    const note = this.root.querySelector(".connection");
    if (note) note.textContent = text;
    else this.screen.prepend(el("p", "connection", text));
    this.say(text);
  }

  clearNotice(): void {
    this.root.querySelector(".connection")?.remove();
  }

  refused(message: string): void {
    this.waiting = false;
    this.screen.classList.remove("waiting");
    this.say(message);
    const old = this.screen.querySelector(".refusal");
    const note = el("p", "refusal");
    note.setAttribute("role", "alert");
    rich(note, message);
    if (old) old.replaceWith(note);
    else this.screen.querySelector(".status")?.after(note);
  }

  show(table: Table): void {
    const before = this.table;
    this.table = table;
    this.waiting = false;
    const mine = table.mine;
    const discards = new Set((mine?.moves ?? []).filter((m) => m.kind === "discard").map((m) => m.card));
    if (this.picked && !discards.has(this.picked)) this.picked = null;
    const key = table.showdown ? `${table.showdown.hand}:${table.showdown.board}` : "";
    if (this.first) {
      this.first = false;
      if (table.status === "playing") this.seenShowdown = key; // shown before this page opened
    }
    this.draw();
    if (!before || plain(before.status_text) !== plain(table.status_text)) {
      const last = table.log.length ? table.log[table.log.length - 1] : "";
      this.say(`${plain(table.status_text)} ${last && before?.log[before.log.length - 1] !== last ? plain(last) : ""}`);
    }
  }

  private say(text: string): void {
    if (text === this.spoken) return;
    this.spoken = text;
    this.live.textContent = text;
  }

  private tick(): void {
    const node = this.screen.querySelector(".clock");
    if (node && this.table) node.textContent = clock(this.table.ends_at, this.strings);
  }

  private s(key: string, values: Record<string, string | number> = {}): string {
    return fill(this.strings[key] ?? key, values);
  }

  private legal(kind: MoveKind, card: Card | null = null): Move | undefined {
    return this.table?.mine?.moves.find((m) => m.kind === kind && (card === null || m.card === card));
  }

  private play(move: Move | undefined): void {
    if (!move || this.waiting) return;
    this.waiting = true;
    this.picked = null;
    this.screen.classList.add("waiting");
    this.actions.move(move.kind, move.card);
  }

  // --- drawing ------------------------------------------------------------------------------

  private draw(): void {
    const table = this.table;
    if (!table) return;
    const focused = (document.activeElement as HTMLElement | null)?.dataset?.focus ?? "";
    const screen = this.screen;
    screen.className = `screen status-${table.status}${table.you === null ? " spectator" : ""}`;
    const parts: HTMLElement[] = [];
    const connection = screen.querySelector(".connection");
    if (connection) parts.push(connection as HTMLElement);
    const top = el("header", "top");
    top.append(el("h1", "title", table.title));
    if (table.scores) top.append(el("p", "scores", table.scores));
    const time = el("p", "clock", clock(table.ends_at, this.strings));
    time.setAttribute("aria-label", time.textContent ?? "");
    top.append(time);
    parts.push(top);
    parts.push(this.seats(table));
    for (const board of table.boards) parts.push(this.board(table, board.index));
    parts.push(rich(el("p", "status"), table.status_text));
    if (table.you === null && table.status === "playing") parts.push(el("p", "watching", this.s("watching")));
    if (table.rules_text) parts.push(rich(el("p", "rules"), table.rules_text));
    if (table.mine) parts.push(this.hand(table), this.buttons(table));
    parts.push(this.log(table));
    const keys = el("p", "visually-hidden", this.s("keys"));
    keys.id = "keys";
    parts.push(keys);
    const overlay = this.overlay(table);
    if (overlay) parts.push(overlay);
    screen.replaceChildren(...parts);
    if (focused) {
      const again = screen.querySelector<HTMLElement>(`[data-focus="${CSS.escape(focused)}"]`);
      again?.focus();
    }
  }

  private seats(table: Table): HTMLElement {
    const box = el("section", "seats");
    box.setAttribute("aria-label", table.title);
    for (const seat of table.seats) box.append(this.seat(table, seat));
    return box;
  }

  private seat(table: Table, seat: Seat): HTMLElement {
    const mine = seat.seat === table.you;
    const node = el("div", `seat${seat.turn ? " turn" : ""}${mine ? " you" : ""} state-${seat.state}`);
    const name = el("span", "name", seat.name);
    node.append(name);
    const notes: string[] = [];
    if (seat.bot) notes.push(this.s("bot"));
    if (seat.team !== null) notes.push(this.s("team", { n: seat.team + 1 }));
    if (seat.state === "sitting_out") notes.push(this.s("sitting_out"));
    if (seat.state === "out") notes.push(this.s("out"));
    if (seat.state === "left") notes.push(this.s("left"));
    if (seat.state === "playing") notes.push(this.s("cards_held", { n: seat.cards }));
    if (seat.score !== null) notes.push(seat.score);
    node.append(el("span", "notes", notes.join(" · ")));
    if (!mine && seat.state === "playing" && seat.cards > 0) {
      const fan = el("div", "fan");
      for (let i = 0; i < Math.min(seat.cards, 11); i++) fan.append(cardBack("mini"));
      node.append(fan);
    }
    node.setAttribute("aria-label", `${seat.name}, ${notes.join(", ")}`);
    return node;
  }

  private board(table: Table, index: number): HTMLElement {
    const board = table.boards[index];
    const node = el("section", "board");
    const takeStock = this.legal("draw_stock") && table.mine?.board === index ? this.legal("draw_stock") : undefined;
    const takePile = this.legal("draw_discard") && table.mine?.board === index ? this.legal("draw_discard") : undefined;
    const stock = el("button", `stock${takeStock ? " live" : ""}`);
    stock.type = "button";
    stock.dataset.focus = `stock${index}`;
    stock.dataset.drop = "stock";
    stock.append(cardBack(), el("span", "count", this.s("stock_left", { n: board.stock })));
    const stockLabel = `${this.s("stock")}, ${this.s("stock_left", { n: board.stock })}`;
    stock.setAttribute("aria-label", takeStock ? `${stockLabel}. ${takeStock.label}` : stockLabel);
    stock.disabled = !takeStock;
    stock.addEventListener("click", () => this.play(takeStock));
    stock.addEventListener("pointerdown", (event) => this.dragStart(event, null, "stock", stock));
    const pile = el("button", `pile${takePile ? " live" : ""}`);
    pile.type = "button";
    pile.dataset.focus = `pile${index}`;
    pile.dataset.drop = "pile";
    const top = board.pile.length ? board.pile[board.pile.length - 1] : null;
    pile.append(top ? cardFace(top) : el("div", "card empty", this.s("pile_empty")));
    const pileLabel = `${this.s("pile")}: ${top ? cardName(top) : this.s("pile_empty")}`;
    pile.setAttribute("aria-label", takePile ? `${pileLabel}. ${takePile.label}` : pileLabel);
    pile.disabled = !takePile && !this.canDiscard();
    pile.addEventListener("click", () => {
      if (takePile) this.play(takePile);
      else if (this.picked) this.play(this.legal("discard", this.picked));
    });
    pile.addEventListener("pointerdown", (event) => this.dragStart(event, null, "pile", pile));
    const names = el("div", "piles");
    names.append(stock, pile);
    node.append(names);
    if (board.to_do && table.boards.length > 1) node.append(el("p", "todo", board.to_do));
    return node;
  }

  private canDiscard(): boolean {
    return Boolean(this.table?.mine?.moves.some((m) => m.kind === "discard"));
  }

  private hand(table: Table): HTMLElement {
    const mine = table.mine!;
    const node = el("section", "hand");
    const heading = el("h2", "", `${this.s("your_hand")} · ${this.s("deadwood", { n: mine.deadwood_value })}`);
    node.append(heading);
    node.setAttribute("aria-label", heading.textContent ?? "");
    node.dataset.drop = "hand";
    const row = el("div", "cards");
    row.setAttribute("role", "group");
    row.setAttribute("aria-describedby", "keys");
    const groups: [Card[], boolean][] = mine.melds.map((m) => [m, true]);
    if (mine.deadwood.length) groups.push([mine.deadwood, false]);
    let first = true;
    for (const [cards, meld] of groups) {
      const group = el("div", `group${meld ? " meld" : " deadwood"}`);
      for (const card of cards) {
        const button = cardFace(card, "button") as HTMLButtonElement;
        button.type = "button";
        button.dataset.focus = `card-${card}`;
        const where = this.s(meld ? "in_meld" : "in_deadwood");
        let label = this.s("card_in", { card: cardName(card), group: where });
        if (card === mine.drawn) {
          button.classList.add("drawn");
          label += `, ${this.s("drawn")}`;
        }
        const discard = this.legal("discard", card);
        if (discard) {
          button.classList.add("live");
          label += `. ${discard.label}`;
        }
        if (card === this.picked) button.classList.add("picked");
        button.setAttribute("aria-label", label);
        button.tabIndex = card === this.picked || (first && !this.picked) ? 0 : -1;
        first = false;
        button.addEventListener("click", () => this.tapCard(card));
        button.addEventListener("pointerdown", (event) => this.dragStart(event, card, "hand", button));
        group.append(button);
      }
      row.append(group);
    }
    node.append(row);
    if (mine.meter) node.append(rich(el("p", "meter"), mine.meter));
    return node;
  }

  private buttons(table: Table): HTMLElement {
    const box = el("div", "actions");
    const moves = table.mine?.moves ?? [];
    const offer = (move: Move | undefined, className: string): void => {
      if (!move) return;
      const button = el("button", className, move.label);
      button.type = "button";
      button.dataset.focus = `${move.kind}-${move.card ?? ""}`;
      button.addEventListener("click", () => this.play(move));
      box.append(button);
    };
    offer(moves.find((m) => m.kind === "pass"), "pass");
    offer(moves.find((m) => m.kind === "draw_discard"), "take");
    offer(moves.find((m) => m.kind === "draw_stock"), "draw");
    if (this.picked) offer(this.legal("discard", this.picked), "discard");
    const knocks = moves.filter((m) => m.kind === "knock");
    const pickedKnock = this.picked ? knocks.find((m) => m.card === this.picked) : undefined;
    offer(pickedKnock ?? knocks.find((m) => m.best), "knock");
    offer(moves.find((m) => m.kind === "big_gin"), "knock big-gin");
    return box;
  }

  private log(table: Table): HTMLElement {
    const box = el("section", "log");
    box.append(el("h2", "", this.s("log")));
    const list = el("ol");
    for (const line of table.log) list.append(rich(el("li"), line));
    box.append(list);
    return box;
  }

  private overlay(table: Table): HTMLElement | null {
    const showdown = table.showdown;
    const key = showdown ? `${showdown.hand}:${showdown.board}` : "";
    let panel: Panel | null = null;
    let hands: ShownHand[] = [];
    let id = "";
    if (table.status === "finished" && table.result) {
      id = `result:${table.id}`;
      panel = table.result;
      hands = showdown?.hands ?? [];
    } else if (table.can_answer) {
      id = `answer:${table.id}`;
      panel = { title: table.title, body: table.status_text, footer: "" };
    } else if (showdown && key !== this.seenShowdown) {
      id = `showdown:${key}`;
      panel = showdown.panel;
      hands = showdown.hands;
    }
    if (!panel || id === this.closedOverlay) return null;
    const box = el("div", "overlay");
    box.setAttribute("role", "dialog");
    box.setAttribute("aria-modal", "true");
    box.setAttribute("aria-labelledby", "overlay-title");
    const card = el("div", "panel");
    const title = rich(el("h2"), panel.title);
    title.id = "overlay-title";
    card.append(title);
    for (const shown of hands) card.append(this.shownHand(table, shown));
    card.append(rich(el("p", "body"), panel.body));
    if (panel.footer) card.append(rich(el("p", "footer"), panel.footer));
    const buttons = el("div", "actions");
    const button = (text: string, className: string, act: () => void): void => {
      const node = el("button", className, text);
      node.type = "button";
      node.dataset.focus = `overlay-${className}`;
      node.addEventListener("click", act);
      buttons.append(node);
    };
    if (id.startsWith("answer")) {
      button(this.s("accept"), "accept", () => this.actions.answer(true));
      button(this.s("decline"), "decline", () => this.actions.answer(false));
    }
    if (id.startsWith("result") && table.can_rematch) {
      button(this.s("rematch"), "rematch", () => this.actions.rematch());
    }
    button(this.s("close"), "close", () => {
      this.closedOverlay = id;
      if (id.startsWith("showdown")) this.seenShowdown = key;
      this.draw();
    });
    card.append(buttons);
    box.append(card);
    return box;
  }

  private shownHand(table: Table, shown: ShownHand): HTMLElement {
    const row = el("div", "shown");
    const name = table.seats[shown.seat]?.name ?? "";
    row.append(el("p", "name", `${name} · ${this.s("deadwood", { n: shown.deadwood_value })}`));
    const cards = el("div", "cards");
    for (const meld of shown.melds) {
      const group = el("div", "group meld");
      for (const card of meld) group.append(cardFace(card));
      cards.append(group);
    }
    const rest = [...shown.deadwood, ...shown.laid_off];
    if (rest.length) {
      const group = el("div", "group deadwood");
      for (const card of shown.deadwood) group.append(cardFace(card));
      for (const card of shown.laid_off) {
        const face = cardFace(card);
        face.classList.add("laid-off");
        group.append(face);
      }
      cards.append(group);
    }
    row.append(cards);
    row.setAttribute(
      "aria-label",
      `${name}: ${shown.melds.map((m) => m.map(cardName).join(" ")).join(" · ")} · ${rest.map(cardName).join(" ")}`,
    );
    return row;
  }

  // --- taps, drags and keys -------------------------------------------------------------------

  private tapCard(card: Card): void {
    if (!this.legal("discard", card)) return;
    if (this.picked === card) {
      this.play(this.legal("discard", card));
      return;
    }
    this.picked = card;
    this.draw();
    this.screen.querySelector<HTMLElement>(`[data-focus="card-${CSS.escape(card)}"]`)?.focus();
  }

  private dragStart(event: PointerEvent, card: Card | null, source: string, node: HTMLElement): void {
    if (event.button !== 0) return;
    if (source === "hand" && !(card && this.legal("discard", card))) return;
    if (source === "stock" && !this.legal("draw_stock")) return;
    if (source === "pile" && !this.legal("draw_discard")) return;
    this.drag = { card, source, node, x: event.clientX, y: event.clientY, moved: false };
  }

  private dragMove(event: PointerEvent): void {
    const drag = this.drag;
    if (!drag) return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (!drag.moved && Math.hypot(dx, dy) < 8) return;
    drag.moved = true;
    drag.node.classList.add("dragging");
    drag.node.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  private dragEnd(event: PointerEvent): void {
    const drag = this.drag;
    this.drag = null;
    if (!drag || !drag.moved) return;
    drag.node.style.transform = "";
    drag.node.classList.remove("dragging");
    const under = document.elementsFromPoint(event.clientX, event.clientY);
    const target = under.map((n) => (n as HTMLElement).closest<HTMLElement>("[data-drop]")).find(
      (n) => n && n !== drag.node,
    );
    const onto = target?.dataset.drop;
    // A drag ends as a click would: suppress the click that follows it.
    drag.node.addEventListener("click", (e) => e.stopImmediatePropagation(), { capture: true, once: true });
    if (drag.source === "hand" && onto === "pile" && drag.card) this.play(this.legal("discard", drag.card));
    if (drag.source === "stock" && onto === "hand") this.play(this.legal("draw_stock"));
    if (drag.source === "pile" && onto === "hand") this.play(this.legal("draw_discard"));
  }

  private key(event: KeyboardEvent): void {
    const table = this.table;
    if (!table || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target as HTMLElement;
    const card = target.dataset?.card;
    const inHand = Boolean(card && target.closest(".hand"));
    const key = event.key;
    if (inHand && (key === "ArrowRight" || key === "ArrowLeft")) {
      const cards = [...this.screen.querySelectorAll<HTMLElement>(".hand .card")];
      const at = cards.indexOf(target);
      const next = cards[(at + (key === "ArrowRight" ? 1 : cards.length - 1)) % cards.length];
      for (const c of cards) c.tabIndex = -1;
      next.tabIndex = 0;
      next.focus();
      event.preventDefault();
      return;
    }
    if (inHand && (key === "Enter" || key === " ") && card) {
      event.preventDefault();
      this.play(this.legal("discard", card));
      return;
    }
    if (target.tagName === "BUTTON" && (key === "Enter" || key === " ")) return;
    const lower = key.toLowerCase();
    if (lower === "s") this.play(this.legal("draw_stock"));
    else if (lower === "p") this.play(this.legal("draw_discard"));
    else if (lower === "x") this.play(this.legal("pass"));
    else if (lower === "g") this.play(this.legal("big_gin"));
    else if (lower === "k") {
      const knocks = table.mine?.moves.filter((m) => m.kind === "knock") ?? [];
      this.play(knocks.find((m) => m.best) ?? knocks[0]);
    } else if (key === "Escape") {
      const close = this.screen.querySelector<HTMLButtonElement>(".overlay .close");
      close?.click();
    }
  }
}
