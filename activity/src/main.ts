// The Activity's page: sign in through Discord, open the socket, show the channel's table.
import "./style.css";
import { Connection } from "./connection";
import type { ServerFrame } from "./protocol";
import { TableView } from "./render";
import { place, signIn } from "./sdk";

async function start(): Promise<void> {
  const root = document.getElementById("app")!;
  const notice = (text: string): void => {
    const node = document.getElementById("notice");
    if (node) node.textContent = text;
  };
  let view: TableView | null = null;
  try {
    const where = await place();
    const signed = await signIn(where);
    let strings: Record<string, string> = {};
    const connection = new Connection(
      { instance: where.instanceId, channel: where.channelId, token: signed.accessToken, locale: where.locale },
      (frame: ServerFrame) => {
        if (frame.type === "welcome") {
          strings = frame.strings;
          document.documentElement.lang = frame.language.replace("_", "-");
          view ??= new TableView(root, {
            move: (kind, card) => connection.send(card ? { type: "move", kind, card, token: token() } : { type: "move", kind, token: token() }),
            answer: (accept) => connection.send({ type: "answer", accept }),
            rematch: () => connection.send({ type: "rematch" }),
          });
          view.setStrings(strings);
          view.clearNotice();
        } else if (frame.type === "table") {
          latest = frame.table.mine?.token ?? 0;
          view?.show(frame.table);
        } else if (frame.type === "error") {
          view?.refused(frame.message);
          if (!view) notice(frame.message);
        }
      },
      (open) => {
        if (!open) view?.notice(strings.reconnecting ?? "Connection lost: reconnecting…");
      },
      (reason) => {
        const said = strings.auth_failed ?? "Discord did not let me sign you in.";
        if (view) view.notice(said);
        else notice(`${said} ${reason}`);
      },
    );
    let latest = 0;
    const token = (): number => latest;
    connection.open();
  } catch (error) {
    notice(error instanceof Error ? error.message : String(error));
  }
}

void start();
