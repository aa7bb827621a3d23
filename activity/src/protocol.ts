// The frames of docs/activity-protocol.md, as the page reads and writes them.

export type Card = string; // "7H", "10S", "AD"

export interface Panel {
  title: string;
  body: string;
  footer: string;
}

export interface Seat {
  seat: number;
  name: string;
  bot: boolean;
  team: number | null;
  cards: number;
  turn: boolean;
  state: "playing" | "sitting_out" | "out" | "left" | "waiting";
  score: string | null;
  board: number | null;
}

export interface Board {
  index: number;
  seats: number[];
  turn: number | null;
  phase: "upcard" | "draw" | "discard" | "over";
  stock: number;
  pile: Card[];
  pile_size: number;
  to_do: string;
}

export type MoveKind = "draw_stock" | "draw_discard" | "pass" | "discard" | "knock" | "big_gin";

export interface Move {
  kind: MoveKind;
  card: Card | null;
  left: number | null;
  best: boolean;
  label: string;
}

export interface Mine {
  board: number;
  melds: Card[][];
  deadwood: Card[];
  deadwood_value: number;
  drawn: Card | null;
  taken: Card | null;
  token: number;
  moves: Move[];
  meter: string | null;
}

export interface ShownHand {
  seat: number;
  melds: Card[][];
  deadwood: Card[];
  deadwood_value: number;
  laid_off: Card[];
}

export interface Showdown {
  hand: number;
  board: number;
  hands: ShownHand[];
  panel: Panel;
}

export interface Table {
  id: number | null;
  status: "none" | "challenge" | "lobby" | "playing" | "finished" | "closed";
  mode: string;
  title: string;
  hand: number;
  you: number | null;
  seats: Seat[];
  boards: Board[];
  scores: string;
  status_text: string;
  rules_text: string;
  log: string[];
  ends_at: number | null;
  mine: Mine | null;
  showdown: Showdown | null;
  result: Panel | null;
  can_answer: boolean;
  can_rematch: boolean;
}

export interface Welcome {
  type: "welcome";
  session: string;
  user: { id: string; name: string };
  language: string;
  strings: Record<string, string>;
}

export interface TableFrame {
  type: "table";
  table: Table;
}

export interface ErrorFrame {
  type: "error";
  code: string;
  message: string;
  ref: number | null;
}

export type ServerFrame = Welcome | TableFrame | ErrorFrame;

export const SUITS: Record<string, string> = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** A card's name as the bot writes it: "10♥". */
export function cardName(card: Card): string {
  return card.slice(0, -1) + SUITS[card.slice(-1)];
}
